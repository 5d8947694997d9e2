"""A small test client speaking the documented protocol, checking every frame it receives."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

from protocol.messages import CLIENT_MESSAGES, parse_client, parse_server

JSON = dict[str, Any]


class Client:
    def __init__(
        self, ws: ClientConnection, label: str, checker: Callable[[Client, JSON], None] | None
    ) -> None:
        self.ws = ws
        self.label = label
        self.checker = checker
        self.inbox: list[JSON] = []  # every message received, in order
        self.pending: list[JSON] = []
        self.player_id: str | None = None
        self.token: str | None = None
        self.seq = 0
        self.rid = 0
        self.seat: int | None = None

    @classmethod
    async def connect(
        cls, port: int, label: str = "c", checker: Callable[[Client, JSON], None] | None = None
    ) -> Client:
        ws = await connect(
            f"ws://127.0.0.1:{port}/", max_size=2**22, open_timeout=10, max_queue=None
        )
        if checker is None:  # every message every test client receives is leak-checked
            from server_tests.helpers import check_view_message

            checker = check_view_message
        return cls(ws, label, checker)

    async def close(self) -> None:
        await self.ws.close()

    async def send_raw(self, data: bytes | str) -> None:
        await self.ws.send(data)

    async def send(self, msg: JSON) -> int:
        self.rid += 1
        msg = {**msg, "id": self.rid}
        parse_client(msg)  # the tests send only documented, well-formed messages this way
        assert msg["type"] in CLIENT_MESSAGES
        await self.ws.send(msgpack.packb(msg, use_bin_type=True))
        return self.rid

    async def _recv_one(self, timeout: float) -> JSON:
        data = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(data, bytes), "server sent a text frame"
        msg = msgpack.unpackb(data, raw=False)
        parse_server(msg)  # every frame is a documented message with valid fields
        if self.checker is not None:
            self.checker(self, msg)
        self.inbox.append(msg)
        return msg

    async def recv(self, timeout: float = 10.0) -> JSON:
        if self.pending:
            return self.pending.pop(0)
        return await self._recv_one(timeout)

    async def wait_for(self, pred: Callable[[JSON], bool], timeout: float = 10.0) -> JSON:
        """The first message (pending or new) matching pred; others stay pending."""
        for i, msg in enumerate(self.pending):
            if pred(msg):
                return self.pending.pop(i)
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError(f"{self.label}: no matching message; last: {self.inbox[-3:]}")
            msg = await self._recv_one(left)
            if pred(msg):
                return msg
            self.pending.append(msg)

    async def request(self, msg: JSON, timeout: float = 10.0) -> JSON:
        """Send and return the direct reply (the message whose re is our id)."""
        rid = await self.send(msg)
        return await self.wait_for(lambda r: r.get("re") == rid, timeout)

    async def hello(self, name: str = "p", token: str | None = None, sparse: bool = False) -> JSON:
        msg: JSON = {"type": "hello", "v": 1, "name": name}
        if token:
            msg["token"] = token
        if sparse:
            msg["sparse"] = True
        w = await self.request(msg)
        assert w["type"] == "welcome", w
        self.player_id = w["player_id"]
        self.token = w["token"]
        return w

    def drain(self) -> None:
        self.pending.clear()
