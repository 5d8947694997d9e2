"""Simultaneous claims: the priority rules decide, whatever order the answers arrive in."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from pathlib import Path

import pytest

from server.room import game
from server_tests.helpers import Player, inject_game, read_log, setup_table

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


DATA = Path(__file__).resolve().parent / "data" / "three_claims_mcr.json"


@pytest.mark.parametrize("order", [(0, 1, 3), (3, 1, 0), (1, 3, 0)])
async def test_three_claims_on_one_discard(server, redis_url, order):
    """Seat 2 discards; seat 3 chows, seat 0 pungs and seat 1 wins, all at the same moment
    over three connections: the win takes it, whatever the arrival order."""
    import table

    doc = json.loads(DATA.read_text())
    if doc["ruleset"] not in game.rulesets():
        pytest.fail(f"rule set {doc['ruleset']} not playable")
    st = table.new_game(table.GameConfig(doc["ruleset"], max_hands=doc["max_hands"]))
    for a in doc["actions"]:
        st, _ = table.apply(st, table.Action.from_json(a))
    clients, room = await setup_table(
        server.port, 4, doc["ruleset"], {**FAST, "length": "hands", "hands": 1}
    )
    assert (await clients[0].request({"type": "start_game", "room": room}))["type"] == "ack"
    v = await inject_game(redis_url, room, st.to_json())
    snaps = []
    for c in clients:
        c.drain()
        snaps.append(await c.request({"type": "resync", "room": room, "since": 0}))
    assert all(s["seq"] >= v for s in snaps)
    claims = {}
    for seat in order:
        kind = doc["claims"][str(seat)][0]
        claims[seat] = next(a for a in snaps[seat]["legal"] if a["type"] == kind)
    # the three answers leave at once (sent before any reply is read)
    rids = await asyncio.gather(
        *(
            clients[seat].send({"type": "action", "room": room, "seq": 1, "action": claims[seat]})
            for seat in order
        )
    )
    replies = [
        await clients[seat].wait_for(lambda m, r=rid: m.get("re") == r)
        for seat, rid in zip(order, rids, strict=True)
    ]
    assert all(r["type"] == "ack" for r in replies), replies
    won = await clients[2].wait_for(
        lambda m: m["type"] == "events" and any(e["type"] == "hand_won" for e in m["events"])
    )
    ev = next(e for e in won["events"] if e["type"] == "hand_won")
    assert [w["seat"] for w in ev["winners"]] == [1] and ev["discarder"] == 2
    assert ev["tile"] == doc["discard"]
    assert not any(e["type"] == "claimed" for e in won["events"])
    # the same outcome as the engine applying the three answers in any order
    s = st
    for seat in (3, 0, 1):
        s, _ = table.apply(s, table.Action.from_json({**claims[seat], "seq": s.seq}))
    import redis.asyncio as aioredis

    from server.storage.store import Store

    store = Store(aioredis.Redis.from_url(redis_url))
    try:
        _, state = await store.load(room)
    finally:
        await store.close()
    assert state["game"]["scores"] == list(s.scores)
    assert state["game"]["ledger"] == s.to_json()["ledger"]
    for c in clients:
        await c.close()
