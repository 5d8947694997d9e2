"""``loadtest.selfplay.next_step``: a room played the way the server takes answers to claim
windows since held answers (``game_room.answer`` holds them, one commit closes the window),
as ``benchmarks/bench_hotpath.py`` plays it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from loadtest.selfplay import next_step, started_room
from server.process.config import Config
from server.room import facts, game_room

JSON = dict[str, Any]


@pytest.mark.parametrize("ruleset", ["zung-jung", "hk-tw16"])
def test_held_answers_close_each_window_in_one_commit_and_the_game_ends(ruleset: str) -> None:
    cfg = Config()
    grace, bot_delay = int(cfg.grace_seconds * 1000), cfg.bot_delay_ms
    rng = random.Random(5)

    def answer(s: JSON, player: str, a: JSON, now: int, answers: game_room.Answers) -> Any:
        return game_room.answer(s, player, a, now, answers, grace, bot_delay)

    def tick(s: JSON, now: int, answers: game_room.Answers) -> Any:
        return game_room.tick(s, now + 10**7, grace, bot_delay, rng, answers=answers)

    _, ch = started_room(ruleset, 0, hands=2, turn_seconds=0)
    s, entry = ch.state, facts.build_entry(ch, 0, grace, bot_delay)
    answers: game_room.Answers = {}
    held = closes = 0
    for step in range(20_000):
        if s["status"] != "playing":
            break
        now = 10 * step
        out, _ = next_step(s, entry, answers, rng, now, answer, tick)
        if isinstance(out, game_room.Held):
            # held: nothing committed, the state is the one the answer was checked against
            assert out.seat not in game_room.held_answers(s, answers)
            assert out.record["a"]["seat"] == out.seat
            answers[out.seat] = out.record
            held += 1
            continue
        window = game_room.window_key(s)
        if window is not None:
            # a commit while a window is open closes it, applying every answer held for it
            assert game_room.window_key(out.state) != window
            acted = [a.get("seat") for a in out.actions]
            assert set(game_room.held_answers(s, answers)) <= set(acted)
            assert len(acted) == len(set(acted))  # each seat answers once
            closes += 1
        s, entry = out.state, facts.build_entry(out, now, grace, bot_delay)
        if game_room.window_key(s) is None:
            answers = {}
    assert s["status"] == "finished"
    assert held > 10 and closes > 10
