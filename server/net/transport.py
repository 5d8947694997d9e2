"""The connection layer: with its keepalive (`keepalive.py`), the only code that touches websockets (frames out, frames in, close, the listening socket).

Frames are written below websockets' public send path on the hot path (:meth:`Conn._write_now`
and the batched writes of :meth:`Conn._writer`) and connections are slimmed after the handshake
(:func:`slim_connection`); both rely on websockets internals, so ``pyproject.toml`` pins the
websockets versions they were checked against and ``tests/server_tests/test_transport_pins.py``
fails when those internals change (docs/server.md, "websockets").
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import ssl
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.typing import Origin

from protocol import messages as m
from protocol.codec import encode
from protocol.codes import CloseCode
from server.process.config import Config
from server.process.metrics import Metrics

#: a connection closed (by either side) while it was read from or written to
Closed = ConnectionClosed
#: frames a connection may have waiting for its socket before it is dropped as too slow
OUT_QUEUE = 2000
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


class Conn:
    """One client connection on this process."""

    # no per-instance __dict__ (thousands of connections per process)
    __slots__ = (
        "_chats",
        "_errors",
        "_out",
        "base",
        "burst",
        "busy",
        "cid",
        "closed",
        "corked",
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
        self.greeting = False  # counted in Runtime.greeting until its hello is through
        self.cid = secrets.token_hex(4)
        self.player: str | None = None
        self.name = ""
        self.rooms: dict[str, int] = {}  # room -> last seq delivered to this connection
        self.seats: dict[str, int | None] = {}  # room -> our seat (None: spectator)
        # room -> seq of the first snapshot sent (the connection joined the room's feed):
        # the commits before it are not this connection's to resend (they show the room
        # without it), so a resync from before it is answered with a snapshot
        self.base: dict[str, int] = {}
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
        #: frames held while one of this connection's requests is handled (:meth:`cork`)
        self.corked: list[bytes] | None = None
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

    async def recv(self, timeout: float | None = None) -> str | bytes:
        """The next frame from the client (TimeoutError after ``timeout`` seconds; raises
        :data:`Closed` once the connection is closed)."""
        if timeout is None:
            return await self.ws.recv()
        return await asyncio.wait_for(self.ws.recv(), timeout)

    async def close(self, code: int, reason: str) -> None:
        """Close the connection with ``code`` (the closing handshake, bounded by websockets'
        close timeout), after the frames held by :meth:`cork`."""
        self.uncork()
        await self.ws.close(code, reason)

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
        once when nothing is waiting to be written before it, else queued for the writer;
        held while the connection is corked."""
        if self.closed:
            return
        if self.corked is not None:
            self.corked.append(data)
            return
        if not self.busy and not self.queued() and self._write_now(data):
            return
        self._queue(data)

    def send_ahead(self, msg: m.ServerMessage) -> None:
        """Send a reply ahead of the frames held while its request was handled: the ack of
        an answer the server holds must not be overtaken by the window's close, which the
        fan-out may bring this connection while the answer is being stored."""
        if self.closed:
            return
        if self.corked:
            self.corked.insert(0, encode(msg.to_wire()))
            return
        self.send(msg)

    def cork(self) -> None:
        """Hold this connection's frames until :meth:`uncork`: while one of its requests is
        handled, so that what the request sends it (its commit's events frame, then its ack
        or error) leaves in one socket write, not one each."""
        if self.corked is None:
            self.corked = []

    def uncork(self) -> None:
        """Send the frames held since :meth:`cork`, in order: together in one socket write
        when they can be written at once, else queued for the writer one by one."""
        frames, self.corked = self.corked, None
        if not frames or self.closed:
            return
        if len(frames) == 1:
            self.send_frame(frames[0])
        elif self.busy or self.queued() or not self._write_now(*frames):
            for data in frames:
                if self.closed:
                    break  # dropped as too slow: the client resumes from its last seq
                self._queue(data)

    def _queue(self, data: bytes) -> None:
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

    def _write_now(self, *frames: bytes) -> bool:
        """Hand frames straight to the socket, in one write, when nothing is queued before
        them and the socket's buffer is not backed up (the common case): no task switch, queue and async
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
            if len(frames) == 1:
                transport.write(binary_frame(frames[0]))
            else:
                transport.write(b"".join([binary_frame(data) for data in frames]))
        except Exception:
            return False  # closing: the writer deals with it
        self.metrics.counters["messages_out"] += len(frames)
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
                self.metrics.counters["messages_out"] += 1
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
            self.metrics.counters["messages_out"] += len(batch)
            if last:
                return


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


async def flush_all(conns: list[Conn], timeout: float) -> None:
    """Wait (at most ``timeout`` seconds in all) until everything queued for each of
    ``conns`` was written: one waiter for all of them (not a polling coroutine per
    connection: a shutdown flushes thousands). Frames held by ``Conn.cork`` are sent first."""
    for c in conns:
        c.uncork()
    end = time.monotonic() + timeout
    while any(c.queued() for c in conns) and time.monotonic() < end:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.01)  # a writer may still be inside ws.send


#: X-Forwarded-For: the addresses a proxy forwarded the connection for (server/net/addresses.py)
FORWARDED_FOR = "X-Forwarded-For"


def peer_of(ws: ServerConnection, request: Request | None = None) -> tuple[str | None, list[str]]:
    """The connection's peer address and the values of its handshake's ``X-Forwarded-For``
    headers (``request``: the handshake request, when it is not yet ``ws.request``; read
    before :func:`slim_connection` empties it)."""
    remote = ws.remote_address
    peer = str(remote[0]) if isinstance(remote, tuple) and remote else None
    req = request if request is not None else ws.request
    return peer, (req.headers.get_all(FORWARDED_FOR) if req is not None else [])


async def refuse(ws: ServerConnection, code: int, reason: str) -> None:
    """Close a connection at once, before it is served."""
    with contextlib.suppress(ConnectionClosed):
        await ws.close(code, reason)


def origins(cfg: Config) -> list[Origin | None] | None:
    """The ``Origin`` values a WebSocket handshake may carry (websockets refuses the others
    with HTTP 403): ``--allowed-origins``, and no Origin at all (a client that is not a
    browser); None: any (the option empty)."""
    allowed = [o.strip().rstrip("/").lower() for o in cfg.allowed_origins.split(",")]
    out: list[Origin | None] = [Origin(o) for o in allowed if o]
    return [*out, None] if out else None


async def accept(
    ws: ServerConnection, cfg: Config, metrics: Metrics, run: Callable[[Conn], Awaitable[None]]
) -> None:
    """Serve one accepted connection: slim it, wrap it in a :class:`Conn` and ``run`` it;
    afterwards stop its writer task."""
    slim_connection(ws)
    conn = Conn(ws, cfg, metrics)
    try:
        await run(conn)
    finally:
        writer = conn.writer_task
        if writer is not None:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer


@contextlib.asynccontextmanager
async def listen(
    cfg: Config,
    handler: Callable[[ServerConnection], Awaitable[None]],
    process_request: Callable[[ServerConnection, Request], Awaitable[Response | None]],
    ssl_context: ssl.SSLContext | None = None,
) -> AsyncIterator[tuple[Server, int]]:
    """Listen on ``cfg.host``:``cfg.port`` (wss:// with ``ssl_context``): yields the server and
    the port it got."""
    async with serve(
        handler,
        cfg.host,
        cfg.port,
        process_request=process_request,
        origins=origins(cfg),
        max_size=cfg.hard_frame_bytes,
        max_queue=64,
        compression=None,
        ping_interval=None,  # Keepalive pings, with jitter
        close_timeout=2,
        ssl=ssl_context,
        backlog=cfg.listen_backlog,
    ) as ws_server:
        port = next(iter(ws_server.sockets)).getsockname()[1]
        yield ws_server, port


def send_frames(sends: list[tuple[Conn, bytes]]) -> None:
    """Send each encoded frame to its connection (:meth:`Conn.send_frame`): one committed
    entry's frames to the connections of its room here, in one call."""
    for conn, data in sends:
        conn.send_frame(data)
