"""A minimal pipelined Redis connection for the commit script (the hot path).

One commit is one ``EVALSHA``; through redis-py's pool each costs ~140-175 µs of CPU in this
process (pool checkout, argument encoding, the reply's round of awaits). This connection
does only what a commit needs: commands are encoded here, written as they come (the commands
of one event-loop iteration in one write) and replies — parsed by hiredis, which redis-py
uses too — are matched to their requests in order (Redis answers a connection's commands in
order). Every other command keeps using redis-py.

Errors keep redis-py's types, so callers are unchanged: an error reply is
``redis.exceptions.ResponseError`` (``NoScriptError`` for ``NOSCRIPT``); a lost connection
fails every command in flight with ``redis.exceptions.ConnectionError`` (as with redis-py, a
command in flight when the connection drops may or may not have been applied: commits are
safe to retry, the script's version and client-seq checks make a retry harmless). The next
command reconnects.

:func:`psubscribe` gives the server's pub/sub subscription the same treatment: each
notification is handed to a callback straight from the connection's protocol.

Only plain ``unix://`` and ``redis://`` URLs (with an optional password / user and db) are
handled; :func:`supported` says whether a URL is (TLS and cluster URLs keep redis-py).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from typing import Any, cast
from urllib.parse import parse_qs, unquote, urlsplit

import hiredis
import redis.exceptions

__all__ = ["PipelinedConnection", "Subscription", "encode_command", "psubscribe", "supported"]

log = logging.getLogger("mahjong.server")


def supported(url: str) -> bool:
    """Whether :class:`PipelinedConnection` can serve ``url``."""
    try:
        parts = urlsplit(url)
        if parts.scheme == "unix":
            extra = set(parse_qs(parts.query)) - {"db", "password", "username"}
            return bool(parts.path) and not extra
        if parts.scheme == "redis":
            return not parts.query and parts.hostname is not None and _db(parts.path) >= 0
    except ValueError:
        return False
    return False


def _db(path: str) -> int:
    p = path.lstrip("/")
    return int(p) if p else 0


def encode_command(args: tuple[Any, ...]) -> bytes:
    """RESP encoding of one command: bytes as they are, str as UTF-8, int in decimal
    (hiredis's ``pack_command``: 2.0 µs for a commit's 18 arguments where the Python loop it
    replaced took 4.3; a float or a bool, which would reach Redis as text nobody meant, is
    refused)."""
    for a in args:
        if type(a) is float:
            raise redis.exceptions.DataError("cannot send a float to redis")
    try:
        packed: bytes = hiredis.pack_command(args)
        return packed
    except TypeError:
        bad = next(
            a for a in args if not isinstance(a, bytes | str | int) or a is True or a is False
        )
        raise redis.exceptions.DataError(f"cannot send a {type(bad).__name__} to redis") from None


def _error(reply: Exception) -> redis.exceptions.RedisError:
    msg = str(reply)
    if msg.startswith("NOSCRIPT"):
        return redis.exceptions.NoScriptError(msg)
    if msg.startswith("LOADING"):
        return redis.exceptions.BusyLoadingError(msg)
    return redis.exceptions.ResponseError(msg)


class _Protocol(asyncio.Protocol):
    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        on_message: Callable[[bytes, bytes], None] | None = None,
    ) -> None:
        self.loop = loop
        #: subscriber connections: called with (channel, data) of each ``pmessage``
        self.on_message = on_message
        self.closed: asyncio.Future[None] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.reader = hiredis.Reader()
        self.waiting: deque[asyncio.Future[Any]] = deque()
        self.out: list[bytes] = []
        self.flush_scheduled = False
        self.lost: Exception | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def send(self, data: bytes) -> asyncio.Future[Any]:
        if self.lost is not None or self.transport is None:
            raise redis.exceptions.ConnectionError("redis connection lost")
        fut = self.loop.create_future()
        self.waiting.append(fut)
        self.out.append(data)
        if not self.flush_scheduled:
            self.flush_scheduled = True
            self.loop.call_soon(self._flush)
        return fut

    def _flush(self) -> None:
        self.flush_scheduled = False
        if self.transport is None or self.lost is not None or not self.out:
            return
        data = self.out[0] if len(self.out) == 1 else b"".join(self.out)
        self.out = []
        self.transport.write(data)

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while True:
            try:
                reply = self.reader.gets()
            except hiredis.ProtocolError as exc:
                assert self.transport is not None
                self.transport.close()
                self._fail(redis.exceptions.ConnectionError(f"redis protocol error: {exc}"))
                return
            if reply is False:
                return
            if (
                self.on_message is not None
                and isinstance(reply, list)
                and len(reply) == 4
                and reply[0] == b"pmessage"
            ):
                try:
                    self.on_message(reply[2], reply[3])
                except Exception:  # pragma: no cover - the callback's own bug
                    log.exception("pub/sub message handler failed")
                continue
            if not self.waiting:  # pragma: no cover - a reply nobody asked for
                continue
            fut = self.waiting.popleft()
            if fut.done():  # the caller was cancelled: the reply is dropped
                continue
            if isinstance(reply, hiredis.ReplyError):
                fut.set_exception(_error(reply))
            else:
                fut.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(redis.exceptions.ConnectionError(f"redis connection lost: {exc}"))

    def _fail(self, exc: Exception) -> None:
        self.lost = exc
        if not self.closed.done():
            self.closed.set_result(None)
        while self.waiting:
            fut = self.waiting.popleft()
            if not fut.done():
                fut.set_exception(exc)


class PipelinedConnection:
    """One connection to Redis shared by every caller, pipelined (see the module doc)."""

    def __init__(self, url: str, connect_timeout: float = 10.0) -> None:
        if not supported(url):
            raise ValueError(f"unsupported redis URL for the pipelined connection: {url!r}")
        self.url = url
        self.connect_timeout = connect_timeout
        self._proto: _Protocol | None = None
        self._connecting: asyncio.Lock | None = None

    async def _connect(self, on_message: Callable[[bytes, bytes], None] | None = None) -> _Protocol:
        loop = asyncio.get_running_loop()
        parts = urlsplit(self.url)
        proto = _Protocol(loop, on_message)
        if parts.scheme == "unix":
            query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
            db = int(query.get("db", "0"))
            password = query.get("password") or (unquote(parts.password or "") or None)
            username = query.get("username") or (unquote(parts.username or "") or None)
            connect = loop.create_unix_connection(lambda: proto, unquote(parts.path))
        else:
            db = _db(parts.path)
            password = unquote(parts.password) if parts.password else None
            username = unquote(parts.username) if parts.username else None
            connect = loop.create_connection(
                lambda: proto, parts.hostname or "localhost", parts.port or 6379
            )
        try:
            await asyncio.wait_for(connect, self.connect_timeout)
        except OSError as exc:
            raise redis.exceptions.ConnectionError(f"cannot connect to redis: {exc}") from exc
        except TimeoutError as exc:
            raise redis.exceptions.TimeoutError("timed out connecting to redis") from exc
        if password is not None:
            auth = ("AUTH", username, password) if username else ("AUTH", password)
            await proto.send(encode_command(auth))
        if db:
            await proto.send(encode_command(("SELECT", db)))
        return proto

    async def _protocol(self) -> _Protocol:
        proto = self._proto
        if proto is not None and proto.lost is None:
            return proto
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:
            proto = self._proto
            if proto is None or proto.lost is not None:
                proto = self._proto = await self._connect()
            return proto

    async def execute(self, *args: Any) -> Any:
        """Send one command and return its reply (bytes, int, lists of them)."""
        proto = self._proto
        if proto is None or proto.lost is not None:
            proto = await self._protocol()
        return await proto.send(encode_command(args))

    async def execute_many(self, *commands: tuple[Any, ...]) -> list[Any]:
        """Send several commands at once, in this order on this connection (one round
        trip), and return their replies in the same order. A command Redis refuses raises
        its error here once every reply has arrived."""
        proto = self._proto
        if proto is None or proto.lost is not None:
            proto = await self._protocol()
        futs = [proto.send(encode_command(c)) for c in commands]
        replies = await asyncio.gather(*futs, return_exceptions=True)
        for r in replies:
            if isinstance(r, BaseException):
                raise r
        return list(replies)

    async def close(self) -> None:
        proto, self._proto = self._proto, None
        if proto is not None and proto.transport is not None:
            proto.transport.close()


class Subscription:
    """A pattern subscription on its own connection: ``on_message(channel, data)`` is called
    from the connection's protocol for every message (no task, no queue per message)."""

    def __init__(self, proto: _Protocol) -> None:
        self._proto = proto

    async def wait_closed(self) -> None:
        """Return when the connection is lost (or closed)."""
        await asyncio.shield(self._proto.closed)

    def close(self) -> None:
        if self._proto.transport is not None:
            self._proto.transport.close()


async def psubscribe(
    url: str, pattern: str, on_message: Callable[[bytes, bytes], None]
) -> Subscription:
    """Connect to ``url`` and PSUBSCRIBE ``pattern`` (returns once subscribed)."""
    proto = await PipelinedConnection(url)._connect(on_message)
    try:
        await proto.send(encode_command(("PSUBSCRIBE", pattern)))
    except BaseException:
        if proto.transport is not None:
            proto.transport.close()
        raise
    return Subscription(proto)
