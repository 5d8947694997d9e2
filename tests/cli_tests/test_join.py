"""Friends: one player creates a room, another connects from the connect screen and joins
with the room code; both see the same table and each other's chat."""

from __future__ import annotations

import asyncio

from textual.widgets import Input

from cli_tests.helpers import SIZE, screen_text, wait_for
from clients.cli.app import MahjongApp
from clients.cli.lobby_screen import ConnectScreen, LobbyScreen
from clients.cli.model import ClientModel
from clients.cli.session import Session
from clients.cli.table_screen import TableScreen
from protocol import messages as m


async def test_a_friend_connects_and_joins_with_the_code(mahjong_server):
    host_model = ClientModel()
    host = Session(mahjong_server.url, "Host", host_model, lambda _lines: None)
    task = asyncio.create_task(host.run())
    try:
        await asyncio.wait_for(host.ready.wait(), 10)
        ack = await host.request(m.CreateRoom(ruleset=host_model.rulesets[0]))
        assert isinstance(ack, m.Ack)
        # the session measured the server clock with ping/pong (same machine: within 1 s)
        await asyncio.wait_for(_until(lambda: host.pongs > 0), 5)
        assert abs(host_model.clock_offset) < 1000
        await asyncio.wait_for(_until(lambda: host_model.room is not None), 10)
        room_id, code = host_model.room.id, host_model.room.code
        assert isinstance(await host.request(m.Sit(room=room_id, seat=0)), m.Ack)

        app = MahjongApp(mahjong_server.url, "")  # no name: the connect screen asks
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen), what="connect")
            app.screen.query_one("#name", Input).value = "Guest"
            await pilot.click("#connect")
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="lobby")
            app.screen.query_one(
                "#code", Input
            ).value = code.lower()  # codes are not case-sensitive
            await pilot.click("#join")
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="table")
            await pilot.press("s")
            await wait_for(pilot, lambda: app.model.room.seat == 1, what="the guest's seat")
            # the host sees the guest seated, the guest sees the host
            await asyncio.wait_for(
                _until(lambda: (host_model.room.seats()[1] or {}).get("name") == "Guest"), 10
            )
            assert app.model.room.name_of(0) == "Host"
            assert not app.model.room.is_host(app.model.player_id)
            assert "Host" in screen_text(app.screen.query_one("#lobby"))
            assert isinstance(await host.request(m.Chat(room=room_id, text="welcome!")), m.Ack)
            await wait_for(pilot, lambda: any(c.text == "welcome!" for c in app.model.room.chat))
            # the guest is not the host: starting is refused, and the refusal is shown
            await pilot.press("g")
            await wait_for(pilot, lambda: "(not_host)" in app.status, what="the refusal")
    finally:
        await host.close()
        task.cancel()


async def _until(cond) -> None:  # type: ignore[no-untyped-def]
    while not cond():
        await asyncio.sleep(0.02)
