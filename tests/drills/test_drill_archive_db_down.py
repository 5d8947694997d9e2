"""Drill (issue 41): the archive's PostgreSQL server (a private one, started here) is killed
mid-game, after the first hand was archived: play goes on to the end, the lag metric shows
the room waiting, and once the database is back the game is archived — nothing lost, nothing
written twice."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import asyncpg
import pytest
from server_tests.conftest import running_server
from server_tests.helpers import read_log, until
from server_tests.test_archive import archived, game_of_log, lag
from server_tests.wsclient import Client

from drills.procs import RedisNode, free_port
from server.archive import open_archive

pytestmark = pytest.mark.timeout(240)

BIN = Path("/usr/lib/postgresql/15/bin")


class PgNode:
    """A private PostgreSQL server (its own data directory and port, trust authentication),
    run as the ``postgres`` user; killed with ``pg_ctl stop -m immediate`` (no shutdown)."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="mj-pg-"))
        user = pwd.getpwnam("postgres")
        os.chown(self.dir, user.pw_uid, user.pw_gid)
        self.port = free_port()
        self.pg("initdb", "-A", "trust", "-U", "postgres", "-D", str(self.dir / "data"))
        self.start()

    def pg(self, tool: str, *args: str) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", str(BIN / tool), *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        self.pg("pg_ctl", "-D", str(self.dir / "data"), "-o", opts, "-w", "start")

    def kill(self) -> None:
        self.pg("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "-w", "stop")

    def remove(self) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", str(BIN / "pg_ctl"), "-D", str(self.dir / "data"),
             "-m", "immediate", "stop"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
        )  # fmt: skip
        shutil.rmtree(self.dir, ignore_errors=True)


async def hands_archived(url: str) -> int:
    try:
        conn = await asyncpg.connect(url, timeout=2)
    except (OSError, asyncpg.PostgresError):
        return 0
    try:
        return int(await conn.fetchval("SELECT COUNT(*) FROM hands"))
    except asyncpg.PostgresError:
        return 0
    finally:
        await conn.close()


async def test_the_database_killed_mid_game(tmp_path):
    node = RedisNode(tmp_path / "redis")
    pg = PgNode()
    try:
        async with running_server(node.url, archive_url=pg.url) as srv:
            host = await Client.connect(srv.port, "watcher")
            await host.hello("watcher")
            options = {"length": "hands", "hands": 4, "hand_pause_ms": 400, "bot_delay_ms": 0}
            ack = await host.request({"type": "create_room", "ruleset": "mcr", "options": options})
            room = ack["room"]
            for seat in range(4):
                await host.request({"type": "add_bot", "room": room, "seat": seat})
            assert (await host.request({"type": "start_game", "room": room}))["type"] == "ack"

            async def first_hand() -> bool:
                return await hands_archived(pg.url) >= 1

            await until(first_hand, "the first hand archived", tries=3000)
            pg.kill()  # mid-game
            over = await host.wait_for(
                lambda m: (m.get("notice") or {}).get("type") == "game_over", 120
            )
            assert over["notice"]["summary"]["hands_played"] == 4  # play went on

            async def waiting() -> bool:
                return (await lag(srv.port))[0] >= 1

            await until(waiting, "the lag metric shows the game waiting", tries=3000)
            pg.start()
            entries = game_of_log(await read_log(node.url, room))
            archive = await open_archive(pg.url)
            try:
                record = await archived(archive, entries[0]["lobby"]["game_id"], 120)
                assert record.hands_played == 4
                hands = await archive.hands(record.game_id)
                assert [h.hand for h in hands] == [0, 1, 2, 3]
                events = [ev for e in entries for ev in e.get("events") or []]
                ended = [ev for ev in events if ev["type"] == "hand_ended"]
                assert [h.scores for h in hands] == [ev["scores"] for ev in ended]
                assert await archive.count_games() == 1
            finally:
                await archive.close()
            await host.close()
    finally:
        pg.remove()
        node.stop()
