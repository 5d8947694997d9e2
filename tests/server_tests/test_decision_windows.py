"""The room logic times and accepts answers per decision, as the engine names it.

A claim window that closes and reopens in one step (a 叮 seat's automatic discard after the
next draw) is a new decision for every seat asked in it, also for the seat whose answer (or
timeout) closed the first one: it gets the whole claim time again, and an answer meant for
the first window is refused as stale (``illegal_action``, ``stale-seq``), changing nothing.

Table-driven over every rule set with 叮 (the others with the ``ting`` house rule), on
``server.room.rooms`` with fixed wall seeds and an injected clock.
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Iterator

import pytest

import table
from protocol.codes import ErrorCode
from server.flow.entropy import new_game_id
from server.room import game_room, rooms, schedule
from server.room.game_room import Seeds
from server.room.options import validate_options
from server.room.stored import older
from server.room.windows import window_delay

CLAIM_S = 10
TURN_S = 20
GRACE_MS = 60_000
BOT_DELAY_MS = 500

CASES = [
    ("hk-tw16", {}, 1),
    ("tw16-tai", {}, 1),
    ("mcr", {"ting": True}, 1),
    ("zung-jung", {"ting": True}, 1),
    ("zung-jung-v3.3", {"ting": True}, 1),
]

JSON = dict


def _room(ruleset: str, house: JSON, seed: int) -> JSON:
    """Four human players, seated and ready, the game started with walls from ``seed``."""
    opts = validate_options(
        ruleset,
        {
            "length": "hands",
            "hands": 1,
            "hand_pause_ms": 0,
            "turn_seconds": TURN_S,
            "claim_seconds": CLAIM_S,
            "house_rules": house,
        },
    )
    s = rooms.new_room("r_1", "ABCDEF", "p0", "P0", ruleset, opts, 0).state
    for i in range(4):
        p = f"p{i}"
        if i:
            s = rooms.join(s, p, p.upper()).state
        s = rooms.sit(s, p, i).state
        s = rooms.ready(s, p, True).state
    walls = iter(range(1, 1000))

    def wall_seed() -> str:
        return hashlib.sha256(f"{seed}:{next(walls)}".encode()).hexdigest()

    return game_room.start(s, "p0", 1000, Seeds(wall_seed, new_game_id)).state


def _moves(ruleset: str, house: JSON, seed: int) -> Iterator[tuple[JSON, int, JSON, int]]:
    """(room state, seat, the seat's action, now) for every step of a seeded game in which
    every seat is a human answering at once with the engine's random player (which declares
    叮 whenever it can); the lowest pending seat acts first."""
    s = _room(ruleset, house, seed)
    player = table.RandomPlayer(random.Random(seed), claim_rate=0.0, ting_rate=1.0)
    now = 1000
    while s["status"] == "playing" and older(s)["pending_kinds"]:
        seat = int(min(older(s)["pending_kinds"]))
        a = player.choose(table.GameState.from_json(s["game"]), seat)
        assert a is not None
        now += 100
        action = {k: v for k, v in a.to_json().items() if k != "seat"}
        yield s, seat, action, now
        s = game_room.play(s, f"p{seat}", action, now).state


def _closing_answers(ruleset: str, house: JSON, seed: int) -> list[tuple[JSON, int, JSON, int]]:
    """The steps whose answer closes a claim window and reopens one with the same seat."""
    out = []
    for s, seat, action, now in _moves(ruleset, house, seed):
        if (
            older(s)["pending_kinds"].get(str(seat)) != "claim"
            or len(older(s)["pending_kinds"]) != 1
        ):
            continue
        after = game_room.play(s, f"p{seat}", action, now).state
        if older(after)["pending_kinds"].get(str(seat)) == "claim":
            out.append((s, seat, action, now))
    return out


def _deadline(state: JSON, seat: int) -> int:
    """When the server answers for ``seat`` in its open claim decision: when the window
    closes (all its answers at once: the latest of its seats' timeouts and automatic
    passes)."""
    [at] = [
        at
        for at, kind, i in schedule.deadlines(state, GRACE_MS, BOT_DELAY_MS)
        if i == seat and kind in ("timeout", "pass")
    ]
    return at


def _answer_delay(state: JSON, seat: int) -> int:
    """How long after it is asked the server answers for ``seat``: the window closes at the
    latest of every seat's timeout or automatic pass (a seat with no choice is not asked)."""
    out = 0
    for k, kind in older(state)["pending_kinds"].items():
        if kind != "claim":
            continue
        if k in older(state)["pending_auto"]:
            hi = schedule.window_hi(state, BOT_DELAY_MS)
            d = window_delay(state["window_seed"], older(state)["pending_ids"][k], int(k), hi)
        else:
            d = CLAIM_S * 1000
        out = max(out, d)
    return out


def _refused_as_stale(state: JSON, seat: int, seq: int, now: int) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(rooms.RoomError) as exc:
        game_room.play(state, f"p{seat}", {"type": "pass", "seq": seq}, now)
    assert exc.value.code is ErrorCode.ILLEGAL_ACTION
    assert exc.value.detail == {"table_code": "stale-seq"}
    assert state == before


@pytest.mark.parametrize(("ruleset", "house", "seed"), CASES)
def test_an_answer_that_reopens_the_window_starts_a_new_decision(ruleset, house, seed):
    found = _closing_answers(ruleset, house, seed)
    assert found, "the case must reach a window that closes and reopens in one answer"
    for s, seat, action, now in found:
        old_seq = s["game"]["seq"]
        assert action["seq"] == old_seq
        k = str(seat)
        asked_at = older(s)["pending_since"][k]
        assert asked_at < now
        after = game_room.play(s, f"p{seat}", action, now + 250).state
        new_seq = after["game"]["seq"]
        assert new_seq != old_seq
        # start time, deadline and id are the new window's
        assert older(after)["pending_since"][k] == now + 250
        assert _deadline(after, seat) == now + 250 + _answer_delay(after, seat)
        assert older(after)["pending_ids"][k] == new_seq
        # the same answer again (a retry, a second key press) is not an answer to the new one
        _refused_as_stale(after, seat, old_seq, now + 300)
        # the new window is answered with its own seq
        game_room.play(after, f"p{seat}", {"type": "pass", "seq": new_seq}, now + 300)


@pytest.mark.parametrize(("ruleset", "house", "seed"), CASES)
def test_a_timeout_that_reopens_the_window_starts_a_new_decision(ruleset, house, seed):
    """The server's pass for a seat that ran out of time closes the window; in the next one
    that seat has its whole claim time again (it is not timed out a second time at once)."""
    found = _closing_answers(ruleset, house, seed)
    assert found
    for s, seat, _action, _now in found:
        k = str(seat)
        old_seq = s["game"]["seq"]
        due = _deadline(s, seat)
        change = game_room.tick(s, due, GRACE_MS, BOT_DELAY_MS, random.Random(0))
        assert change is not None
        after = change.state
        answers = [a for a in change.actions if a["seat"] == seat]
        assert len(answers) == 1, "one answer by the server, for the first window only"
        assert answers[0]["type"] in ("timeout", "pass")
        assert older(after)["pending_kinds"].get(k) == "claim"
        assert older(after)["pending_ids"][k] == after["game"]["seq"] != old_seq
        assert older(after)["pending_since"][k] == due
        assert _deadline(after, seat) == due + _answer_delay(after, seat)
        # the player's own pass for the first window, arriving just after the timeout
        _refused_as_stale(after, seat, old_seq, due + 5)


@pytest.mark.parametrize(("ruleset", "house", "seed"), CASES[:2])
def test_a_decision_still_open_keeps_its_clock(ruleset, house, seed):
    """Other seats answering one by one do not restart a seat's claim time."""
    kept = 0
    for s, seat, action, now in _moves(ruleset, house, seed):
        if (
            older(s)["pending_kinds"].get(str(seat)) != "claim"
            or len(older(s)["pending_kinds"]) < 2
        ):
            continue
        after = game_room.play(s, f"p{seat}", action, now).state
        for k in older(after)["pending_kinds"]:
            assert older(after)["pending_since"][k] == older(s)["pending_since"][k]
            assert older(after)["pending_ids"][k] == older(s)["pending_ids"][k] == s["game"]["seq"]
            kept += 1
    assert kept > 20


def test_an_action_without_its_seq_is_a_bad_message():
    s, seat, action, now = next(_moves("hk-tw16", {}, 1))
    before = copy.deepcopy(s)
    for bad in ({"type": action["type"], "tile": action.get("tile")}, {**action, "seq": "3"}):
        with pytest.raises(rooms.RoomError) as exc:
            game_room.play(s, f"p{seat}", bad, now)
        assert exc.value.code is ErrorCode.BAD_MESSAGE
        assert "seq" in exc.value.message
    assert s == before
