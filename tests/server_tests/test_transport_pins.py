"""``server/net/transport.py`` writes below websockets' public send path and slims connections by
swapping websockets' internal containers (docs/server.md, "websockets"). These tests fail when
an installed websockets no longer has what that code relies on: the version is within the pin
of ``pyproject.toml``, and a real connection still has each internal it uses, with the type it
is used as."""

from __future__ import annotations

import asyncio
import collections
import re
import tomllib
from collections.abc import Awaitable, Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import msgpack
from packaging.specifiers import SpecifierSet
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve

from protocol import messages as m
from protocol.codec import encode
from server.net.transport import Conn, _SmallQueue, slim_connection
from server.process.config import Config

ROOT = Path(__file__).resolve().parents[2]


def _pin() -> SpecifierSet:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    spec = next(d for d in deps if re.match(r"websockets\b", d))
    return SpecifierSet(spec.removeprefix("websockets"))


def test_websockets_is_a_pinned_version() -> None:
    pin = _pin()
    assert pin, "websockets must be pinned: transport.py relies on its internals"
    assert any(s.operator in ("<", "<=", "==", "~=") for s in pin), "no upper bound"
    assert version("websockets") in pin


async def frames_sent_by(
    handler: Callable[[ServerConnection], Awaitable[None]], n: int
) -> list[Any]:
    """Serve ``handler`` (the server's side of one connection), connect to it and return the
    first ``n`` frames the client receives, unpacked; the connection stays open until the
    client has read them (then the client says "done" and the handler's side returns)."""
    done = asyncio.Event()

    async def serve_one(ws: ServerConnection) -> None:
        await handler(ws)
        await ws.recv()  # the client's "done"
        done.set()

    async with serve(serve_one, "127.0.0.1", 0, compression=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}", compression=None) as client:
            got = [msgpack.unpackb(await client.recv()) for _ in range(n)]
            await client.send(b"done")
            await asyncio.wait_for(done.wait(), 5)
    return got


async def test_the_internals_transport_uses_are_there_and_work() -> None:
    found: dict[str, Any] = {}

    async def handler(ws: ServerConnection) -> None:
        # what Conn._write_now, Conn._writer and slim_connection touch
        found["transport"] = ws.transport is not None and hasattr(
            ws.transport, "get_write_buffer_size"
        )
        found["state"] = ws.protocol.state.name
        found["extensions"] = list(ws.protocol.extensions)
        found["send_context"] = callable(getattr(ws, "send_context", None))
        found["send_binary"] = callable(getattr(ws.protocol, "send_binary", None))
        found["writes"] = type(getattr(ws.protocol, "writes", None))
        found["drain_waiters"] = type(getattr(ws, "drain_waiters", None))
        found["queue"] = type(ws.recv_messages.frames.queue)  # type: ignore[attr-defined]
        slim_connection(ws)
        found["slim_waiters"] = type(ws.drain_waiters)
        found["slim_queue"] = type(ws.recv_messages.frames.queue)  # type: ignore[attr-defined]
        conn = Conn(ws, Config())
        conn.busy = True  # as if a frame were being written: these go through the writer
        for i in range(5):
            conn.send_frame(encode({"i": i}))
        while conn.queued() or conn.busy:
            await asyncio.sleep(0.01)
        conn.send_frame(encode({"i": 5}))  # the socket is free: written at once
        found["direct"] = not conn.queued() and not conn.busy

    got = [f["i"] for f in await frames_sent_by(handler, 6)]
    assert got == list(range(6)), "frames written below the send path arrive in order"
    assert found == {
        "transport": True,
        "state": "OPEN",
        "extensions": [],
        "send_context": True,
        "send_binary": True,
        "writes": list,
        "drain_waiters": collections.deque,
        "queue": collections.deque,
        "slim_waiters": list,
        "slim_queue": _SmallQueue,
        "direct": True,
    }


async def test_a_corked_connection_sends_its_frames_in_order_in_one_write() -> None:
    """What one request sends its connection (``Conn.cork`` .. ``uncork``: its commit's
    events frame, its ack) reaches the socket in one write, in order; a frame sent uncorked
    is one write of its own."""
    writes: list[int] = []
    found: list[int] = []

    async def handler(ws: ServerConnection) -> None:
        transport = ws.transport
        real = transport.write

        def write(data: bytes | bytearray | memoryview) -> None:  # counts, then writes
            writes.append(len(data))
            real(data)

        transport.write = write  # type: ignore[method-assign]
        conn = Conn(ws, Config())
        conn.cork()
        for i in range(3):
            conn.send_frame(encode({"i": i}))
        assert writes == [], "held while corked"
        conn.uncork()
        conn.send_frame(encode({"i": 3}))
        conn.cork()
        conn.uncork()  # nothing held: nothing written
        found.extend(writes)  # (the close frame is written when the handler returns)

    got = [f["i"] for f in await frames_sent_by(handler, 4)]
    assert got == [0, 1, 2, 3]
    assert found == [3 * 6, 6], "three 6-byte frames in one write, then one"


async def test_a_held_answers_ack_goes_ahead_of_the_frames_held_during_its_request() -> None:
    """The window's close can reach the connection (fan-out) while the answer to it is being
    stored: the answer's held ack still arrives first, so a client that clears its prompt on
    that ack does not clear the close's new question (drill 3 once stalled on it)."""

    async def handler(ws: ServerConnection) -> None:
        conn = Conn(ws, Config())
        conn.cork()
        conn.send_frame(encode({"type": "events", "seq": 23}))  # the close, fanned out
        conn.send_ahead(m.Ack(room="r", seq=22, client_seq=1, held=True, re=5))
        conn.uncork()
        conn.send_ahead(m.Ack(room="r", seq=23, client_seq=2, re=6))  # uncorked: sent at once

    got = await frames_sent_by(handler, 3)
    assert [(g["type"], g["seq"], bool(g.get("held"))) for g in got] == [
        ("ack", 22, True),
        ("events", 23, False),
        ("ack", 23, False),
    ]
