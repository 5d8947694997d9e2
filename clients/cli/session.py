"""The connection to the server: hello / resume, requests, and automatic reconnect.

One :class:`Session` owns one WebSocket at a time. Every frame is decoded with the protocol's
codec and validated with :func:`protocol.parse_server`; every message sent is one of the
typed client messages. When the connection drops (anything but a deliberate close, a
superseded session or a refused version), the session reconnects with backoff and sends
``hello`` with the resume token it got in ``welcome``: the server answers with a fresh
``snapshot`` of every room the player is in, so the game continues without user action.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import logging
import socket
import time
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from clients.cli.i18n import tr
from clients.cli.model import ClientModel
from protocol import messages as m
from protocol.actions import parse_action
from protocol.codec import DEFAULT_LIMITS, CodecError, decode, encode
from protocol.codes import CloseCode, ErrorCode
from protocol.messages import PROTOCOL_VERSION, ProtocolError, parse_server
from protocol.retry import retry_delay
from protocol.tls import TLSConfigError, client_ssl_for_url

log = logging.getLogger("mahjong.cli")

CLIENT_NAME = "mahjong-cli/0.1"
#: close codes after which reconnecting makes no sense
FATAL_CLOSE = {
    CloseCode.UNSUPPORTED_VERSION,
    CloseCode.SUPERSEDED,
    CloseCode.POLICY,
}
BACKOFF = (0.1, 0.3, 0.7, 1.5, 3.0, 5.0)
#: a connection counts as healthy (the backoff starts over) only after this long welcomed:
#: a connection that is closed soon after each connect backs off like one that fails
HEALTHY_AFTER = 10.0  # seconds
PING_EVERY = 20.0  # seconds
RESEND_ATTEMPTS = 3  # an action whose connection dropped is sent again after the resume
RESUME_WAIT = 60.0  # how long an unanswered action waits for the session to come back


class SessionError(Exception):
    pass


def normalize_url(url: str) -> str:
    """The server address as typed: ``host:8765`` means ``ws://host:8765``; ``http(s)://``
    (the address of the browser client) means the same server's ``ws(s)://``."""
    url = url.strip()
    if url.startswith("http://"):
        return "ws://" + url[len("http://") :]
    if url.startswith("https://"):
        return "wss://" + url[len("https://") :]
    if "://" not in url:
        return "ws://" + url
    return url


def describe_connect_error(exc: BaseException) -> str:
    """Why a connection attempt failed, in the words a user knows (``connection refused``,
    ``unknown host``), not an exception's repr."""
    if isinstance(exc, ConnectionRefusedError) or (
        isinstance(exc, OSError) and exc.errno == errno.ECONNREFUSED
    ):
        return tr("connection_refused")
    if isinstance(exc, socket.gaierror):
        return tr("unknown_host")
    if isinstance(exc, TimeoutError):
        return tr("timed_out")
    if isinstance(exc, OSError) and exc.errno is not None:
        return (exc.strerror or str(exc)).lower()
    return str(exc) or type(exc).__name__


#: why the server closed the connection, for the close codes that stop the session: the
#: catalogue's key
_FATAL_WHY = {
    CloseCode.SUPERSEDED: "close_superseded",
    CloseCode.UNSUPPORTED_VERSION: "close_version",
    CloseCode.POLICY: "close_policy",
}


def _refuses_sparse(msg: m.ServerMessage) -> bool:
    """The answer of a server older than ``hello.sparse`` to a hello carrying it (it refuses
    fields it does not know)."""
    return (
        isinstance(msg, m.Error) and msg.code == ErrorCode.BAD_MESSAGE and "'sparse'" in msg.message
    )


class Session:
    """Keeps a player connected; feeds every server message to ``model`` and ``on_update``."""

    def __init__(
        self,
        url: str,
        name: str,
        model: ClientModel,
        on_update: Callable[[list[str]], None],
        token: str | None = None,
        on_status: Callable[[str], None] | None = None,
        *,
        ca_file: str | None = None,
        insecure: bool = False,
    ) -> None:
        self.url = normalize_url(url)
        self.ca_file = ca_file  # wss://: a CA bundle to verify the server (self-signed setups)
        self.insecure = insecure  # wss://: do not verify the certificate at all
        self.name = name
        self.model = model
        self.on_update = on_update
        self.on_status = on_status or (lambda _s: None)
        self.token = token
        self.ws: ClientConnection | None = None
        self.ready = asyncio.Event()  # set while a welcomed connection is up
        self.stopped = False
        self.fatal: str | None = None
        self.connects = 0
        self.attempts = 0  # connection attempts (tests, diagnostics)
        self._welcomed_at: float | None = None  # loop time of the current connection's welcome
        self.pongs = 0
        self._next_id = 1
        self._waiters: dict[int, asyncio.Future[m.ServerMessage]] = {}
        self._cseq = 0
        self._resync_asked: dict[str, int] = {}
        #: the server answers ``hints`` (False after an old server said unknown_type)
        self.server_hints = True
        self._hint_ids: set[int] = set()

    # ------------------------------------------------------------------ sending

    def next_client_seq(self) -> int:
        """Action sequence numbers only grow, also across restarts of the client."""
        self._cseq = max(self._cseq + 1, int(time.time() * 1000))
        return self._cseq

    async def send(self, msg: m.ClientMessage) -> bool:
        ws = self.ws
        if ws is None or not self.ready.is_set():
            return False
        try:
            await ws.send(encode(msg.to_wire()))
        except ConnectionClosed:
            return False
        return True

    async def request(self, msg: m.ClientMessage, timeout: float = 10.0) -> m.ServerMessage:
        """Send ``msg`` with a fresh request id and wait for the reply that echoes it. A
        ``rate_limited`` reply (the server dropped the message) is waited out and the message
        sent again: at the server's sustained rate, a few times at most."""
        for _ in range(RATE_LIMIT_RETRIES):
            reply = await self._request_once(msg, timeout)
            if not (isinstance(reply, m.Error) and reply.code == ErrorCode.RATE_LIMITED.value):
                return reply
            rate = float(self.model.limits.get("rate_per_second") or 20.0)
            await asyncio.sleep(max(0.05, 2.0 / rate))
        return reply

    async def _request_once(self, msg: m.ClientMessage, timeout: float) -> m.ServerMessage:
        rid = self._next_id
        self._next_id += 1
        msg = dataclasses.replace(msg, id=rid)  # type: ignore[call-arg]
        fut: asyncio.Future[m.ServerMessage] = asyncio.get_running_loop().create_future()
        self._waiters[rid] = fut
        try:
            if not await self.send(msg):
                raise SessionError("not connected")
            return await asyncio.wait_for(fut, timeout)
        finally:
            self._waiters.pop(rid, None)

    async def act(self, room: str, action: dict[str, Any]) -> m.ServerMessage | None:
        """Send one game action (one of the legal actions the server listed).

        If the connection drops before the ``ack``/``error``, the action is sent again with
        the same client ``seq`` once the session is resumed: the server applies it at most
        once (``ack.duplicate`` when it had already been applied). Returns the reply, or None
        when there was none (the session stopped, or the server did not answer in time).
        """
        msg = m.Action(room=room, seq=self.next_client_seq(), action=parse_action(dict(action)))
        for _ in range(RESEND_ATTEMPTS):
            try:
                return await self.request(msg)
            except SessionError:
                if self.stopped or self.fatal:
                    return None
                try:
                    await asyncio.wait_for(self.ready.wait(), RESUME_WAIT)
                except TimeoutError:
                    return None
            except TimeoutError:
                return None
        return None

    # --------------------------------------------------------------- the loop

    async def run(self) -> None:
        """Connect, and reconnect after every drop, until :meth:`close` or a close code
        after which reconnecting makes no sense (:data:`FATAL_CLOSE`).

        The backoff grows with each failed or short-lived connection and starts over only
        after a connection stayed up :data:`HEALTHY_AFTER` seconds, so a server that closes
        every connection at once is not hammered ten times a second."""
        attempt = 0
        loop = asyncio.get_running_loop()
        try:
            ssl_ctx = client_ssl_for_url(self.url, self.ca_file, self.insecure)
        except (TLSConfigError, OSError) as exc:
            self.fatal = f"TLS settings: {exc}"
            self.on_status(self.fatal)
            return
        while not self.stopped:
            wait: float | None = None  # the server's Retry-After, when it refused us
            failed: str | None = None  # why the connection could not be made
            self._welcomed_at = None
            self.attempts += 1
            try:
                async with connect(
                    self.url,
                    ssl=ssl_ctx,
                    max_size=1 << 20,
                    open_timeout=5,
                    ping_interval=10,
                    ping_timeout=10,
                    close_timeout=2,
                ) as ws:
                    self.ws = ws
                    pinger = loop.create_task(self._pinger())
                    try:
                        await self._session(ws)
                    finally:
                        pinger.cancel()
            except (OSError, InvalidHandshake, TimeoutError) as exc:
                wait = retry_delay(exc)
                failed = tr("cannot_connect", url=self.url, why=describe_connect_error(exc))
            except InvalidURI as exc:
                self.fatal = tr("bad_address", why=exc)
                self.on_status(self.fatal)
                return
            except ConnectionClosed as exc:  # a drop while connecting (the hello unanswered)
                self._check_close(exc.rcvd.code if exc.rcvd is not None else None, exc)
            finally:
                self.ws = None
                self.ready.clear()
                self.model.connected = False
                for fut in self._waiters.values():
                    if not fut.done():
                        fut.set_exception(SessionError("connection lost"))
            if self.stopped or self.fatal:
                return
            welcomed = self._welcomed_at
            if welcomed is not None and loop.time() - welcomed >= HEALTHY_AFTER:
                attempt = 0  # it was a good connection: start the backoff over
            closing, self.model.closing = self.model.closing, None
            if wait is None and closing is not None and closing.retry_after_ms is not None:
                wait = closing.retry_after_ms / 1000  # a graceful stop said when
            delay = wait if wait is not None else BACKOFF[min(attempt, len(BACKOFF) - 1)]
            if failed is not None:  # kept on screen while retrying
                self.on_status(tr("retrying", failed=failed, secs=f"{delay:.1f}"))
            else:
                self.on_status(tr("connection_lost"))
            self.on_update([])
            await asyncio.sleep(delay)
            attempt += 1

    def _check_close(self, code: int | None, reason: object = None) -> None:
        """After the server closed the connection: stop for good on a fatal close code."""
        if code in FATAL_CLOSE:
            assert code is not None
            name = CloseCode(code).name.lower().replace("_", " ")
            key = _FATAL_WHY.get(CloseCode(code))
            why = tr(key) if key else str(reason or "")
            self.fatal = tr("server_closed", code=code, name=name, why=why)
            self.on_status(self.fatal)
        elif code == CloseCode.BAD_TOKEN:
            self.token = None  # start over as a new player
            self.on_status(tr("forgot_us"))

    async def _frames(self, ws: ClientConnection) -> None:
        hello = m.Hello(
            v=PROTOCOL_VERSION,
            name=self.name or None,
            token=self.token,
            client=CLIENT_NAME,
            sparse=True,
        )
        await ws.send(encode(hello.to_wire()))
        welcomed = False
        async for frame in ws:
            if isinstance(frame, str):
                continue
            try:
                msg = parse_server(decode(frame, _LIMITS))
            except (CodecError, ProtocolError) as exc:
                log.warning("bad frame from the server: %s", exc)
                continue
            if isinstance(msg, m.Welcome):
                welcomed = True
            elif not welcomed and hello.sparse and _refuses_sparse(msg):
                # a server from before sparse delivery: every commit then, seq by seq
                hello = dataclasses.replace(hello, sparse=None)
                await ws.send(encode(hello.to_wire()))
                continue
            self._handle(msg)

    async def _session(self, ws: ClientConnection) -> None:
        """One connection: the frames until it closes; then whether to reconnect at all.
        (Iterating a connection closed with an error code -- 4002 superseded among them --
        raises :class:`ConnectionClosed`: the close code is read after it, not only after a
        clean end.)"""
        with contextlib.suppress(ConnectionClosed):
            await self._frames(ws)
        self._check_close(ws.close_code, ws.close_reason)

    async def _pinger(self) -> None:
        """Ping now and then: measures the server clock (for the countdowns; ``deadline`` is
        server time) and keeps idle connections alive through proxies."""
        await self.ready.wait()
        while True:
            await self.send(m.Ping(t=int(time.time() * 1000)))
            await asyncio.sleep(PING_EVERY)

    def _handle(self, msg: m.ServerMessage) -> None:
        if isinstance(msg, m.Pong) and msg.t is not None and msg.server_ms is not None:
            now = int(time.time() * 1000)
            rtt = max(0, now - msg.t)
            self.model.clock_offset = msg.server_ms - (msg.t + rtt // 2)
            self.pongs += 1
        if isinstance(msg, m.Welcome):
            self.token = msg.token
            self.name = msg.name
            self.connects += 1
            self._welcomed_at = asyncio.get_running_loop().time()
            self._resync_asked.clear()
            self.ready.set()
            self.on_status("connected")
        lines = self.model.apply(msg)
        re = getattr(msg, "re", None)
        if re is not None:
            fut = self._waiters.get(re)
            if fut is not None and not fut.done():
                fut.set_result(msg)
        if isinstance(msg, m.Error) and msg.re in self._hint_ids:
            self._hint_ids.discard(msg.re)
            if msg.code == ErrorCode.UNKNOWN_TYPE.value:
                self.server_hints = False  # a server from before hints: the local advice
                log.info("the server has no hints; using the client's own advice")
            return self.on_update(lines)
        for rid, room in self.model.rooms.items():
            if (
                self.server_hints
                and room.legal
                and room.seat is not None
                and room.hints_asked != room.legal_seq
            ):
                room.hints_asked = room.legal_seq
                asyncio.get_running_loop().create_task(self._ask_hints(rid))
            if room.wants_snapshot:
                room.wants_snapshot = False
                asyncio.get_running_loop().create_task(self.send(m.Resync(room=rid, since=0)))
            if room.needs_resync and self._resync_asked.get(rid) != room.seq:
                self._resync_asked[rid] = room.seq
                asyncio.get_running_loop().create_task(
                    self.send(m.Resync(room=rid, since=room.seq))
                )
        self.on_update(lines)

    async def _ask_hints(self, room: str) -> None:
        """Ask the server for this seat's hints (the reply lands in the room's ``hints``)."""
        rid = self._next_id
        self._next_id += 1
        self._hint_ids.add(rid)
        await self.send(m.GetHints(room=room, id=rid))

    async def close(self) -> None:
        self.stopped = True
        ws = self.ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()

    async def drop(self) -> None:
        """Abort the current connection without a close handshake (tests, diagnostics)."""
        ws = self.ws
        if ws is not None:
            ws.transport.abort()


#: how often a request the server dropped for the rate limit is sent again
RATE_LIMIT_RETRIES = 8

# the client accepts bigger frames than it sends (a whole game log, a full snapshot)
_LIMITS = dataclasses.replace(
    DEFAULT_LIMITS,
    max_frame_bytes=1 << 20,
    max_array_len=1 << 16,
    max_map_len=1024,
    max_str_len=1 << 16,
)
