"""Timers in Redis: turn timeouts, and two processes firing the same deadlines."""

from __future__ import annotations

import time

import pytest

from server import game
from server_tests.conftest import running_server
from server_tests.helpers import setup_table
from server_tests.test_bad_input import _check_consistent
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(60)


async def test_turn_timeout_discards_for_the_seat(server, redis_url):
    assert game.available() and game.rulesets()
    clients, room = await setup_table(
        server.port,
        1,
        game.rulesets()[0],
        {
            "turn_seconds": 3,
            "claim_seconds": 2,
            "hand_pause_ms": 0,
            "bot_delay_ms": 0,
            "length": "hands",
            "hands": 1,
        },
    )
    c = clients[0]
    r = await c.request({"type": "start_game", "room": room})
    assert r["type"] == "ack"
    ev = await c.wait_for(lambda m: m["type"] == "events" and m.get("legal"))
    assert ev["deadline"] is not None
    assert 2000 <= ev["deadline"] - int(time.time() * 1000) <= 3500
    t0 = time.monotonic()
    out = await c.wait_for(
        lambda m: m["type"] == "events" and any(e["type"] == "timeout" for e in m["events"]), 10
    )
    assert 2.5 <= time.monotonic() - t0 <= 6
    types = [e["type"] for e in out["events"]]
    assert types.index("timeout") < types.index("discard")
    disc = next(e for e in out["events"] if e["type"] == "discard")
    assert disc["seat"] == 0 and disc["auto"] is True
    await c.close()


async def test_two_processes_fire_the_same_timers_harmlessly(redis_url):
    assert game.available() and game.rulesets()
    async with running_server(redis_url) as a, running_server(redis_url) as b:
        clients, room = await setup_table(
            a.port,
            1,
            game.rulesets()[0],
            {
                "turn_seconds": 0,
                "claim_seconds": 0,
                "hand_pause_ms": 0,
                "bot_delay_ms": 0,
                "length": "hands",
                "hands": 2,
            },
        )
        c = clients[0]
        # a spectator on the other process watches the room
        w = await Client.connect(b.port, "watcher")
        await w.hello("watcher")
        code = next(m for m in c.inbox if m["type"] == "snapshot")["lobby"]["code"]
        await w.request({"type": "join_room", "code": code})
        assert (await c.request({"type": "start_game", "room": room}))["type"] == "ack"
        # the only human leaves: all four seats are now played by bots, driven by the timers
        # of both processes racing for the same deadlines
        assert (await c.request({"type": "leave_room", "room": room}))["type"] == "left"
        over = await w.wait_for(
            lambda m: m["type"] == "events" and (m.get("notice") or {}).get("type") == "game_over",
            45,
        )
        assert over["lobby"]["status"] == "finished"
        await _check_consistent(redis_url, room)
        seqs = [m["seq"] for m in w.inbox if m["type"] == "events"]
        assert seqs == list(range(seqs[0], seqs[-1] + 1))
        await w.close()
        await c.close()
