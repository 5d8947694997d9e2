"""Sessions: one connection's frames in order, frame → message → handler, with the error and abuse mapping in one place.

Rate limit, decoding, ``hello`` first, shutdown refusal; what a handler raises becomes the
client's ``error`` here (:meth:`Session.handle_frame`) and too many bad messages close the
connection.
"""

from __future__ import annotations

import logging
import time

import redis.exceptions

from protocol import messages as m
from protocol.codec import CodecError, Limits, decode
from protocol.codes import CloseCode, ErrorCode
from protocol.messages import ProtocolError, parse_client, request_id_of
from server.api.handlers import Context, dispatch
from server.api.presence import Presence, send_error
from server.flow.runtime import Runtime
from server.net.transport import Closed, Conn
from server.room.rooms import RoomError

log = logging.getLogger("mahjong.server")


class Session:
    """Runs every connection of this process (see the module docstring)."""

    def __init__(self, cx: Context, presence: Presence, limits: Limits) -> None:
        self.cx = cx
        self.rt: Runtime = cx.rt
        self.presence = presence
        self.limits = limits

    async def serve(self, conn: Conn) -> None:
        """The connection's whole life on this process, counted among the open ones."""
        rt = self.rt
        rt.conns.add(conn)
        rt.metrics.connections += 1
        conn.greeting = True
        rt.greeting += 1
        try:
            await self.run(conn)
        except Closed:
            pass
        finally:
            rt.greeted(conn)
            conn.closed = True
            rt.conns.discard(conn)
            rt.metrics.connections -= 1
            await self.presence.disconnect(conn)

    async def run(self, conn: Conn) -> None:
        """Read frames until the connection closes; the first must be ``hello`` within
        ``--hello-timeout`` seconds."""
        hello_deadline = time.monotonic() + self.rt.cfg.hello_timeout
        while True:
            if conn.player is None:
                remaining = hello_deadline - time.monotonic()
                if remaining <= 0:
                    await conn.close(CloseCode.HELLO_TIMEOUT, "hello expected")
                    return
                try:
                    frame = await conn.recv(remaining)
                except TimeoutError:
                    await conn.close(CloseCode.HELLO_TIMEOUT, "hello expected")
                    return
            else:
                frame = await conn.recv()
            self.rt.metrics.counters["messages_in"] += 1
            if not await self.handle_frame(conn, frame):
                return

    def error(
        self,
        conn: Conn,
        code: ErrorCode,
        message: str,
        re: int | None = None,
        detail: dict[str, object] | None = None,
    ) -> None:
        send_error(self.rt, conn, code, message, re, detail)

    def note_error(self, conn: Conn) -> bool:
        """Count a bad message; False when the connection must be closed for abuse."""
        t = time.monotonic()
        conn.errors.append(t)
        while conn.errors and conn.errors[0] < t - 60:
            conn.errors.popleft()
        return len(conn.errors) <= self.rt.cfg.max_errors

    async def _abuse(self, conn: Conn) -> bool:
        await conn.close(CloseCode.POLICY, "too many bad messages")
        return False

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
        """Handle one frame; False when the connection was closed."""
        if not conn.allow():
            self.error(
                conn,
                ErrorCode.RATE_LIMITED,
                "too many messages; slow down",
                self.frame_request_id(frame),
            )
            return self.note_error(conn) or await self._abuse(conn)
        try:
            if isinstance(frame, str):
                raise CodecError(ErrorCode.BAD_FRAME, "text frames are not accepted: send binary")
            msg = parse_client(decode(frame, self.limits))
        except (CodecError, ProtocolError) as exc:
            self.error(conn, exc.code, exc.message, getattr(exc, "re", None))
            return self.note_error(conn) or await self._abuse(conn)
        rid = getattr(msg, "id", None)
        if self.rt.shutting_down:
            self.error(conn, ErrorCode.SHUTTING_DOWN, "server shutting down; reconnect", rid)
            return True
        started = time.perf_counter()
        # what this request sends this connection (its commit's events frame, its ack or
        # error) leaves in one socket write (``Conn.cork``)
        conn.cork()
        try:
            if isinstance(msg, m.Hello):
                return await self.presence.hello(conn, msg)
            if conn.player is None:
                self.error(conn, ErrorCode.HELLO_REQUIRED, "send hello first", rid)
                return self.note_error(conn) or await self._abuse(conn)
            await dispatch(self.cx, conn, msg)
        except RoomError as exc:
            self.error(conn, exc.code, exc.message, rid, exc.detail)
            if exc.code in (ErrorCode.ILLEGAL_ACTION, ErrorCode.BAD_MESSAGE) and not (
                self.note_error(conn)
            ):
                return await self._abuse(conn)
        except redis.exceptions.RedisError:
            self.rt.metrics.inc("redis_errors")
            log.warning("redis error while handling a request", exc_info=True)
            self.error(conn, ErrorCode.UNAVAILABLE, "storage unavailable; retry", rid)
        except Exception:
            log.exception("internal error", extra={"type": msg.type})
            self.error(conn, ErrorCode.INTERNAL, "internal error", rid)
        finally:
            conn.uncork()
            if isinstance(msg, m.Action):
                self.rt.metrics.action_latency.observe(time.perf_counter() - started)
        return True
