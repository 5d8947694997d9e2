"""The WebSocket server: connections, dispatch, fan-out, timers, HTTP ops endpoints."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import random
import secrets
import signal
import socket
import ssl
import time
import tracemalloc
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable
from http import HTTPStatus
from typing import Any, ClassVar

import redis.exceptions
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State

from protocol import messages as m
from protocol.actions import action_to_wire
from protocol.codec import CodecError, Limits, decode, encode
from protocol.codes import CloseCode, ErrorCode
from protocol.messages import (
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    ProtocolError,
    parse_client,
    request_id_of,
)
from server import game, resp, rooms, web
from server.clock import now_ms
from server.collector import freeze_loop
from server.config import Config
from server.metrics import Metrics
from server.reconnect import (
    HelloMeter,
    Learned,
    Plan,
    plan,
    probe_wait,
    raised,
    restart_gap,
    smooth,
)
from server.retention import Sweeper
from server.rooms import Change, RoomError
from server.store import CHANNEL_PATTERN, CommitResult, Store, room_of_channel

log = logging.getLogger("mahjong.server")
JSON = dict[str, Any]
MAX_ATTEMPTS = 25
#: committed entries a room's feed keeps in memory (see Feed.remember)
RECENT_ENTRIES = 4
#: rooms whose latest committed state this process keeps in memory (LRU)
STATE_CACHE_ROOMS = 2048
OUT_QUEUE = 2000
#: a process counts as live (is sent other processes' commit notifications) this long after
#: it last renewed its registration (every 5 s, by the heal loop)
PROCESS_LIVE_MS = 30_000
#: stand-ins for a connection's handshake request and response (see slim_connection)
_HANDSHAKE_REQUEST = Request("/", Headers())
_HANDSHAKE_RESPONSE = Response(
    HTTPStatus.SWITCHING_PROTOCOLS.value, "Switching Protocols", Headers()
)
#: socket write-buffer bytes above which frames go through the writer task (which waits for
#: the buffer to drain) instead of straight to the socket
DIRECT_WRITE_LIMIT = 64 * 1024
_OPEN = State.OPEN


def binary_frame(data: bytes) -> bytes:
    """``data`` as one WebSocket binary frame as a server sends it (RFC 6455 §5.2: FIN,
    opcode 2, no RSV bits, unmasked): the bytes websockets' own serializer writes for a
    binary message on a connection without extensions (``tests/server_tests`` compares the two).
    """
    n = len(data)
    if n < 126:
        return b"\x82" + bytes((n,)) + data
    if n < 65536:
        return b"\x82\x7e" + n.to_bytes(2, "big") + data
    return b"\x82\x7f" + n.to_bytes(8, "big") + data


def log_memory_top(limit: int = 30) -> None:
    """Log the biggest allocation sites (tracemalloc must be tracing: PYTHONTRACEMALLOC=1)
    as one JSON-friendly record: [[file:line, KiB, blocks], ...]."""
    snap = tracemalloc.take_snapshot()
    stats = snap.statistics("lineno")
    total = sum(st.size for st in stats)
    top = [
        [f"{st.traceback[0].filename.rsplit('/', 2)[-1]}:{st.traceback[0].lineno}",
         round(st.size / 1024), st.count]
        for st in stats[:limit]
    ]  # fmt: skip
    log.warning("memory top", extra={"traced_kib": round(total / 1024), "top": top})


def seat_timeouts(deadlines: list[tuple[int, str, int]]) -> dict[int, int]:
    """Each seat's earliest "timeout" deadline among a room's ``deadlines``
    (``App.room_deadlines``): the deadline a seat is shown for its pending decision."""
    timeouts: dict[int, int] = {}
    for at, kind, seat in deadlines:
        if kind == "timeout" and (seat not in timeouts or at < timeouts[seat]):
            timeouts[seat] = at
    return timeouts


class Conn:
    """One client connection on this process."""

    # no per-instance __dict__ (thousands of connections per process)
    __slots__ = (
        "_chats",
        "_errors",
        "_out",
        "burst",
        "busy",
        "cid",
        "closed",
        "greeting",
        "last",
        "metrics",
        "name",
        "next_ping",
        "pinging",
        "player",
        "rate",
        "rooms",
        "seats",
        "sent",
        "sparse",
        "tokens",
        "writer_task",
        "ws",
    )

    def __init__(self, ws: ServerConnection, cfg: Config, metrics: Metrics | None = None) -> None:
        self.ws = ws
        self.metrics = metrics or Metrics()
        self.busy = False  # the writer task holds frames it has not finished sending
        self.greeting = False  # counted in App.greeting until its hello is through
        self.cid = secrets.token_hex(4)
        self.player: str | None = None
        self.name = ""
        self.rooms: dict[str, int] = {}  # room -> last seq delivered to this connection
        self.seats: dict[str, int | None] = {}  # room -> our seat (None: spectator)
        # hello.sparse: commits that change nothing for our seat are not sent (see quiet);
        # room -> seq of the last events / snapshot frame actually sent (``events.prev``)
        self.sparse = False
        self.sent: dict[str, int] = {}
        # frames waiting for the socket, the bad-message and chat windows: created on first
        # use (most connections never need them; thousands of empty ones cost ~2 KiB each)
        self._out: asyncio.Queue[bytes | None] | None = None
        self._errors: deque[float] | None = None
        self._chats: deque[float] | None = None
        self.tokens = float(cfg.rate_burst)
        self.rate = cfg.rate_per_second
        self.burst = cfg.rate_burst
        self.last = time.monotonic()
        self.closed = False
        # started with the first frame that has to wait (see send_frame): most connections
        # never need one, and a task per connection costs memory at thousands of connections
        self.writer_task: asyncio.Task[None] | None = None
        self.pinging = False  # a keepalive ping is waiting for its pong
        self.next_ping = time.monotonic() + random.uniform(0.5, 1.0) * cfg.keepalive_seconds

    @property
    def out(self) -> asyncio.Queue[bytes | None]:
        if self._out is None:
            self._out = asyncio.Queue(OUT_QUEUE)
        return self._out

    @property
    def errors(self) -> deque[float]:
        if self._errors is None:
            self._errors = deque()
        return self._errors

    @property
    def chats(self) -> deque[float]:
        if self._chats is None:
            self._chats = deque()
        return self._chats

    def queued(self) -> bool:
        """Frames are waiting for the socket."""
        return self._out is not None and not self._out.empty()

    def allow(self) -> bool:
        t = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (t - self.last) * self.rate)
        self.last = t
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def send(self, msg: m.ServerMessage) -> None:
        if not self.closed:
            self.send_frame(encode(msg.to_wire()))

    def send_frame(self, data: bytes) -> None:
        """Send an encoded frame (the same bytes may go to several connections): written at
        once when nothing is waiting to be written before it, else queued for the writer."""
        if self.closed:
            return
        if not self.busy and not self.queued() and self._write_now(data):
            return
        try:
            self.out.put_nowait(data)
            if self.writer_task is None:
                self.writer_task = asyncio.get_running_loop().create_task(self.writer())
        except asyncio.QueueFull:
            # the client does not read: drop it; it will resume from its last seq
            self.closed = True
            asyncio.get_running_loop().create_task(self._drop_slow())

    async def _drop_slow(self) -> None:
        """Close a client that does not read. Its socket buffer is full, so the close frame
        may never be written (``ws.close`` would wait for the buffer to drain forever): after
        a bounded wait the connection is aborted."""
        try:
            await asyncio.wait_for(self.ws.close(CloseCode.POLICY, "client too slow"), 2.0)
        except (TimeoutError, ConnectionClosed):
            pass
        finally:
            transport = self.ws.transport
            if transport is not None and not transport.is_closing():
                transport.abort()

    def _write_now(self, data: bytes) -> bool:
        """Hand a frame straight to the socket when nothing is queued before it and the
        socket's buffer is not backed up (the common case): no task switch, queue and async
        context per frame. False: the writer task must send it (it waits for the buffer to
        drain: flow control).

        The frame is framed here (:func:`binary_frame`) and written to the transport, not
        through websockets' send path (4-5 frames per action; its per-frame objects cost
        more than the rest of a delivery): allowed only while the connection is open
        (websockets has not sent or received a close frame) and negotiated no extension
        (the server turns compression off); this server never sends fragmented messages, so
        no frame of another message can be interleaved."""
        ws = self.ws
        transport = ws.transport
        if (
            transport is None
            or transport.is_closing()
            or transport.get_write_buffer_size() > DIRECT_WRITE_LIMIT
        ):
            return False
        protocol = ws.protocol
        if protocol.state is not _OPEN or protocol.extensions:
            # closing; or an extension (never: compression is off), which websockets' own
            # send path in the writer task applies
            return False
        try:
            transport.write(binary_frame(data))
        except Exception:
            return False  # closing: the writer deals with it
        self.metrics.counters["messages_out"] += 1
        return True

    async def writer(self) -> None:
        try:
            await self._writer()
        finally:
            self.busy = False

    async def _writer(self) -> None:
        ws = self.ws
        out = self.out
        while True:
            self.busy = False
            data = await out.get()
            if data is None:
                return
            self.busy = True
            if out.empty():
                try:
                    await ws.send(data)
                except ConnectionClosed:
                    return
                self.metrics.inc("messages_out")
                continue
            # Several frames are queued (typically the ack of the client's own action and
            # the events frame of its commit): send them together, in one socket write.
            batch = [data]
            last = False
            while not out.empty():
                more = out.get_nowait()
                if more is None:
                    last = True
                    break
                batch.append(more)
            try:
                async with ws.send_context():  # what ws.send does, for several frames
                    for frame in batch:
                        ws.protocol.send_binary(frame)
                    writes = getattr(ws.protocol, "writes", None)
                    if isinstance(writes, list) and len(writes) > 1 and all(writes):
                        ws.protocol.writes = [b"".join(writes)]
            except ConnectionClosed:
                return
            self.metrics.inc("messages_out", len(batch))
            if last:
                return


class Feed:
    """Delivers a room's committed entries, in order, to this process's connections."""

    def __init__(self, app: App, room: str) -> None:
        self.app = app
        self.room = room
        self.conns: set[Conn] = set()
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        # entries this process committed, by version (the last few): delivered from memory
        # instead of being read back from the stream
        self.recent: dict[int, JSON] = {}
        # the newest version known to exist (commits here, notifications), and whether a
        # wake-up came without one (then the log is read to find out)
        self.latest = 0
        self.unknown = False
        self.closed = False
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"feed:{room}")

    def close(self) -> None:
        """Stop the feed's task: told to stop, it returns at its next turn (at once when
        waiting, the usual case; after the log read in progress otherwise). Not cancelled
        here: a cancelled task keeps its CancelledError, whose traceback holds the feed,
        which holds the task -- a reference cycle per room left, garbage only the cycle
        collector frees (and never, once frozen: ``freeze_loop``). :meth:`App.stop_tasks`
        cancels as well, on shutdown."""
        self.closed = True
        self.wake.set()

    def kick(self, version: int | None = None) -> None:
        """Wake the feed: ``version`` exists (None: something may have been committed)."""
        if version is None:
            self.unknown = True
        elif version > self.latest:
            self.latest = version
        self.wake.set()

    def kick_if_behind(self, version: int | None) -> None:
        """A pub/sub notification of ``version``: wake up unless every connection here has
        it already (the notification of this process's own commit, delivered from memory).
        The version is remembered either way: a connection being attached (its snapshot
        loaded, not yet in ``conns``) may still need it (:meth:`attached`)."""
        if version is None or any(c.rooms.get(self.room, 0) < version for c in self.conns):
            self.kick(version)
        elif version > self.latest:
            self.latest = version

    def attached(self, version: int) -> None:
        """A connection joined the feed with a snapshot at ``version``: wake up only if a
        newer version is known, or a notification came without one (a commit between the
        snapshot's load and the join). After a restart each resumed room used to read its
        log here for nothing (500 reads for 2,000 resuming connections)."""
        if self.unknown or self.latest > version:
            self.kick()

    def remember(self, version: int, entry: JSON) -> None:
        """Keep committed entry ``version`` for delivery from memory: the newest
        ``RECENT_ENTRIES`` versions this process committed (one trim, whether or not the
        versions are consecutive)."""
        if version > self.latest:
            self.latest = version
        recent = self.recent
        recent[version] = entry
        while len(recent) > RECENT_ENTRIES:
            del recent[min(recent)]

    def deliver_now(self, version: int) -> bool:
        """Deliver this process's own commit ``version`` (remembered) at once, when no
        catch-up is running and every connection has exactly the version before it: the
        usual case, without waking the feed task. False: the feed task must do it."""
        if self.lock.locked():
            return False
        entry = self.recent.get(version)
        if entry is None:
            return False
        room = self.room
        conns = list(self.conns)
        for c in conns:
            if c.rooms.get(room, 0) != version - 1:
                return False
        frames = EntryFrames()
        before = self.recent.get(version - 1)
        for c in conns:
            self.app.deliver(c, room, version, entry, frames, before)
        return True

    def _from_memory(self, start: int) -> list[tuple[int, JSON]]:
        out = []
        v = start
        while v in self.recent:
            out.append((v, self.recent[v]))
            v += 1
        return out

    async def _run(self) -> None:
        while not self.closed:
            await self.wake.wait()
            self.wake.clear()
            if self.closed:
                return
            try:
                await self.catch_up()
            except redis.exceptions.RedisError:
                self.app.metrics.inc("redis_errors")
                log.warning("feed catch-up failed", extra={"room": self.room}, exc_info=True)
                await asyncio.sleep(0.5)
                self.kick()  # read the log again
            except Exception:
                log.exception("feed catch-up crashed", extra={"room": self.room})
                await asyncio.sleep(0.5)

    def _deliver_entries(self, entries: list[tuple[int, JSON]]) -> None:
        """Deliver each entry, in order, to the connections at the version before it (each
        entry's frames encoded once per seat view)."""
        before = self.recent.get(entries[0][0] - 1) if entries else None
        for v, entry in entries:
            frames = EntryFrames()
            for c in list(self.conns):
                if c.rooms.get(self.room, 0) == v - 1:
                    self.app.deliver(c, self.room, v, entry, frames, before)
            before = entry

    async def catch_up(self) -> None:
        async with self.lock:
            while self.conns:
                start = min(c.rooms.get(self.room, 0) for c in self.conns) + 1
                entries = self._from_memory(start)
                if entries:
                    self._deliver_entries(entries)
                    # commits by other processes arrive with their pub/sub notification,
                    # which wakes this feed again (see kick_if_behind)
                    return
                if not self.unknown and start > self.latest:
                    # every connection has every version known to exist: nothing to read (the
                    # notification of this process's own commit, delivered meanwhile)
                    return
                self.unknown = False  # a wake-up without a version during the read sets it
                entries = await self.app.store.read_log(self.room, start, count=256)
                if not entries:
                    return
                if entries[0][0] != start:
                    # entries missing from the log (trimmed): resend full snapshots
                    for c in list(self.conns):
                        if c.rooms.get(self.room, 0) < entries[0][0] - 1:
                            await self.app.send_snapshot(c, self.room)
                self._deliver_entries(entries)
                if len(entries) < 256:
                    return


#: the optional ``events`` fields taken from the log entry as they are
_EVENTS_OPTIONAL = ("lobby", "chat", "notice")


def visible_events(entry: JSON, seat: int | None) -> list[JSON]:
    """The events of log entry ``entry`` as ``seat`` (None: a spectator) may see them
    (``game.view_event``; the ones it may not see left out)."""
    out = []
    for e in entry.get("events") or []:
        seen = game.view_event(e, seat)
        if seen is not None:
            out.append(seen)
    return out


class EntryFrames:
    """What delivering one log entry computes once per seat view and shares among the
    connections with that view: the encoded frame (per seat, or per seat and ``prev`` for a
    sparse connection), the seat's visible events and whether the entry is :func:`quiet`
    for the seat."""

    __slots__ = ("events", "frames", "quiet")

    def __init__(self) -> None:
        self.frames: dict[object, bytes] = {}
        self.quiet: dict[int | None, bool] = {}
        self.events: dict[int | None, list[JSON]] = {}

    def visible(self, entry: JSON, seat: int | None) -> list[JSON]:
        ev = self.events.get(seat)
        if ev is None:
            ev = self.events[seat] = visible_events(entry, seat)
        return ev


def quiet(entry: JSON, before: JSON, seat: int | None, events: list[JSON] | None = None) -> bool:
    """Whether log entry ``entry`` changes nothing ``seat`` (None: a spectator) can see,
    given the entry before it: no lobby, chat or notice, no event that seat may see
    (``events``: :func:`visible_events` of the seat when the caller has them), and the
    seat's legal actions, deadline and the playing flag as ``before`` had them. In a claim
    window, a pass is quiet for every seat but the one that passed until the last answer
    (sparse delivery does not send it: the others learn neither that nor when someone
    answered)."""
    for name in _EVENTS_OPTIONAL:
        if entry.get(name) is not None:
            return False
    if entry.get("playing") != before.get("playing"):
        return False
    if seat is not None:
        key = str(seat)
        if (entry.get("legal") or {}).get(key) != (before.get("legal") or {}).get(key):
            return False
        if (entry.get("deadlines") or {}).get(key) != (before.get("deadlines") or {}).get(key):
            return False
    return not (visible_events(entry, seat) if events is None else events)


class App:
    def __init__(self, cfg: Config, store: Store) -> None:
        self.cfg = cfg
        self.store = store
        self.metrics = Metrics()
        self.web = web.Site()  # the browser client (server/web.py)
        self.limits = Limits(max_frame_bytes=cfg.max_frame_bytes)
        self.conns: set[Conn] = set()
        self.by_player: dict[str, set[Conn]] = {}
        self.presence_locks: dict[str, asyncio.Lock] = {}
        self.feeds: dict[str, Feed] = {}
        self.room_locks: dict[str, asyncio.Lock] = {}
        # room -> (version, state) as last committed by this process (see mutate)
        self.states: OrderedDict[str, tuple[int, JSON]] = OrderedDict()
        # room -> its load from Redis in progress (see load_shared)
        self.loading: dict[str, asyncio.Future[tuple[int, JSON] | None]] = {}
        self.server_id = cfg.server_id or f"{socket.gethostname()}:{cfg.port}:{os.getpid()}"
        #: this process among the live ones (mj:procs): fixed for its lifetime (server_id
        #: gets the real port only once listening), unique even for a reused pid
        self.proc_key = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.shutting_down = False
        #: set by stop_tasks: every background loop ends at its next turn (a cancellation
        #: alone is not enough: one landing inside a redis-py call is sometimes swallowed)
        self.stopped = False
        self.timer_wake = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []
        self.timer_task: asyncio.Task[None] | None = None
        self.grace_ms = int(cfg.grace_seconds * 1000)
        self.hello_slots = asyncio.Semaphore(max(1, cfg.hello_concurrency))
        #: connections open but not yet through their hello (see --hello-backlog)
        self.greeting = 0
        self.hellos_done = 0  # hellos answered (the reconnect schedule's meter)
        #: restart gap and saturated hello rate learned from earlier restarts (mj:restart),
        #: used by a graceful stop's reconnect schedule (server/reconnect.py)
        self.learned = Learned()
        self.meter = HelloMeter(busy_waiting=max(1, cfg.hello_concurrency))
        self.stretches = 0  # saturated stretches the meter measured (see probe_plan)
        self.pings: set[asyncio.Task[None]] = set()  # keepalive pings waiting for a pong
        self.leavers: set[str] = set()  # players whose connection a graceful stop closed
        self.ws_server: Server | None = None
        self.sweeper = Sweeper(self)  # retention: idle rooms, expiry (server/retention.py)

    # ------------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        self.store.player_ttl = max(0, int(self.cfg.player_ttl))
        with contextlib.suppress(game.GameUnavailable):
            game.warm_up()
        await self.wait_for_redis()
        await self.reconcile_timers()
        try:
            gap, rate = await self.store.learned_restart()
            self.learned = Learned(gap, rate)
        except redis.exceptions.RedisError:
            self.metrics.inc("redis_errors")
        loop = asyncio.get_running_loop()
        self.timer_task = loop.create_task(self.timer_loop(), name="timer_loop")
        self.tasks = [
            loop.create_task(self.pubsub_loop(), name="pubsub_loop"),
            self.timer_task,
            loop.create_task(self.heal_loop(), name="heal_loop"),
            loop.create_task(self.sweeper.run(), name="retention_sweeper"),
            loop.create_task(self.keepalive_loop(), name="keepalive_loop"),
            loop.create_task(self.meter_loop(), name="meter_loop"),
        ]
        if self.cfg.gc_freeze_seconds > 0:
            self.tasks.append(
                loop.create_task(
                    freeze_loop(self.cfg.gc_freeze_seconds, self.cfg.gc_full_seconds),
                    name="freeze_loop",
                )
            )

    async def wait_for_redis(self) -> None:
        """Wait (bounded by ``redis_load_wait``) while Redis is still loading its data set:
        after a restart the embedded Redis answers LOADING until its AOF is read (PING works
        during loading, the first real command would fail with ``BusyLoadingError``).

        Every attempt is bounded too (a Redis that accepts the connection but does not
        answer, e.g. a frozen process, is retried like a loading one until the deadline)."""
        give_up = time.monotonic() + self.cfg.redis_load_wait
        delay = 0.05
        while True:
            left = give_up - time.monotonic()
            try:
                async with asyncio.timeout(max(left, 1.0)):
                    await self.store.ping()
                    if not await self.store.loading():
                        return
                silent = False
            except redis.exceptions.BusyLoadingError:
                silent = False
            except (redis.exceptions.TimeoutError, TimeoutError):
                silent = True
            if not silent:
                self.metrics.inc("redis_loading_waits")
            if time.monotonic() > give_up:
                if silent:
                    raise redis.exceptions.TimeoutError(
                        f"redis did not answer within {self.cfg.redis_load_wait} s"
                    )
                raise redis.exceptions.BusyLoadingError(
                    f"redis still loading its data set after {self.cfg.redis_load_wait} s"
                )
            log.info("redis is %s; waiting", "not answering" if silent else "loading its data set")
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)

    async def reconcile_timers(self) -> None:
        """After a restart: make sure every open room with a deadline has a timer."""
        await self.store.reindex_timers(await self.store.open_rooms())

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
        self.stopped = True
        feeds = list(self.feeds.values())
        tasks = [*self.tasks, *(f.task for f in feeds)]
        self.tasks = []
        self.feeds.clear()
        for f in feeds:
            f.close()
        self.timer_wake.set()
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

    # --------------------------------------------------------------------- feeds

    def feed(self, room: str) -> Feed:
        f = self.feeds.get(room)
        if f is None:
            f = self.feeds[room] = Feed(self, room)
        return f

    def drop_from_feed(self, conn: Conn, room: str) -> None:
        conn.rooms.pop(room, None)
        conn.sent.pop(room, None)
        conn.seats.pop(room, None)
        f = self.feeds.get(room)
        if f is None:
            return
        f.conns.discard(conn)
        if not f.conns:
            f.close()
            del self.feeds[room]

    async def attach(self, conn: Conn, room: str, re: int | None = None) -> bool:
        f = self.feed(room)
        async with f.lock:
            ok = await self.send_snapshot(conn, room, re)
            if ok:
                f.conns.add(conn)
        if not ok:
            self.drop_from_feed(conn, room)
            return False
        f.attached(conn.rooms.get(room, 0))
        return True

    async def load_shared(self, room: str) -> tuple[int, JSON] | None:
        """The room's latest state for a snapshot: this process's cached copy when it is
        at the room's committed version (one small read instead of loading and decoding the
        whole state), else one load from Redis shared by every caller waiting for the same
        room (the four seats of a room resuming together after a restart) and kept in the
        cache, so the presence update and the next action of the room need no load of their
        own."""
        cached = self.states.get(room)
        if cached is not None and await self.store.version(room) == cached[0]:
            return cached
        pending = self.loading.get(room)
        if pending is not None:
            try:
                return await asyncio.shield(pending)
            except asyncio.CancelledError:
                if not pending.cancelled():
                    raise  # this caller was cancelled
                return await self.store.load(room)  # the loading caller was
        fut: asyncio.Future[tuple[int, JSON] | None] = asyncio.get_running_loop().create_future()
        self.loading[room] = fut
        try:
            loaded = await self.store.load(room)
        except asyncio.CancelledError:
            fut.cancel()
            raise
        except Exception as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved here: the waiters re-raise it
            raise
        finally:
            self.loading.pop(room, None)
        if loaded is not None and self.states.get(room, (-1,))[0] < loaded[0]:
            self._remember_state(room, *loaded)
        fut.set_result(loaded)
        self.metrics.inc("room_loads")
        return loaded

    async def send_snapshot(self, conn: Conn, room: str, re: int | None = None) -> bool:
        loaded = await self.load_shared(room)
        if loaded is None or conn.player is None:
            return False
        version, state = loaded
        if conn.player not in state["members"]:
            return False
        seat = rooms.seat_of(state, conn.player)
        view = legal = None
        deadline = None
        if state.get("game") is not None:
            view = game.view(state["game"], seat)
            legal = []
            if seat is not None and str(seat) in (state.get("pending_kinds") or {}):
                legal = game.legal(state["game"], seat)
            deadline = self.seat_deadline(state, seat)
        conn.rooms[room] = conn.sent[room] = version
        conn.seats[room] = seat
        conn.send(
            m.Snapshot(
                room=room,
                seq=version,
                lobby=rooms.public_lobby(state),
                you={"player": conn.player, "seat": seat, "spectator": seat is None},
                game=view,
                legal=legal,
                deadline=deadline,
                re=re,
            )
        )
        return True

    def seat_deadline(self, state: JSON, seat: int | None) -> int | None:
        if seat is None:
            return None
        return seat_timeouts(self.room_deadlines(state)).get(seat)

    def deliver(
        self,
        conn: Conn,
        room: str,
        v: int,
        entry: JSON,
        frames: EntryFrames | None = None,
        before: JSON | None = None,
    ) -> None:
        """Send log entry ``v`` to ``conn`` as its seat may see it. ``frames`` is shared by
        the connections the entry is delivered to: every connection with the same view (a
        seat, or None for spectators; for a sparse connection the view and ``prev``) gets the
        same bytes, built and encoded once, and the seat's visible events are computed once
        for both the quiet decision and the frame.

        A sparse connection (``hello.sparse``) is not sent an entry that is :func:`quiet`
        for its seat after ``before`` (entry ``v - 1``; None when this process does not have
        it: then the entry is sent) once it has had a frame of the room; each frame it is
        sent carries ``prev``, the seq of the frame sent to it before (or of its snapshot).
        By induction a client that applied only the frames it was sent knows what one that
        applied every entry knows: each skipped entry showed nothing to its seat and left
        its legal actions and deadline as the entry before had them."""
        lobby = entry.get("lobby")
        if lobby is not None and conn.player is not None:
            seat = None
            for i, s in enumerate(lobby["seats"]):
                if s and s.get("player") == conn.player:
                    seat = i
            conn.seats[room] = seat
        seat = conn.seats.get(room)
        if frames is None:
            frames = EntryFrames()
        key: object = seat
        prev = None
        if conn.sparse:
            last = conn.sent.get(room)
            if last is not None and before is not None:
                q = frames.quiet.get(seat)
                if q is None:
                    q = frames.quiet[seat] = quiet(entry, before, seat, frames.visible(entry, seat))
                if q:
                    conn.rooms[room] = v
                    return
            prev = last if last is not None else v - 1
            key = (seat, prev)
            conn.sent[room] = v
        data = frames.frames.get(key)
        if data is None:
            data = frames.frames[key] = self.events_frame(
                room, v, entry, seat, prev, frames.visible(entry, seat)
            )
        conn.rooms[room] = v
        conn.send_frame(data)
        if lobby is not None and conn.player not in {
            *(s["player"] for s in lobby["spectators"]),
            *(s.get("player") for s in lobby["seats"] if s),
        }:
            self.drop_from_feed(conn, room)  # we left (or were removed)

    def events_frame(
        self,
        room: str,
        v: int,
        entry: JSON,
        seat: int | None,
        prev: int | None = None,
        events: list[JSON] | None = None,
    ) -> bytes:
        """The encoded ``events`` frame of log entry ``v`` for ``seat`` (None: spectators):
        its events redacted by the engine's ``view_event`` for that seat (``events``: the
        caller's :func:`visible_events` of the seat), and that seat's legal actions and
        deadline; ``prev`` for a sparse connection."""
        if events is None:
            events = visible_events(entry, seat)
        key = str(seat) if seat is not None else None
        legal = None
        deadline = None
        if entry.get("playing"):
            legal = (entry.get("legal") or {}).get(key, []) if key is not None else []
            deadline = (entry.get("deadlines") or {}).get(key) if key is not None else None
        # ``m.Events(...).to_wire()`` built directly (same keys, same order, None left out):
        # four of these per action
        wire: JSON = {"type": m.Events.type, "room": room, "seq": v, "events": events}
        for name in _EVENTS_OPTIONAL:
            x = entry.get(name)
            if x is not None:
                wire[name] = x
        if legal is not None:
            wire["legal"] = legal
        if deadline is not None:
            wire["deadline"] = deadline
        if prev is not None:
            wire["prev"] = prev
        return encode(wire)

    # ------------------------------------------------------------------ commits

    def room_deadlines(self, state: JSON) -> list[tuple[int, str, int]]:
        """Everything due by itself in the room (``rooms.deadlines``), computed once per
        commit and shared by the log entry's per-seat deadlines and the room's next one."""
        try:
            return rooms.deadlines(state, self.grace_ms, self.cfg.bot_delay_ms)
        except game.GameError:
            return []

    def build_entry(
        self, change: Change, now: int, deadlines: list[tuple[int, str, int]] | None = None
    ) -> JSON:
        state = change.state
        entry: JSON = {"t": now, "kind": change.kind, "actor": change.actor}
        if change.actions:
            entry["actions"] = change.actions
        if change.events:
            entry["events"] = change.events
        if change.lobby_changed:
            entry["lobby"] = rooms.public_lobby(state)
        if change.chat is not None:
            entry["chat"] = change.chat
        if change.notice is not None:
            entry["notice"] = change.notice
        if state["status"] == "playing" and state.get("game") is not None:
            entry["playing"] = True
            if deadlines is None:
                deadlines = self.room_deadlines(state)
            timeouts = seat_timeouts(deadlines)
            legal: JSON = {}
            seat_deadlines: JSON = {}
            for k in state.get("pending_kinds") or {}:
                legal[k] = game.legal(state["game"], int(k))
                d = timeouts.get(int(k))
                if d is not None:
                    seat_deadlines[k] = d
            entry["legal"] = legal
            entry["deadlines"] = seat_deadlines
        return entry

    async def mutate(
        self,
        room: str,
        fn: Callable[[JSON], Change | None],
        player: str | None = None,
        client_seq: int | None = None,
        offload: bool = False,
    ) -> tuple[CommitResult | None, JSON | None]:
        """Apply ``fn`` to the room's latest state and commit it atomically, retrying on
        version conflicts. Returns (result or None when nothing changed, state).

        Changes to one room are serialised within this process (a lock per room), so
        concurrent requests for a room (three seats answering a discard) queue up instead of
        conflicting on the version check; other processes still race through it."""
        lock = self.room_locks.get(room)
        if lock is None:
            lock = self.room_locks[room] = asyncio.Lock()
            if len(self.room_locks) > 4 * STATE_CACHE_ROOMS:  # bounded: drop idle locks
                for r, lk in list(self.room_locks.items()):
                    if not lk.locked() and r != room:
                        del self.room_locks[r]
        async with lock:
            return await self._mutate(room, fn, player, client_seq, offload)

    async def _mutate(
        self,
        room: str,
        fn: Callable[[JSON], Change | None],
        player: str | None,
        client_seq: int | None,
        offload: bool,
    ) -> tuple[CommitResult | None, JSON | None]:
        for attempt in range(MAX_ATTEMPTS):
            # The state this process committed last for the room, if any: used optimistically
            # (no load from Redis); the commit's version check catches a stale copy (another
            # process committed since), and then the loop reloads from Redis.
            cached = self.states.get(room) if attempt == 0 else None
            if cached is not None:
                version, state = cached
            else:
                loaded = await self.store.load(room)
                if loaded is None:
                    raise RoomError(ErrorCode.ROOM_NOT_FOUND, "no such room")
                version, state = loaded
                if client_seq is not None and player is not None:
                    last, at = await self.store.last_seq(room, player)
                    if client_seq <= last:
                        return CommitResult("dup", at, last), state
            try:
                change = await asyncio.to_thread(fn, state) if offload else fn(state)
            except (RoomError, game.GameError):
                if cached is None:
                    raise
                self._forget_state(room)  # maybe stale, or a duplicate: decide on Redis's
                continue
            if change is None and cached is not None:
                # nothing to change on our copy: true of the room itself if our copy is its
                # committed version (one small read instead of a reload: a presence check of
                # a seat resuming after a restart, thousands in a reconnect storm); a request
                # with a client seq is decided on Redis's state (it may be a duplicate)
                if client_seq is None and await self.store.version(room) == version:
                    return None, state
                self._forget_state(room)
                continue
            if change is None:
                return None, state
            if (
                not change.lobby_changed
                and not change.events
                and not change.actions
                and change.chat is None
                and change.notice is None
            ):
                return None, state
            now = now_ms()
            deadlines = self.room_deadlines(change.state)
            next_deadline = min(at for at, _, _ in deadlines) if deadlines else None
            entry = self.build_entry(change, now, deadlines)
            if client_seq is not None:
                entry["cseq"] = client_seq
            res = await self.store.commit(
                room,
                version,
                change.state,
                entry,
                player,
                client_seq,
                deadline=next_deadline,
            )
            if res.status == "conflict":
                self._forget_state(room)
                self.metrics.inc("commit_conflicts")
                await asyncio.sleep(random.uniform(0, 0.002 * (attempt + 1)))
                continue
            if res.status == "ok":
                log.debug(
                    "commit",
                    extra={
                        "room": room,
                        "version": res.version,
                        "kind": change.kind,
                        "actor": change.actor,
                        "actions": len(change.actions),
                    },
                )
                self.metrics.commits[change.kind] += 1
                self.metrics.inc("actions", len(change.actions))
                self._remember_state(room, res.version, change.state)
                f = self.feeds.get(room)
                if f is not None:
                    f.remember(res.version, entry)
                await self.after_commit(room, res.version, change.state, next_deadline)
            return res, change.state
        raise RoomError(ErrorCode.BUSY, "the room is too busy; retry")

    def _remember_state(self, room: str, version: int, state: JSON) -> None:
        if state["status"] == "closed":
            self.states.pop(room, None)
            return  # (its lock, if idle, goes with the next sweep of idle locks)
        self.states[room] = (version, state)
        self.states.move_to_end(room)
        while len(self.states) > STATE_CACHE_ROOMS:
            self.states.popitem(last=False)

    def _forget_state(self, room: str) -> None:
        self.states.pop(room, None)

    async def after_commit(self, room: str, version: int, state: JSON, d: int | None) -> None:
        if state["status"] == "closed":
            await self.store.close_room(room, state["code"], self.cfg.closed_room_ttl)
        f = self.feeds.get(room)
        if f is not None and not f.deliver_now(version):
            f.kick(version)
        if d is not None and d <= now_ms() + self.cfg.timer_poll_ms:
            self.timer_wake.set()

    # ------------------------------------------------------------------- loops

    def on_notification(self, channel: bytes | str, data: Any) -> None:
        """A pub/sub notification of a room's new version: wake its feed if it is behind."""
        room = room_of_channel(channel.decode() if isinstance(channel, bytes) else channel)
        f = self.feeds.get(room) if room is not None else None
        if f is not None:
            try:
                v: int | None = int(data)
            except (TypeError, ValueError):
                v = None
            f.kick_if_behind(v)

    async def pubsub_loop(self) -> None:
        commits = getattr(self.store, "commits", None)
        if commits is not None:
            await self._pubsub_loop_pipelined(commits.url)
            return
        while not self.stopped:
            pubsub = self.store.r.pubsub()
            try:
                await pubsub.psubscribe(CHANNEL_PATTERN)
                await self.register_process()
                for f in self.feeds.values():  # we may have missed notifications
                    f.kick()
                while not self.stopped:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if msg is None:
                        continue
                    self.on_notification(msg["channel"], msg["data"])
                with contextlib.suppress(Exception):  # stopped
                    await asyncio.wait_for(pubsub.aclose(), 2.0)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pubsub.aclose(), 2.0)
                raise
            except (redis.exceptions.RedisError, OSError):
                self.metrics.inc("redis_errors")
                log.warning("pub/sub connection lost; reconnecting", exc_info=True)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(0.5)

    async def _pubsub_loop_pipelined(self, url: str) -> None:
        """The pub/sub subscription on a connection of server/resp.py: notifications are
        handled as they are parsed, without redis-py's per-message polling."""
        while not self.stopped:
            sub: resp.Subscription | None = None
            try:
                sub = await resp.psubscribe(url, CHANNEL_PATTERN, self.on_notification)
                if self.stopped:
                    sub.close()
                    return
                await self.register_process()
                for f in self.feeds.values():  # we may have missed notifications
                    f.kick()
                await sub.wait_closed()
                if self.stopped:
                    return
                self.metrics.inc("redis_errors")
                log.warning("pub/sub connection lost; reconnecting")
            except asyncio.CancelledError:
                if sub is not None:
                    sub.close()
                raise
            except (redis.exceptions.RedisError, OSError):
                self.metrics.inc("redis_errors")
                log.warning("pub/sub connection failed; reconnecting", exc_info=True)
            await asyncio.sleep(0.5)

    async def register_process(self) -> None:
        """Count this process among the live ones (``mj:procs``), once its subscription is
        listening: from then on the others publish their commits' notifications for it, and
        a process that finds itself alone publishes none (commit.lua). Renewed by the heal
        loop; a process that stops renewing (crashed, or stalled for ``PROCESS_LIVE_MS``)
        stops being notified, and its heal loop still finds what it missed."""
        await self.store.register_process(self.proc_key, PROCESS_LIVE_MS)

    async def heal_loop(self) -> None:
        """Safety nets: lost pub/sub messages (versions compared once a second) and timers
        lost between a commit and its index update (all open rooms re-indexed every 30 s)."""
        ticks = 0
        loop = asyncio.get_running_loop()
        while not self.stopped:
            t = loop.time()
            await asyncio.sleep(1.0)
            # how late the loop woke us: a blocked or saturated event loop (GC, CPU)
            lag = loop.time() - t - 1.0
            self.metrics.loop_lag_max = max(self.metrics.loop_lag_max, lag)
            if lag > 0.05:
                self.metrics.inc("loop_lags")
            ticks += 1
            try:
                await self.sweep_restart_leavers()
                if ticks % 5 == 0 and self.store.proc_id is not None:
                    await self.register_process()
            except redis.exceptions.RedisError:
                self.metrics.inc("redis_errors")
            if ticks % 30 == 0:
                try:
                    await self.reconcile_timers()
                except redis.exceptions.RedisError:
                    self.metrics.inc("redis_errors")
            names = list(self.feeds)
            try:
                versions = await self.store.versions(names)  # pipelined: 1 trip / 256 rooms
            except redis.exceptions.RedisError:
                self.metrics.inc("redis_errors")
                continue
            for room, v in zip(names, versions, strict=True):
                f = self.feeds.get(room)
                if f is not None and any(c.rooms.get(room, 0) < v for c in f.conns):
                    self.metrics.inc("gap_heals")
                    f.kick()

    async def timer_loop(self) -> None:
        while not self.stopped:
            try:
                due = await self.store.due_rooms(now_ms())
                random.shuffle(due)  # processes polling together start on different rooms
                for room in due:
                    await self.fire(room)
            except asyncio.CancelledError:
                raise
            except (redis.exceptions.RedisError, OSError):
                self.metrics.inc("redis_errors")
                log.warning("timer loop: redis error", exc_info=True)
            except Exception:
                log.exception("timer loop crashed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.timer_wake.wait(), self.cfg.timer_poll_ms / 1000)
            self.timer_wake.clear()

    async def fire(self, room: str) -> None:
        if self.shutting_down:
            return  # take no new work; the next process (or start) fires it
        self.metrics.inc("timer_fires")
        rng = random.Random(secrets.randbits(64))
        t = now_ms()

        budget = self.cfg.bot_budget_ms / 1000

        def step(state: JSON) -> Change | None:
            return rooms.tick(
                state, t, self.grace_ms, self.cfg.bot_delay_ms, rng, bot_budget_s=budget
            )

        try:
            # the tick (engine steps and real-bot decisions) runs in a worker thread so a slow
            # decision never stalls the event loop
            res, _ = await self.mutate(room, step, offload=self.cfg.bot_thread)
        except RoomError as exc:
            if exc.code == ErrorCode.ROOM_NOT_FOUND:
                await self.store.r.zrem("mj:timers", room)
                return
            raise
        except game.GameError:
            log.exception("timer action rejected by the engine", extra={"room": room})
            await self.store.postpone_timer(room, now_ms() + 5000)
            return
        if res is None:
            # nothing was due (another process fired first): re-arm from the stored deadline
            await self.store.reindex_timer(room)

    # ---------------------------------------------------------------- handlers

    def error(
        self,
        conn: Conn,
        code: ErrorCode,
        message: str,
        re: int | None = None,
        detail: JSON | None = None,
    ) -> None:
        self.metrics.errors[code.value] += 1
        conn.send(m.Error(code=code.value, message=message, detail=detail, re=re))

    async def handler(self, ws: ServerConnection) -> None:
        slim_connection(ws)
        conn = Conn(ws, self.cfg, self.metrics)
        self.conns.add(conn)
        self.metrics.connections += 1
        conn.greeting = True
        self.greeting += 1
        try:
            await self.session(conn)
        except ConnectionClosed:
            pass
        finally:
            self._greeted(conn)
            conn.closed = True
            self.conns.discard(conn)
            self.metrics.connections -= 1
            await self.disconnect(conn)
            writer = conn.writer_task
            if writer is not None:
                writer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await writer

    def _greeted(self, conn: Conn) -> None:
        """The connection's hello is through (or it closed first): it no longer counts
        against ``--hello-backlog``."""
        if conn.greeting:
            conn.greeting = False
            self.greeting -= 1

    async def keepalive_loop(self) -> None:
        """Ping every connection every ``--keepalive-seconds`` (±20 %, with a random phase
        per connection; websockets' own keepalive is off), so connections opened together (a
        reconnect storm, a load test) do not all ping at the same instant. One task for all
        connections (a task per connection costs memory at thousands of them); a ping's
        wait for its pong is a short-lived task. No pong within that time: the connection is
        dead and closed (1011)."""
        every = self.cfg.keepalive_seconds
        if every <= 0:
            return
        tick = min(0.5, every / 4)
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(tick)
            now = time.monotonic()
            for conn in list(self.conns):
                if conn.next_ping <= now and not conn.pinging and not conn.closed:
                    conn.pinging = True
                    t = loop.create_task(self._ping(conn, every))
                    self.pings.add(t)  # (the loop keeps only weak references to tasks)
                    t.add_done_callback(self.pings.discard)

    async def _ping(self, conn: Conn, every: float) -> None:
        try:
            pong = await conn.ws.ping()
            await asyncio.wait_for(pong, every)
            self.metrics.inc("keepalive_pongs")
        except TimeoutError:
            with contextlib.suppress(Exception):
                await conn.ws.close(1011, "keepalive ping timeout")  # as websockets does
            return
        except ConnectionClosed:
            return
        finally:
            conn.pinging = False
        conn.next_ping = time.monotonic() + random.uniform(0.8, 1.2) * every

    async def session(self, conn: Conn) -> None:
        ws = conn.ws
        hello_deadline = time.monotonic() + self.cfg.hello_timeout
        while True:
            if conn.player is None:
                remaining = hello_deadline - time.monotonic()
                if remaining <= 0:
                    await ws.close(CloseCode.HELLO_TIMEOUT, "hello expected")
                    return
                try:
                    frame = await asyncio.wait_for(ws.recv(), remaining)
                except TimeoutError:
                    await ws.close(CloseCode.HELLO_TIMEOUT, "hello expected")
                    return
            else:
                frame = await ws.recv()
            self.metrics.inc("messages_in")
            if not await self.handle_frame(conn, frame):
                return

    def note_error(self, conn: Conn) -> bool:
        """Count a bad message; False when the connection must be closed for abuse."""
        t = time.monotonic()
        conn.errors.append(t)
        while conn.errors and conn.errors[0] < t - 60:
            conn.errors.popleft()
        return len(conn.errors) <= self.cfg.max_errors

    def frame_request_id(self, frame: str | bytes) -> int | None:
        """The request id of a frame that is not handled (rate-limited), so the client can
        tell which request was dropped; None when it has none or does not decode."""
        if isinstance(frame, str):
            return None
        try:
            return request_id_of(decode(frame, self.limits))
        except CodecError:
            return None

    async def handle_frame(self, conn: Conn, frame: str | bytes) -> bool:
        if not conn.allow():
            self.error(
                conn,
                ErrorCode.RATE_LIMITED,
                "too many messages; slow down",
                self.frame_request_id(frame),
            )
            if not self.note_error(conn):
                await conn.ws.close(CloseCode.POLICY, "too many bad messages")
                return False
            return True
        try:
            if isinstance(frame, str):
                raise CodecError(ErrorCode.BAD_FRAME, "text frames are not accepted: send binary")
            msg = parse_client(decode(frame, self.limits))
        except (CodecError, ProtocolError) as exc:
            self.error(conn, exc.code, exc.message, getattr(exc, "re", None))
            if not self.note_error(conn):
                await conn.ws.close(CloseCode.POLICY, "too many bad messages")
                return False
            return True
        rid = getattr(msg, "id", None)
        if self.shutting_down:
            self.error(conn, ErrorCode.SHUTTING_DOWN, "server shutting down; reconnect", rid)
            return True
        started = time.perf_counter()
        try:
            if isinstance(msg, m.Hello):
                return await self.on_hello(conn, msg)
            if conn.player is None:
                self.error(conn, ErrorCode.HELLO_REQUIRED, "send hello first", rid)
                return self.note_error(conn) or await self._abuse(conn)
            await self.dispatch(conn, msg)
        except RoomError as exc:
            self.error(conn, exc.code, exc.message, rid, exc.detail)
            if exc.code in (ErrorCode.ILLEGAL_ACTION, ErrorCode.BAD_MESSAGE) and not (
                self.note_error(conn)
            ):
                return await self._abuse(conn)
        except redis.exceptions.RedisError:
            self.metrics.inc("redis_errors")
            log.warning("redis error while handling a request", exc_info=True)
            self.error(conn, ErrorCode.UNAVAILABLE, "storage unavailable; retry", rid)
        except Exception:
            log.exception("internal error", extra={"type": msg.type})
            self.error(conn, ErrorCode.INTERNAL, "internal error", rid)
        finally:
            if isinstance(msg, m.Action):
                self.metrics.action_latency.observe(time.perf_counter() - started)
        return True

    async def flush(self, conn: Conn, timeout: float = 2.0) -> None:
        """Wait (a little) until everything queued for the connection was written."""
        await self.flush_all([conn], timeout)

    async def flush_all(self, conns: list[Conn], timeout: float) -> None:
        """Wait (at most ``timeout`` seconds in all) until everything queued for each of
        ``conns`` was written: one waiter for all of them (not a polling coroutine per
        connection: a shutdown flushes thousands)."""
        end = time.monotonic() + timeout
        while any(c.queued() for c in conns) and time.monotonic() < end:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.01)  # a writer may still be inside ws.send

    async def _abuse(self, conn: Conn) -> bool:
        await conn.ws.close(CloseCode.POLICY, "too many bad messages")
        return False

    async def on_hello(self, conn: Conn, msg: m.Hello) -> bool:
        if conn.player is not None:
            self.error(conn, ErrorCode.ALREADY_HELLO, "hello was already sent", msg.id)
            return True
        if msg.v not in SUPPORTED_VERSIONS:
            self.error(
                conn,
                ErrorCode.UNSUPPORTED_VERSION,
                f"protocol version {msg.v} not supported",
                msg.id,
                {"supported": sorted(SUPPORTED_VERSIONS)},
            )
            await self.flush(conn)  # the error goes out before the close frame
            await conn.ws.close(CloseCode.UNSUPPORTED_VERSION, "unsupported protocol version")
            return False
        # At most --hello-concurrency hellos at a time, the others wait their turn (FIFO):
        # in a reconnect storm of thousands, each hello then finishes in a few milliseconds
        # instead of all of them competing for the Redis pool until some time out.
        async with self.hello_slots:
            ok = await self._hello(conn, msg)
        if ok:
            self.hellos_done += 1
        return ok

    async def _hello(self, conn: Conn, msg: m.Hello) -> bool:
        name = rooms.clean_text(msg.name or "")[: m.NAME_MAX]
        resumed = False
        room_ids: list[str] = []  # a new player has none
        if msg.token:
            found = await self.store.resume_player(msg.token)
            if found is None:
                self.error(conn, ErrorCode.BAD_TOKEN, "unknown token", msg.id)
                await self.flush(conn)
                await conn.ws.close(CloseCode.BAD_TOKEN, "unknown token")
                return False
            pid, old_name, room_ids = found
            token = msg.token
            resumed = True
            if name and name != old_name:
                await self.store.set_player_name(pid, name)
            else:
                name = old_name
        else:
            name = name or "player"
            pid, token = await self.store.new_player(name)
        # one live connection per player on this process: the newest wins
        for other in list(self.by_player.get(pid, ())):
            other.closed = True
            self.by_player[pid].discard(other)
            for room in list(other.rooms):
                self.drop_from_feed(other, room)
            await other.ws.close(CloseCode.SUPERSEDED, "resumed on another connection")
        conn.player, conn.name = pid, name
        conn.sparse = bool(msg.sparse)
        self._greeted(conn)
        first_here = not self.by_player.get(pid)
        self.by_player.setdefault(pid, set()).add(conn)
        if first_here:  # other processes deciding the player's presence see this one
            try:
                await self.store.note_online(pid, self.proc_key)
            except redis.exceptions.RedisError:
                # the hello goes on: only another process's presence check for this player
                # could miss this connection (its seat then marked away until it says hello
                # again)
                self.metrics.inc("redis_errors")
        conn.send(
            m.Welcome(
                v=PROTOCOL_VERSION,
                player_id=pid,
                token=token,
                name=name,
                resumed=resumed,
                rooms=room_ids,
                server=self.server_id,
                limits={
                    "max_frame_bytes": self.cfg.max_frame_bytes,
                    "hard_frame_bytes": self.cfg.hard_frame_bytes,
                    "max_depth": self.limits.max_depth,
                    "max_str_len": self.limits.max_str_len,
                    "max_bin_len": self.limits.max_bin_len,
                    "max_array_len": self.limits.max_array_len,
                    "max_map_len": self.limits.max_map_len,
                    "rate_per_second": self.cfg.rate_per_second,
                    "rate_burst": self.cfg.rate_burst,
                    "max_errors_per_minute": self.cfg.max_errors,
                    "hello_timeout_seconds": self.cfg.hello_timeout,
                    "chat_max_len": self.cfg.chat_max_len,
                    "chat_per_minute": self.cfg.chat_per_minute,
                    "grace_seconds": self.cfg.grace_seconds,
                },
                rulesets=game.rulesets(),
                re=msg.id,
                sparse=True if msg.sparse else None,
            )
        )
        log.info("hello", extra={"player": pid, "resumed": resumed, "conn": conn.cid})
        attached = []
        for room in room_ids:
            if await self.attach(conn, room):
                attached.append(room)
            else:
                await self.store.remove_player_room(pid, room)
        await self.sync_presence(pid, attached)
        return True

    async def sync_presence(self, pid: str, room_list: list[str] | None = None) -> None:
        """Mark the player's seats away or back: back while any live process (this one or
        another on the same Redis) holds a connection of the player, away when none does
        (:meth:`Store.online_elsewhere`). Serialized per player on this process, so a resume
        racing with the close of the previous connection always ends in the right state;
        across processes, a seat marked away is checked again after the commit: a connection
        that came back on another process meanwhile may have committed "back" before this
        "away", and the seat is then marked back."""
        lock = self.presence_locks.setdefault(pid, asyncio.Lock())

        async def absent() -> bool:
            return not self.by_player.get(pid) and not await self.store.online_elsewhere(
                pid, self.proc_key
            )

        async def mark(room_ids: list[str], away: bool) -> None:
            for room in room_ids:
                # (nothing is committed for a seat whose presence is already right: see the
                # version check in _mutate)
                with contextlib.suppress(RoomError):
                    await self.mutate(room, lambda s: rooms.set_away(s, pid, away, now_ms()))

        async with lock:
            room_ids = await self.store.player_rooms(pid) if room_list is None else room_list
            away = await absent()
            await mark(room_ids, away)
            if away and room_ids and not await absent():
                await mark(room_ids, False)  # back on another process meanwhile
        if not lock.locked() and not self.by_player.get(pid):
            self.presence_locks.pop(pid, None)

    async def disconnect(self, conn: Conn) -> None:
        pid = conn.player
        for room in list(conn.rooms):
            self.drop_from_feed(conn, room)
        if pid is None:
            return
        peers = self.by_player.get(pid)
        if peers is not None:
            peers.discard(conn)
            if peers:
                return
            del self.by_player[pid]
        if self.shutting_down:
            # a graceful stop: the client was told to reconnect and usually comes back within
            # seconds, so its seats are not marked away now (one commit per seat, and another
            # one when it is back); a player that has not said hello again anywhere after
            # --restart-resume-seconds is marked away then (see sweep_restart_leavers). This
            # process stays in the player's online set: it is not live once it has stopped
            self.leavers.add(pid)
            return
        try:
            await self.store.note_offline(pid, self.proc_key)
            await self.sync_presence(pid)
        except redis.exceptions.RedisError:
            self.metrics.inc("redis_errors")
        self.metrics.inc("presence_checks")

    async def dispatch(self, conn: Conn, msg: m.ClientMessage) -> None:
        handler = self.HANDLERS.get(type(msg))
        if handler is None:  # pragma: no cover - every client message has a handler
            raise RoomError(ErrorCode.UNKNOWN_TYPE, "no handler")
        await handler(self, conn, msg)

    def _ack(
        self,
        conn: Conn,
        room: str,
        res: CommitResult | None,
        version: int,
        re: int | None,
        client_seq: int | None = None,
    ) -> None:
        conn.send(
            m.Ack(
                room=room,
                seq=res.version if res is not None else version,
                client_seq=client_seq,
                duplicate=res is not None and res.status == "dup",
                re=re,
            )
        )

    def _in_room(self, conn: Conn, room: str) -> None:
        if room not in conn.rooms:
            raise RoomError(ErrorCode.NOT_IN_ROOM, "you are not in this room")

    async def on_ping(self, conn: Conn, msg: m.Ping) -> None:
        conn.send(m.Pong(t=msg.t, server_ms=now_ms(), re=msg.id))

    async def on_list_rooms(self, conn: Conn, msg: m.ListRooms) -> None:
        out = []
        for room in (await self.store.public_rooms())[:200]:
            loaded = await self.store.load(room)
            if loaded is not None and loaded[1]["status"] != "closed":
                out.append(rooms.room_summary(loaded[1]))
        conn.send(m.RoomList(rooms=out, re=msg.id))

    async def on_create_room(self, conn: Conn, msg: m.CreateRoom) -> None:
        assert conn.player is not None
        if len(await self.store.player_rooms(conn.player)) >= self.cfg.max_rooms_per_player:
            raise RoomError(ErrorCode.TOO_MANY_ROOMS, "leave a room first")
        options = rooms.validate_options(msg.ruleset, msg.options)
        room_id = "r_" + secrets.token_hex(8)
        for _ in range(20):
            code = rooms.new_code()
            if await self.store.reserve_code(code, room_id):
                break
        else:
            raise RoomError(ErrorCode.BUSY, "could not allocate a room code")
        change = rooms.new_room(
            room_id, code, conn.player, conn.name, msg.ruleset, options, now_ms()
        )
        entry = self.build_entry(change, now_ms())
        res = await self.store.commit(room_id, 0, change.state, entry)
        await self.store.register_room(room_id, bool(options["public"]))
        await self.store.add_player_room(conn.player, room_id)
        self.metrics.commits["create"] += 1
        log.info("room created", extra={"room": room_id, "code": code, "player": conn.player})
        await self.attach(conn, room_id)
        self._ack(conn, room_id, res, res.version, msg.id)

    async def on_join_room(self, conn: Conn, msg: m.JoinRoom) -> None:
        assert conn.player is not None
        pid = conn.player
        room = await self.store.room_by_code(rooms.normalize_code(msg.code))
        if room is None:
            raise RoomError(ErrorCode.ROOM_NOT_FOUND, "no room with that code")
        if room not in await self.store.player_rooms(pid) and (
            len(await self.store.player_rooms(pid)) >= self.cfg.max_rooms_per_player
        ):
            raise RoomError(ErrorCode.TOO_MANY_ROOMS, "leave a room first")
        res, _state = await self.mutate(room, lambda s: rooms.join(s, pid, conn.name, now_ms()))
        await self.store.add_player_room(pid, room)
        if room not in conn.rooms:
            await self.attach(conn, room)  # the snapshot goes out before the ack
        self._ack(conn, room, res, conn.rooms.get(room, 0), msg.id)

    async def on_leave_room(self, conn: Conn, msg: m.LeaveRoom) -> None:
        assert conn.player is not None
        pid = conn.player
        self._in_room(conn, msg.room)
        _res, _ = await self.mutate(msg.room, lambda s: rooms.leave(s, pid, now_ms()))
        await self.store.remove_player_room(pid, msg.room)
        self.drop_from_feed(conn, msg.room)
        conn.send(m.Left(room=msg.room, re=msg.id))

    async def _simple(
        self, conn: Conn, room: str, re: int | None, fn: Callable[[JSON], Change | None]
    ) -> None:
        self._in_room(conn, room)
        res, _ = await self.mutate(room, fn)
        self._ack(conn, room, res, conn.rooms.get(room, 0), re)

    async def on_sit(self, conn: Conn, msg: m.Sit) -> None:
        pid = conn.player or ""
        await self._simple(conn, msg.room, msg.id, lambda s: rooms.sit(s, pid, msg.seat))

    async def on_stand(self, conn: Conn, msg: m.Stand) -> None:
        pid = conn.player or ""
        await self._simple(conn, msg.room, msg.id, lambda s: rooms.stand(s, pid))

    async def on_ready(self, conn: Conn, msg: m.Ready) -> None:
        pid = conn.player or ""
        await self._simple(conn, msg.room, msg.id, lambda s: rooms.ready(s, pid, msg.ready))

    async def on_add_bot(self, conn: Conn, msg: m.AddBot) -> None:
        pid = conn.player or ""
        await self._simple(conn, msg.room, msg.id, lambda s: rooms.add_bot(s, pid, msg.seat))

    async def on_remove_bot(self, conn: Conn, msg: m.RemoveBot) -> None:
        pid = conn.player or ""
        await self._simple(conn, msg.room, msg.id, lambda s: rooms.remove_bot(s, pid, msg.seat))

    async def on_start_game(self, conn: Conn, msg: m.StartGame) -> None:
        pid = conn.player or ""
        await self._simple(conn, msg.room, msg.id, lambda s: rooms.start(s, pid, now_ms()))

    async def on_rematch(self, conn: Conn, msg: m.Rematch) -> None:
        pid = conn.player or ""
        await self._simple(conn, msg.room, msg.id, lambda s: rooms.rematch(s, pid))

    async def on_chat(self, conn: Conn, msg: m.Chat) -> None:
        pid = conn.player or ""
        self._in_room(conn, msg.room)
        t = time.monotonic()
        while conn.chats and conn.chats[0] < t - 60:
            conn.chats.popleft()
        if len(conn.chats) >= self.cfg.chat_per_minute:
            raise RoomError(ErrorCode.CHAT_RATE_LIMITED, "too many chat messages; wait a bit")
        conn.chats.append(t)
        n = now_ms()
        await self._simple(
            conn, msg.room, msg.id, lambda s: rooms.chat(s, pid, msg.text, n, self.cfg.chat_max_len)
        )

    async def on_action(self, conn: Conn, msg: m.Action) -> None:
        pid = conn.player or ""
        self._in_room(conn, msg.room)
        if msg.action.seat is not None and msg.action.seat != conn.seats.get(msg.room):
            raise RoomError(
                ErrorCode.ILLEGAL_ACTION,
                "you can only act for your own seat",
                {"table_code": "not-your-seat"},
            )
        action = {k: v for k, v in action_to_wire(msg.action).items() if k != "seat"}
        res, _ = await self.mutate(
            msg.room, lambda s: rooms.play(s, pid, action, now_ms()), pid, msg.seq
        )
        self._ack(conn, msg.room, res, conn.rooms.get(msg.room, 0), msg.id, msg.seq)

    async def on_resync(self, conn: Conn, msg: m.Resync) -> None:
        """``since`` 0, or beyond what this connection was sent: a snapshot (with ``re``).
        Otherwise every commit after ``since`` again, in order, then an ``ack`` (with
        ``re``) whose ``seq`` is the last one resent: the resend is complete."""
        self._in_room(conn, msg.room)
        f = self.feed(msg.room)
        if msg.since == 0 or msg.since > conn.rooms.get(msg.room, 0):
            async with f.lock:
                await self.send_snapshot(conn, msg.room, msg.id)
            f.kick()
            return
        async with f.lock:
            if msg.since < conn.rooms.get(msg.room, 0):
                # replay from the client's position
                conn.rooms[msg.room] = conn.sent[msg.room] = msg.since
        f.kick()
        await f.catch_up()
        conn.send(m.Ack(room=msg.room, seq=conn.rooms.get(msg.room, 0), re=msg.id))

    async def on_get_log(self, conn: Conn, msg: m.GetLog) -> None:
        self._in_room(conn, msg.room)
        loaded = await self.store.load(msg.room)
        if loaded is None:
            raise RoomError(ErrorCode.ROOM_NOT_FOUND, "no such room")
        _, state = loaded
        if state["status"] != "finished":
            raise RoomError(ErrorCode.GAME_NOT_FINISHED, "the log is available after the game")
        actions: list[JSON] = []
        start = 1
        game_started = False
        while True:
            rows = await self.store.read_log(msg.room, start, count=1000)
            for _, entry in rows:
                if entry.get("kind") == "start":
                    actions = []  # only the last game of the room
                    game_started = True
                if game_started:
                    actions.extend(entry.get("actions") or [])
            if len(rows) < 1000:
                break
            start = rows[-1][0] + 1
        log_doc = {
            "ruleset": state["ruleset"],
            "options": state["options"],
            "game_no": state["game_no"],
            "seats": [s["name"] if s else None for s in state["seats"]],
            "actions": actions,
            "summary": state["history"][-1] if state["history"] else None,
        }
        conn.send(m.GameLog(room=msg.room, log=log_doc, re=msg.id))

    HANDLERS: ClassVar[dict[type, Callable[[App, Conn, Any], Awaitable[None]]]] = {
        m.Ping: on_ping,
        m.ListRooms: on_list_rooms,
        m.CreateRoom: on_create_room,
        m.JoinRoom: on_join_room,
        m.LeaveRoom: on_leave_room,
        m.Sit: on_sit,
        m.Stand: on_stand,
        m.Ready: on_ready,
        m.AddBot: on_add_bot,
        m.RemoveBot: on_remove_bot,
        m.StartGame: on_start_game,
        m.Rematch: on_rematch,
        m.Action: on_action,
        m.Chat: on_chat,
        m.Resync: on_resync,
        m.GetLog: on_get_log,
    }

    # ---------------------------------------------------------------------- HTTP

    async def process_request(self, conn: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            return _text(HTTPStatus.OK, "ok\n")
        if path == "/readyz":
            if self.shutting_down:
                return _text(HTTPStatus.SERVICE_UNAVAILABLE, "shutting down\n")
            try:
                await asyncio.wait_for(self.store.ping(), 2.0)
            except Exception:
                self.metrics.inc("redis_errors")
                return _text(HTTPStatus.SERVICE_UNAVAILABLE, "redis unavailable\n")
            return _text(HTTPStatus.OK, "ready\n")
        if path == "/metrics":
            try:
                n: int | None = await asyncio.wait_for(self.store.count_rooms(), 2.0)
            except Exception:
                n = None
            self.metrics.counters["bot_fallbacks"] = game.BOT_STATS["fallbacks"]
            body = self.metrics.render(n, len(self.feeds), self.learned)
            return _text(HTTPStatus.OK, body, "text/plain; version=0.0.4; charset=utf-8")
        if not web.is_websocket(request):
            return self.web.respond(request)  # the browser client, or 404
        if 0 < self.cfg.hello_backlog <= self.greeting:
            # A reconnect storm: thousands of clients at once. The ones admitted are answered
            # within a fraction of a second; the rest come back after Retry-After (with
            # jitter) instead of queueing for seconds behind them.
            self.metrics.inc("handshakes_refused")
            return _text(
                HTTPStatus.SERVICE_UNAVAILABLE,
                "busy: too many connections waiting for hello; retry\n",
                retry_after=self.cfg.hello_retry_after,
            )
        return None

    # ------------------------------------------------------------------ shutdown

    async def shutdown(self) -> None:
        """Stop accepting, tell clients to reconnect, finish in-flight requests."""
        if self.shutting_down:
            return
        self.shutting_down = True
        log.info("shutting down", extra={"connections": len(self.conns)})
        # how long each part took, logged at the end: the restart gap clients wait out
        # (server/reconnect.py) is mostly this stop at thousands of connections
        phases: dict[str, float] = {}
        t = time.monotonic()

        def lap(name: str) -> None:
            nonlocal t
            now = time.monotonic()
            phases[name] = round(now - t, 3)
            t = now

        # take no new work: the other processes (or the next start) fire the timers; a tick
        # running in a worker thread is not waited for (its commit is dropped or lands)
        if self.timer_task is not None:
            self.timer_task.cancel()
            # asyncio.wait, not wait_for: bounded even if the cancellation is swallowed
            # (wait_for would wait for the task to finish after its timeout)
            await asyncio.wait({self.timer_task}, timeout=1.0)
        lap("timers_s")
        conns = list(self.conns)
        others = 0
        try:
            # what other processes learned since this one started, and who else is live
            gap, rate = await self.store.learned_restart()
            self.learned = Learned(
                gap if gap is not None else self.learned.restart_gap_s,
                rate if rate is not None else self.learned.hello_rate,
            )
            # the live processes besides this one (registered in mj:procs until it stops)
            others = max(0, await self.store.live_processes() - 1)
        except redis.exceptions.RedisError:
            self.metrics.inc("redis_errors")
        p = self.reconnect_plan(len(conns), others)
        at = now_ms()
        try:
            await self.store.note_stopping(
                at, at + int((p.after_s + p.spread_s) * 1000), p.probe_rate
            )
        except redis.exceptions.RedisError:
            self.metrics.inc("redis_errors")
        delays = p.delays(len(conns), random.Random())
        for conn, delay_ms in zip(conns, delays, strict=True):
            conn.send(
                m.Closing(reason="server shutting down", reconnect=True, retry_after_ms=delay_ms)
            )
        lap("closing_sent_s")
        await self.flush_all(conns, 1.0)
        lap("flushed_s")
        if self.ws_server is not None:
            self.ws_server.close(close_connections=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.ws_server.wait_closed(), self.cfg.shutdown_grace)
        lap("connections_closed_s")
        await self.record_leavers()
        with contextlib.suppress(redis.exceptions.RedisError):
            await self.store.unregister_process()
        await self.stop_tasks()
        lap("leavers_and_tasks_s")
        log.info("stopped gracefully", extra={"connections": len(conns), **phases})

    def reconnect_plan(self, n: int, others: int = 0) -> Plan:
        """The reconnect plan of a graceful stop with ``n`` clients and ``others`` live
        processes besides this one (:func:`server.reconnect.plan`)."""
        return plan(
            n, self.cfg.reconnect_after_seconds, self.cfg.reconnect_rate, self.learned, others
        )

    async def meter_loop(self, every: float = 0.25) -> None:
        """Sample the hello meter: a window in which this process was saturated with hellos
        (a reconnect storm) measures its hello rate, kept (smoothed) in Redis for the next
        graceful stop of any process (``server/reconnect.py``)."""
        while not self.stopped:
            await asyncio.sleep(every)
            rate = self.meter.tick(time.monotonic(), self.hellos_done, self.greeting)
            if rate is None:
                continue
            self.stretches += 1
            smoothed = smooth(self.learned.hello_rate, rate)
            self.learned = Learned(self.learned.restart_gap_s, smoothed)
            try:
                await self.store.save_hello_rate(smoothed)
            except redis.exceptions.RedisError:
                self.metrics.inc("redis_errors")

    async def note_listening(self) -> None:
        """This process listens: if it follows a graceful stop, learn the restart gap (the
        stop's ``closing`` messages -> now), and check the stop's reconnect plan once its
        last client is due (:meth:`probe_plan`)."""
        try:
            at, until, rate = await self.store.take_stopped()
            sample = restart_gap(at, now_ms())
            if sample is None:
                return
            gap = smooth(self.learned.restart_gap_s, sample)
            await self.store.save_restart_gap(gap)
        except redis.exceptions.RedisError:
            self.metrics.inc("redis_errors")
            return
        self.learned = Learned(gap, self.learned.hello_rate)
        log.info("restart gap learned", extra={"seconds": sample, "smoothed": round(gap, 3)})
        if until is not None and rate is not None and rate > 0:
            task = asyncio.get_running_loop().create_task(
                self.probe_plan(until, rate), name="probe_plan"
            )
            self.tasks.append(task)

    async def probe_plan(self, until_ms: int, planned_rate: float) -> None:
        """After the last client of the graceful stop this process follows was due (and a
        little more): if its reconnects never saturated this process, they could have come
        faster; raise the learned hello rate (:func:`server.reconnect.raised`)."""
        before = self.stretches
        await asyncio.sleep(probe_wait(until_ms, now_ms()))
        if self.stopped or self.stretches != before:
            return  # a stopping process, or a measured storm: the meter has spoken
        new = raised(self.learned.hello_rate, planned_rate, self.cfg.reconnect_rate)
        if new is None or new == self.learned.hello_rate:
            return
        try:
            await self.store.save_hello_rate(new)
        except redis.exceptions.RedisError:
            self.metrics.inc("redis_errors")
            return
        log.info("reconnects did not saturate: hello rate raised", extra={"rate": round(new, 1)})
        self.learned = Learned(self.learned.restart_gap_s, new)

    async def record_leavers(self) -> None:
        """Remember (in Redis, for whichever process runs next) the players a graceful stop
        disconnected, each with the time after which it is marked away unless it is back."""
        if not self.leavers:
            return
        at = now_ms() + int(self.cfg.restart_resume_seconds * 1000)
        try:
            await self.store.add_leavers(sorted(self.leavers), at)
        except redis.exceptions.RedisError:
            self.metrics.inc("redis_errors")
            log.warning("could not record the players of a graceful stop", exc_info=True)
        self.leavers.clear()

    async def sweep_restart_leavers(self) -> None:
        """Players disconnected by a graceful stop (of any process) that did not come back in
        time: mark their seats away now, as a disconnect would have."""
        for pid in await self.store.due_leavers(now_ms()):
            if not self.by_player.get(pid):
                await self.sync_presence(pid)


class _SmallQueue(list[Any]):
    """The deque operations websockets' receive queue uses, on a list: an empty deque costs
    760 bytes, an empty list 56, and the queue holds at most ``max_queue`` frames."""

    __slots__ = ()

    def popleft(self) -> Any:
        return self.pop(0)

    def extendleft(self, items: Iterable[Any]) -> None:
        for item in items:
            self.insert(0, item)


def slim_connection(ws: ServerConnection) -> None:
    """Release what a connection keeps after its opening handshake and never needs again,
    and swap its always-empty-at-rest deques for lists (~2.5 KiB per connection):

    - the handshake request and response: their headers emptied (the protocol's parser
      keeps the request for the connection's lifetime), the objects replaced by shared stand-ins,
      never set to None (websockets tests ``request is None`` to tell the handshake request
      from the frames that follow it; None breaks the closing handshake);
    - ``drain_waiters`` (only appended to, removed from and iterated) and the receive
      queue of the message assembler: deques, replaced only when they are deques and empty
      (other websockets versions: left as they are)."""
    for handshake in (ws.request, ws.response):
        if handshake is not None:
            # emptied in place too: websockets' parser keeps a reference to the request
            handshake.headers.clear()
    ws.request = _HANDSHAKE_REQUEST
    ws.response = _HANDSHAKE_RESPONSE
    waiters = getattr(ws, "drain_waiters", None)
    if type(waiters) is deque and not waiters:
        ws.drain_waiters = []  # type: ignore[assignment]
    frames = getattr(getattr(ws, "recv_messages", None), "frames", None)
    queue = getattr(frames, "queue", None)
    if type(queue) is deque and not queue:
        frames.queue = _SmallQueue()  # type: ignore[union-attr]


def _text(
    status: HTTPStatus,
    body: str,
    ctype: str = "text/plain; charset=utf-8",
    retry_after: int | None = None,
) -> Response:
    data = body.encode()
    headers = Headers(
        [("Content-Type", ctype), ("Content-Length", str(len(data))), ("Connection", "close")]
    )
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    return Response(status.value, status.phrase, headers, data)


async def run_server(
    cfg: Config,
    store: Store,
    ready: Callable[[int], None] | None = None,
    stop: asyncio.Event | None = None,
    ssl_context: ssl.SSLContext | None = None,
    app_class: type[App] | None = None,
) -> None:
    """Serve until SIGTERM/SIGINT (or until ``stop`` is set, when given). With
    ``ssl_context`` the server speaks wss:// (TLS) on the same port."""
    app = (app_class or App)(cfg, store)
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
        if tracemalloc.is_tracing():  # PYTHONTRACEMALLOC=1: SIGUSR1 logs where memory is
            with contextlib.suppress(NotImplementedError, RuntimeError, AttributeError):
                loop.add_signal_handler(signal.SIGUSR1, log_memory_top)
    async with serve(
        app.handler,
        cfg.host,
        cfg.port,
        process_request=app.process_request,
        max_size=cfg.hard_frame_bytes,
        max_queue=64,
        compression=None,
        ping_interval=None,  # App.keepalive pings, with jitter
        close_timeout=2,
        ssl=ssl_context,
        backlog=cfg.listen_backlog,
    ) as ws_server:
        app.ws_server = ws_server
        port = next(iter(ws_server.sockets)).getsockname()[1]
        if not cfg.server_id:
            app.server_id = f"{socket.gethostname()}:{port}:{os.getpid()}"
        log.info("listening", extra={"host": cfg.host, "port": port, "server": app.server_id})
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
    await app.stop_tasks()  # feeds that handlers opened while closing
    await app.record_leavers()  # handlers that ended after the graceful part
    game.stop_bots()
    await store.close()
    log.info("stopped")
