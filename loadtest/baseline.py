"""The transport baseline: a bare ``websockets`` room-broadcast server.

No Redis, no game logic, no views: a client joins a room (``{"type": "join", "room": r}``,
answered with an ``ack``), and every ``action`` frame bumps the room's version and is
broadcast to every member as an ``events`` frame padded to the requested ``size`` bytes —
the same frame sizes and the same fan-out (one action → four deliveries) as the game
server, so the load test can report "game server throughput / transport limit on this
machine". Same websockets settings as the game server (binary msgpack frames, no
compression).

An action with ``"to": 1`` goes to the actor only, as the game server's sparse delivery
sends another seat's mid-window answer (``"to": 4``: everyone); as soon as a room has seen
a ``to``, its frames carry ``prev`` (the seq of the frame each member got before), like the
game's. The load test mixes the two so the baseline's frames per action match the game's.

Run it alone with ``python -m loadtest.baseline --port 0`` (prints ``{"listening": port}``).

With ``--redis URL`` it is the **toy** the issue calibrates against: the same server doing one
Lua call per action (bump the room's version in a Redis hash and store the action, one round
trip on a ``redis.asyncio`` client with a blocking pool) before the broadcast, which carries
the version Redis returned. The load test runs it with ``--toy`` beside the baseline, so a
report says what one Redis round trip per action costs on this machine, next to the game.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import importlib.util
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import msgpack
import redis.asyncio as aioredis
from websockets.asyncio.server import ServerConnection, broadcast, serve

from server.process.procs import announce_listening
from server.storage.resp import PipelinedConnection

__all__ = ["HAS_UVLOOP", "TOY_COMMIT_LUA", "install_uvloop", "main", "run"]

#: the harness and the baseline/toy server run on uvloop when it is installed (a dependency of
#: this package where it exists), as the game server does (``--event-loop auto``), so all three
#: parts of a run use the same event loop; ``--no-uvloop`` for asyncio's
HAS_UVLOOP = importlib.util.find_spec("uvloop") is not None


def install_uvloop() -> None:
    """Make uvloop the event loop of every ``asyncio.run`` from now on, in this process."""
    importlib.import_module("uvloop").install()


#: the toy's commit: one round trip per action
TOY_COMMIT_LUA = """
local v = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'last', ARGV[1])
return v
"""


class _Toy(Protocol):
    """The toy's one Redis round trip per action."""

    async def commit(self, room: str, action: bytes) -> int:
        """The room's new version."""
        ...

    async def close(self) -> None: ...


class _RedisPyToy:
    """The toy on redis.asyncio with a blocking pool (the toy the load-test issue
    calibrated against)."""

    def __init__(self, url: str) -> None:
        pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=16, timeout=5)
        self.redis = aioredis.Redis(connection_pool=pool)
        self.sha: str | None = None

    async def commit(self, room: str, action: bytes) -> int:
        if self.sha is None:
            self.sha = str(await self.redis.script_load(TOY_COMMIT_LUA))
        return int(await self.redis.evalsha(self.sha, 1, f"toy:{room}", action))

    async def close(self) -> None:
        await self.redis.aclose()


class _RespToy:
    """The toy on the game server's own pipelined connection (server/storage/resp.py)."""

    def __init__(self, url: str) -> None:
        self.conn = PipelinedConnection(url)
        self.sha: str | None = None

    async def commit(self, room: str, action: bytes) -> int:
        if self.sha is None:
            self.sha = (await self.conn.execute("SCRIPT", "LOAD", TOY_COMMIT_LUA)).decode()
        return int(await self.conn.execute("EVALSHA", self.sha, 1, f"toy:{room}", action))

    async def close(self) -> None:
        await self.conn.close()


class _Rooms:
    def __init__(self, toy: _Toy | None = None) -> None:
        self.members: dict[str, set[ServerConnection]] = {}
        self.version: dict[str, int] = {}
        # (member, room) -> seq of the last frame sent to it, for rooms with sparse fan-out
        self.sent: dict[tuple[ServerConnection, str], int] = {}
        self.pad: dict[int, bytes] = {}
        #: the toy's Redis round trip (None: the bare baseline)
        self.toy = toy

    def frame(self, room: str, size: int, v: int, prev: int | None = None) -> bytes:
        self.version[room] = v
        body: dict[str, Any] = {"type": "events", "room": room, "seq": v, "events": []}
        if prev is not None:
            body["prev"] = prev
        base = len(msgpack.packb(body, use_bin_type=True))
        n = max(0, size - base - 16)
        pad = self.pad.get(n)
        if pad is None:
            pad = self.pad[n] = b"x" * n
        body["events"] = [{"type": "pad", "data": pad}]
        return msgpack.packb(body, use_bin_type=True)  # type: ignore[no-any-return]

    async def handler(self, ws: ServerConnection) -> None:
        joined: set[str] = set()
        try:
            async for frame in ws:
                if isinstance(frame, str):
                    continue
                msg = msgpack.unpackb(frame, raw=False)
                t = msg.get("type")
                room = str(msg.get("room", ""))
                if t == "join":
                    self.members.setdefault(room, set()).add(ws)
                    joined.add(room)
                    await ws.send(msgpack.packb({"type": "ack", "room": room, "re": msg.get("id")}))
                elif t == "action" and room in joined:
                    size = int(msg.get("size", 300))
                    if self.toy is None:  # the bare baseline: counted here
                        v = self.version.get(room, 0) + 1
                    else:
                        v = await self.toy.commit(room, frame)
                    members = self.members.get(room)
                    to = msg.get("to")
                    if members and to is None:
                        broadcast(members, self.frame(room, size, v))
                    elif members:
                        self.send_sparse(room, ws if to == 1 else None, members, size, v)
                elif t == "hello":
                    await ws.send(msgpack.packb({"type": "welcome", "re": msg.get("id")}))
        finally:
            for room in joined:
                members = self.members.get(room)
                if members is not None:
                    members.discard(ws)
                    if not members:
                        del self.members[room]
                        self.version.pop(room, None)
                self.sent.pop((ws, room), None)

    def send_sparse(
        self,
        room: str,
        only: ServerConnection | None,
        members: set[ServerConnection],
        size: int,
        v: int,
    ) -> None:
        """Frame ``v`` to ``only`` (None: every member), each with its ``prev``: one
        encoding per distinct ``prev``, like the game server's per-view frames."""
        by_prev: dict[int, list[ServerConnection]] = {}
        for m in [only] if only is not None else members:
            by_prev.setdefault(self.sent.get((m, room), v - 1), []).append(m)
            self.sent[(m, room)] = v
        for prev, conns in by_prev.items():
            broadcast(conns, self.frame(room, size, v, prev))


async def run(
    host: str = "127.0.0.1",
    port: int = 0,
    ready: Callable[[int], None] | None = None,
    stop: asyncio.Event | None = None,
    redis_url: str | None = None,
    client: str = "redis-py",
) -> None:
    """Serve until ``stop`` is set (or SIGINT/SIGTERM); ``redis_url``: be the toy, on
    ``client`` (``redis-py``: redis.asyncio with a blocking pool, the toy the load-test issue
    calibrated; ``resp``: the game server's own pipelined connection, server/storage/resp.py)."""
    toy: _Toy | None = None
    if redis_url is not None:
        toy = _RespToy(redis_url) if client == "resp" else _RedisPyToy(redis_url)
    rooms = _Rooms(toy)
    try:
        await _serve(rooms, host, port, ready, stop)
    finally:
        if toy is not None:
            await toy.close()


async def _serve(
    rooms: _Rooms,
    host: str,
    port: int,
    ready: Callable[[int], None] | None,
    stop: asyncio.Event | None,
) -> None:
    async with serve(
        rooms.handler, host, port, compression=None, max_size=256 * 1024, max_queue=64
    ) as server:
        sock = next(iter(server.sockets))
        if ready is not None:
            ready(int(sock.getsockname()[1]))
        stop = stop or asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):  # not main thread
                loop.add_signal_handler(sig, stop.set)
        await stop.wait()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m loadtest.baseline",
        description="Bare websockets room-broadcast server (the load test's transport baseline).",
    )
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8799, help="0: any free port")
    ap.add_argument(
        "--uvloop",
        action=argparse.BooleanOptionalAction,
        default=HAS_UVLOOP,
        help="use uvloop (default: when installed, as the game server does)",
    )
    ap.add_argument("--redis", help="be the toy: one Lua call per action on this Redis URL")
    ap.add_argument(
        "--redis-client",
        choices=["redis-py", "resp"],
        default="redis-py",
        help="the toy's Redis client: redis.asyncio (the calibrated toy) or the game server's "
        "own pipelined RESP connection (server/storage/resp.py)",
    )
    args = ap.parse_args(argv)
    if args.uvloop:
        install_uvloop()

    asyncio.run(
        run(
            args.host,
            args.port,
            announce_listening,
            redis_url=args.redis,
            client=args.redis_client,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
