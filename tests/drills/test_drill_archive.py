"""Drill (issue 41): the server that finished a game is SIGKILLed before the game was
archived (its database was down); another server process on the same Redis archives it when
the database is back — once: one game, each hand once."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest
import redis.asyncio
from server_tests.helpers import read_log
from server_tests.test_archive import (
    archived,
    bot_game,
    check_hands,
    check_record,
    create_pg,
    game_of_log,
    pg_database,
)

from drills.procs import RedisNode, ServerProcess
from server.archive import open_archive
from server.archive.queue import DUE

pytestmark = pytest.mark.timeout(180)


async def test_a_game_left_by_a_killed_server_is_archived_by_another(tmp_path):
    node = RedisNode(tmp_path / "redis")
    servers: list[ServerProcess] = []
    try:
        async with pg_database(create=False) as url:
            for name in ("a", "b"):
                (tmp_path / name).mkdir()
                servers.append(
                    ServerProcess(
                        "--redis-url",
                        node.url,
                        "--archive-url",
                        url,
                        "--data-dir",
                        str(tmp_path / name),
                        "--bot-delay-ms",
                        "0",
                        log=tmp_path / f"{name}.log",
                    )
                )
            a, b = servers
            room = await bot_game(a.port, "mcr")
            r = redis.asyncio.Redis.from_url(node.url)
            try:
                for _ in range(500):
                    if await r.zscore(DUE, room) is not None:
                        break
                    await asyncio.sleep(0.02)
                assert await r.zscore(DUE, room) is not None, "the game was not queued"
            finally:
                await r.aclose()
            a.kill()  # before its game was archived: the database was down
            await create_pg(url)  # the database is back; only b is left to archive
            entries = game_of_log(await read_log(node.url, room))
            archive = await open_archive(url)
            try:
                record = await archived(archive, entries[0]["lobby"]["game_id"], 90)
                check_record(record, "mcr", room, entries)
                check_hands(await archive.hands(record.game_id), entries)
            finally:
                await archive.close()
            conn = await asyncpg.connect(url)
            try:  # nothing written twice (the keys would refuse it; the counts say so)
                assert await conn.fetchval("SELECT COUNT(*) FROM games") == 1
                assert await conn.fetchval("SELECT COUNT(*) FROM hands") == 2
            finally:
                await conn.close()
            b.stop()
    finally:
        for s in servers:
            s.kill()
        node.stop()
