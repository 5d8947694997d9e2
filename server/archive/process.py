"""The archiver in a process of its own (``--archive-process``, the default): the game server only queues the rooms whose hand or game ended; this process reads their logs and writes the archive, off the game server's event loop and CPU.

The game server starts it (:func:`start`) with what it needs to connect to the same Redis
and database (a :class:`Plan`), and stops it (:func:`stop`) when it stops; the process
also ends by itself when the server is gone (killed: nobody stopped it). It runs the
archiver's passes and the backfill (:class:`~server.archive.archiver.Archiver` with
``passes=True``), polling the queue every :data:`POLL` seconds, as any process of the fleet
would; the game server keeps the commit hook, the lag metric and the game pages' reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.process
import os
import signal
from dataclasses import dataclass

from server.process.procs import end_with_parent

log = logging.getLogger("mahjong.archive")

#: seconds between this process's looks at the queue (the game server cannot wake it)
POLL = 1.0


@dataclass(frozen=True, slots=True)
class Plan:
    """What the archiver's process connects to: the server's Redis (its URL, and whether it
    is a Cluster's), the archive's URL, and how it logs."""

    redis_url: str
    cluster: bool
    archive_url: str
    closed_room_ttl: float
    log_level: str
    log_json: bool


def start(plan: Plan) -> multiprocessing.process.BaseProcess:
    """Start the archiver's process (spawned: the server runs threads and an event loop)."""
    ctx = multiprocessing.get_context("spawn")
    proc = ctx.Process(target=main, args=(plan, os.getpid()), name="mahjong-archiver")
    proc.start()
    log.info("archiver process started", extra={"pid": proc.pid})
    return proc


def stop(proc: multiprocessing.process.BaseProcess, timeout: float = 10.0) -> None:
    """Stop it: SIGTERM (it queues what it gathered and closes), then SIGKILL after
    ``timeout`` seconds."""
    if proc.is_alive():
        proc.terminate()
        proc.join(timeout)
    if proc.is_alive():
        proc.kill()
        proc.join(5)


def main(plan: Plan, parent: int) -> None:
    """The process's entry point."""
    from server.process.logs import setup_logging

    setup_logging(plan.log_level, plan.log_json)
    end_with_parent(parent)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_run(plan))


async def _run(plan: Plan) -> None:
    from server.archive.archiver import Archiver
    from server.storage.store import open_store

    store = open_store(plan.redis_url, plan.cluster)
    archiver = Archiver(
        store, plan.archive_url, plan.closed_room_ttl, passes=True, period=POLL, gather=0.0
    )
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    task = loop.create_task(archiver.run())
    try:
        await stopping.wait()
    finally:
        archiver.stopped = True
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, 10)
        await archiver.close()
        await store.close()
