"""What the parts of one server process share: configuration, store, metrics, identity, run flags and the one place Redis errors are counted.

One :class:`Runtime` per process, made by :class:`server.app.App` and handed to every part;
nothing in it does I/O.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from types import TracebackType

import redis.exceptions

from server.net.addresses import AddressCounts, client_address, parse_networks
from server.net.transport import Conn
from server.process.clock import REAL, Clock
from server.process.config import Config
from server.process.metrics import Metrics
from server.process.reconnect import Learned
from server.room.commands import Timing
from server.storage.store import Store

log = logging.getLogger("mahjong.server")


class RedisGuard:
    """``with rt.redis_guard(): ...``: a Redis error (and whatever else ``kinds`` names)
    raised inside is counted (``redis_errors``), logged when ``warning`` is given, and
    swallowed; ``failed`` tells the caller it happened. Every background loop and best-effort
    write of the server handles storage errors through this (they used to be ~19 copies of
    the same ``except``)."""

    __slots__ = ("failed", "kinds", "metrics", "warning")

    def __init__(
        self,
        metrics: Metrics,
        warning: str | None = None,
        kinds: tuple[type[BaseException], ...] = (redis.exceptions.RedisError,),
    ) -> None:
        self.metrics = metrics
        self.warning = warning
        self.kinds = kinds
        self.failed = False

    def __enter__(self) -> RedisGuard:
        return self

    def __exit__(
        self,
        et: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        if et is None or exc is None or not isinstance(exc, self.kinds):
            return False
        self.failed = True
        self.metrics.inc("redis_errors")
        if self.warning is not None:
            log.warning(self.warning, exc_info=(et, exc, tb))
        return True


#: a storage error or a broken connection to it (the loops' usual pair)
REDIS_OR_OS: tuple[type[BaseException], ...] = (redis.exceptions.RedisError, OSError)


class Runtime:
    """The shared state of one server process (see the module docstring)."""

    def __init__(
        self, cfg: Config, store: Store, metrics: Metrics | None = None, clock: Clock = REAL
    ) -> None:
        self.cfg = cfg
        self.store = store
        self.metrics = metrics or Metrics()
        #: the game's time: deadlines, grace, timers, leavers (server/process/clock.py)
        self.clock = clock
        self.server_id = cfg.server_id or f"{socket.gethostname()}:{cfg.port}:{os.getpid()}"
        #: this process among the live ones (mj:procs): fixed for its lifetime (server_id
        #: gets the real port only once listening), unique even for a reused pid
        self.proc_key = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.grace_ms = int(cfg.grace_seconds * 1000)
        #: the server's settings a room's deadlines are computed with (every room step)
        self.timing = Timing(self.grace_ms, cfg.bot_delay_ms)
        self.shutting_down = False
        #: set by App.stop_tasks: every background loop ends at its next turn (a cancellation
        #: alone is not enough: one landing inside a redis-py call is sometimes swallowed)
        self.stopped = False
        #: set after a commit whose deadline is near: the timer loop looks at once
        self.timer_wake = asyncio.Event()
        self.conns: set[Conn] = set()
        #: connections open but not yet through their hello (see --hello-backlog)
        self.greeting = 0
        self.hellos_done = 0  # hellos answered (the reconnect schedule's meter)
        #: restart gap and saturated hello rate learned from earlier restarts (mj:restart),
        #: used by a graceful stop's reconnect schedule (server/process/reconnect.py)
        self.learned = Learned()
        #: open connections per client address (--max-conns-per-address), and the peers
        #: whose X-Forwarded-For names the client (server/net/addresses.py)
        self.addresses = AddressCounts(
            cfg.max_conns_per_address, parse_networks(cfg.conn_limit_exempt)
        )
        self.trusted_proxies = parse_networks(cfg.trusted_proxies)

    def client_address(self, peer: str | None, forwarded: list[str]) -> str | None:
        """The client address of a connection from ``peer`` with these ``X-Forwarded-For``
        values (:func:`server.net.addresses.client_address`)."""
        return client_address(peer, forwarded, self.trusted_proxies)

    def redis_guard(
        self,
        warning: str | None = None,
        kinds: tuple[type[BaseException], ...] = (redis.exceptions.RedisError,),
    ) -> RedisGuard:
        return RedisGuard(self.metrics, warning, kinds)

    def greeted(self, conn: Conn) -> None:
        """The connection's hello is through (or it closed first): it no longer counts
        against ``--hello-backlog``."""
        if conn.greeting:
            conn.greeting = False
            self.greeting -= 1
