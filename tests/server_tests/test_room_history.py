"""A room keeps the summary of its last finished game only (the archive keeps every game):
its state does not grow with each rematch (issue 34: the rooms of a soak grew for their
first ten games while they kept ten summaries)."""

from __future__ import annotations

import random

from server.flow.entropy import OS_SEEDS
from server.room import game_room, rooms
from server.room.options import validate_options

JSON = dict


def _bots_room() -> JSON:
    opts = validate_options(
        "zung-jung", {"length": "hands", "hands": 1, "hand_pause_ms": 0, "bot_delay_ms": 0}
    )
    s = rooms.new_room("r_h", "ABCDEF", "host", "Host", "zung-jung", opts, 0).state
    for seat in range(4):
        s = rooms.add_bot(s, "host", seat).state
    return s


def _play_to_the_end(s: JSON, now: int) -> tuple[JSON, int]:
    rng = random.Random(7)
    for _ in range(2000):
        if s["status"] == "finished":
            return s, now
        now += 1000
        change = game_room.tick(s, now, 0, 0, rng, max_steps=64)
        if change is not None:
            s = change.state
    raise AssertionError("the game did not end")


def test_a_room_keeps_the_last_games_summary_only():
    s, now = _bots_room(), 0
    ids = []
    for n in range(3):
        if n:
            s = game_room.rematch(s, "host").state
        s = game_room.start(s, "host", now, OS_SEEDS).state
        ids.append(s["game_id"])
        s, now = _play_to_the_end(s, now)
        assert [h["game_id"] for h in s["history"]] == [ids[-1]]
    assert len(set(ids)) == 3
