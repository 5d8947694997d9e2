"""Timers in Redis: turn timeouts, and two processes firing the same deadlines."""

from __future__ import annotations

import pytest

from server.room import game
from server_tests.conftest import running_server
from server_tests.helpers import FAST_ONE_HAND, setup_table
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
    assert 1000 <= ev["deadline"] - server.clock.now_ms() <= 3500
    t0 = server.clock.monotonic()
    await server.advance(3.0)  # the turn's time (turn_seconds 3) runs out
    out = await c.wait_for(
        lambda m: m["type"] == "events" and any(e["type"] == "timeout" for e in m["events"]), 10
    )
    assert 2.5 <= server.clock.monotonic() - t0 <= 6
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


async def test_lost_timer_index_is_rebuilt_at_startup(redis_url, redis_proc):
    import redis as sync_redis

    assert game.available() and game.rulesets()
    opts = dict(FAST_ONE_HAND)
    async with running_server(redis_url) as a:
        clients, room = await setup_table(a.port, 1, game.rulesets()[0], opts)
        c = clients[0]
        w = await Client.connect(a.port, "watcher")
        await w.hello("watcher")
        code = next(m for m in c.inbox if m["type"] == "snapshot")["lobby"]["code"]
        await w.request({"type": "join_room", "code": code})
        assert (await c.request({"type": "start_game", "room": room}))["type"] == "ack"
        # the human (the dealer, to act first) drops before the process stops: the seat goes
        # away (with a deadline), and after the grace period a bot must take over (a graceful
        # stop itself no longer marks seats away: see test_restart_resume)
        await c.close()
        await w.wait_for(
            lambda m: m["type"] == "events" and (m.get("notice") or {}).get("type") == "seat_away"
        )
    r = sync_redis.Redis(port=redis_proc.port)
    # as if the process had crashed between a commit and its index update:
    r.delete("mj:timers")
    before = int(r.hget(f"{{room:{room}}}:state", "version"))
    async with running_server(redis_url) as b:
        w2 = await Client.connect(b.port, "watcher2")
        await w2.hello("watcher", token=w.token)
        over = await w2.wait_for(
            lambda m: m["type"] == "events" and (m.get("notice") or {}).get("type") == "game_over",
            30,
        )
        assert over["seq"] > before
        notices = [m.get("notice") for m in w2.inbox if m["type"] == "events"]
        assert {"type": "bot_took_over", "seat": 0} in notices
        await w2.close()
