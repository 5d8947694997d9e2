"""Several server processes opening one new SQLite archive file at the same moment all get
it: switching a new file to WAL (``PRAGMA journal_mode = WAL``) takes a lock SQLite does not
wait for (``busy_timeout`` does not cover it), so a process that tried while another was
switching failed at once with "database is locked" (it failed a backfill test in a
clean-clone CI). Real processes, a real SQLite file, started together by a barrier."""

from __future__ import annotations

import asyncio
import multiprocessing
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

import pytest

from server.archive.drivers import SqliteDb

pytestmark = pytest.mark.timeout(240)

#: processes opening each new file together, and rounds (a new file each): without the
#: retry a few rounds in a hundred failed, and this test failed in each of its trial runs
OPENERS = 6
ROUNDS = 100


def open_once(path: str, barrier: Barrier, results: Queue[str]) -> None:
    """One process: wait for the others, open the archive, report its journal mode (or the
    error)."""

    async def go() -> str:
        barrier.wait()
        db = await SqliteDb.open(Path(path))
        try:
            rows = await db.fetch("PRAGMA journal_mode")
            return str(rows[0][0])
        finally:
            await db.close()

    try:
        results.put(asyncio.run(go()))
    except Exception as exc:  # reported to the parent, which asserts
        results.put(f"{type(exc).__name__}: {exc}")


def test_processes_opening_a_new_file_together_all_get_it_in_wal_mode(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("fork")
    failures: list[str] = []
    for i in range(ROUNDS):
        path = str(tmp_path / f"round{i}" / "archive.sqlite")
        barrier, results = ctx.Barrier(OPENERS, timeout=60), ctx.Queue()
        procs = [
            ctx.Process(target=open_once, args=(path, barrier, results)) for _ in range(OPENERS)
        ]
        for p in procs:
            p.start()
        modes = [results.get(timeout=60) for _ in procs]
        for p in procs:
            p.join(10)
        failures += [m for m in modes if m != "wal"]
    assert failures == []
