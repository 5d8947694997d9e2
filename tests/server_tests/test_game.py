"""Whole games over real WebSockets against a real redis-server (needs the table engine)."""

from __future__ import annotations

import asyncio
import random

import pytest

from server import game
from server_tests.helpers import Player, check_against_log, read_log, setup_table

pytestmark = pytest.mark.timeout(120)

FAST = {"turn_seconds": 0, "claim_seconds": 0, "hand_pause_ms": 0, "bot_delay_ms": 0}


def playable() -> list[str]:
    rs = game.rulesets() if game.available() else []
    assert rs, "the table engine and at least one scoring rule set are required"
    return rs


async def play_all(players: list[Player], timeout: float = 15.0) -> None:
    try:
        await asyncio.wait_for(asyncio.gather(*(p.run(timeout=timeout) for p in players)), timeout)
    except (TimeoutError, Exception):
        for p in players:
            print(
                p.c.label, p.seq_seen, p.legal_at, p.acted_at, p.legal, len(p.errors), p.errors[:3]
            )
            print("   ", p.c.inbox[-2:])
        raise


@pytest.mark.parametrize("ruleset", game.rulesets())
async def test_four_clients_play_a_complete_game(server, redis_url, ruleset):
    assert ruleset in playable()
    clients, room = await setup_table(
        server.port, 4, ruleset, {**FAST, "length": "hands", "hands": 2}
    )
    r = await clients[0].request({"type": "start_game", "room": room})
    assert r["type"] == "ack", r
    players = [Player(c, random.Random(i)) for i, c in enumerate(clients)]
    await play_all(players)
    summaries = [p.game_over["summary"] for p in players]
    assert all(s == summaries[0] for s in summaries)
    assert sum(summaries[0]["scores"]) == 0
    assert summaries[0]["hands_played"] >= 2
    assert all(p.hand_results >= 2 for p in players), [p.hand_results for p in players]
    # every event stream is gap-free and identical in shape for all four seats
    start = r["seq"]
    seqs = [
        [m["seq"] for m in p.c.inbox if m["type"] == "events" and m["seq"] >= start]
        for p in players
    ]
    assert seqs[0] == list(range(start, seqs[0][-1] + 1))
    assert all(s == seqs[0] for s in seqs)
    log = await read_log(redis_url, room)
    assert sum(check_against_log(p.c, log) for p in players) > 0
    # the finished game's log can be downloaded and replays to the same final state
    r = await clients[0].request({"type": "get_log", "room": room})
    assert r["type"] == "game_log"
    import table

    st = table.new_game(table.GameConfig(ruleset, max_hands=2))
    for a in r["log"]["actions"]:
        st, _ = table.apply(st, table.Action.from_json(a))
    assert list(st.scores) == summaries[0]["scores"]
    for c in clients:
        await c.close()
