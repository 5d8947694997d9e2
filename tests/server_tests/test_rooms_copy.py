"""rooms.py copies only what an operation changes (structural sharing): no game operation
may change its input state or any earlier state, through a whole bot-played game."""

from __future__ import annotations

import copy
import random

from server.flow.entropy import OS_SEEDS
from server.room import game, game_room, rooms, schedule
from server.room.options import validate_options

RS = game.rulesets()[0]


def test_game_operations_never_mutate_earlier_states():
    opts = validate_options(
        RS,
        {"length": "hands", "hands": 1, "hand_pause_ms": 0, "turn_seconds": 3, "claim_seconds": 2},
    )
    state = rooms.new_room("r_1", "ABCDEF", "p_a", "A", RS, opts, 0).state
    history: list[tuple[dict, dict]] = []

    def step(change: rooms.Change | None) -> None:
        nonlocal state
        assert change is not None
        history.append((change.state, copy.deepcopy(change.state)))
        state = change.state

    step(rooms.sit(state, "p_a", 0))
    step(rooms.ready(state, "p_a", True))
    for seat in (1, 2, 3):
        step(rooms.add_bot(state, "p_a", seat))
    step(game_room.start(state, "p_a", 0, OS_SEEDS))
    rng = random.Random(7)
    now = 0
    for _ in range(2000):
        if state["status"] != "playing":
            break
        now += 1000
        if now == 5000:
            step(rooms.set_away(state, "p_a", True, now))  # the human's seat goes to a bot
            continue
        if now == 9000:
            step(rooms.set_away(state, "p_a", False, now))  # and comes back
            continue
        change = game_room.tick(state, now, 1000, 0, rng, max_steps=4)
        if change is not None:
            step(change)
    assert state["status"] == "finished"
    for kept, snapshot in history:
        assert kept == snapshot, "a later operation changed an earlier state"


def test_a_game_whose_humans_are_all_gone_pauses_and_resumes_with_fresh_clocks():
    opts = validate_options(RS, {"length": "hands", "hands": 1, "turn_seconds": 30})
    s = rooms.new_room("r_1", "ABCDEF", "p_a", "A", RS, opts, 0).state
    s = rooms.sit(s, "p_a", 0).state
    s = rooms.ready(s, "p_a", True).state
    for seat in (1, 2, 3):
        s = rooms.add_bot(s, "p_a", seat).state
    s = rooms.join(s, "p_b", "B").state  # a spectator
    s = game_room.start(s, "p_a", 0, OS_SEEDS).state
    gone = rooms.set_away(s, "p_b", True, 500)  # who disconnects
    assert gone is not None
    s = gone.state
    rng = random.Random(3)
    grace, delay = 5000, 100
    away = rooms.set_away(s, "p_a", True, 1000)
    assert away is not None
    s = away.state
    assert not rooms.paused(s), "within the grace period the game goes on"
    assert any(kind == "grace" for _, kind, _ in schedule.deadlines(s, grace, delay))
    t = 1000
    while not rooms.paused(s):  # bots play, the away seat times out, then grace ends
        t += 1000
        change = game_room.tick(s, t, grace, delay, rng)
        s = change.state if change is not None else s
        assert t <= 1000 + grace + 60_000
    assert s["seats"][0]["auto"] and t >= 1000 + grace
    assert schedule.deadlines(s, grace, delay) == []
    assert schedule.next_deadline(s, grace, delay) is None
    assert game_room.tick(s, t + 3_600_000, grace, delay, rng) is None, "a paused room does nothing"
    back = rooms.set_away(s, "p_a", False, t + 3_600_000)
    assert back is not None
    s = back.state
    assert not rooms.paused(s)
    ds = schedule.deadlines(s, grace, delay)
    assert ds and min(at for at, _, _ in ds) >= t + 3_600_000, "clocks restart on return"
    # a spectator connecting keeps the game going too
    s = rooms.set_away(s, "p_a", True, t + 3_600_000).state
    s = game_room.tick(s, t + 3_600_000 + grace, grace, delay, rng).state  # grace over: paused
    assert rooms.paused(s)
    watcher = rooms.set_away(s, "p_b", False, t + 3_700_000)
    assert watcher is not None and not rooms.paused(watcher.state)
    assert min(at for at, _, _ in schedule.deadlines(watcher.state, grace, delay)) >= t + 3_700_000
    # a player who leaves mid-game hands the seat to a bot at once: paused at once, and
    # joining again resumes the game with fresh clocks
    s = rooms.leave(s, "p_a", t + 3_600_001).state
    assert s["status"] == "playing" and rooms.paused(s)
    later = t + 7_200_000
    s = rooms.join(s, "p_a", "A", later).state
    assert not rooms.paused(s)
    assert min(at for at, _, _ in schedule.deadlines(s, grace, delay)) >= later
