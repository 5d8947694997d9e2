"""Presence across processes (docs/server.md "Presence"): a player's seat is marked away
only when no live process holds a connection of the player. Two servers on one real
Redis, real WebSocket clients; the servers' /metrics count each presence decision taken
after a player's last local connection closed (``mahjong_presence_checks_total``), which
is what the tests wait for before reading the seat from Redis."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis

from server.process.clock import now_ms
from server.storage.store import PROCS, Store, k_online
from server_tests.conftest import running_server
from server_tests.helpers import http_get, load_room, metric, until
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(60)


async def _seated(port: int, name: str = "alice") -> tuple[Client, str]:
    """A player who created a room and sits in seat 0 of its lobby."""
    c = await Client.connect(port, name)
    await c.hello(name)
    ack = await c.request({"type": "create_room", "ruleset": "mcr"})
    assert ack["type"] == "ack", ack
    room = ack["room"]
    await c.wait_for(lambda m: m["type"] == "snapshot")
    assert (await c.request({"type": "sit", "room": room, "seat": 0}))["type"] == "ack"
    return c, room


async def _checks(port: int) -> float:
    _, _, body = await http_get(port, "/metrics")
    return metric(body, "mahjong_presence_checks_total")


async def _away(redis_url: str, room: str) -> bool:
    _, state = await load_room(redis_url, room)
    return state["seats"][0].get("away") is not None


async def test_a_seat_stays_back_while_another_process_holds_a_connection(
    redis_url: str,
) -> None:
    """alice plays on process a and opens a second connection on process b (two tabs
    behind a load balancer): closing the one on a leaves her seat back (b holds one);
    closing the one on b too marks it away."""
    r = aioredis.Redis.from_url(redis_url)
    async with running_server(redis_url) as a, running_server(redis_url) as b:
        on_a, room = await _seated(a.port)
        on_b = await Client.connect(b.port, "alice'")
        w = await on_b.hello("alice", token=on_a.token)
        assert w["resumed"] is True and w["rooms"] == [room]
        await on_b.wait_for(lambda m: m["type"] == "snapshot" and m["room"] == room)
        pid = on_a.player_id
        assert pid is not None
        assert len(await r.smembers(k_online(pid))) == 2  # both processes hold her
        assert await r.ttl(k_online(pid)) > 0  # lives as long as the player (--player-ttl)

        before = await _checks(a.port)
        await on_a.close()

        async def a_decided() -> bool:
            return await _checks(a.port) > before

        await until(a_decided, "process a decided alice's presence")
        assert not await _away(redis_url, room)  # b still holds a connection of hers
        assert len(await r.smembers(k_online(pid))) == 1

        await on_b.close()

        async def away() -> bool:
            return await _away(redis_url, room)

        await until(away, "the seat marked away once her last connection closed")
        assert await r.smembers(k_online(pid)) == set()
    await r.aclose()


async def test_a_process_that_is_not_live_does_not_keep_a_seat_back(redis_url: str) -> None:
    """A crashed process never noted that its connection of alice closed: it is in her
    online set but not live (not in mj:procs), so her last real connection closing marks
    the seat away, and the dead entry is cleared on the way."""
    r = aioredis.Redis.from_url(redis_url)
    async with running_server(redis_url) as a:
        c, room = await _seated(a.port)
        assert c.player_id is not None
        key = k_online(c.player_id)
        await r.sadd(key, "crashed-host:1:deadbeef")
        await c.close()

        async def away() -> bool:
            return await _away(redis_url, room)

        await until(away, "the seat marked away")
        assert await r.smembers(key) == set()
    await r.aclose()


@pytest.mark.parametrize(
    ("members", "live", "expected", "left"),
    [
        ([], [], False, set()),
        (["me"], ["me"], False, {"me"}),  # only the caller itself: not elsewhere
        (["me", "other"], ["me", "other"], True, {"me", "other"}),
        (["me", "gone"], ["me"], False, {"me"}),  # not live: removed on the way
        (["other", "gone"], ["other"], True, {"other"}),
        (["late"], [], False, set()),  # registered once, time ran out: not live
    ],
)
async def test_online_elsewhere(
    redis_url: str, members: list[str], live: list[str], expected: bool, left: set[str]
) -> None:
    r = aioredis.Redis.from_url(redis_url)
    store = Store(r)
    now = now_ms()
    for proc in ["me", "other", "gone", "late"]:
        if proc in live:
            await r.zadd(PROCS, {proc: now + 30_000})
        elif proc == "late":
            await r.zadd(PROCS, {proc: now - 1_000})
    for proc in members:
        await store.note_online("p_x", proc)
    assert await store.online_elsewhere("p_x", "me") is expected
    assert {m.decode() for m in await r.smembers(k_online("p_x"))} == left
    await store.note_offline("p_x", "me")
    assert b"me" not in await r.smembers(k_online("p_x"))
    await store.close()
