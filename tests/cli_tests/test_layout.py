"""The terminal client at a real server, at 80×24 (the documented minimum: the compact
layout) and at 160×50: what must be on screen is on screen, whole; keys never play a move by
accident; one room on screen at a time."""

from __future__ import annotations

import asyncio

import pytest
from textual.widget import Widget
from textual.widgets import Button, RichLog

from cli_tests.helpers import flat, press_for_decision, wait_for
from clients.cli import render
from clients.cli.app import MahjongApp
from clients.cli.lobby_screen import LobbyScreen, ruleset_title
from clients.cli.model import ClientModel, RoomState
from clients.cli.session import Session
from clients.cli.table_screen import MIN_SIZE, TYPING_PAUSE, TableScreen
from protocol import messages as m

pytestmark = pytest.mark.timeout(120)

# four hands: a seat is asked only when it can claim, so a test waiting for a claim prompt
# may need more than one hand to see one
FAST = {"length": "hands", "hands": 4, "turn_seconds": 0, "claim_seconds": 0, "hand_pause_ms": 0}


def whole_screen(app: MahjongApp) -> str:
    """Every line of the terminal as the user sees it."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)


async def on_screen(pilot, app: MahjongApp, *words: str) -> None:  # type: ignore[no-untyped-def]
    """Wait (a redraw follows a server message by a few ms) until ``words`` are on screen."""
    await wait_for(
        pilot,
        lambda: all(w in flat(whole_screen(app)) for w in words),
        timeout=5,
        what=f"{words} on the screen",
    )


def fully_shown(app: MahjongApp, widget: Widget) -> bool:
    """The widget is on screen, none of it cut off (by the terminal or its container)."""
    if not widget.display:
        return False
    try:
        geo = app.screen._compositor.find_widget(widget)
    except Exception:  # not laid out: not visible
        return False
    screen = app.screen.region
    region = geo.region
    return (
        region.height > 0
        and region.intersection(geo.clip) == region
        and region.intersection(screen) == region
    )


async def seated_game(pilot, app: MahjongApp) -> RoomState:  # type: ignore[no-untyped-def]
    await wait_for(pilot, lambda: app.model.room is not None, what="the room")
    await pilot.press("s", "a", "r")
    room = app.model.room
    assert room is not None
    await wait_for(
        pilot,
        lambda: all(room.seats()) and (room.seats()[room.seat or 0] or {}).get("ready"),
        what="a full, ready table",
    )
    await pilot.press("g")
    await wait_for(pilot, lambda: room.status == "playing", what="the start")
    return room


@pytest.mark.parametrize("size", [MIN_SIZE, (160, 50)], ids=["80x24", "160x50"])
async def test_table_hand_and_claim_prompt_are_on_screen(mahjong_server, size) -> None:
    app = MahjongApp(mahjong_server.url, "Ann", autoconnect=True, plain=True,
                     create="mcr", create_options=FAST)  # fmt: skip
    async with app.run_test(size=size) as pilot:
        room = await seated_game(pilot, app)
        table = app.screen
        assert isinstance(table, TableScreen)
        assert table.compact == (size[0] < 120)
        # our first decision: the dealer's discard; the wall is counted from the deal on
        await wait_for(pilot, room.can_act, what="the first decision")
        await pilot.pause(0.2)
        left = room.hand["wall_left"]
        assert isinstance(left, int) and left > 50
        screen = whole_screen(app)
        assert (f"Wall {left}" if table.compact else f"Tiles left {left}") in screen
        for wid in ("#header", "#seats", "#hand", "#prompt"):
            assert fully_shown(app, table.query_one(wid)), wid
        tiles, drawn = room.my_tiles()
        assert " ".join(tiles) in flat(screen) and drawn in screen
        for i in range(4):
            assert room.name_of(i) in screen
        assert fully_shown(app, table.query_one("#help")) == (not table.compact)
        # a claim prompt: its choices and the pass key are on screen
        loop = asyncio.get_running_loop()
        end = loop.time() + 30
        while not (room.can_act() and room.legal_of("pass")):
            assert loop.time() < end, "no claim prompt came"
            if room.can_act() and room.legal_of("discard"):
                await pilot.press("end", "enter", "enter")
            await pilot.pause(0.05)
        await on_screen(pilot, app, "[0/x] pass")
        assert fully_shown(app, table.query_one("#prompt"))
        # q during the game says what it does (and leaves nothing)
        await pilot.press("q")
        await on_screen(pilot, app, "Ctrl+Q quits mahjong-cli")
        assert room.status == "playing" and app.model.room is room


async def test_the_hand_over_fits_or_scrolls_at_80x24(mahjong_server) -> None:
    app = MahjongApp(mahjong_server.url, "Bo", autoconnect=True, plain=True, bot=True,
                     create="mcr", create_options={**FAST, "hand_pause_ms": 60_000})  # fmt: skip
    async with app.run_test(size=MIN_SIZE) as pilot:
        room = await seated_game(pilot, app)
        await wait_for(pilot, lambda: bool(room.results), timeout=60, what="the end of a hand")
        await pilot.pause(0.3)
        table = app.screen
        assert isinstance(table, TableScreen)
        box = table.query_one("#result-box")
        assert fully_shown(app, box)
        assert not table.query_one("#seats").display  # the result in place of the table
        screen = flat(whole_screen(app))
        assert "Winds:" in screen and "round" in screen
        if room.last_win() is not None:
            assert "dealer (莊)" in screen
        # all of it is readable: it fits, or the scroll bar shows and PgDn reaches the end
        if box.max_scroll_y > 0:
            assert box.show_vertical_scrollbar
            for _ in range(10):
                await pilot.press("pagedown")
            await pilot.pause(0.1)
            assert box.scroll_y == box.max_scroll_y
        assert fully_shown(app, table.query_one("#prompt"))


async def test_the_lobby_form_fits_at_80x24(mahjong_server) -> None:
    app = MahjongApp(mahjong_server.url, "Cy", autoconnect=True)
    async with app.run_test(size=MIN_SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        await wait_for(pilot, lambda: bool(app.model.rulesets), what="the rule sets")
        await pilot.pause(0.2)
        lobby = app.screen
        assert fully_shown(app, lobby.query_one("#create", Button))
        assert fully_shown(app, lobby.query_one("#public"))
        first = app.model.rulesets[0]  # the rule set by its name (and its id)
        assert first != ruleset_title(first)
        await wait_for(pilot, lambda: f"{ruleset_title(first)} — {first}" in whole_screen(app))
        screen = whole_screen(app)
        assert "public: OFF" in screen
        await pilot.click("#public")
        await pilot.pause(0.1)
        assert "public: ON" in whole_screen(app)
        # the rest of the lobby scrolls, with its scroll bar showing
        box = lobby.query_one("#lobby-box")
        assert box.max_scroll_y > 0 and box.show_vertical_scrollbar


async def test_a_smaller_terminal_says_what_it_needs(mahjong_server) -> None:
    app = MahjongApp(mahjong_server.url, "Di", autoconnect=True, create="mcr",
                     create_options=FAST)  # fmt: skip
    async with app.run_test(size=(70, 20)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        await on_screen(pilot, app, "needs 80×24")


async def test_keys_never_play_a_move_by_accident(mahjong_server) -> None:
    app = MahjongApp(mahjong_server.url, "Ed", autoconnect=True, plain=True,
                     create="mcr", create_options=FAST)  # fmt: skip
    async with app.run_test(size=MIN_SIZE) as pilot:
        room = await seated_game(pilot, app)
        table = app.screen
        assert isinstance(table, TableScreen)
        await wait_for(pilot, lambda: room.can_act() and room.legal_of("discard"))
        seq = room.legal_seq
        # one Enter proposes the discard; another key cancels it
        await pilot.press("enter")
        await on_screen(pilot, app, "discard", "confirms")
        assert table.armed is not None and not room.action_pending
        await pilot.press("left")
        assert table.armed is None and not room.action_pending
        # typing a chat line without Tab: nothing is played, and the screen says why
        await pilot.press("g", "o", "o", "d", "d", "enter", "enter")
        await on_screen(pilot, app, "chat only in chat mode")
        assert not room.action_pending and room.acted_seq != seq
        await pilot.pause(TYPING_PAUSE)
        # a deliberate discard: the key, then Enter
        await pilot.press("end", "d", "enter")
        await wait_for(pilot, lambda: room.ack_seq > seq, what="the discard's ack")
        # a claim prompt: the numbers are claims only, pass is 0 or x (at once)
        while not (room.can_act() and room.legal_of("pass")):
            if room.can_act() and room.legal_of("discard"):
                await pilot.press("end", "enter", "enter")
            await pilot.pause(0.05)
        seq = room.legal_seq
        assert not any(a["type"] == "pass" for a in render.options(room))
        await pilot.press("1")  # a claim (if there is one) is only proposed
        await pilot.pause(0.05)
        assert not room.action_pending and room.acted_seq != seq
        await pilot.press("escape")
        if not room.legal_of("win"):
            await pilot.press("x")
            # the pass is held (ack.held: no commit, the prompt cleared until the window's
            # close brings the next question) or closed the window (its commit's seq)
            await wait_for(
                pilot,
                lambda: (
                    not room.action_pending
                    and room.ack_seq >= seq
                    and (room.ack_seq > seq or room.legal_seq > seq or not room.legal)
                ),
                what="the pass's ack",
            )


async def test_one_room_on_screen_and_ctrl_o_switches(mahjong_server) -> None:
    other_model = ClientModel()
    other = Session(mahjong_server.url, "Host", other_model, lambda _: None)
    task = asyncio.create_task(other.run())
    try:
        await asyncio.wait_for(other.ready.wait(), 10)
        assert isinstance(await other.request(m.CreateRoom(ruleset="mcr")), m.Ack)
        while other_model.room is None:
            await asyncio.sleep(0.02)
        room_b = other_model.room
        app = MahjongApp(mahjong_server.url, "Fay", autoconnect=True, create="mcr")
        async with app.run_test(size=MIN_SIZE) as pilot:
            await wait_for(pilot, lambda: app.model.room is not None, what="room A")
            room_a = app.model.room
            assert room_a is not None
            await pilot.press("tab", *"in A", "enter")
            await wait_for(pilot, lambda: any(c.text == "in A" for c in room_a.chat))
            # join B (as --join does): B is on screen, nothing of A stays
            app.model.expect_room = True
            app.send_request(m.JoinRoom(code=room_b.code))
            await wait_for(pilot, lambda: app.model.room is not room_a, what="room B")
            await pilot.pause(0.2)
            table = app.screen
            screen = whole_screen(app)
            assert f"Room {room_b.code}" in screen and f"Room {room_a.code}" not in screen
            assert "1/2" not in screen and "2/2" in screen
            chat = table.query_one("#chatlog", RichLog)
            assert "in A" not in "".join(s.text for s in chat.lines)
            # chat in A while B is on screen: not shown here
            assert isinstance(await other.request(m.Chat(room=room_b.id, text="in B")), m.Ack)
            await wait_for(pilot, lambda: any(c.text == "in B" for c in app.model.room.chat))
            await pilot.pause(0.1)
            assert "in B" in "".join(s.text for s in chat.lines)
            # a resync of A (as after a reconnect) does not take the screen
            app.send_request(m.Resync(room=room_a.id, since=0))
            await pilot.pause(0.3)
            assert app.model.room.code == room_b.code
            # Ctrl+O: back to A, with A's chat and log only
            await pilot.press("ctrl+o")
            await pilot.pause(0.2)
            screen = whole_screen(app)
            assert f"Room {room_a.code}" in screen and "1/2" in screen
            text = "".join(s.text for s in chat.lines)
            assert "in A" in text and "in B" not in text
            log = "".join(s.text for s in table.query_one("#log", RichLog).lines)
            assert room_b.code not in log
    finally:
        await other.close()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_the_bell_rings_once_per_decision(mahjong_server) -> None:
    rung: list[int] = []

    class Belled(MahjongApp):
        def bell(self) -> None:
            rung.append(1)

    app = Belled(mahjong_server.url, "Gus", autoconnect=True, plain=True, bell=True,
                 create="mcr", create_options=FAST)  # fmt: skip
    async with app.run_test(size=MIN_SIZE) as pilot:
        room = await seated_game(pilot, app)
        await wait_for(pilot, lambda: room.can_act() and room.legal_of("discard"))
        await pilot.pause(0.3)
        assert len(rung) == 1
        await pilot.press("ctrl+g")  # off
        await pilot.press("end", "enter", "enter")
        await wait_for(pilot, lambda: room.ack_seq > 0, what="the discard's ack")
        loop = asyncio.get_running_loop()
        end = loop.time() + 30
        while not (room.can_act() and room.legal_of("discard")) and room.results == []:
            assert loop.time() < end, "no second turn"
            if room.can_act():  # a claim prompt: not what this test is about
                await press_for_decision(pilot, room)
            await pilot.pause(0.05)
        await pilot.pause(0.2)
        assert len(rung) == 1
