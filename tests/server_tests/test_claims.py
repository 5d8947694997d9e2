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
    multi = []
    for attempt in range(3):
        clients, room = await setup_table(
            server.port, 4, rs, {**FAST, "length": "hands", "hands": 2}, label=f"g{attempt}_"
        )
        r = await clients[0].request({"type": "start_game", "room": room})
        assert r["type"] == "ack"
        # every seat claims whenever it can: the three answers to a discard race each other
        players = [
            Player(c, random.Random(100 * attempt + i), claim_rate=1.0)
            for i, c in enumerate(clients)
        ]
        await asyncio.wait_for(asyncio.gather(*(p.run(timeout=60) for p in players)), 90)
        log = await read_log(redis_url, room)
        actions = [a for v in sorted(log) for a in log[v].get("actions") or []]
        st = table.new_game(table.GameConfig(rs, max_hands=2))
        window: list[table.Action] = []
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
                claims = [w for w in window if w.type.value in ("win", "pung", "kong", "chow")]
                if len(claims) >= 2:
                    multi.append((start, window, st))
                start = None
        for c in clients:
            await c.close()
        if any(len([w for w in win if w.type.value != "pass"]) >= 3 for _, win, _ in multi):
            break
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
    print(
        f"{len(multi)} multi-claim windows; largest "
        f"{max(len([w for w in win if w.type.value != 'pass']) for _, win, _ in multi)} claims"
    )
