"""A player who takes their seat back from a bot during a claim window in which their only
answer is pass is not asked (docs/protocol.md "Simultaneous claims"), whichever way they come
back: ``join_room`` after ``leave_room``, or a resume after the grace period.

Before (issue 34, item 8) the seat's snapshot held ``legal: [pass]`` and the claim timer's
deadline, and the window stayed open until that timer ran out: the "no choice" list of the
window was made while a bot played the seat, and nothing looked at it again.

The window is a known one (a seeded game of the engine, put into the room through the
server's own commit while the host holds the game paused); the bots' answers wait at most
``window_ms`` (2 s), the claim timer is 10 s: the window must close long before the timer."""

from __future__ import annotations

import random

import pytest

import table
from server_tests.helpers import check_view_message, inject_game
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(60)

RULESET = "hk-tw16"
CLAIM_S = 10
WINDOW_MS = 2000
OPTIONS = {
    "length": "hands",
    "hands": 1,
    "turn_seconds": 30,
    "claim_seconds": CLAIM_S,
    "hand_pause_ms": 0,
    "bot_delay_ms": 0,
    "window_ms": WINDOW_MS,
}


def _window_where_seat_0_can_only_pass() -> table.GameState:
    """The first claim window of a seeded bot game in which seat 0 is in the window and its
    only legal answer is pass."""
    for seed in range(50):
        rng = random.Random(seed)
        player = table.RandomPlayer(rng, claim_rate=0.0)
        state = table.new_game(table.GameConfig(RULESET, max_hands=1))
        state, _ = table.apply(
            state, table.Action(table.ActionType.START_HAND, None, 0, seed=rng.randbytes(16))
        )
        while state.phase is not table.Phase.GAME_OVER:
            pending = table.decisions(state)
            if state.phase is table.Phase.CLAIM and 0 in pending:
                legal = table.legal_actions(state, 0)
                if [a.type for a in legal] == [table.ActionType.PASS]:
                    return state
            action = player.choose(state, min(pending))
            assert action is not None
            state, _ = table.apply(state, action)
    raise AssertionError("no window in which seat 0 can only pass")


async def _ok(c: Client, msg: dict) -> dict:
    r = await c.request(msg)
    assert r["type"] == "ack", (msg, r)
    return r


async def _table(port: int) -> tuple[Client, Client, str, str]:
    """Carol hosts and watches; Alice sits at seat 0, bots at 1-3; the game starts."""
    carol = await Client.connect(port, "carol", check_view_message)
    await carol.hello("carol")
    room = (await _ok(carol, {"type": "create_room", "ruleset": RULESET, "options": OPTIONS}))[
        "room"
    ]
    code = (await carol.wait_for(lambda m: m["type"] == "snapshot"))["lobby"]["code"]
    alice = await Client.connect(port, "alice", check_view_message)
    await alice.hello("alice")
    await _ok(alice, {"type": "join_room", "code": code})
    await _ok(alice, {"type": "sit", "room": room, "seat": 0})
    await _ok(alice, {"type": "ready", "room": room, "ready": True})
    for seat in (1, 2, 3):
        await _ok(carol, {"type": "add_bot", "room": room, "seat": seat})
    await _ok(carol, {"type": "start_game", "room": room})
    return carol, alice, room, code


def _notice(kind: str):
    return lambda m: m["type"] == "events" and (m.get("notice") or {}).get("type") == kind


@pytest.mark.parametrize("way_back", ["join_room", "resume"])
async def test_a_seat_back_in_a_window_where_it_can_only_pass_is_not_asked(
    server, redis_url, way_back
):
    carol, alice, room, code = await _table(server.port)
    # a bot takes the seat over: at once after leave_room, after the grace period (1 s)
    # after a disconnect
    if way_back == "join_room":
        assert (await alice.request({"type": "leave_room", "room": room}))["type"] == "left"
    else:
        token = alice.token
        await alice.close()
    await carol.wait_for(_notice("bot_took_over" if way_back == "resume" else "left"), 15)
    # the window opens while the bot plays the seat (the game held still meanwhile)
    await _ok(carol, {"type": "pause_game", "room": room})
    opened = await inject_game(redis_url, room, _window_where_seat_0_can_only_pass().to_json())
    await _ok(carol, {"type": "resume_game", "room": room})
    carol.drain()
    # Alice comes back during the window
    if way_back == "join_room":
        await _ok(alice, {"type": "join_room", "code": code})
        snap = await alice.wait_for(lambda m: m["type"] == "snapshot" and m["seq"] > opened)
    else:
        alice = await Client.connect(server.port, "alice2", check_view_message)
        w = await alice.hello("alice", token=token)
        assert w["resumed"] is True
        snap = await alice.wait_for(lambda m: m["type"] == "snapshot")
    assert snap["you"]["seat"] == 0
    hand = snap["game"]["hand"]
    assert hand is not None and snap["game"]["phase"] == "claim", snap["game"]["phase"]
    assert not snap.get("legal"), f"asked with only pass: {snap.get('legal')}"
    assert "deadline" not in snap, snap.get("deadline")
    # the window closes when the bots' answers are due (at most window_ms after it opened
    # or the game resumed), not when the claim timer runs out, and nobody timed out
    await server.advance(WINDOW_MS / 1000)  # the bots' answers are due; the claim timer is not
    closed = await carol.wait_for(
        lambda m: m["type"] == "events" and m["seq"] > opened and bool(m["events"]),
        timeout=CLAIM_S - 3,
    )
    assert not [e for e in closed["events"] if e["type"] == "timeout"], closed["events"]
    await alice.close()
    await carol.close()
