"""Simultaneous claims: the priority rules decide, whatever order the answers arrive in."""

from __future__ import annotations

import asyncio
import itertools
import random

import pytest

from server import game
from server_tests.helpers import Player, read_log, setup_table

pytestmark = pytest.mark.timeout(120)

FAST = {"turn_seconds": 0, "claim_seconds": 0, "hand_pause_ms": 0, "bot_delay_ms": 0}


async def test_simultaneous_claims_resolve_deterministically(server, redis_url):
    import table

    assert game.available() and game.rulesets()
    rs = game.rulesets()[0]
    multi: list = []
    threes = 0
    for attempt in range(4):
        # four tables at once; every seat claims whenever it can, so the three answers to a
        # discard race each other over three connections
        tables = [
            await setup_table(
                server.port, 4, rs, {**FAST, "length": "hands", "hands": 1}, label=f"g{attempt}{k}_"
            )
            for k in range(4)
        ]
        players = []
        for k, (clients, room) in enumerate(tables):
            r = await clients[0].request({"type": "start_game", "room": room})
            assert r["type"] == "ack"
            players += [
                Player(c, random.Random(1000 * attempt + 10 * k + i), claim_rate=1.0)
                for i, c in enumerate(clients)
            ]
        await asyncio.wait_for(asyncio.gather(*(p.run(timeout=90) for p in players)), 100)
        for clients, room in tables:
            log = await read_log(redis_url, room)
            actions = [a for v in sorted(log) for a in log[v].get("actions") or []]
            st = table.new_game(table.GameConfig(rs, max_hands=1))
            window: list = []
            start = None
            for raw in actions:
                a = table.Action.from_json(raw)
                in_window = st.phase in (table.Phase.CLAIM, table.Phase.ROB)
                if in_window and start is None:
                    start, window = st, []
                if in_window:
                    window.append(a)
                st, _ = table.apply(st, a)
                if start is not None and st.phase not in (table.Phase.CLAIM, table.Phase.ROB):
                    n_claims = len([w for w in window if w.type.value != "pass"])
                    if n_claims >= 2:
                        multi.append((start, window, st))
                    threes += n_claims >= 3
                    start = None
            for c in clients:
                await c.close()
        if multi:
            break
    assert multi, "no discard was claimed by two seats at once"
    for s0, window, final in multi:
        outcomes = set()
        for perm in itertools.permutations(window):
            s = s0
            for a in perm:
                s, _ = table.apply(s, table.Action(a.type, a.seat, s.seq, a.tile))
            outcomes.add(repr(sorted(s.to_json().items(), key=lambda kv: kv[0])))
        assert len(outcomes) == 1, "the order of the answers changed the outcome"
        expected = final.to_json()
        s = s0
        for a in window:
            s, _ = table.apply(s, table.Action(a.type, a.seat, s.seq, a.tile))
        assert s.to_json() == expected
    print(f"{len(multi)} windows with two or more claims, {threes} with three")
