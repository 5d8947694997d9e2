"""The conformance suite's helpers: a ``mahjong-server`` process, and a client that checks
every frame it receives against the published schema.

Written as a stranger's client would be: only ``msgpack``, ``websockets``, ``jsonschema``,
the published ``protocol/schema.json`` and docs/protocol.md — no import of the project's
``protocol``, ``server``, ``table`` or ``bots`` (``test_independence`` checks it). The server
is started as a program (``python -m server``), with its embedded Redis or one started
here.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import leftovers  # the suite's own helper (tests/leftovers.py), not the project's
import msgpack
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "protocol" / "schema.json").read_text(encoding="utf-8"))
SERVER_MESSAGE = jsonschema.Draft202012Validator(
    {"$ref": "#/$defs/ServerMessage", "$defs": SCHEMA["$defs"]}
)
CLIENT_MESSAGE = jsonschema.Draft202012Validator(
    {"$ref": "#/$defs/ClientMessage", "$defs": SCHEMA["$defs"]}
)

JSON = dict[str, Any]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m server`` on 127.0.0.1; ``args`` are its command-line flags. Without a
    ``--redis-url`` among them it gets a redis-server of its own, started (and stopped) here,
    so no Redis outlives a test whatever happens to the server."""

    def __init__(self, data_dir: Path, *args: str) -> None:
        self.port = free_port()
        self.redis: RedisProcess | None = None
        if "--redis-url" not in args:
            self.redis = RedisProcess(data_dir)
            args = (*args, "--redis-url", self.redis.url)
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        self.log = (data_dir / "server.log").open("w")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--data-dir",
                str(data_dir),
                "--log-level",
                "WARNING",
                "--no-log-json",
                *args,
            ],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
        )
        leftovers.track(self.proc)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.stop()
                raise RuntimeError(f"the server exited: {(data_dir / 'server.log').read_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not listen within 60 s")

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        try:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)
                try:
                    self.proc.wait(20)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        finally:
            self.log.close()
            if self.redis is not None:
                self.redis.stop()


#: a server for games: no rate limits in the way, bots at once, short grace
FAST_FLAGS = (
    "--bot-delay-ms",
    "0",
    "--timer-poll-ms",
    "20",
    "--grace-seconds",
    "1",
    "--rate-per-second",
    "1000",
    "--rate-burst",
    "2000",
)


class RedisProcess:
    def __init__(self, data_dir: Path) -> None:
        self.port = free_port()
        exe = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.proc = subprocess.Popen(
            [
                exe,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--dir",
                str(data_dir),
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
        )
        leftovers.track(self.proc)
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.02)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Peer:
    """One client connection. Every frame it receives must be a ``ServerMessage`` of the
    schema (closed objects: no unknown field anywhere)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.inbox: list[JSON] = []  # every message received, in order
        self.unread: list[JSON] = []
        self.rid = 0
        self.cseq = 0

    @classmethod
    async def open(cls, url: str) -> Peer:
        # max_queue=None: frames a test never reads do not stop websockets reading the
        # socket (with its default of 16 the close handshake of a peer with unread frames
        # cannot see the server's close frame and waits out close_timeout, 10 s)
        return cls(await connect(url, max_size=2**22, open_timeout=10, max_queue=None))

    async def close(self) -> None:
        await self.ws.close()

    async def send(self, msg: JSON, *, check: bool = True) -> int:
        """Send a message with a fresh ``id``; ``check``: it must be a valid ClientMessage."""
        self.rid += 1
        msg = {**msg, "id": self.rid}
        if check:
            CLIENT_MESSAGE.validate(msg)
        await self.ws.send(msgpack.packb(msg, use_bin_type=True))
        return self.rid

    async def send_raw(self, data: bytes | str) -> None:
        await self.ws.send(data)

    async def _recv(self, timeout: float) -> JSON:
        data = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(data, bytes), "the server sent a text frame"
        msg = msgpack.unpackb(data, raw=False)
        errors = sorted(SERVER_MESSAGE.iter_errors(msg), key=lambda e: e.path)
        assert not errors, f"frame does not fit the schema: {errors[0].message[:300]} in {msg}"
        self.inbox.append(msg)
        return msg

    async def wait_for(self, pred: Callable[[JSON], bool], timeout: float = 10.0) -> JSON:
        for i, m in enumerate(self.unread):
            if pred(m):
                return self.unread.pop(i)
        end = asyncio.get_running_loop().time() + timeout
        while True:
            left = end - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"no matching message; last: {self.inbox[-3:]}")
            m = await self._recv(left)
            if pred(m):
                return m
            self.unread.append(m)

    async def request(self, msg: JSON, timeout: float = 10.0, *, check: bool = True) -> JSON:
        rid = await self.send(msg, check=check)
        return await self.wait_for(lambda r: r.get("re") == rid, timeout)

    async def hello(self, name: str, **extra: Any) -> JSON:
        w = await self.request({"type": "hello", "v": 1, "name": name, **extra})
        assert w["type"] == "welcome", w
        return w


async def table_of(make: Callable[..., Any], ruleset: str, options: JSON, humans: int = 1):
    """``humans`` players seated from seat 0 and ready, bots in the other seats; the host is
    the first. Returns (peers, room id, code)."""
    ps = [await make(f"c{i}") for i in range(humans)]
    ack = await ps[0].request({"type": "create_room", "ruleset": ruleset, "options": options})
    assert ack["type"] == "ack", ack
    room = ack["room"]
    snap = next(m for m in ps[0].inbox if m["type"] == "snapshot")
    code = snap["lobby"]["code"]
    for p in ps[1:]:
        assert (await p.request({"type": "join_room", "code": code}))["type"] == "ack"
    for i, p in enumerate(ps):
        assert (await p.request({"type": "sit", "room": room, "seat": i}))["type"] == "ack"
        assert (await p.request({"type": "ready", "room": room, "ready": True}))["type"] == "ack"
    for seat in range(humans, 4):
        r = await ps[0].request({"type": "add_bot", "room": room, "seat": seat})
        assert r["type"] == "ack", r
    return ps, room, code


def P(value: Any) -> bytes:
    """A msgpack frame."""
    return msgpack.packb(value, use_bin_type=True)  # type: ignore[no-any-return]


def error_of(msg: JSON) -> str | None:
    """The error code of a reply (None: not an error)."""
    return msg["code"] if msg["type"] == "error" else None
