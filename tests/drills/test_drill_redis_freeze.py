"""Drill 4: Redis frozen with SIGSTOP for a few seconds mid-game. Meanwhile clients get errors
or waits (and /readyz says 503 while /healthz stays 200, so an orchestrator takes the process
out of rotation without restarting it); never an inconsistent room. After SIGCONT play
continues to the end."""

from __future__ import annotations

import asyncio
import http.client
import itertools
import time

import pytest
from server_tests.helpers import read_log

from drills.common import check_room, start_and_play
from drills.procs import RedisNode, ServerProcess

pytestmark = pytest.mark.timeout(150)

HANDS = 1
FREEZE = 4.0


def http_status(port: int, path: str) -> int:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        c.request("GET", path)
        return c.getresponse().status
    finally:
        c.close()


async def test_redis_frozen_mid_game(tmp_path):
    redis = RedisNode(tmp_path / "redis", "--appendonly", "yes", "--appendfsync", "everysec")
    server = None
    try:
        server = ServerProcess(
            "--redis-url",
            redis.url,
            "--grace-seconds",
            "60",
            "--bot-delay-ms",
            "0",
            log=tmp_path / "server.log",
        )
        room, seats = await start_and_play(server.port, HANDS, 300)
        frozen_at = max(s.player.seq_seen for s in seats)
        probes: dict[str, int] = {}

        async def freeze_then_thaw() -> None:
            redis.freeze()
            try:
                await asyncio.sleep(1.0)
                # the process is alive but cannot serve: out of rotation, not restarted
                probes["readyz"] = await asyncio.to_thread(http_status, server.port, "/readyz")
                probes["healthz"] = await asyncio.to_thread(http_status, server.port, "/healthz")
                await asyncio.sleep(max(0.0, FREEZE - 1.0 - 2.5))
            finally:
                redis.thaw()
            probes["readyz_after"] = await asyncio.to_thread(http_status, server.port, "/readyz")

        t0 = time.monotonic()
        await asyncio.gather(freeze_then_thaw(), *(s.play(server.port, room) for s in seats))
        assert time.monotonic() - t0 >= 2.0
        assert probes == {"readyz": 503, "healthz": 200, "readyz_after": 200}, probes
        # no client was told anything but retryable errors, and nobody had to reconnect
        errors = [e["code"] for s in seats for p in s.history for e in p.errors]
        assert set(errors) <= {"unavailable", "busy", "rate_limited"}, errors
        assert all(s.reconnects == 0 for s in seats)
        # somebody waited through the freeze: a gap of at least ~the freeze between messages
        log = await read_log(redis.url, room)
        stamps = sorted(e["t"] for e in log.values())
        assert max(b - a for a, b in itertools.pairwise(stamps)) >= 2000
        check_room(log, seats, HANDS)
        assert max(log) > frozen_at + 5
        for s in seats:
            await s.player.c.close()
    finally:
        if server is not None:
            server.stop()
        redis.stop()
