"""The archive's database connections: SQLite (aiosqlite) and PostgreSQL (asyncpg) behind
one small :class:`Db` interface, so :mod:`server.archive.sql` writes each query once.

Queries use ``?`` placeholders; the PostgreSQL driver numbers them (``$1``…). Every write is
its own short transaction (``Db.transaction``).

SQLite is safe with several server processes on one machine: the database is in WAL mode
(readers never block the writer, one writer at a time, across processes), each connection
waits up to ``BUSY_MS`` for the write lock (``busy_timeout``) instead of failing, writes
take the lock at their start (``BEGIN IMMEDIATE``: no deadlock between two processes that
both read first), and every archive write is an ``INSERT … ON CONFLICT DO NOTHING`` keyed
by the game id (and hand number), so two processes archiving the same game write it once.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Protocol
from urllib.parse import urlparse

import aiosqlite
import asyncpg

#: a value a query takes or returns
Value = str | int | float | bool | bytes | None
Row = tuple[Value, ...]

#: how long an SQLite connection waits for another process's write lock (ms)
BUSY_MS = 10_000
#: the wait between two tries to switch a file to WAL while another connection does (ms)
WAL_RETRY_MS = 10


class Db(Protocol):
    """One connection to the archive's database."""

    dialect: str  # "sqlite" | "postgresql"

    async def execute(self, sql: str, args: Sequence[Value] = ()) -> None: ...

    async def fetch(self, sql: str, args: Sequence[Value] = ()) -> list[Row]: ...

    def transaction(self) -> AbstractAsyncContextManager[None]: ...

    async def close(self) -> None: ...


async def _wal(conn: aiosqlite.Connection) -> None:
    """``PRAGMA journal_mode = WAL``, tried again for up to ``BUSY_MS`` while it finds the file
    locked: SQLite waits for no lock there (``busy_timeout`` does not cover it), so a process
    opening a new file while another switches it to WAL fails at once with "database is
    locked" (two server processes starting on one new archive)."""
    for _ in range(BUSY_MS // WAL_RETRY_MS):
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorname != "SQLITE_BUSY":  # "database is locked"
                raise
        await asyncio.sleep(WAL_RETRY_MS / 1000)
    await conn.execute("PRAGMA journal_mode = WAL")  # the last try: its error is the caller's


class SqliteDb:
    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self.lock = asyncio.Lock()  # one transaction at a time on the one connection

    @classmethod
    async def open(cls, path: Path) -> SqliteDb:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path), isolation_level=None)  # we BEGIN ourselves
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        await _wal(conn)
        await conn.execute("PRAGMA synchronous = NORMAL")  # WAL: durable at checkpoints
        return cls(conn)

    async def execute(self, sql: str, args: Sequence[Value] = ()) -> None:
        await self.conn.execute(sql, tuple(args))

    async def fetch(self, sql: str, args: Sequence[Value] = ()) -> list[Row]:
        async with self.conn.execute(sql, tuple(args)) as cur:
            return [tuple(r) for r in await cur.fetchall()]

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[None]:
        async with self.lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    def transaction(self) -> AbstractAsyncContextManager[None]:
        return self._tx()

    async def close(self) -> None:
        await self.conn.close()


_PLACEHOLDER = re.compile(r"\?")


def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1``, ``$2``…"""
    n = 0

    def one(_: re.Match[str]) -> str:
        nonlocal n
        n += 1
        return f"${n}"

    return _PLACEHOLDER.sub(one, sql)


class PostgresDb:
    dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        #: the connection of the task's open transaction
        self.tx_conn: ContextVar[asyncpg.Connection | None] = ContextVar("tx", default=None)

    @classmethod
    async def open(cls, url: str) -> PostgresDb:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=4, command_timeout=30)
        return cls(pool)

    async def execute(self, sql: str, args: Sequence[Value] = ()) -> None:
        tx = self.tx_conn.get()
        if tx is not None:
            await tx.execute(numbered(sql), *args)
            return
        async with self.pool.acquire() as conn:
            await conn.execute(numbered(sql), *args)

    async def fetch(self, sql: str, args: Sequence[Value] = ()) -> list[Row]:
        tx = self.tx_conn.get()
        if tx is not None:
            rows = await tx.fetch(numbered(sql), *args)
        else:
            async with self.pool.acquire() as conn:
                rows = await conn.fetch(numbered(sql), *args)
        return [tuple(r.values()) for r in rows]

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[None]:
        async with self.pool.acquire() as conn, conn.transaction():
            token = self.tx_conn.set(conn)
            try:
                yield
            finally:
                self.tx_conn.reset(token)

    def transaction(self) -> AbstractAsyncContextManager[None]:
        return self._tx()

    async def close(self) -> None:
        await self.pool.close()


async def connect(url: str) -> Db:
    """A connection to the archive at ``url``: ``sqlite:///<path>`` (or a bare path) or
    ``postgresql://…`` / ``postgres://…``."""
    scheme = urlparse(url).scheme
    if scheme in ("postgresql", "postgres"):
        return await PostgresDb.open(url)
    if scheme == "sqlite":
        return await SqliteDb.open(Path(url[len("sqlite://") :].removeprefix("/") or "."))
    if scheme == "":
        return await SqliteDb.open(Path(url))
    raise ValueError(f"archive URL: unknown scheme {scheme!r} (sqlite:/// or postgresql://)")
