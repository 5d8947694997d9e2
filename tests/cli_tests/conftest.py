"""Fixtures: a real redis-server and a real ``mahjong-server`` process, each on a free port."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"nothing listens on port {port}")


class ServerProcs:
    """redis-server + mahjong-server (``python -m server``), stopped at the end."""

    def __init__(self, tmp: Path) -> None:
        self.redis_port = free_port()
        self.redis = subprocess.Popen(
            [
                REDIS,
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(tmp),
                "--daemonize",
                "no",
                "--loglevel",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
        )
        _wait_port(self.redis_port)
        self.log = open(tmp / "server.log", "wb")  # noqa: SIM115 - closed in stop()
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--redis-url",
                f"redis://127.0.0.1:{self.redis_port}/0",
                "--grace-seconds",
                "30",
                "--bot-delay-ms",
                "0",
                "--timer-poll-ms",
                "20",
                "--log-level",
                "WARNING",
            ],
            stdout=subprocess.PIPE,
            stderr=self.log,
            env=env,
        )
        assert self.server.stdout is not None
        line = self.server.stdout.readline()
        try:
            self.port = int(json.loads(line)["listening"])
        except (ValueError, KeyError):
            self.stop()
            raise RuntimeError(f"mahjong-server did not start: {line!r}") from None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def stop(self) -> None:
        for p in (self.server, self.redis):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
        self.log.close()


@pytest.fixture(scope="session")
def mahjong_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcs]:
    procs = ServerProcs(tmp_path_factory.mktemp("mjserver"))
    yield procs
    procs.stop()
