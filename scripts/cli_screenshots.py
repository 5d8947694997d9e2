"""Take the README's screenshots of ``mahjong-cli`` (SVG from Textual, PNG via rsvg-convert).

Starts its own redis-server and mahjong-server (like the tests), plays as "Alice" with three
bots from the keyboard, and saves docs/img/cli-*.svg (+ .png when rsvg-convert exists): at
160×50, and the compact layout at 80×24 (cli-compact-*; a claim prompt too).

    .venv/bin/python scripts/cli_screenshots.py [--plain] [--compact-only]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]
sys.path.append(str(ROOT / "tests"))

from cli_tests.conftest import ServerProcs  # noqa: E402
from cli_tests.helpers import SIZE, play_with_keys, wait_for  # noqa: E402
from textual.widgets import Input, Select  # noqa: E402

from clients.cli.app import MahjongApp  # noqa: E402
from clients.cli.lobby_screen import LobbyScreen  # noqa: E402
from clients.cli.table_screen import MIN_SIZE  # noqa: E402

OUT = ROOT / "docs" / "img"


def save(app: MahjongApp, name: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    if app.size.width < 120:
        name = name.replace("cli-", "cli-compact-")
    if app.tile_style.plain:
        name += "-plain"
    svg = OUT / f"{name}.svg"
    app.save_screenshot(svg.name, str(OUT))
    conv = shutil.which("rsvg-convert")
    if conv:
        width = str(20 * app.size.width // 2)  # 1600 px at 160 columns, 800 at 80
        subprocess.run(
            [conv, "-w", width, str(svg), "-o", str(svg.with_suffix(".png"))], check=True
        )
    print("saved", svg)


async def shoot(url: str, plain: bool, ruleset: str, size: tuple[int, int] = SIZE) -> bool:
    app = MahjongApp(url, "Alice", autoconnect=True, plain=plain)
    async with app.run_test(size=size) as pilot:
        await wait_for(
            pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.model.rulesets)
        )
        await pilot.pause(0.2)
        lobby = app.screen
        lobby.query_one("#ruleset", Select).value = (
            ruleset if ruleset in app.model.rulesets else app.model.rulesets[0]
        )
        lobby.query_one("#length", Select).value = "hands"
        for wid, value in (("#hands", "4"), ("#turn", "0"), ("#claim", "0"), ("#pause", "1")):
            lobby.query_one(wid, Input).value = value
        await pilot.pause(0.2)
        save(app, "cli-create")
        await pilot.click("#create")
        await wait_for(pilot, lambda: app.model.room is not None)
        await pilot.press("s", "a", "r")
        room = app.model.room
        await wait_for(pilot, lambda: all(room.seats()) and room.seats()[room.seat or 0]["ready"])
        await pilot.pause(0.3)
        save(app, "cli-lobby")
        await pilot.press("g")
        claim_shot = False
        if size[0] < 120:  # a claim prompt with a choice, as it looks at 80×24
            for _ in range(400):
                if room.last_win() is not None:
                    break
                if room.can_act() and room.legal_of("pass"):
                    if len(room.legal) > 1 and not room.legal_of("win"):
                        await pilot.pause(0.3)
                        save(app, "cli-claim")
                        claim_shot = True
                        await pilot.press("x")
                        break
                    await pilot.press("x")
                elif room.can_act() and room.legal_of("discard"):
                    await pilot.press("end", "enter", "enter")
                await pilot.pause(0.05)
        if size[0] < 120 and not claim_shot:
            return False
        await play_with_keys(
            pilot,
            app,
            lambda: (
                len((room.my_view() or {}).get("discards") or []) >= 5
                or room.last_win() is not None
            ),
        )
        while not room.legal_of("discard") and room.last_win() is None:
            if room.legal_of("pass") and not room.legal_of("win"):
                await pilot.press("x")
            await pilot.pause(0.1)
        if room.last_win() is None:
            await pilot.press("home", "right", "right")
            await pilot.pause(0.3)
            save(app, "cli-table")
        await play_with_keys(
            pilot, app, lambda: room.last_win() is not None or room.status == "finished"
        )
        if room.last_win() is None:
            return False
        await pilot.pause(0.5)
        save(app, "cli-breakdown")
        return True


async def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--plain", action="store_true")
    p.add_argument("--ruleset", default="zung-jung")
    p.add_argument("--compact-only", action="store_true", help="only the 80×24 screenshots")
    args = p.parse_args()
    procs = ServerProcs(Path(tempfile.mkdtemp()))
    sizes = [MIN_SIZE] if args.compact_only else [SIZE, MIN_SIZE]
    try:
        for size in sizes:
            for _ in range(8):
                if await shoot(procs.url, args.plain, args.ruleset, size):
                    break
    finally:
        procs.stop()


if __name__ == "__main__":
    asyncio.run(main())
