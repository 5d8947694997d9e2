"""Retention (server/flow/retention.py, docs/server.md "Retention"): closed rooms' keys expire,
abandoned rooms are closed by the sweeper through the normal commit path, a player's room
index drops expired rooms. Real Redis; times are either generous expiries whose TTL is read
back, or the sweeper's ``now`` argument (no sleeping on the clock)."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
import redis.asyncio as aioredis

from server.app import App
from server.process.config import load_config
from server.room import rooms
from server.storage.store import PUBLIC, ROOMS, TIMERS, Store, k_log, k_seq, k_state
from server_tests.conftest import make_config, running_server
from server_tests.helpers import load_room, until
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(60)

HOUR_MS = 3600 * 1000


async def _room_with(
    port: int, name: str = "alice", public: bool = True
) -> tuple[Client, str, str]:
    c = await Client.connect(port, name)
    await c.hello(name)
    ack = await c.request({"type": "create_room", "ruleset": "mcr", "options": {"public": public}})
    assert ack["type"] == "ack"
    snap = await c.wait_for(lambda msg: msg["type"] == "snapshot")
    return c, ack["room"], snap["lobby"]["code"]


async def _closed_room(port: int, name: str = "alice") -> str:
    """A room whose only member (``name``) created it and left it: closed."""
    c, room, _ = await _room_with(port, name)
    left = await c.request({"type": "leave_room", "room": room})
    assert left["type"] == "left"
    await c.close()
    return room


async def test_closed_room_keys_expire_and_index_entries_go(redis_url: str) -> None:
    r = aioredis.Redis.from_url(redis_url)
    async with running_server(redis_url, closed_room_ttl=3600.0) as srv:
        a, room, code = await _room_with(srv.port)
        assert await r.exists(f"mj:code:{code}") == 1
        assert await r.pttl(k_state(room)) == -1, "an open room does not expire"
        left = await a.request({"type": "leave_room", "room": room})
        assert left["type"] == "left"
        # the last member left: closed; its keys now expire within the retention
        for key in (k_state(room), k_log(room)):
            assert 0 < await r.pttl(key) <= HOUR_MS, key
        assert await r.exists(f"mj:code:{code}") == 0
        assert not await r.sismember(ROOMS, room)
        assert not await r.sismember(PUBLIC, room)
        assert await r.zscore(TIMERS, room) is None
        await a.close()
    await r.aclose()


async def test_closed_rooms_kept_forever_with_ttl_zero(redis_url: str) -> None:
    r = aioredis.Redis.from_url(redis_url)
    async with running_server(redis_url, closed_room_ttl=0.0) as srv:
        room = await _closed_room(srv.port)
        _, state = await load_room(redis_url, room)
        assert state["status"] == "closed"
        assert await r.pttl(k_state(room)) == -1
    await r.aclose()


async def test_a_tiny_ttl_really_removes_the_room(redis_url: str) -> None:
    r = aioredis.Redis.from_url(redis_url)
    async with running_server(redis_url, closed_room_ttl=0.05) as srv:
        room = await _closed_room(srv.port)

        async def gone() -> bool:
            return int(await r.exists(k_state(room), k_log(room), k_seq(room))) == 0

        await until(gone, "the closed room's keys expired")
    await r.aclose()


async def test_player_room_index_drops_expired_rooms(redis_url: str) -> None:
    r = aioredis.Redis.from_url(redis_url)
    async with running_server(redis_url) as srv:
        a, room, _ = await _room_with(srv.port)
        _, keep, _ = await _room_with(srv.port, "bob")  # someone else's room: untouched
        token, pid = a.token, a.player_id
        await a.close()
        # the room expires without anybody leaving it (as after a retention period)
        await r.pexpire(k_state(room), 1)
        await r.pexpire(k_log(room), 1)

        async def expired() -> bool:
            return int(await r.exists(k_state(room))) == 0

        await until(expired, "the room's state expired")
        assert await r.sismember(f"mj:player:{pid}:rooms", room)
        b = await Client.connect(srv.port, "a2")
        w = await b.hello("alice", token)
        assert w["rooms"] == [], "welcome lists only rooms that still exist"
        assert await r.smembers(f"mj:player:{pid}:rooms") == set()
        assert await r.exists(k_state(keep)) == 1
        await b.close()
    await r.aclose()


async def test_sweeper_closes_an_abandoned_lobby_and_clients_see_it(redis_url: str) -> None:
    r = aioredis.Redis.from_url(redis_url)
    async with running_server(redis_url, closed_room_ttl=3600.0) as srv:
        a, room, code = await _room_with(srv.port)
        assert (await a.request({"type": "sit", "room": room, "seat": 0}))["type"] == "ack"
        watcher = await Client.connect(srv.port, "w")
        await watcher.hello("watcher")
        assert (await watcher.request({"type": "join_room", "code": code}))["type"] == "ack"
        # another process's sweeper (same Redis), idle limit one hour
        sweeper_app = App(
            make_config(idle_room_seconds=3600.0, closed_room_ttl=3600.0),
            Store.from_url(redis_url),
        )
        sweeper = sweeper_app.sweeper
        later = int(time.time() * 1000) + 2 * HOUR_MS
        res = await sweeper.sweep(later, take_turn=False)
        assert res.looked_at == 1 and res.closed == 0, "a seated player is present"
        pid = a.player_id
        await a.close()
        reader = Store.from_url(redis_url)  # one Store for every poll and read below

        async def away() -> bool:
            seat = (await load_room(reader, room))[1]["seats"][0]
            return seat is not None and seat.get("away") is not None

        await until(away, "the seat is marked away")
        res = await sweeper.sweep(int(time.time() * 1000), take_turn=False)
        assert res.closed == 0, "not idle for long enough yet"
        res = await sweeper.sweep(later, take_turn=False)
        assert res.closed == 1
        # the close went through the commit path: the connected watcher sees it
        ev = await watcher.wait_for(
            lambda msg: (
                msg["type"] == "events" and (msg.get("notice") or {}).get("type") == "room_closed"
            )
        )
        assert ev["lobby"]["status"] == "closed"
        assert ev["notice"] == {"type": "room_closed", "reason": "idle"}
        _, state = await load_room(reader, room)
        await reader.close()
        assert state["status"] == "closed" and state["members"] == {}
        assert 0 < await r.pttl(k_state(room)) <= HOUR_MS
        assert not await r.sismember(ROOMS, room)
        assert await r.exists(f"mj:code:{code}") == 0
        assert await r.smembers(f"mj:player:{pid}:rooms") == set()
        assert await r.smembers(f"mj:player:{watcher.player_id}:rooms") == set()
        # joining by the old code now fails cleanly
        late = await Client.connect(srv.port, "late")
        await late.hello("late")
        err = await late.request({"type": "join_room", "code": code})
        assert err["type"] == "error" and err["code"] == "room_not_found"
        await late.close()
        await watcher.close()
        await sweeper_app.store.close()
    await r.aclose()


async def test_sweeper_closes_a_paused_game(redis_url: str) -> None:
    r = aioredis.Redis.from_url(redis_url)
    async with running_server(redis_url, grace_seconds=0.2) as srv:
        a, room, _ = await _room_with(srv.port)
        for msg in (
            {"type": "sit", "room": room, "seat": 0},
            {"type": "add_bot", "room": room, "seat": 1},
            {"type": "add_bot", "room": room, "seat": 2},
            {"type": "add_bot", "room": room, "seat": 3},
            {"type": "ready", "room": room},
            {"type": "start_game", "room": room},
        ):
            assert (await a.request(msg))["type"] == "ack", msg
        await a.close()
        reader = Store.from_url(redis_url)  # one Store for every poll and read below

        async def paused() -> bool:
            return rooms.paused((await load_room(reader, room))[1])

        await until(paused, "the game paused once the only human was gone")
        sweeper_app = App(make_config(idle_room_seconds=60.0), Store.from_url(redis_url))
        res = await sweeper_app.sweeper.sweep(int(time.time() * 1000) + HOUR_MS, take_turn=False)
        assert res.closed == 1
        _, state = await load_room(reader, room)
        await reader.close()
        assert state["status"] == "closed"
        assert await r.pttl(k_state(room)) > 0
        assert await r.zscore(TIMERS, room) is None
        await sweeper_app.store.close()
    await r.aclose()


async def test_sweeper_repairs_half_done_and_legacy_closes(redis_url: str) -> None:
    r = aioredis.Redis.from_url(redis_url)
    async with running_server(redis_url, closed_room_ttl=0.0) as srv:
        # closed with retention off: no expiry (as every room closed before retention)
        legacy = await _closed_room(srv.port)
        half = await _closed_room(srv.port, "bob")
    assert await r.pttl(k_state(legacy)) == -1
    await r.sadd(ROOMS, half)  # a process died half-way through closing it
    await r.sadd(ROOMS, "r_ghost")  # an open room whose keys are gone
    app = App(make_config(closed_room_ttl=3600.0), Store.from_url(redis_url))
    res = await app.sweeper.sweep(int(time.time() * 1000), take_turn=False)
    assert (res.repaired, res.forgotten) == (1, 1)
    assert res.legacy_expired == 1, "the other closed room had no expiry either"
    for room in (legacy, half):
        assert 0 < await r.pttl(k_state(room)) <= HOUR_MS, room
    assert await r.smembers(ROOMS) == set()
    # the legacy walk runs once per process
    res = await app.sweeper.sweep(int(time.time() * 1000), take_turn=False)
    assert res.legacy_expired == 0 and res.looked_at == 0
    await app.store.close()
    await r.aclose()


async def test_one_process_sweeps_per_period(redis_url: str) -> None:
    apps = [
        App(
            make_config(server_id=f"s{i}", retention_sweep_seconds=3600.0),
            Store.from_url(redis_url),
        )
        for i in range(2)
    ]
    now = int(time.time() * 1000)
    first = await apps[0].sweeper.sweep(now)
    second = await apps[1].sweeper.sweep(now)
    assert not first.skipped and second.skipped
    for app in apps:
        await app.store.close()


def test_retention_options_flags_and_env() -> None:
    cfg = load_config([], env={})
    assert cfg.closed_room_ttl == 7 * 86400 and cfg.idle_room_seconds == 30 * 86400
    cfg = load_config(
        ["--closed-room-ttl", "60"],
        env={"MAHJONG_CLOSED_ROOM_TTL": "5", "MAHJONG_IDLE_ROOM_SECONDS": "0"},
    )
    assert cfg.closed_room_ttl == 60.0 and cfg.idle_room_seconds == 0.0
    for bad in (["--closed-room-ttl", "-1"], ["--retention-sweep-seconds", "0"]):
        proc = subprocess.run(
            [sys.executable, "-m", "server", "--no-log-json", *bad],
            capture_output=True,
            timeout=60,
        )
        assert proc.returncode == 2, bad
        assert b"must be >= 0" in proc.stderr
