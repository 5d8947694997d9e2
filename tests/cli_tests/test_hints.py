"""The terminal client's help panel shows the server's hints (the ``hints`` request) for the
decision in front of it, against a real server."""

from __future__ import annotations

import asyncio

import pytest

from bots.hints import hints
from clients.cli.model import ClientModel
from clients.cli.render import help_panel
from clients.cli.session import Session
from clients.cli.tiles import TileStyle

from .live import start_with_three_bots, until

pytestmark = pytest.mark.timeout(90)


async def test_the_help_panel_shows_the_servers_hints(mahjong_server) -> None:
    model = ClientModel()
    session = Session(mahjong_server.url, "Ann", model, lambda _lines: None)
    task = asyncio.create_task(session.run())
    try:
        await asyncio.wait_for(session.ready.wait(), 10)
        rid = await start_with_three_bots(session, "mcr")
        room = model.rooms[rid]
        await until(lambda: room.hand is not None and room.can_act(), "our first decision")
        await until(
            lambda: room.hints is not None and room.hints["seq"] >= room.legal_seq,
            "the server's hints for it",
        )
        assert room.hints is not None and room.game is not None
        want = hints(room.game).to_json()
        assert {k: room.hints.get(k) for k in want} == want  # the seat's own view, made hints
        text = help_panel(room, TileStyle(plain=True)).plain
        assert "(minimum 8)" in text  # shown from the server's answer (MCR)
        assert ("Discard " in text) == bool(want["discards"])
    finally:
        await session.close()
        task.cancel()
