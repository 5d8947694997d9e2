"""The legal actions the server remembers per state (``server.room.game.legal``), including the
ones an answer that leaves a claim window open carries over to the next state
(``game._carry_legal``), are the engine's own for that state; the pending decisions read
from the JSON (``game.pending``, ``game.claim_open_in``) are the engine's ``table.decisions``; and the state JSON
``game.apply`` makes is the state's ``to_json()``."""

from __future__ import annotations

import random

import pytest

import table as t
from loadtest.selfplay import next_change, started_room
from server.room import facts, game, memos

RULESETS = ["zung-jung", "hk-tw16", "mcr"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_remembered_legal_actions_are_the_engines(ruleset: str) -> None:
    rng = random.Random(7)
    ch = started_room(ruleset, 0, hands=2, turn_seconds=0)[1]
    s = ch.state
    entry = facts.build_entry(ch, 0, 1000, 0)
    carried = 0
    for i in range(1, 600):
        if s["status"] != "playing":
            break
        ch, _ = next_change(s, entry, rng, i * 10)
        s = ch.state
        g = s["game"]
        parsed = t.GameState.from_json(g)
        # the state JSON game.apply made (shared with the state before, or copied from it
        # for an answer that leaves a window open) is the state's own, in its key order
        canonical = parsed.to_json()
        assert g == canonical and list(g) == list(canonical)
        if g["hand"] is not None:
            assert list(g["hand"]) == list(canonical["hand"])
        expect = {
            seat: ("turn" if d.kind is t.DecisionKind.TURN else "claim", d.id)
            for seat, d in t.decisions(parsed).items()
        }
        assert game.pending(g) == expect
        # the window's close asks claim_open_in before each answer: pending's answer
        for seat in range(4):
            for decision in {g["seq"], g["seq"] - 1}:
                want = expect.get(seat) == ("claim", decision)
                assert game.claim_open_in(parsed, seat, decision) is want
        for seat in range(4):
            known = memos.LEGAL.get(s["id"], g)
            if known is not None and seat in known:
                carried += 1
            assert game.legal(g, seat) == t.legal_actions_json(parsed, seat)
        entry = facts.build_entry(ch, i * 10, 1000, 0)
    assert carried > 0  # the states of open windows were checked
