"""One client WebSocket connection speaking msgpack frames, with request/reply matching."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from loadtest.stats import Recorder

__all__ = ["Conn", "RequestError"]

JSON = dict[str, Any]

_ids = itertools.count(1)


class RequestError(Exception):
    def __init__(self, reply: JSON) -> None:
        super().__init__(f"{reply.get('code')}: {reply.get('message')}")
        self.reply = reply
        self.code = str(reply.get("code"))

    @property
    def label(self) -> str:
        """The error code, with the table's code when there is one (``illegal_action:
        not-your-turn``): what the report counts errors by."""
        detail = self.reply.get("detail") or {}
        table_code = detail.get("table_code") if isinstance(detail, dict) else None
        return f"{self.code}:{table_code}" if table_code else self.code

    @property
    def stale(self) -> bool:
        """An action made against a decision the table has moved past (``illegal_action``
        with ``table_code: stale-seq``): the race of acting on a question another seat's
        action overtook, which the server refuses without changing anything."""
        return self.label == "illegal_action:stale-seq"


class Conn:
    """A client connection. Replies carrying ``re`` resolve :meth:`request`; every other
    frame goes to ``on_message``. Frames are counted in the recorder."""

    def __init__(self, url: str, rec: Recorder, index: int) -> None:
        self.url = url
        self.rec = rec
        self.index = index
        self.ws: ClientConnection | None = None
        self.waiting: dict[int, asyncio.Future[JSON]] = {}
        self.on_message: Callable[[Conn, JSON, float], None] | None = None
        #: called once when the connection is lost without our asking (not on close())
        self.on_lost: Callable[[Conn], None] | None = None
        self.token: str | None = None  # the player's resume token (from welcome)
        self.reader: asyncio.Task[None] | None = None
        self.closing = False
        #: the server's "reconnect in this many ms" of its ``closing`` message (a graceful stop)
        self.retry_after_ms: int | None = None
        self.closed = asyncio.Event()

    async def open(self, timeout: float = 30.0, count_failure: bool = True) -> None:
        try:
            self.ws = await asyncio.wait_for(
                connect(
                    self.url,
                    max_size=1 << 20,
                    compression=None,
                    ping_interval=None,
                    open_timeout=timeout,
                    # no proxy lookup: websockets reads the proxy environment variables on
                    # every connect (~0.1 ms, 8.5 % of the harness's CPU in a reconnect
                    # storm), and a load test talks to its servers directly
                    proxy=None,
                ),
                timeout,
            )
        except Exception:
            if count_failure:
                self.rec.connect_failures += 1
            raise
        self.rec.opened()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        unexpected = False
        try:
            async for frame in self.ws:
                now = time.perf_counter()
                if isinstance(frame, str):
                    self.rec.error("text-frame")
                    continue
                msg = msgpack.unpackb(frame, raw=False)
                self.rec.frame(len(frame), msg.get("type") == "events")
                re = msg.get("re")
                fut = self.waiting.pop(re, None) if isinstance(re, int) else None
                if fut is not None and not fut.done():
                    fut.set_result(msg)
                    if msg.get("type") != "snapshot":
                        continue
                if msg.get("type") == "error" and fut is None:
                    self.rec.error(str(msg.get("code")))
                elif msg.get("type") == "closing":
                    hint = msg.get("retry_after_ms")
                    self.retry_after_ms = hint if isinstance(hint, int) and hint >= 0 else None
                if self.on_message is not None:
                    self.on_message(self, msg, now)
        except ConnectionClosed:
            unexpected = not self.closing
        except Exception:  # a bad frame from the server: count it and drop the connection
            self.rec.error("client-exception")
            unexpected = not self.closing
        finally:
            if not self.closing and not unexpected:
                unexpected = True  # the server ended the stream
            self.rec.closed(unexpected)
            for fut in self.waiting.values():
                if not fut.done():
                    fut.set_exception(ConnectionError("connection closed"))
            self.waiting.clear()
            self.closed.set()
            if unexpected and self.on_lost is not None:
                self.on_lost(self)

    async def send(self, msg: JSON) -> None:
        """Send one frame; ConnectionError when the connection is gone."""
        assert self.ws is not None
        try:
            await self.ws.send(msgpack.packb(msg, use_bin_type=True))
        except ConnectionClosed as e:
            raise ConnectionError(f"connection closed: {e}") from None

    async def request(self, msg: JSON, timeout: float = 30.0) -> JSON:
        """Send with a fresh request id; return the reply (raise RequestError on error)."""
        rid = next(_ids)
        fut: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = fut
        try:
            await self.send({**msg, "id": rid})
        except BaseException:
            self.waiting.pop(rid, None)
            fut.cancel()
            raise
        try:
            reply = await asyncio.wait_for(fut, timeout)
        finally:
            self.waiting.pop(rid, None)
        if reply.get("type") == "error":
            raise RequestError(reply)
        return reply

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.closed.wait(), 5)
