"""Drill (issue 41): the PostgreSQL archive is backed up with ``pg_dump`` while the server
runs, restored with ``pg_restore`` into a new database, and a new server (its own, empty
Redis) reads every game back from it, equal to the original (docs/deploy.md, "The game
archive")."""

from __future__ import annotations

import asyncio
import subprocess

import pytest
import redis
from server_tests.conftest import running_server
from server_tests.helpers import read_log
from server_tests.test_archive import archived, bot_game, game_of_log, pg_database
from server_tests.test_archive_pages import get

from drills.procs import RedisNode
from server.archive import open_archive

pytestmark = pytest.mark.timeout(180)


async def test_a_backup_restored_into_a_new_server_reads_every_game(tmp_path):
    node = RedisNode(tmp_path / "redis")
    try:
        async with pg_database() as url, pg_database(create=False) as restored:
            async with running_server(node.url, archive_url=url) as srv:
                rooms = await asyncio.gather(
                    *(bot_game(srv.port, r, public=True) for r in ("mcr", "zung-jung"))
                )
                ids = []
                for room in rooms:
                    ids.append(game_of_log(await read_log(node.url, room))[0]["lobby"]["game_id"])
                archive = await open_archive(url)
                try:
                    originals = [await archived(archive, gid) for gid in ids]
                    hands = [await archive.hands(gid) for gid in ids]
                finally:
                    await archive.close()
                dump = tmp_path / "archive.dump"
                with dump.open("wb") as out:  # while the server runs
                    subprocess.run(["pg_dump", "-Fc", url], stdout=out, check=True)
            subprocess.run(
                ["createdb", "-h", "127.0.0.1", "-U", "postgres", name(restored)], check=True
            )
            subprocess.run(["pg_restore", "--no-owner", "-d", restored, str(dump)], check=True)
            # a new server, a new (empty) Redis: everything it shows comes from the archive
            redis.Redis.from_url(node.url).flushall()
            async with running_server(node.url, archive_url=restored) as srv:
                for gid, original, hs in zip(ids, originals, hands, strict=True):
                    for _ in range(200):  # the new server opens its archive in the background
                        status, page = await get(srv.port, f"/api/games/{gid}/log")
                        if status != 503:
                            break
                        await asyncio.sleep(0.05)
                    assert status == 200, page
                    assert page["log"] == original.log and page["scores"] == original.scores
                    assert [h["winners"] for h in page["hands"]] == [h.winners for h in hs]
            archive = await open_archive(restored)
            try:
                assert await archive.count_games() == 2
                assert [await archive.game(g) for g in ids] == originals
            finally:
                await archive.close()
    finally:
        node.stop()


def name(url: str) -> str:
    return url.rsplit("/", 1)[1]
