"""Start-up against a Redis that is still loading its data set (after a restart the embedded
Redis answers LOADING until its AOF is read): the server waits, bounded, instead of exiting
with ``BusyLoadingError``. A real redis-server is slowed down with ``key-load-delay``."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.exceptions

from server.app import App
from server.storage.store import Store

from .conftest import RedisProc, make_config

KEYS = 4000
DELAY_US = 500  # per key while loading: ~2 s of LOADING


@pytest.fixture
def loading_redis(tmp_path: Path):
    """A redis-server that is LOADING a data set of KEYS keys when the fixture returns."""
    rp = RedisProc(tmp_path)
    port = rp.port
    c = redis.Redis(port=port)
    with c.pipeline(transaction=False) as p:
        for i in range(KEYS):
            p.set(f"k:{i}", "x" * 32)
        p.execute()
    c.save()
    c.close()
    rp.stop()
    slow = ["--key-load-delay", str(DELAY_US), "--loading-process-events-interval-bytes", "1024"]
    # not waited for by RedisProc: it answers LOADING while it starts
    rp = RedisProc(tmp_path, port=port, extra_args=slow, wait=False)
    try:
        _wait_loading(port)  # listening (it answers INFO while loading), not done loading
        yield port
    finally:
        rp.stop()


def _wait_loading(port: int) -> None:
    """Until the restarted server answers and says it is loading (no fixed sleep: on a busy
    machine it may take a while to listen)."""
    c = redis.Redis(port=port, socket_timeout=5)
    try:
        for _ in range(500):
            try:
                if int(c.info("persistence").get("loading", 0)):
                    return
                raise RuntimeError("redis finished loading before the test began")
            except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
                time.sleep(0.02)
    finally:
        c.close()
    raise RuntimeError("redis did not start")


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
    try:
        with pytest.raises(redis.exceptions.BusyLoadingError):
            await app.start()
        assert app.metrics.counters["redis_loading_waits"] > 0
        assert await store.loading(), "gave up while the data set was still loading"
        assert app.tasks == [], "no loop was started"
    finally:
        await app.stop_tasks()
        await store.close()


async def test_the_wait_for_a_redis_that_does_not_answer_is_bounded(tmp_path: Path) -> None:
    """A Redis that accepts connections but never answers (a frozen process: SIGSTOP) must
    not hang the start: every attempt is bounded, then the start fails (a hang here would be
    caught by the test timeout, not by a measured duration)."""
    rp = RedisProc(tmp_path)
    store = Store.from_url(rp.url)
    app = App(make_config(redis_load_wait=0.3), store)
    rp.proc.send_signal(signal.SIGSTOP)
    try:
        with pytest.raises(redis.exceptions.TimeoutError, match="did not answer"):
            await app.start()
        assert app.tasks == []
    finally:
        rp.proc.send_signal(signal.SIGCONT)
        await app.stop_tasks()
        await store.close()
        rp.stop()


class _SwallowingStore(Store):
    """The real store, except that one timers query is made to swallow its cancellation --
    what a redis-py call sometimes does when the task is cancelled inside it (seen with
    redis-py 8.1 on Python 3.11; the race itself cannot be forced, so it is staged here)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.block_next = False
        self.entered = asyncio.Event()
        self.swallowed = 0

    async def due_rooms(self, now_ms: int, limit: int = 32) -> list[str]:
        if self.block_next:
            self.block_next = False
            self.entered.set()
            try:
                await asyncio.Event().wait()  # until cancelled
            except asyncio.CancelledError:
                self.swallowed += 1
                return []  # swallowed: the call returns as if nothing happened
        return await super().due_rooms(now_ms, limit)


async def test_stop_ends_a_loop_whose_cancellation_was_swallowed(redis_url: str) -> None:
    """The hang once seen here: a background loop that swallowed its cancellation ran on,
    past stop_tasks' bounded wait, and the event loop's final cancel-and-gather then waited
    for it for ever. Now every loop is also told to stop and ends at its next turn."""
    store = _SwallowingStore.from_url(redis_url)
    app = App(make_config(), store)
    await app.start()
    tasks = list(app.tasks)
    store.block_next = True
    await store.entered.wait()  # the timer loop is inside the call
    await app.stop_tasks()
    assert store.swallowed == 1
    assert all(t.done() for t in tasks), [t.get_name() for t in tasks if not t.done()]
    await store.close()
