"""Measure one hand played from the terminal client's keyboard against three bots: the key
presses (by purpose) and the wall-clock time, with the server's default bot delay.

Starts its own redis-server and mahjong-server (default settings but for the timers, so a
key pressed at once is what is measured, not a human's thinking), creates a room from the
lobby form at 80×24, adds three bots and answers every prompt the moment it is on screen:
win if possible, otherwise pass a claim, otherwise discard the drawn tile.

    .venv/bin/python scripts/cli_measure_hand.py [--ruleset mcr] [--hands 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from cli_tests.helpers import wait_for  # noqa: E402
from cli_tests.test_e2e_sizes import play_one_hand  # noqa: E402
from server_tests.conftest import RedisProc  # noqa: E402

from clients.cli.app import MahjongApp  # noqa: E402
from clients.cli.table_screen import MIN_SIZE  # noqa: E402
from server.process.procs import server_command, start_listening, stop  # noqa: E402


async def one_hand(url: str, ruleset: str) -> tuple[dict[str, int], float]:
    options = {"length": "hands", "hands": 1, "turn_seconds": 0, "claim_seconds": 0}
    app = MahjongApp(url, "Me", autoconnect=True, plain=True, create=ruleset,
                     create_options=options)  # fmt: skip
    async with app.run_test(size=MIN_SIZE) as pilot:
        await wait_for(pilot, lambda: app.model.room is not None, what="the room")
        await pilot.press("s", "a", "r")
        room = app.model.room
        assert room is not None
        await wait_for(pilot, lambda: all(room.seats()) and room.seats()[room.seat or 0]["ready"])
        await pilot.press("g")
        t0 = time.monotonic()
        counts = await play_one_hand(pilot, app, room, limit=600)
        return counts, time.monotonic() - t0


async def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--ruleset", default="mcr")
    p.add_argument("--hands", type=int, default=3, help="how many hands to measure")
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp())
    redis = RedisProc(tmp)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cmd = server_command("--redis-url", redis.url, "--log-level", "WARNING")
    try:
        server, port = start_listening(cmd, env=env, stderr=tmp / "server.log")
    except BaseException:
        redis.stop()  # a server that did not start leaves no Redis behind
        raise
    try:
        for _ in range(args.hands):
            counts, took = await one_hand(f"ws://127.0.0.1:{port}", args.ruleset)
            keys = counts["discard"] + counts["no_choice"] + counts["declined"] + counts["win"]
            print(
                f"{args.ruleset}: {keys} keys ({counts['discard']} for "
                f"{counts['discard'] // 2} discards, {counts['no_choice']} x at prompts "
                f"without a choice, {counts['declined']} x declining a claim, "
                f"{counts['win']} for a win) in {counts['prompts']} prompts, {took:.1f} s",
                flush=True,
            )
    finally:
        stop(server)
        redis.stop()


if __name__ == "__main__":
    asyncio.run(main())
