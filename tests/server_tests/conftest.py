"""Fixtures: a real redis-server on a free port, and the game server in-process."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import leftovers
import pytest
import redis

from server.app import App, run_server
from server.process.clock import TestClock
from server.process.config import Config
from server.process.procs import server_command, start_listening, stop
from server.storage.store import Store

REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisProc:
    """redis-server on a free (or the given) port of 127.0.0.1, data in ``tmp``; ``extra_args``
    go last on its command line. Returns once it answers PING, unless ``wait`` is False (a
    Redis that loads a large data set answers LOADING for a while)."""

    def __init__(
        self,
        tmp: Path,
        appendonly: bool = False,
        port: int | None = None,
        extra_args: Sequence[str] = (),
        wait: bool = True,
    ) -> None:
        self.port = port or free_port()
        self.dir = tmp
        args = [
            REDIS,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--dir",
            str(tmp),
            "--daemonize",
            "no",
            "--loglevel",
            "warning",
        ]
        if appendonly:
            args += ["--appendonly", "yes", "--appendfsync", "always"]
        else:
            args += ["--appendonly", "no"]
        self.proc = subprocess.Popen([*args, *extra_args], stdout=subprocess.DEVNULL)
        leftovers.track(self.proc)
        if not wait:
            return
        c = redis.Redis(port=self.port)
        for _ in range(200):
            try:
                c.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.02)
        c.close()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


@pytest.fixture(scope="session")
def redis_proc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisProc]:
    r = RedisProc(tmp_path_factory.mktemp("redis"))
    yield r
    r.stop()


@pytest.fixture
def redis_url(redis_proc: RedisProc) -> str:
    c = redis.Redis(port=redis_proc.port)
    c.flushall()
    c.close()
    return redis_proc.url


def make_config(**over: Any) -> Config:
    base = Config(
        port=0,
        grace_seconds=1.0,
        restart_resume_seconds=1.0,
        rate_per_second=500.0,
        rate_burst=1000,
        bot_delay_ms=0,
        hello_timeout=5.0,
        timer_poll_ms=20,
        log_json=False,
        shutdown_grace=2.0,
        bot_processes=0,  # bots in worker threads (no process to spawn per test server)
        archive_process=False,  # the archive's passes in the test's event loop (the same)
    )
    return replace(base, **over)


class RunningServer:
    def __init__(
        self, port: int, task: asyncio.Task[None], stop: asyncio.Event, clock: TestClock
    ) -> None:
        self.port = port
        self.task = task
        self.stop = stop
        self.app: App | None = None
        #: the server's clock: ``clock.advance(s)`` makes a deadline ``s`` away due now
        self.clock = clock

    async def advance(self, seconds: float) -> None:
        """Move the server's clock ``seconds`` forward, then let its timer loop look (two
        of its polls, ``timer_poll_ms``): what fell due in that time has fired."""
        self.clock.advance(seconds)
        await asyncio.sleep(2 * make_config().timer_poll_ms / 1000)


@contextlib.asynccontextmanager
async def running_server(
    redis_url: str, clock: TestClock | None = None, **over: Any
) -> AsyncIterator[RunningServer]:
    """The game server in-process, on a :class:`TestClock` (``clock``, or a new one): it
    runs with the real time until the test advances it."""
    cfg = make_config(**over)
    clock = clock or TestClock()
    stop = asyncio.Event()
    fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    store = Store.from_url(redis_url)
    task = asyncio.create_task(run_server(cfg, store, fut.set_result, stop, clock=clock))
    done, _ = await asyncio.wait({task, fut}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        task.result()
    port = await fut
    srv = RunningServer(port, task, stop, clock)
    try:
        yield srv
    finally:
        stop.set()
        await asyncio.wait_for(task, 15)


@pytest.fixture
async def server(redis_url: str) -> AsyncIterator[RunningServer]:
    async with running_server(redis_url) as s:
        yield s


class ServerProc:
    """``python -m server`` in a subprocess (for SIGKILL / SIGTERM / multi-process tests)."""

    def __init__(self, *args: str, cwd: Path | None = None) -> None:
        import os

        env = dict(os.environ)
        env.pop("REDIS_URL", None)
        cmd = server_command(
            "--no-log-json", "--log-level", "WARNING", "--bot-delay-ms", "0",
            "--timer-poll-ms", "20", *args,
        )  # fmt: skip
        self.proc, self.port = start_listening(cmd, env=env, cwd=cwd)
        leftovers.track(self.proc, leftovers.data_dir_of(args, cwd))

    def kill(self) -> None:
        import signal

        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def terminate(self, timeout: float = 15) -> int:
        self.proc.terminate()
        return self.proc.wait(timeout)

    def stop(self) -> None:
        stop(self.proc)
