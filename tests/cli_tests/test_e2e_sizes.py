"""End to end at 80×24 (the compact layout) and at 160×50: create a room from the lobby form,
add three bots, and play one whole hand from the keyboard, looking only at the screen's
prompt; every key pressed is counted by what it was for.

Each prompt is answered from what the screen shows (the keys are read off the prompt: a
discard of the drawn tile `Enter Enter`, a win `w w`, a pass `x`); a prompt that offered only
"pass" (no choice at all) is counted apart: there must be none, since the server does not
ask a seat that has no choice (it passes for it) -- a hand without a possible claim takes
no key but the discards."""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from cli_tests.helpers import create_room_from_the_form, flat, wait_for
from cli_tests.test_layout import fully_shown, whole_screen
from clients.cli.app import MahjongApp
from clients.cli.model import RoomState
from clients.cli.table_screen import MIN_SIZE, TableScreen

pytestmark = pytest.mark.timeout(150)

#: the confirmation the first Enter of a discard brings up: "discard 5p?"
PROPOSED = re.compile(r"discard [0-9][mps]\?|discard [wdf][a-z0-9]\?")


async def play_one_hand(
    pilot, app: MahjongApp, room: RoomState, limit: float = 100
) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Answer every prompt with keys until the hand ends; count the keys by purpose."""
    counts = {"discard": 0, "no_choice": 0, "declined": 0, "win": 0, "prompts": 0}
    acted = -1
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while not room.results:
        assert loop.time() < end, "the hand did not end"
        if room.can_act() and room.legal_seq > acted:
            acted = room.legal_seq
            counts["prompts"] += 1
            kinds = {a["type"] for a in room.legal}

            async def shown(*words: str) -> None:
                def on_screen() -> bool:
                    screen = flat(whole_screen(app))
                    return all(w in screen for w in words)

                await wait_for(pilot, on_screen, timeout=5, what=f"{words} on the screen")

            if "win" in kinds:
                await shown("win")
                await pilot.press("w", "w")
                counts["win"] += 2
            elif kinds == {"pass"}:  # asked although there is nothing to choose
                await shown("[0/x] pass")
                await pilot.press("x")
                counts["no_choice"] += 1
            elif "pass" in kinds:  # a claim we could make: declined
                await shown("[1] ", "[0/x] pass")
                await pilot.press("x")
                counts["declined"] += 1
            else:
                await shown("Enter discard")
                # the cursor is on the drawn tile (we never claim, so every turn starts with
                # a draw): Enter proposes discarding it, Enter confirms. (Which tile is
                # proposed is not checked: on a loaded machine the prompt of the turn before
                # may still be on the screen when the first Enter is pressed, and the cursor
                # not yet moved to the new tile; any proposed discard takes the same keys.)
                await pilot.press("enter")
                await wait_for(
                    pilot,
                    lambda: PROPOSED.search(flat(whole_screen(app))) is not None,
                    timeout=15,
                    what="a proposed discard on the screen",
                )
                await pilot.press("enter")
                counts["discard"] += 2
        await pilot.pause(0.02)
    return counts


@pytest.mark.parametrize("size", [MIN_SIZE, (160, 50)], ids=["80x24", "160x50"])
async def test_a_hand_from_the_keyboard_at_each_size(mahjong_server, size, tmp_path) -> None:
    app = MahjongApp(mahjong_server.url, "Alice", autoconnect=True, plain=True,
                     token_file=tmp_path / "tokens.json")  # fmt: skip
    async with app.run_test(size=size) as pilot:
        await create_room_from_the_form(pilot, app, hands=1)
        table = app.screen
        assert isinstance(table, TableScreen)
        # the layout is chosen on the screen's first redraw
        await wait_for(pilot, lambda: table.compact == (size[0] < 120), what="the layout")
        await pilot.press("s")
        await wait_for(pilot, lambda: app.model.room.seat is not None, what="a seat")
        await pilot.press("a")
        await wait_for(pilot, lambda: all(app.model.room.seats()), what="three bots")
        await pilot.press("r")
        room = app.model.room
        await wait_for(pilot, lambda: room.seats()[room.seat]["ready"], what="ready")
        await pilot.press("g")
        await wait_for(pilot, lambda: room.status == "playing", what="the start")
        await wait_for(pilot, room.can_act, what="the first decision")
        await pilot.pause(0.1)
        for wid in ("#header", "#seats", "#hand", "#prompt"):
            assert fully_shown(app, table.query_one(wid)), (size, wid)
        t0 = time.monotonic()
        counts = await play_one_hand(pilot, app, room)
        took = time.monotonic() - t0
        print(f"\n{size[0]}x{size[1]}: {counts}, {took:.1f} s")
        assert counts["discard"] > 0
        # the server never asks a seat that has no choice: no prompt offering only "pass"
        assert counts["no_choice"] == 0, counts
        # the hand's result is on screen, whole (at 80×24 in place of the table)
        await pilot.pause(0.3)
        box = table.query_one("#result-box")
        assert fully_shown(app, box)
        screen = flat(whole_screen(app))
        assert "Winds:" in screen and ("Win breakdown" in screen or "drawn" in screen)
