"""Start-up against a Redis that is still loading its data set (after a restart the embedded
Redis answers LOADING until its AOF is read): the server waits, bounded, instead of exiting
with ``BusyLoadingError``. A real redis-server is slowed down with ``key-load-delay``."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
import redis
import redis.exceptions

from server.app import App
from server.store import Store

from .conftest import REDIS, free_port, make_config

KEYS = 4000
DELAY_US = 500  # per key while loading: ~2 s of LOADING


def _redis(tmp: Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    args = [REDIS, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(tmp)]
    args += ["--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning"]
    return subprocess.Popen([*args, *extra], stdout=subprocess.DEVNULL)


def _wait_up(port: int) -> None:
    c = redis.Redis(port=port)
    try:
        for _ in range(300):
            try:
                c.ping()
                return
            except redis.exceptions.ConnectionError:
                time.sleep(0.02)
    finally:
        c.close()
    raise RuntimeError("redis did not start")


@pytest.fixture
def loading_redis(tmp_path: Path):
    """A redis-server that is LOADING a data set of KEYS keys when the fixture returns."""
    port = free_port()
    proc = _redis(tmp_path, port)
    _wait_up(port)
    c = redis.Redis(port=port)
    with c.pipeline(transaction=False) as p:
        for i in range(KEYS):
            p.set(f"k:{i}", "x" * 32)
        p.execute()
    c.save()
    c.close()
    proc.terminate()
    proc.wait(10)
    proc = _redis(
        tmp_path, port, "--key-load-delay", str(DELAY_US),
        "--loading-process-events-interval-bytes", "1024",
    )  # fmt: skip
    time.sleep(0.2)  # listening (it answers PING while loading), not done loading
    yield port
    proc.terminate()
    proc.wait(10)


async def test_start_waits_for_redis_to_finish_loading(loading_redis: int) -> None:
    store = Store.from_url(f"redis://127.0.0.1:{loading_redis}/0")
    app = App(make_config(redis_load_wait=60.0), store)
    try:
        await app.start()
        assert app.metrics.counters["redis_loading_waits"] > 0, "Redis was not loading"
        assert await store.r.dbsize() == KEYS, "started only once the data set was loaded"
    finally:
        await app.stop_tasks()
        await store.close()


async def test_the_wait_for_a_loading_redis_is_bounded(loading_redis: int) -> None:
    store = Store.from_url(f"redis://127.0.0.1:{loading_redis}/0")
    app = App(make_config(redis_load_wait=0.2), store)
    t0 = time.monotonic()
    try:
        with pytest.raises(redis.exceptions.BusyLoadingError):
            await app.start()
        assert app.metrics.counters["redis_loading_waits"] > 0
        assert time.monotonic() - t0 < 1.9, "gave up before the data set was loaded"
    finally:
        await app.stop_tasks()
        await store.close()
