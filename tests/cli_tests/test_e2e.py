"""End to end: the Textual client, driven by keys through Textual's pilot, against a real
``mahjong-server`` process (and its own redis-server): create a room from the lobby form,
add three bots, play hands with the keyboard, and read the win breakdown from the screen."""

from __future__ import annotations

import json

import pytest
from textual.widgets import RichLog

from cli_tests.helpers import (
    create_room_from_the_form,
    play_with_keys,
    running_app,
    screen_text,
    wait_for,
)
from clients.cli import render
from clients.cli.table_screen import TableScreen

pytestmark = pytest.mark.timeout(90)


async def test_create_room_add_bots_play_a_hand_and_read_the_breakdown(mahjong_server, tmp_path):
    async with running_app(
        mahjong_server.url, "Alice", plain=True, token_file=tmp_path / "tokens.json"
    ) as (pilot, app):
        await create_room_from_the_form(pilot, app, hands=8)
        table = app.screen
        assert isinstance(table, TableScreen)
        r = app.model.room
        assert r is not None and r.status == "lobby" and len(r.code) >= 4
        await pilot.press("s")  # sit
        await wait_for(pilot, lambda: app.model.room.seat is not None, what="a seat")
        await pilot.press("a")  # add bots to the three empty seats
        await wait_for(pilot, lambda: all(app.model.room.seats()), what="three bots")
        assert sum(1 for s in app.model.room.seats() if s and s["bot"]) == 3
        await pilot.press("r")  # ready
        await wait_for(
            pilot, lambda: app.model.room.seats()[app.model.room.seat]["ready"], what="ready"
        )
        assert "Room code" in screen_text(table.query_one("#lobby"))
        await pilot.press("g")  # start
        await wait_for(pilot, lambda: app.model.room.status == "playing", what="the start")

        room = app.model.room
        # seat 1 deals: our first decision is a discard, the cursor on the drawn tile (apart)
        await wait_for(pilot, room.can_act, what="our first decision")
        assert room.legal_of("discard") and room.seat == room.game["dealer"]
        tiles, drawn = room.my_tiles()
        assert drawn is not None and len(tiles) + 1 == len(render.selectable(room))
        await pilot.pause(0.1)
        assert table.cursor == len(tiles)
        shown = screen_text(table.query_one("#hand"))
        rows = [line.strip("│ ") for line in shown.split("\n")]
        assert any(row.endswith("   " + drawn) for row in rows), shown  # apart, at the end
        # one complete hand from the keyboard
        keys = await play_with_keys(pilot, app, lambda: bool(room.results))
        assert keys > 0
        if room.last_win() is None:
            # a drawn hand: b lets the bot play on (fast) until somebody wins
            await pilot.press("b")
            await wait_for(
                pilot,
                lambda: room.last_win() is not None or room.status == "finished",
                timeout=40,
                what="a win",
            )
            await pilot.press("b")
        room = app.model.room
        await wait_for(
            pilot,
            lambda: room.last_win() is not None or room.summary is not None,
            what="the result",
        )
        await pilot.pause(0.2)
        text = screen_text(table.query_one("#result"))
        win = room.last_win()
        if win is None:  # eight drawn hands in a row: the game summary is on screen instead
            assert "Game summary" in text
            pytest.fail("no hand was won in eight hands; the breakdown could not be read")
        assert "Win breakdown" in text
        winner = win["winners"][0]
        assert room.name_of(winner["seat"]) in text
        for item in winner["score"]["items"]:
            assert item["en"] in text, item
        assert "total" in text and str(winner["score"]["total"]) in text
        assert "Payments:" in text and "Net:" in text
        # the table shows the revealed hands and the scores after the payments
        seats = screen_text(table.query_one("#seats"))
        assert "Alice" in seats and "Bot 2" in seats and "dealer" in seats
        # chat: Tab to the chat line, type, Enter; the line comes back from the server
        keys = ["space" if ch == " " else ch for ch in "good game"]
        await pilot.press("tab", *keys, "enter")
        await wait_for(pilot, lambda: any(c.text == "good game" for c in room.chat), what="chat")
        assert room.chat[-1].name == "Alice"
        await pilot.pause(0.1)
        chat = table.query_one("#chatlog", RichLog)
        assert "<Alice> good game" in [strip.text.rstrip() for strip in chat.lines]
        log = table.query_one("#log", RichLog)
        assert "good game" not in "".join(strip.text for strip in log.lines)  # its own pane
        # the resume token was kept for this server
        saved = json.loads((tmp_path / "tokens.json").read_text())
        assert saved == {mahjong_server.url: app.model.token}
