"""Wiring: makes one server process's parts, hands each what it needs, starts and stops them (:func:`run_server`).

The parts, each in its own module (docs/architecture.md has the picture):
:mod:`server.net.transport` (websockets), :mod:`server.api.session` (frames to handlers),
:mod:`server.api.handlers`, :mod:`server.api.presence`, :mod:`server.flow.commits` (the only writer of room
state), :mod:`server.flow.fanout`, :mod:`server.room.frames` and :mod:`server.room.facts` (pure),
:mod:`server.flow.loops` (notifications, timers, healing), :mod:`server.api.stopping` (graceful stop,
reconnect learning), :mod:`server.api.ops` (HTTP) and :mod:`server.flow.retention`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import signal
import socket
import ssl
import time
from collections.abc import Callable, Coroutine
from multiprocessing.process import BaseProcess
from typing import Any

import redis.exceptions
from websockets.asyncio.server import Server, ServerConnection
from websockets.http11 import Request, Response

import mahjong_native
from protocol.codec import Limits
from protocol.codes import CloseCode
from server.api.handlers import Context
from server.api.ops import Ops
from server.api.presence import Presence
from server.api.session import Session
from server.api.snapshots import Snapshots
from server.api.stopping import Stopping, bounded
from server.archive import OFF, archive_url
from server.archive import process as archive_process
from server.archive.archiver import Archiver
from server.archive.pages import GamePages
from server.flow import bot_pool
from server.flow.commits import Commits
from server.flow.fanout import Feed, Feeds
from server.flow.loops import Loops, NotifierFactory, PubSubNotifier
from server.flow.retention import Sweeper
from server.flow.runtime import Runtime
from server.net import transport, web
from server.net.keepalive import Keepalive
from server.net.transport import Conn, binary_frame
from server.process.clock import REAL, Clock
from server.process.collector import freeze_loop
from server.process.config import Config
from server.process.memtrace import log_memory_top, tracing
from server.process.metrics import Metrics
from server.process.reconnect import Learned
from server.room import commands, game
from server.room.frames import EntryFrames, quiet, visible_events
from server.room.state import RoomState
from server.storage.store import CommitResult, Store

__all__ = [
    "App",
    "Conn",
    "EntryFrames",
    "Feed",
    "binary_frame",
    "freeze_loop",
    "quiet",
    "run_server",
    "visible_events",
]

log = logging.getLogger("mahjong.server")
JSON = dict[str, Any]


class App:
    """One server process: its parts, made and connected here; its lifecycle."""

    def __init__(
        self,
        cfg: Config,
        store: Store,
        notifier: NotifierFactory | None = None,
        clock: Clock = REAL,
    ) -> None:
        self.rt = rt = Runtime(cfg, store, clock=clock)
        self.limits = Limits(max_frame_bytes=cfg.max_frame_bytes)
        self.commits = Commits(cfg, store, rt.metrics, clock, rt.timing)
        self.snapshots = Snapshots(rt, self.commits)
        self.feeds = Feeds(
            self.snapshots.read_log, self.snapshots.send, lambda: rt.metrics.inc("redis_errors")
        )
        self.presence = Presence(rt, self.commits, self.feeds, self.limits)
        self.session = Session(Context(rt, self.commits, self.feeds), self.presence, self.limits)
        self.loops = Loops(rt, self.feeds, self.commits, self.presence.sweep_leavers)
        self.notifier = (notifier or PubSubNotifier)(rt, self.feeds, self.loops)
        self.stopping = Stopping(rt, self.presence)
        self.ops = Ops(rt, lambda: len(self.feeds))
        self.presence.web_build = lambda: self.ops.site.build
        self.keepalive = Keepalive(rt.conns, cfg.keepalive_seconds, rt.metrics)
        self.commits.hooks += [self.feeds.committed, self.loops.committed]
        self.commits.held_hooks.append(self.loops.held)
        self.tasks: list[asyncio.Task[None]] = []
        self.timer_task: asyncio.Task[None] | None = None
        self.ws_server: Server | None = None
        self.sweeper = Sweeper(self)  # retention: idle rooms, expiry (server/flow/retention.py)
        # the game archive (server/archive/): hands and finished games, after their commits
        self.archiver = Archiver(
            store, archive_url(cfg.archive_url, cfg.data_dir), cfg.closed_room_ttl, rt.metrics
        )
        #: the archive's own process (``--archive-process``), once started
        self.archive_proc: BaseProcess | None = None
        self.commits.hooks.append(self.archiver.committed)
        self.ops.api = GamePages(store, lambda: self.archiver.archive).respond

    # ------------------------------------------------------------ shared state, read-only

    @property
    def cfg(self) -> Config:
        return self.rt.cfg

    @property
    def clock(self) -> Clock:
        return self.rt.clock

    @property
    def store(self) -> Store:
        return self.rt.store

    @property
    def metrics(self) -> Metrics:
        return self.rt.metrics

    @property
    def server_id(self) -> str:
        return self.rt.server_id

    @property
    def stopped(self) -> bool:
        return self.rt.stopped

    @property
    def shutting_down(self) -> bool:
        return self.rt.shutting_down

    @property
    def learned(self) -> Learned:
        return self.rt.learned

    @property
    def web(self) -> web.Site:
        """The browser client's files (replaceable: tests serve their own)."""
        return self.ops.site

    @web.setter
    def web(self, site: web.Site) -> None:
        self.ops.site = site

    # ------------------------------------------------------------ the parts' entry points

    async def handler(self, ws: ServerConnection) -> None:
        """websockets' connection handler: a client address over ``--max-conns-per-address``
        (handshakes that passed :class:`server.api.ops.Ops`'s check together) is closed with
        1013 (try again later) at once."""
        rt = self.rt
        address = rt.client_address(*transport.peer_of(ws))
        if not rt.addresses.add(address):
            rt.metrics.inc("conns_refused_per_address")
            await transport.refuse(
                ws, CloseCode.TRY_AGAIN_LATER, "too many connections from your address"
            )
            return
        try:
            await transport.accept(ws, rt.cfg, rt.metrics, self.session.serve)
        finally:
            rt.addresses.remove(address)

    async def process_request(self, conn: ServerConnection, request: Request) -> Response | None:
        """websockets' HTTP hook (:class:`server.api.ops.Ops`)."""
        return await self.ops.process_request(conn, request)

    async def apply(
        self, room: str, command: commands.Command
    ) -> tuple[CommitResult | None, RoomState | None]:
        """Commit ``command`` to ``room`` (:meth:`Commits.apply`; the retention host)."""
        return await self.commits.apply(room, command)

    def members_here(self, room: str) -> set[str]:
        """Players connected to ``room`` on this process (the retention host)."""
        return self.presence.members_here(room)

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        rt = self.rt
        rt.store.player_ttl = max(0, int(rt.cfg.player_ttl))
        rt.store.clock = rt.clock  # process liveness, commit notifications, the archive's lag
        # --snapshot-every 1: every commit writes the whole state, in the old format
        rt.store.old_format = rt.cfg.snapshot_every <= 1
        game.warm_up()
        # the bot worker processes start with the first bot move (bot_pool.configure_bots)
        bot_pool.configure_bots(rt.cfg.bot_processes)
        await self.wait_for_redis()
        plan = archive_plan(rt.cfg, rt.store, self.archiver.url)
        if plan is not None:  # the archive's passes: in a process of their own
            self.archiver.passes = False
            self.archive_proc = archive_process.start(plan)
        # a process of before snapshots live (a rolling upgrade): write the format it reads
        await rt.store.check_peers()
        await self.loops.reconcile_timers()
        await self.stopping.learn_at_start()
        loop = asyncio.get_running_loop()
        self.timer_task = loop.create_task(self.loops.timer_loop(), name="timer_loop")
        named: list[tuple[str, Coroutine[Any, Any, None]]] = [
            ("heal_loop", self.loops.heal_loop()),
            ("retention_sweeper", self.sweeper.run()),
            ("archiver", self.archiver.run()),
            ("keepalive_loop", self.keepalive.run()),
            ("meter_loop", self.stopping.meter_loop()),
        ]
        named += [("notifier", c) for c in self.notifier.loops()]
        if rt.cfg.gc_freeze_seconds > 0:
            named.append(
                ("freeze_loop", freeze_loop(rt.cfg.gc_freeze_seconds, rt.cfg.gc_full_seconds))
            )
        self.tasks = [self.timer_task, *(loop.create_task(c, name=n) for n, c in named)]

    async def wait_for_redis(self) -> None:
        """Wait (bounded by ``redis_load_wait``) while Redis is still loading its data set:
        after a restart the embedded Redis answers LOADING until its AOF is read (PING works
        during loading, the first real command would fail with ``BusyLoadingError``).

        Every attempt is bounded too (a Redis that accepts the connection but does not
        answer, e.g. a frozen process, is retried like a loading one until the deadline)."""
        give_up = time.monotonic() + self.rt.cfg.redis_load_wait
        delay = 0.05
        while True:
            left = give_up - time.monotonic()
            try:
                async with asyncio.timeout(max(left, 1.0)):
                    await self.rt.store.ping()
                    if not await self.rt.store.loading():
                        return
                silent = False
            except redis.exceptions.BusyLoadingError:
                silent = False
            except (redis.exceptions.TimeoutError, TimeoutError):
                silent = True
            if not silent:
                self.rt.metrics.inc("redis_loading_waits")
            if time.monotonic() > give_up:
                if silent:
                    raise redis.exceptions.TimeoutError(
                        f"redis did not answer within {self.rt.cfg.redis_load_wait} s"
                    )
                raise redis.exceptions.BusyLoadingError(
                    f"redis still loading its data set after {self.rt.cfg.redis_load_wait} s"
                )
            log.info("redis is %s; waiting", "not answering" if silent else "loading its data set")
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)

    async def stop_tasks(self) -> None:
        """Stop the background loops and feeds, bounded (5 s).

        Each loop is told to stop (``stopped`` / ``Feed.closed``, checked every turn) *and*
        cancelled. The flag is what makes this reliable: a cancellation that arrives while
        a loop is inside a redis-py call is sometimes swallowed (redis-py 8.1 on Python
        3.11: about 1 in 25 in ``tests/server_tests/test_startup.py``-like stops), and a loop
        that swallowed it used to run on for ever -- past this bounded wait, and then
        ``asyncio.run``'s final cancel-and-gather waited for it with no bound: the process
        (or the test) hung, idle in the event loop. A task still running is cancelled again
        until the deadline, then logged with its stack."""
        self.rt.stopped = True
        self.archiver.stopped = True
        feeds = self.feeds.close_all()
        tasks = [*self.tasks, *(f.task for f in feeds)]
        self.tasks = []
        self.rt.timer_wake.set()
        give_up = time.monotonic() + 5.0
        stuck = set(tasks)
        while stuck and time.monotonic() < give_up:
            for t in stuck:
                t.cancel()
            _done, stuck = await asyncio.wait(stuck, timeout=min(0.5, give_up - time.monotonic()))
        for t in tasks:
            if t.done() and not t.cancelled():
                t.exception()  # retrieved: no "exception was never retrieved" warning
        for t in stuck:  # say where, so a hang can be found
            out = io.StringIO()
            t.print_stack(file=out)
            log.warning("task did not stop: %s", out.getvalue())

    async def shutdown(self) -> None:
        """Stop accepting, tell clients to reconnect, finish in-flight requests."""

        async def stop_timers() -> None:
            await bounded(self.timer_task, 1.0)

        async def close_connections() -> None:
            if self.ws_server is not None:
                self.ws_server.close(close_connections=True)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.ws_server.wait_closed(), self.rt.cfg.shutdown_grace)

        await self.stopping.shutdown(stop_timers, close_connections, self.stop_tasks)

    async def note_listening(self) -> None:
        task = await self.stopping.note_listening()
        if task is not None:
            self.tasks.append(task)

    async def record_leavers(self) -> None:
        await self.presence.record_leavers()


def archive_plan(cfg: Config, store: Store, url: str) -> archive_process.Plan | None:
    """What the archive's own process needs (``--archive-process``); None when this process
    runs the archive's passes, or nothing is archived."""
    if not cfg.archive_process or url == OFF or store.url is None:
        return None
    return archive_process.Plan(
        store.url, store.IS_CLUSTER, url, cfg.closed_room_ttl, cfg.log_level, cfg.log_json
    )


async def run_server(
    cfg: Config,
    store: Store,
    ready: Callable[[int], None] | None = None,
    stop: asyncio.Event | None = None,
    ssl_context: ssl.SSLContext | None = None,
    notifier: NotifierFactory | None = None,
    clock: Clock = REAL,
) -> None:
    """Serve until SIGTERM/SIGINT (or until ``stop`` is set, when given). With
    ``ssl_context`` the server speaks wss:// (TLS) on the same port; ``notifier`` replaces
    the pub/sub notifier (``server.flow.cluster_notifier.ClusterNotifier`` on a Redis Cluster); ``clock``
    the real clock (a test's ``server.process.clock.TestClock``)."""
    app = App(cfg, store, notifier, clock)
    await app.start()
    loop = asyncio.get_running_loop()
    if stop is None:
        stop = asyncio.Event()
        got_stop = stop

        def on_signal() -> None:
            if got_stop.is_set():
                # a second SIGTERM/SIGINT: the operator wants it gone now (a leftover embedded
                # redis-server is stopped cleanly by the next start)
                log.warning("second stop signal: exiting at once")
                os._exit(1)
            got_stop.set()

        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, on_signal)
        if tracing():  # PYTHONTRACEMALLOC=1: SIGUSR1 logs where memory is
            with contextlib.suppress(NotImplementedError, RuntimeError, AttributeError):
                loop.add_signal_handler(signal.SIGUSR1, log_memory_top)
    try:
        await _listen_until_stopped(app, cfg, stop, ready, ssl_context)
    finally:
        # also when listening failed (an address in use or not this machine's): the loops
        # app.start() began must stop, or the event loop's final cancel-and-gather can wait
        # for one for ever, and the process never exits (nor stops its embedded Redis)
        await app.stop_tasks()  # feeds that handlers opened while closing
        await app.record_leavers()  # handlers that ended after the graceful part
        bot_pool.stop_bots()
        await app.archiver.close()
        if app.archive_proc is not None:
            await asyncio.to_thread(archive_process.stop, app.archive_proc)
        await store.close()
    log.info("stopped")


async def _listen_until_stopped(
    app: App,
    cfg: Config,
    stop: asyncio.Event,
    ready: Callable[[int], None] | None,
    ssl_context: ssl.SSLContext | None,
) -> None:
    """Listen, serve until ``stop`` is set, then shut down gracefully (bounded)."""
    async with transport.listen(cfg, app.handler, app.process_request, ssl_context) as (
        ws_server,
        port,
    ):
        app.ws_server = ws_server
        if not cfg.server_id:
            app.rt.server_id = f"{socket.gethostname()}:{port}:{os.getpid()}"
        log.info(
            "listening",
            extra={
                "host": cfg.host,
                "port": port,
                "server": app.server_id,
                "implementation": mahjong_native.describe(),
            },
        )
        if ready is not None:
            ready(port)
        await app.note_listening()
        await stop.wait()
        try:
            # bounded: a stop must never hang (a stuck client, a slow Redis)
            await asyncio.wait_for(app.shutdown(), cfg.shutdown_grace + 5.0)
        except TimeoutError:
            log.warning("graceful shutdown timed out; closing anyway")
            await app.stop_tasks()
