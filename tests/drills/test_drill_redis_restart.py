"""Drill 2: Redis (AOF, appendfsync always) is SIGKILLed mid-game and restarted on the same
port and data directory. Clients see errors or waits meanwhile, resend with the same client
sequence numbers, and no acknowledged action is lost."""

from __future__ import annotations

import asyncio
import time

import pytest
from server_tests.helpers import read_log

from drills.common import check_room, start_and_play
from drills.procs import RedisNode, ServerProcess

pytestmark = pytest.mark.timeout(150)

HANDS = 1


async def test_redis_killed_and_restarted_mid_game(tmp_path):
    redis = RedisNode(tmp_path / "redis", "--appendonly", "yes", "--appendfsync", "always")
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
        room, seats = await start_and_play(server.port, HANDS, 200)
        acked_before = sum(len(s.acked) for s in seats)
        assert acked_before > 0
        killed_at = max(s.player.seq_seen for s in seats)
        redis.kill()

        async def restart_later() -> None:
            await asyncio.sleep(1.5)  # clients keep playing into a dead Redis meanwhile
            await asyncio.to_thread(redis.start)

        t0 = time.monotonic()
        await asyncio.gather(restart_later(), *(s.play(server.port, room) for s in seats))
        assert time.monotonic() - t0 >= 1.5
        errors = [e["code"] for s in seats for p in s.history for e in p.errors]
        log = await read_log(redis.url, room)
        check_room(log, seats, HANDS)
        assert max(log) > killed_at + 5
        # the outage was visible to clients as retryable errors (or as waits), nothing else
        assert set(errors) <= {"unavailable", "busy", "rate_limited"}, errors
        for s in seats:
            await s.player.c.close()
    finally:
        if server is not None:
            server.stop()
        redis.stop()
