"""Drill 1: two server processes behind nginx; one is SIGKILLed mid-game. Its clients
reconnect through nginx, land on the survivor, resume their seats and finish the game."""

from __future__ import annotations

import asyncio

import pytest
from server_tests.helpers import read_log

from drills.common import FAST, Seat, check_room, connect_retrying, setup_room
from drills.procs import Nginx, RedisNode, ServerProcess

pytestmark = pytest.mark.timeout(150)

HANDS = 1


async def test_kill_one_server_behind_nginx(tmp_path):
    redis = RedisNode(tmp_path / "redis", "--appendonly", "yes", "--appendfsync", "always")
    servers: list[ServerProcess] = []
    nginx = None
    try:
        # a long grace period: the dropped players come back themselves, no bot replaces them
        common = ("--redis-url", redis.url, "--grace-seconds", "60", "--bot-delay-ms", "0")
        servers = [ServerProcess(*common, log=tmp_path / f"server{i}.log") for i in range(2)]
        nginx = Nginx(tmp_path / "nginx", [s.port for s in servers])
        clients = [await connect_retrying(nginx.port, f"p{i}") for i in range(4)]
        welcomes = [await c.hello(c.label) for c in clients]
        by_server: dict[str, list[int]] = {}
        for i, w in enumerate(welcomes):
            by_server.setdefault(w["server"], []).append(i)
        # nginx balanced the four connections over both processes
        assert len(by_server) == 2, by_server
        room = await setup_room(clients, {**FAST, "length": "hands", "hands": HANDS})
        r = await clients[0].request({"type": "start_game", "room": room})
        assert r["type"] == "ack", r
        start = r["seq"]
        seats = [Seat(c, 100 + i) for i, c in enumerate(clients)]
        # play a while with everybody connected
        await asyncio.gather(
            *(s.play(nginx.port, room, until=lambda p: p.seq_seen >= start + 24) for s in seats)
        )
        # find the process that serves seat 0's connection (server id: host:port:pid), kill it
        victim_id = welcomes[0]["server"]
        victim = next(s for s in servers if victim_id.endswith(f":{s.proc.pid}"))
        survivor = next(s for s in servers if s is not victim)
        victims = by_server[victim_id]
        killed_at = max(s.player.seq_seen for s in seats)
        victim.kill()
        await asyncio.gather(*(s.play(nginx.port, room, timeout=90) for s in seats))
        # the victim's clients reconnected (through nginx, to the survivor), the others did not
        for i, s in enumerate(seats):
            if i in victims:
                assert s.reconnects >= 1
                assert all(sid.endswith(f":{survivor.proc.pid}") for sid in s.servers), s.servers
            else:
                assert s.reconnects == 0
        log = await read_log(redis.url, room)
        check_room(log, seats, HANDS)
        assert max(log) > killed_at + 5, "the game was nearly over at the kill"
        for s in seats:
            await s.player.c.close()
    finally:
        if nginx is not None:
            nginx.stop()
        for s in servers:
            s.stop()
        redis.stop()
