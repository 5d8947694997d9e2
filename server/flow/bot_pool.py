"""The pool the bots decide in when they have a time budget: worker processes (``--bot-processes``) or, with none, two threads of the server process.

A decision in a worker process never holds the server's interpreter lock. The processes
start with the first bot move (which waits the ~1 s they take to load the rule sets, once):
a server that never hosts a bot never starts them. Each runs at a lower priority than the
server (:data:`BOT_NICE`), ends when its server process is gone (a server killed with
SIGKILL cannot shut its pool down), and is replaced after :data:`TASKS_PER_WORKER` tasks
(its memory then starts again from its loaded rule sets: docs/memory.md). What runs in
them: :func:`choose` (a bot's decision) and the rooms' timer ticks (server/flow/bot_worker.py,
through :func:`in_bot_process`).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import os
import random
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import bots
from server.process import memtrace
from server.process.procs import end_with_parent
from server.room import game

JSON = dict[str, Any]
T = TypeVar("T")

#: how much lower the bot worker processes' scheduling priority is than the server's
#: (``nice``): on a busy machine the server's event loop gets the CPU first
BOT_NICE = 10

#: tasks (timer ticks, decisions) per worker process after which the pool is replaced by a
#: new one: a worker's memory keeps moving (its memos fill up to their bounds, CPython takes
#: and returns arenas: ±7 % over 10,000 decisions, docs/memory.md), and a new process
#: starts again from its rule sets (~1 s of CPU; a tick submitted meanwhile waits for it)
TASKS_PER_WORKER = 5_000
#: tasks before that limit at which the next pool's first process starts (loading its rule
#: sets while the current pool still works)
WARM_AHEAD = 200

#: counters read by the server's metrics: decisions made in worker processes, decisions
#: that fell back to the constant-time choice (too slow, or a worker died), and pools
#: retired after :data:`TASKS_PER_WORKER` tasks
BOT_STATS = {"fallbacks": 0, "in_processes": 0, "recycled": 0}

_BOT_POOL: concurrent.futures.Executor | None = None
_BOT_POOL_LOCK = threading.Lock()
_BOT_PROCESSES = 0
_BOT_TASKS = 0  # tasks submitted to the current pool
_NEXT_POOL: concurrent.futures.ProcessPoolExecutor | None = None  # started, to replace it


def configure_bots(processes: int) -> None:
    """Decide the bots' budgeted decisions in ``processes`` worker processes (0: in two
    worker threads of this process, which share its interpreter lock with the event loop).
    The processes start with the first use."""
    global _BOT_PROCESSES
    if max(0, processes) == _BOT_PROCESSES and _BOT_POOL is not None:
        return  # (a server started again in the same process: the same pool)
    stop_bots()
    _BOT_PROCESSES = max(0, processes)


def _init_worker() -> None:
    """Each bot worker process, first: a lower priority, a watch on its server process, the
    rule sets loaded."""
    with contextlib.suppress(OSError):
        os.nice(BOT_NICE)
    end_with_parent(os.getppid())
    memtrace.install_handler()  # PYTHONTRACEMALLOC set: SIGUSR1 writes a snapshot
    # (imported here: server.room.game imports this module; the engine is reached through it)
    from server.room import game

    game.warm_up()


def _warm_worker() -> int:
    """A no-op task: waits until a worker process is up (and says which)."""
    return os.getpid()


def in_bot_process(fn: Callable[..., T], *args: Any) -> concurrent.futures.Future[T] | None:
    """Run ``fn(*args)`` (picklable: a module-level function) in a bot worker process; None
    when bots decide in threads (``configure_bots(0)``) or the pool is broken (the caller
    runs it itself)."""
    if not _BOT_PROCESSES:
        return None
    try:
        return _submit(fn, *args)
    except concurrent.futures.BrokenExecutor:
        drop_bot_pool()
        return None


def drop_bot_pool() -> None:
    """Forget a broken pool (a worker process died): the next use starts a new one."""
    global _BOT_POOL, _NEXT_POOL
    with _BOT_POOL_LOCK:
        for pool in (_BOT_POOL, _NEXT_POOL):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        _BOT_POOL = _NEXT_POOL = None


def stop_bots() -> None:
    """Drop queued bot decisions (at shutdown); a running one finishes on its own."""
    drop_bot_pool()


def choose(
    view: JSON, legal_actions: list[JSON], rng: random.Random, budget_s: float
) -> JSON | None:
    """:func:`bots.choose` in the pool, given ``budget_s`` seconds; None when it took longer
    or a worker process died (the caller falls back: ``server.room.game.fast_action``)."""
    fut: concurrent.futures.Future[Any]
    try:
        if _BOT_PROCESSES:
            fut = _submit(_choose_seeded, view, legal_actions, rng.getrandbits(64))
        else:
            fut = _submit(bots.choose, view, legal_actions, rng)
        action = dict(fut.result(timeout=budget_s))
    except concurrent.futures.TimeoutError:
        BOT_STATS["fallbacks"] += 1
        return None
    except concurrent.futures.BrokenExecutor:
        BOT_STATS["fallbacks"] += 1
        drop_bot_pool()  # a worker process died: a new pool next time
        return None
    if _BOT_PROCESSES:
        BOT_STATS["in_processes"] += 1
    return action


def chooser(budget_s: float) -> game.Chooser:
    """:func:`choose` with a budget of ``budget_s`` seconds: what the room logic is given to
    have its bots decide (``server.room.game.Chooser``)."""

    def choose_in_budget(view: JSON, legal_actions: list[JSON], rng: random.Random) -> JSON | None:
        return choose(view, legal_actions, rng, budget_s)

    return choose_in_budget


def _choose_seeded(view: JSON, legal_actions: list[JSON], seed: int) -> JSON:
    """:func:`bots.choose` in a bot worker process (the caller's rng is not sent: a seed
    drawn from it is)."""
    return dict(bots.choose(view, legal_actions, random.Random(seed)))


def _submit(fn: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
    """``fn(*args)`` submitted to the pool. A pool whose processes have run
    :data:`TASKS_PER_WORKER` tasks each is retired first, for the next one, whose first
    process was started :data:`WARM_AHEAD` tasks before (so no tick waits for a process
    loading its rule sets). Under the lock: no one submits to a pool being retired."""
    global _BOT_POOL, _NEXT_POOL, _BOT_TASKS
    with _BOT_POOL_LOCK:
        pool = _pool_locked()
        if _BOT_PROCESSES:
            limit, done = TASKS_PER_WORKER * _BOT_PROCESSES, _BOT_TASKS
            nxt = _NEXT_POOL
            if nxt is None and done >= limit - WARM_AHEAD:
                nxt = _NEXT_POOL = _new_process_pool()
                nxt.submit(_warm_worker)
            if nxt is not None and done >= limit:
                # its queued tasks still run (no cancel), then its processes end
                pool.shutdown(wait=False)
                pool = _BOT_POOL = nxt
                _NEXT_POOL = None
                _BOT_TASKS = 0
                BOT_STATS["recycled"] += 1
        _BOT_TASKS += 1
        return pool.submit(fn, *args)


def _bot_pool() -> concurrent.futures.Executor:
    """The pool (started now if need be)."""
    with _BOT_POOL_LOCK:
        return _pool_locked()


def _pool_locked() -> concurrent.futures.Executor:
    global _BOT_POOL, _BOT_TASKS
    if _BOT_POOL is None:
        _BOT_TASKS = 0
        if _BOT_PROCESSES:
            _BOT_POOL = _new_process_pool()
        else:
            _BOT_POOL = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="bot")
    return _BOT_POOL


def _new_process_pool() -> concurrent.futures.ProcessPoolExecutor:
    # spawn, not fork: the server process runs threads and an event loop. (Not
    # ``max_tasks_per_child``: on Python 3.11, and later ones until CPython gh-115634 was
    # fixed, a pool using it may stop replacing its workers and hang; whole pools are
    # retired instead: :func:`_submit`.)
    ctx = multiprocessing.get_context("spawn")
    return concurrent.futures.ProcessPoolExecutor(
        _BOT_PROCESSES, mp_context=ctx, initializer=_init_worker
    )
