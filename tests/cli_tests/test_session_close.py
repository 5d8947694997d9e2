"""How the session ends or retries a connection: a superseded session stops (and says why)
instead of taking the seat back ten times a second; the backoff grows with connections that
do not last; a refused connection is named, with its address, for as long as it is retried.

Over real WebSockets: the real ``mahjong-server`` for the superseded session, and a plain
WebSocket server that closes every connection just after its welcome for the backoff."""

from __future__ import annotations

import asyncio
import itertools
import socket
from typing import Any

import msgpack
import pytest
from websockets.asyncio.server import ServerConnection, serve

from cli_tests.helpers import flat, screen_text, wait_for
from clients.cli import session as session_mod
from clients.cli.app import MahjongApp
from clients.cli.lobby_screen import ConnectScreen
from clients.cli.model import ClientModel
from clients.cli.session import Session, normalize_url
from protocol.codes import CloseCode

pytestmark = pytest.mark.timeout(60)


async def _until(cond, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    async with asyncio.timeout(timeout):
        while not cond():
            await asyncio.sleep(0.02)


async def _stop(session: Session, task: asyncio.Task[None]) -> None:
    await session.close()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def test_a_superseded_session_stops_and_says_why(mahjong_server) -> None:
    said: list[str] = []
    first = Session(
        mahjong_server.url, "Twin", ClientModel(), lambda _: None, on_status=said.append
    )
    t1 = asyncio.create_task(first.run())
    second: Session | None = None
    t2: asyncio.Task[None] | None = None
    try:
        await asyncio.wait_for(first.ready.wait(), 10)
        # a second client with the same resume token (two terminals, one token file)
        second = Session(mahjong_server.url, "Twin", ClientModel(), lambda _: None, first.token)
        t2 = asyncio.create_task(second.run())
        await asyncio.wait_for(second.ready.wait(), 10)
        # the first one is told 4002 and stops for good: its run() returns
        await asyncio.wait_for(t1, 10)
        assert first.fatal is not None and "4002 superseded" in first.fatal
        assert "another connection" in first.fatal
        assert said[-1] == first.fatal
        assert first.connects == 1 and first.attempts == 1
        # and the second one keeps the seat: no ping-pong between the two
        await asyncio.sleep(1.5)
        assert second.connects == 1 and second.ready.is_set() and second.fatal is None
        assert first.connects == 1
    finally:
        await _stop(first, t1)
        if second is not None and t2 is not None:
            await _stop(second, t2)


async def test_the_app_shows_why_it_stopped_after_being_superseded(mahjong_server) -> None:
    app = MahjongApp(mahjong_server.url, "Twin", autoconnect=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.session is not None and app.session.ready.is_set())
        assert app.session is not None
        other = Session(
            mahjong_server.url, "Twin", ClientModel(), lambda _: None, app.session.token
        )
        task = asyncio.create_task(other.run())
        try:
            await wait_for(pilot, lambda: app.session.fatal is not None, what="the stop")
            await pilot.pause(0.2)
            assert "another connection" in app.status
            assert "superseded" in flat(screen_text(app.screen.query_one("#status")))
            await pilot.pause(1.0)
            assert app.session.connects == 1 and other.connects == 1
        finally:
            await _stop(other, task)


async def _closing_server(close_after: float):  # type: ignore[no-untyped-def]
    """A WebSocket server that welcomes every hello and closes the connection
    ``close_after`` seconds later (1011, as a crashing handler would)."""
    times: list[float] = []

    async def handler(ws: ServerConnection) -> None:
        times.append(asyncio.get_running_loop().time())
        async for frame in ws:
            msg: dict[str, Any] = msgpack.unpackb(frame)
            if msg.get("type") == "hello":
                welcome = {"type": "welcome", "v": 1, "player_id": "p_1", "token": "t",
                           "name": "x", "resumed": False, "rooms": [], "server": "flaky",
                           "limits": {}, "rulesets": ["mcr"]}  # fmt: skip
                await ws.send(msgpack.packb(welcome))
                await asyncio.sleep(close_after)
                await ws.close(CloseCode.INTERNAL, "oops")
                return

    return times, serve(handler, "127.0.0.1", 0)


async def test_the_backoff_grows_when_every_connection_is_closed_at_once() -> None:
    times, server_cm = await _closing_server(0.0)
    async with server_cm as server:
        port = next(iter(server.sockets)).getsockname()[1]
        session = Session(f"ws://127.0.0.1:{port}", "x", ClientModel(), lambda _: None)
        task = asyncio.create_task(session.run())
        try:
            await asyncio.sleep(3.0)
        finally:
            await _stop(session, task)
    # 0.1, 0.3, 0.7, 1.5 s apart: five connections in three seconds (it used to be ~30,
    # the backoff starting over at every connect)
    assert session.connects == len(times)
    assert 3 <= len(times) <= 5, times
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert all(b > a for a, b in itertools.pairwise(gaps)), gaps


async def test_the_backoff_starts_over_after_a_healthy_connection(monkeypatch) -> None:
    monkeypatch.setattr(session_mod, "HEALTHY_AFTER", 0.2)
    times, server_cm = await _closing_server(0.4)  # each connection lasts longer than that
    async with server_cm as server:
        port = next(iter(server.sockets)).getsockname()[1]
        session = Session(f"ws://127.0.0.1:{port}", "x", ClientModel(), lambda _: None)
        task = asyncio.create_task(session.run())
        try:
            await asyncio.sleep(2.6)
        finally:
            await _stop(session, task)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert len(gaps) >= 4, times
    assert all(g < 0.4 + 0.1 + 0.2 for g in gaps), gaps  # always the first step, 0.1 s


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_refused_connection_is_named_while_it_is_retried() -> None:
    port = _free_port()
    said: list[str] = []
    session = Session(
        f"127.0.0.1:{port}", "x", ClientModel(), lambda _: None, on_status=said.append
    )
    assert session.url == f"ws://127.0.0.1:{port}"  # no scheme: ws://
    task = asyncio.create_task(session.run())
    try:
        await _until(lambda: session.attempts >= 3)
    finally:
        await _stop(session, task)
    refused = [s for s in said if s.startswith(f"cannot connect to ws://127.0.0.1:{port}: ")]
    assert len(refused) >= 2 and all("connection refused; trying again in" in s for s in refused)
    assert all("connection lost" not in s for s in said), said  # never replaced by another line


async def test_the_connect_screen_keeps_saying_connection_refused() -> None:
    port = _free_port()
    app = MahjongApp(f"127.0.0.1:{port}", "Ann", autoconnect=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.session is not None and app.session.attempts >= 3)
        await pilot.pause(0.1)
        assert isinstance(app.screen, ConnectScreen)
        shown = flat(screen_text(app.screen.query_one("#status")))
        assert f"cannot connect to ws://127.0.0.1:{port}: connection refused" in shown


def test_addresses_are_taken_as_typed() -> None:
    assert normalize_url("example.org:8765") == "ws://example.org:8765"
    assert normalize_url(" 10.0.0.2:8765 ") == "ws://10.0.0.2:8765"
    assert normalize_url("http://10.0.0.2:8765/") == "ws://10.0.0.2:8765/"
    assert normalize_url("https://m.example.org") == "wss://m.example.org"
    assert normalize_url("wss://m.example.org") == "wss://m.example.org"
