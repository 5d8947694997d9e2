"""Helpers for driving the Textual client in tests (pilot, screen text, the lobby form)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Input, Select, Switch

from clients.cli.app import MahjongApp
from clients.cli.lobby_screen import LobbyScreen
from clients.cli.model import RoomState
from clients.cli.table_screen import TableScreen

SIZE = (160, 50)


def screen_text(widget: Widget) -> str:
    """What the widget shows on the screen, as plain text lines."""
    size = widget.outer_size  # with the border and padding
    lines = widget.render_lines(Region(0, 0, size.width, size.height))
    return "\n".join("".join(seg.text for seg in strip).rstrip() for strip in lines)


def flat(text: str) -> str:
    """Screen text with its line breaks and runs of spaces as single spaces (a long line
    wrapped on a narrow screen reads as it was written)."""
    return " ".join(text.replace("│", " ").split())


async def wait_for(pilot, cond, timeout: float = 20.0, what: str = "condition") -> None:  # type: ignore[no-untyped-def]
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)


def pick_ruleset(app: MahjongApp) -> str:
    rs = app.model.rulesets
    assert rs, "the server offers no rule set"
    return "zung-jung" if "zung-jung" in rs else rs[0]


async def create_room_from_the_form(pilot, app: MahjongApp, hands: int) -> None:  # type: ignore[no-untyped-def]
    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby screen")
    lobby = app.screen
    await wait_for(pilot, lambda: bool(app.model.rulesets), what="the welcome")
    await pilot.pause(0.1)
    lobby.query_one("#ruleset", Select).value = pick_ruleset(app)
    lobby.query_one("#length", Select).value = "hands"
    for wid, value in (("#hands", str(hands)), ("#turn", "0"), ("#claim", "0"), ("#pause", "0")):
        lobby.query_one(wid, Input).value = value
    assert lobby.query_one("#public", Switch).value is False
    await pilot.click("#create")
    await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table screen")


@contextlib.asynccontextmanager
async def running_app(
    url: str, name: str, **kw: object
) -> AsyncIterator[tuple[object, MahjongApp]]:
    app = MahjongApp(url, name, autoconnect=True, **kw)  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        yield pilot, app


async def play_with_keys(pilot, app: MahjongApp, until) -> int:  # type: ignore[no-untyped-def]
    """Answer every decision with a key, as a person would, until ``until()``."""
    keys = 0
    acted = -1
    loop = asyncio.get_running_loop()
    end = loop.time() + 70
    while not until():
        assert loop.time() < end, "the game did not finish"
        r = app.model.room
        assert r is not None
        if r.can_act() and r.legal_seq > acted:
            acted = r.legal_seq
            await press_for_decision(pilot, r)
            keys += 1
        await pilot.pause(0.02)
    return keys


async def press_for_decision(pilot, r: RoomState) -> None:  # type: ignore[no-untyped-def]
    """The keys a simple player presses: win, else pass a claim, else discard the drawn tile
    (a win and a discard are confirmed: the same key again, or Enter)."""
    kinds = {a["type"] for a in r.legal}
    if "win" in kinds:
        await pilot.press("w", "w")
    elif "pass" in kinds:
        await pilot.press("x")
    elif "discard" in kinds:
        await pilot.press("end", "enter", "enter")  # the drawn tile, shown apart on the right
