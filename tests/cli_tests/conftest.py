"""Fixtures: a real redis-server and a real ``mahjong-server`` process, each on a free port."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import leftovers
import pytest
from server_tests.conftest import RedisProc

from server.process.procs import server_command, start_listening, stop


class ServerProcs:
    """redis-server + mahjong-server (``python -m server``), stopped at the end."""

    def __init__(self, tmp: Path) -> None:
        self.redis = RedisProc(tmp)
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        cmd = server_command(
            "--redis-url",
            self.redis.url,
            "--grace-seconds",
            "30",
            "--bot-delay-ms",
            "0",
            "--timer-poll-ms",
            "20",
            "--log-level",
            "WARNING",
        )
        self.log = tmp / "server.log"
        try:
            self.server, self.port = start_listening(
                cmd, stderr=self.log, env=env, name="mahjong-server"
            )
            leftovers.track(self.server)
        except BaseException:
            self.redis.stop()
            raise

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def stop(self) -> None:
        try:
            stop(self.server, 10)
        finally:
            self.redis.stop()


@pytest.fixture(scope="session")
def mahjong_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcs]:
    procs = ServerProcs(tmp_path_factory.mktemp("mjserver"))
    yield procs
    procs.stop()
