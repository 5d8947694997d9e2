"""The terminal client's room keys against a real server: ``u`` stand up, and the host's
``e`` remove a bot, ``o`` swap seats, ``H`` make host, ``K`` kick, ``P`` pause / resume —
pressed in the client, they are what the server's room then says."""

from __future__ import annotations

import pytest
from server_tests.wsclient import Client

from cli_tests.helpers import screen_text, wait_for
from cli_tests.test_layout import FAST, seated_game
from clients.cli.app import MahjongApp
from clients.cli.table_screen import TableScreen

pytestmark = pytest.mark.timeout(90)


async def _guest(port: int, code: str) -> Client:
    """A second member of the room, speaking the protocol directly."""
    c = await Client.connect(port, "guest")
    await c.hello("Guest")
    r = await c.request({"type": "join_room", "code": code})
    assert r["type"] == "ack", r
    return c


async def test_the_lobby_keys_stand_remove_a_bot_swap_seats_and_hand_the_host_role_over(
    mahjong_server,
) -> None:
    app = MahjongApp(mahjong_server.url, "Hosty", autoconnect=True, plain=True,
                     create="mcr", create_options=FAST)  # fmt: skip
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_for(pilot, lambda: app.model.room is not None, what="the room")
        room = app.model.room
        assert room is not None
        await pilot.press("s", "a")  # seat 1, bots in 2..4
        await wait_for(pilot, lambda: all(room.seats()), what="a full table")
        await pilot.press("e", "3")  # remove the bot in seat 3
        await wait_for(pilot, lambda: room.seats()[2] is None, what="the bot removed")
        await pilot.press("o", "1", "3")  # swap seat 1 (us) with the free seat 3
        await wait_for(pilot, lambda: room.seat == 2, what="the swap")
        assert room.seats()[0] is None
        await pilot.press("o", "2", "x")  # any other key cancels
        assert "cancelled" in app.status
        await pilot.press("u")  # stand up
        await wait_for(pilot, lambda: room.seat is None, what="standing up")
        guest = await _guest(mahjong_server.port, room.code)
        await wait_for(pilot, lambda: len(room.members()) == 2, what="the guest")
        key = next(k for k, pid, _ in room.members() if pid == guest.player_id)
        await pilot.press("H", key)
        await wait_for(pilot, lambda: room.lobby.get("host") == guest.player_id, what="host")
        await pilot.press("K")  # no longer the host: the status line says so
        assert app.status == "only the host can kick"
        await guest.close()


async def test_kick_and_pause_resume_during_a_game(mahjong_server) -> None:
    app = MahjongApp(mahjong_server.url, "Pauser", autoconnect=True, plain=True,
                     create="mcr", create_options={**FAST, "turn_seconds": 60})  # fmt: skip
    async with app.run_test(size=(160, 50)) as pilot:
        room = await seated_game(pilot, app)
        guest = await _guest(mahjong_server.port, room.code)
        await wait_for(pilot, lambda: len(room.members()) == 2, what="the guest")
        await pilot.press("P")
        await wait_for(pilot, lambda: room.paused is not None, what="the pause")
        assert room.paused is not None and room.paused["name"] == "Pauser"
        assert room.legal == [] and room.deadline is None
        table = app.screen
        assert isinstance(table, TableScreen)
        await pilot.pause(0.1)
        assert "PAUSED by Pauser" in screen_text(table.query_one("#prompt"))
        note = await guest.wait_for(lambda m: m.get("notice", {}).get("type") == "paused")
        assert note["lobby"]["paused"]["name"] == "Pauser"
        await pilot.press("P")
        await wait_for(pilot, lambda: room.paused is None, what="the resume")
        key = next(k for k, pid, _ in room.members() if pid == guest.player_id)
        await pilot.press("K", key)
        left = await guest.wait_for(lambda m: m["type"] == "left")
        assert left["reason"] == "kicked"
        await wait_for(pilot, lambda: len(room.members()) == 1, what="the kick")
        assert any("removed Guest" in line for line in room.log)
        await guest.close()
