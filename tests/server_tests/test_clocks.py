"""The table's public clocks (``clocks`` in every ``events`` frame and ``snapshot`` of a
running game, docs/protocol.md "Turn clocks"): the seat in turn's deadline and an away
seat's grace, never a claim window's — over the log entries of played games."""

from __future__ import annotations

import copy
import random

import pytest

from loadtest.selfplay import next_change, started_room
from server.app import App
from server.process.config import Config
from server.room import commands, facts
from server.room.stored import older

GRACE_MS = 60_000


@pytest.mark.parametrize("ruleset", ["zung-jung", "hk-tw16"])
def test_clocks_show_turns_and_never_a_claim_window(ruleset: str) -> None:
    app = App(Config(), None)  # type: ignore[arg-type]  # no store: nothing is committed
    _, ch = started_room(ruleset, 0, hands=1, turn_seconds=30, claim_seconds=10)
    entry = commands.outcome(None, ch, 0, app.commits.timing).entry
    s = ch.state
    rng = random.Random(ruleset)
    now = 0
    turns = windows = 0
    while s["status"] == "playing":
        kinds = older(s)["pending_kinds"]
        clocks = entry["clocks"]
        assert all(c["kind"] == "turn" for c in clocks)  # nobody is away
        if "claim" in kinds.values():
            windows += 1
            assert clocks == [], (kinds, clocks)
        for k, kind in kinds.items():
            if kind == "turn":
                turns += 1
                since = older(s)["pending_since"][k]
                assert clocks == [{"seat": int(k), "kind": "turn", "at": since + 30_000}]
        now += 10
        ch, _ = next_change(s, entry, rng, now)
        entry = commands.outcome(None, ch, now, app.commits.timing).entry
        s = ch.state
    assert turns and windows
    assert "clocks" not in entry or entry.get("playing")


def test_an_away_seat_shows_its_grace_until_a_bot_plays_it() -> None:
    _, ch = started_room("zung-jung", 0, hands=1, turn_seconds=30)
    s = ch.state
    s["seats"][2]["away"] = 5_000
    got = facts.public_clocks(s, facts.room_deadlines(s, GRACE_MS, 0))
    assert {"seat": 2, "kind": "grace", "at": 5_000 + GRACE_MS} in got
    s = copy.deepcopy(s)  # (the deadlines of a committed state are cached: a new state)
    s["seats"][2]["auto"] = True  # the bot took the seat: no grace any more
    got = facts.public_clocks(s, facts.room_deadlines(s, GRACE_MS, 0))
    assert all(c["kind"] != "grace" for c in got)
