"""Host controls in the room logic (server/room/host.py), with fixed wall seeds and an injected
clock: only the host may use them (anyone else: ``not_host``, nothing changes); a kicked
member is gone for the room's life; a paused game does nothing by itself, refuses actions,
and on resume every decision keeps the time it had left."""

from __future__ import annotations

import copy
import hashlib
import random

import pytest

from protocol.codes import ErrorCode
from server.flow.entropy import new_game_id
from server.room import facts, game, game_room, host, rooms, schedule
from server.room.game_room import Seeds
from server.room.lobby import public_lobby
from server.room.options import validate_options
from server.room.rooms import RoomError
from server.room.stored import older

GRACE_MS = 60_000
BOT_DELAY_MS = 500
TURN_S = 20
JSON = dict


def _lobby() -> JSON:
    """p0 (host) and p1 seated, p2 a spectator, a bot in seat 3."""
    opts = validate_options(
        "mcr",
        {"length": "hands", "hands": 1, "hand_pause_ms": 0, "turn_seconds": TURN_S},
    )
    s = rooms.new_room("r_1", "ABCDEF", "p0", "P0", "mcr", opts, 0).state
    for p in ("p1", "p2"):
        s = rooms.join(s, p, p.upper()).state
    s = rooms.sit(s, "p0", 0).state
    s = rooms.sit(s, "p1", 1).state
    return rooms.add_bot(s, "p0", 3).state


def _game(humans: int = 4) -> JSON:
    """A started game: p0..p{humans-1} seated, bots in the other seats."""
    opts = validate_options(
        "mcr",
        {
            "length": "hands",
            "hands": 1,
            "hand_pause_ms": 0,
            "turn_seconds": TURN_S,
            "claim_seconds": 10,
        },
    )
    s = rooms.new_room("r_1", "ABCDEF", "p0", "P0", "mcr", opts, 0).state
    for i in range(4):
        if i < humans:
            p = f"p{i}"
            if i:
                s = rooms.join(s, p, p.upper()).state
            s = rooms.sit(s, p, i).state
            s = rooms.ready(s, p, True).state
        else:
            s = rooms.add_bot(s, "p0", i).state
    n = iter(range(1, 100))
    return game_room.start(
        s,
        "p0",
        1000,
        Seeds(lambda: hashlib.sha256(f"7:{next(n)}".encode()).hexdigest(), new_game_id),
    ).state


def _refused(fn, code: ErrorCode, state: JSON) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(RoomError) as exc:
        fn(state)
    assert exc.value.code == code, exc.value.message
    assert state == before


def test_only_the_host_may_use_the_host_controls():
    lobby, playing = _lobby(), _game()
    for state, fn in (
        (lobby, lambda s: host.swap_seats(s, "p1", 0, 1)),
        (lobby, lambda s: host.kick(s, "p1", "p2")),
        (lobby, lambda s: host.make_host(s, "p1", "p1")),
        (playing, lambda s: host.pause_game(s, "p1", 5)),
        (playing, lambda s: host.resume_game(s, "p1", 5)),
    ):
        _refused(fn, ErrorCode.NOT_HOST, state)


def test_swap_seats_swaps_players_bots_and_free_seats():
    s = _lobby()
    s = host.swap_seats(s, "p0", 0, 1).state  # human / human
    assert [x and x["player"] for x in s["seats"][:2]] == ["p1", "p0"]
    s = host.swap_seats(s, "p0", 1, 3).state  # human / bot: the bot takes its seat's name
    assert s["seats"][1]["bot"] and s["seats"][1]["name"] == "Bot 2"
    assert s["seats"][3]["player"] == "p0"
    s = host.swap_seats(s, "p0", 1, 2).state  # bot / free seat
    assert s["seats"][1] is None and s["seats"][2]["name"] == "Bot 3"
    assert public_lobby(s)["seats"][3]["player"] == "p0"
    _refused(lambda x: host.swap_seats(x, "p0", 2, 2), ErrorCode.BAD_SEAT, s)
    _refused(lambda x: host.swap_seats(x, "p0", 1, 1), ErrorCode.BAD_SEAT, s)
    _refused(lambda x: host.swap_seats(x, "p0", 0, 3), ErrorCode.GAME_IN_PROGRESS, _game())


def test_a_kicked_spectator_or_lobby_player_is_gone_and_cannot_come_back():
    s = _lobby()
    ch = host.kick(s, "p0", "p1")
    assert ch.notice == {"type": "kicked", "player": "p1", "name": "P1", "by": "p0"}
    s = ch.state
    assert "p1" not in s["members"] and s["seats"][1] is None and s["kicked"] == ["p1"]
    _refused(lambda x: rooms.join(x, "p1", "P1", 6), ErrorCode.KICKED, s)
    _refused(lambda x: host.kick(x, "p0", "p0"), ErrorCode.NO_SUCH_MEMBER, s)
    _refused(lambda x: host.kick(x, "p0", "p1"), ErrorCode.NO_SUCH_MEMBER, s)
    s = host.kick(s, "p0", "p2").state
    assert s["kicked"] == ["p1", "p2"]
    assert rooms.join(s, "p9", "P9", 8).state["members"]["p9"] == "P9"


def test_a_kicked_player_in_a_game_leaves_their_seat_to_a_bot_that_plays_it():
    s = _game(humans=2)
    s = host.kick(s, "p0", "p1").state
    seat = s["seats"][1]
    assert seat["bot"] and seat["auto"] and seat["player"] is None and seat["name"] == "Bot 2"
    assert "p1" not in s["members"] and rooms.seat_of(s, "p1") is None
    # the game goes on: the room's own deadlines play the kicked seat (p0 times out)
    rng = random.Random(1)
    now = 2000
    acted: set[int] = set()
    for _ in range(400):
        if s["status"] != "playing" or 1 in acted:
            break
        now = max(now, schedule.next_deadline(s, GRACE_MS, BOT_DELAY_MS) or now)
        ch = game_room.tick(s, now, GRACE_MS, BOT_DELAY_MS, rng)
        assert ch is not None
        acted |= {a.get("seat") for a in ch.actions}
        s = ch.state
    assert 1 in acted


def test_make_host_hands_the_role_over():
    s = _lobby()
    ch = host.make_host(s, "p0", "p2")
    assert ch.state["host"] == "p2" and ch.notice["type"] == "host_changed"
    assert public_lobby(ch.state)["host"] == "p2"
    s = ch.state
    _refused(lambda x: host.make_host(x, "p0", "p1"), ErrorCode.NOT_HOST, s)
    _refused(lambda x: host.make_host(x, "p2", "p2"), ErrorCode.NO_SUCH_MEMBER, s)
    _refused(lambda x: host.make_host(x, "p2", "p_nobody"), ErrorCode.NO_SUCH_MEMBER, s)
    assert rooms.add_bot(s, "p2", 2).state["seats"][2]["bot"]


def _turn_seat(s: JSON) -> int:
    return next(int(k) for k, kind in older(s)["pending_kinds"].items() if kind == "turn")


def test_a_paused_game_does_nothing_refuses_actions_and_keeps_the_time_left():
    s = _game()
    seat = _turn_seat(s)
    due = schedule.next_deadline(s, GRACE_MS, BOT_DELAY_MS)
    assert due == 1000 + TURN_S * 1000
    # 5 s into the turn the host pauses
    ch = host.pause_game(s, "p0", 6000)
    assert ch.notice == {"type": "paused", "player": "p0", "name": "P0"}
    s = ch.state
    lobby = public_lobby(s)
    assert lobby["paused"] == {"player": "p0", "name": "P0", "since": 6000}
    # nothing is due, however long it lasts; nobody is shown a legal action or a deadline
    assert schedule.deadlines(s, GRACE_MS, BOT_DELAY_MS) == []
    assert game_room.tick(s, 10**9, GRACE_MS, BOT_DELAY_MS, random.Random(1)) is None
    assert facts.seat_legal(s, seat) == []
    assert facts.seat_deadline(s, seat, GRACE_MS, BOT_DELAY_MS) is None
    from server.room.rooms import Change

    entry = facts.build_entry(Change(s, "x", None), 7000, GRACE_MS, BOT_DELAY_MS)
    assert entry["legal"][str(seat)] == [] and entry["deadlines"] == {}
    # an action is refused and changes nothing
    legal = game.legal(s["game"], seat)
    action = {k: v for k, v in legal[0].items() if k != "seat"}
    _refused(lambda x: game_room.play(x, f"p{seat}", action, 7000), ErrorCode.PAUSED, s)
    _refused(lambda x: host.pause_game(x, "p0", 7000), ErrorCode.PAUSED, s)
    # a player who leaves and comes back does not restart the clocks of a held game
    s = rooms.leave(s, "p3", 8000).state
    s = rooms.join(s, "p3", "P3", 9000).state
    assert schedule.deadlines(s, GRACE_MS, BOT_DELAY_MS) == []
    # resumed 60 s later: 15 s of the turn are left
    ch = host.resume_game(s, "p0", 66_000)
    assert ch.notice == {"type": "resumed", "player": "p0", "name": "P0", "paused_ms": 60_000}
    s = ch.state
    assert public_lobby(s)["paused"] is None
    assert schedule.next_deadline(s, GRACE_MS, BOT_DELAY_MS) == 66_000 + 15_000
    assert facts.seat_deadline(s, seat, GRACE_MS, BOT_DELAY_MS) == 81_000
    assert game_room.tick(s, 80_999, GRACE_MS, BOT_DELAY_MS, random.Random(1)) is None
    timed_out = game_room.tick(s, 81_000, GRACE_MS, BOT_DELAY_MS, random.Random(1))
    assert timed_out is not None and timed_out.actions
    # and the seat may act again
    assert game_room.play(s, f"p{seat}", action, 70_000).actions
    _refused(lambda x: host.resume_game(x, "p0", 70_000), ErrorCode.NOT_PAUSED, s)


def test_pause_needs_a_game_and_resume_keeps_grace_periods_and_deals():
    _refused(lambda x: host.pause_game(x, "p0", 5), ErrorCode.GAME_NOT_STARTED, _lobby())
    s = _game()
    s = rooms.set_away(s, "p2", True, 2000).state  # p2 disconnected at 2 s: grace until 62 s
    s = host.pause_game(s, "p0", 3000).state
    s = host.resume_game(s, "p0", 13_000).state
    grace = [
        at for at, kind, seat in schedule.deadlines(s, GRACE_MS, BOT_DELAY_MS) if kind == "grace"
    ]
    assert grace == [72_000]
    # between hands: the next deal moves on by the pause too
    s2 = dict(s, next_hand_at=20_000)
    s2 = host.pause_game(s2, "p0", 15_000).state
    assert host.resume_game(s2, "p0", 25_000).state["next_hand_at"] == 30_000


def test_the_next_host_resumes_a_game_paused_by_a_host_who_left():
    s = host.pause_game(_game(), "p0", 2000).state
    s = rooms.leave(s, "p0", 3000).state
    assert s["host"] == "p1" and rooms.held(s)["player"] == "p0"
    assert public_lobby(s)["paused"]["name"] == "P0"
    assert rooms.held(host.resume_game(s, "p1", 4000).state) is None


def test_a_held_game_everyone_left_is_hosted_and_resumed_by_the_first_to_come_back():
    s = host.pause_game(_game(humans=2), "p0", 2000).state
    s = rooms.leave(s, "p0", 3000).state
    s = rooms.leave(s, "p1", 4000).state
    assert s["status"] == "playing" and not s["members"]
    s = rooms.join(s, "p0", "P0", 5000).state
    assert s["host"] == "p0" and rooms.held(s) is not None
    assert schedule.deadlines(s, GRACE_MS, BOT_DELAY_MS) == []  # still held
    s = host.resume_game(s, "p0", 6000).state
    assert schedule.deadlines(s, GRACE_MS, BOT_DELAY_MS)
