"""A graceful restart under play: the seats are not marked away by the stop, every client
resumes at the room's committed version, the room is loaded from Redis once for all of its
resuming seats, and a player who does not come back is marked away after
``restart_resume_seconds``."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from server.storage.store import LEAVERS
from server_tests.conftest import running_server
from server_tests.helpers import check_view_message, http_get, load_room, metric, setup_table
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(90)

FAST = {"turn_seconds": 0, "claim_seconds": 0, "hand_pause_ms": 0, "bot_delay_ms": 0}


async def test_graceful_restart_resumes_every_seat_at_the_committed_version(redis_url: str) -> None:
    from server.room import game

    ruleset = game.rulesets()[0]
    async with running_server(redis_url, restart_resume_seconds=3.0) as srv:
        clients, room = await setup_table(
            srv.port, 4, ruleset, {**FAST, "length": "hands", "hands": 1}
        )
        assert (await clients[0].request({"type": "start_game", "room": room}))["type"] == "ack"
    # the server stopped gracefully: no seat was marked away, the four players are recorded
    version, state = await load_room(redis_url, room)
    assert all(s.get("away") is None for s in state["seats"])
    r = aioredis.Redis.from_url(redis_url)
    try:
        rows = await r.zrange(LEAVERS, 0, -1)
        leavers = {m.decode() for m in rows if isinstance(m, bytes)}
    finally:
        await r.aclose()
    assert {c.player_id for c in clients} <= leavers

    async with running_server(redis_url) as srv:

        async def back(old: Client) -> tuple[Client, dict]:  # type: ignore[type-arg]
            c = await Client.connect(srv.port, old.label + "'", check_view_message)
            w = await c.hello(old.label, token=old.token)
            assert w["resumed"] is True and w["player_id"] == old.player_id
            snap = await c.wait_for(lambda m: m["type"] == "snapshot" and m["room"] == room)
            return c, snap

        # three of the four come back at once; the fourth does not
        got = await asyncio.gather(*(back(c) for c in clients[:3]))
        for seat, (_c, snap) in enumerate(got):
            assert snap["seq"] == version, "resumed at the committed version, no presence commit"
            assert snap["you"]["seat"] == seat
        _, _, body = await http_get(srv.port, "/metrics")
        assert metric(body, "mahjong_room_loads_total") == 1, (
            "one load of the room for its three seats"
        )
        # restart_resume_seconds after the stop, the missing player's seat is marked away
        first = got[0][0]
        ev = await first.wait_for(
            lambda m: m["type"] == "events" and (m.get("notice") or {}).get("type") == "seat_away",
            timeout=15,
        )
        assert ev["notice"]["seat"] == 3
        assert ev["seq"] == version + 1
        for c, _ in got:
            await c.close()
