"""End to end, over real WebSockets: an answer meant for a claim window that has closed is
refused (``illegal_action``, ``stale-seq``) even when the same seat is asked again at once
in the next window, and the next window's deadline is its own.

The table state is the pure engine's, just before a seat's pass closes a window and a 叮
seat's automatic discard opens the next (hk-tw16, found by a seeded game of the engine's
random player), put into a room of four humans through the server's own commit."""

from __future__ import annotations

import random

import pytest

import table
from server_tests.helpers import inject_game, setup_table

pytestmark = pytest.mark.timeout(60)

CLAIM_S = 10
OPTIONS = {
    "length": "hands",
    "hands": 1,
    "turn_seconds": 30,
    "claim_seconds": CLAIM_S,
    "hand_pause_ms": 0,
    "bot_delay_ms": 0,
    # a seat with no choice but "pass" is not asked: the server passes for it after a drawn
    # delay of at most this; long enough that it does not happen during the test
    "window_ms": 5000,
}


def _before_reopening(ruleset: str, seed: int) -> tuple[table.GameState, int]:
    """A state in which one seat is the last one asked in a claim window and its pass makes
    the next seat draw and discard automatically (after 叮), asking it again."""
    rng = random.Random(seed)
    player = table.RandomPlayer(rng, claim_rate=0.0, ting_rate=1.0)
    state = table.new_game(table.GameConfig(ruleset, max_hands=1))
    state, _ = table.apply(
        state, table.Action(table.ActionType.START_HAND, None, 0, seed=rng.randbytes(16))
    )
    while state.phase is not table.Phase.GAME_OVER:
        pending = table.decisions(state)
        seat = min(pending)
        action = player.choose(state, seat)
        assert action is not None
        after, _ = table.apply(state, action)
        if (
            len(pending) == 1
            and pending[seat].kind is table.DecisionKind.CLAIM
            and action.type is table.ActionType.PASS
            and seat in table.decisions(after)
            and table.decisions(after)[seat].kind is table.DecisionKind.CLAIM
        ):
            return state, seat
        state = after
    raise AssertionError("no reopening in this game")


async def test_a_pass_for_a_closed_window_is_refused(server, redis_url):
    st, seat = _before_reopening("hk-tw16", 1)
    clients, room = await setup_table(server.port, 4, "hk-tw16", OPTIONS, label="stale")
    assert (await clients[0].request({"type": "start_game", "room": room}))["type"] == "ack"
    await inject_game(redis_url, room, st.to_json())
    c = clients[seat]
    c.drain()
    snap = await c.request({"type": "resync", "room": room, "since": 0})
    assert snap["type"] == "snapshot"
    old = snap["game"]["seq"]
    assert old == st.seq
    # asked, or (only "pass" possible) answered by the server later: the answer is the same
    pass_ = {"type": "pass", "seq": old}
    assert snap["legal"] in ([], [{**pass_, "seat": seat}]) or any(
        a["type"] == "pass" and a["seq"] == old for a in snap["legal"]
    )
    await server.advance(0.3)  # the first window has been open a while when it is answered
    sent_at = server.clock.now_ms()
    ack = await c.request({"type": "action", "room": room, "seq": 1, "action": pass_})
    assert ack["type"] == "ack", ack
    # at once the next window: the seat is in it again, a new decision with a new seq; asked
    # with its whole claim time, or (no choice) not asked at all and without a deadline
    asked = await c.wait_for(
        lambda m: (
            m["type"] == "events"
            and any(e["type"] == "discard" and e.get("auto") for e in m["events"])
        )
    )
    state = await c.request({"type": "resync", "room": room, "since": 0})
    new = state["game"]["seq"]
    assert new != old and seat in state["game"]["hand"]["pending"]
    if asked.get("legal"):
        assert {a["seq"] for a in asked["legal"]} == {new}
        assert asked["deadline"] >= sent_at + CLAIM_S * 1000
    else:
        assert "deadline" not in asked
    # the same pass again (a retry, a second key press): refused, and nothing changes
    err = await c.request({"type": "action", "room": room, "seq": 2, "action": pass_})
    assert err["type"] == "error", err
    assert err["code"] == "illegal_action"
    assert err["detail"]["table_code"] == "stale-seq"
    again = await c.request({"type": "resync", "room": room, "since": 0})
    assert again["seq"] == state["seq"], "the refused answer committed nothing"
    assert [a["seq"] for a in again["legal"]] == [new] * len(again["legal"])
    assert again.get("deadline") == asked.get("deadline")
    # the new window is answered with its own seq
    ok = await c.request(
        {"type": "action", "room": room, "seq": 3, "action": {"type": "pass", "seq": new}}
    )
    assert ok["type"] == "ack", ok
    for x in clients:
        await x.close()
