"""The terminal client against a server from before sparse delivery: such a server refuses a
``hello`` carrying ``sparse`` (it refuses fields it does not know); the client says hello
again without it and gets every commit, with the ``seq`` + 1 gap rule.

The old server here is a real WebSocket server answering as that version did (its error
text is the one ``protocol.messages`` gives for an unknown field)."""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack
import pytest
from websockets.asyncio.server import ServerConnection, serve

from clients.cli.model import ClientModel
from clients.cli.session import Session

pytestmark = pytest.mark.timeout(30)


async def test_the_client_says_hello_again_without_sparse() -> None:
    hellos: list[dict[str, Any]] = []

    async def old_server(ws: ServerConnection) -> None:
        async for frame in ws:
            msg = msgpack.unpackb(frame)
            if msg.get("type") != "hello":
                continue
            hellos.append(msg)
            if "sparse" in msg:
                reply = {
                    "type": "error",
                    "code": "bad_message",
                    "message": "unknown field 'sparse' in hello",
                }
            else:
                reply = {
                    "type": "welcome",
                    "v": 1,
                    "player_id": "p_1",
                    "token": "t",
                    "name": msg.get("name", "player"),
                    "resumed": False,
                    "rooms": [],
                    "server": "old",
                    "limits": {},
                    "rulesets": ["zung-jung"],
                }
            await ws.send(msgpack.packb(reply))

    async with serve(old_server, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        session = Session(f"ws://127.0.0.1:{port}/", "Ann", ClientModel(), lambda _: None)
        task = asyncio.create_task(session.run())
        try:
            await asyncio.wait_for(session.ready.wait(), 10)
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    assert [h.get("sparse") for h in hellos] == [True, None]
    assert session.name == "Ann"
