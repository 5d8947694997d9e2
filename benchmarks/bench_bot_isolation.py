"""Whether bots thinking delay human rooms: the p99 action latency of human-paced rooms (``mahjong-loadtest``) on a server that also runs all-bot rooms flat out, side by side with the same server without them.

Each repeat starts its own redis-server and one ``mahjong-server`` (``--bot-processes N``: 0
decides in worker threads of the server process, as before issue 24), then for each part
(without, with the bot rooms) runs ``mahjong-loadtest --rooms R --interval 1 --duration D``.
The bot rooms (``--bot-rooms``, default 100) each have four bots with a bot delay of 0 and a
host watching; they play for the whole of the "with" part. Reports each part's p99 (and
p50, p999, the server's CPU per action) per repeat and the median over repeats.

    python benchmarks/bench_bot_isolation.py --bot-processes 1 --repeat 3
    python benchmarks/bench_bot_isolation.py --bot-processes 0 --repeat 3   # before
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

from server.process.procs import server_command, start_listening
from server.storage.embedded import EmbeddedRedis

ROOT = Path(__file__).resolve().parents[1]
BOT_ROOM = {
    "turn_seconds": 0,
    "claim_seconds": 0,
    "hand_pause_ms": 0,
    "bot_delay_ms": 0,
    "length": "hands",
    "hands": 64,
}


async def request(ws: ClientConnection, msg: dict[str, Any], rid: int) -> dict[str, Any]:
    await ws.send(msgpack.packb({**msg, "id": rid}))
    while True:
        reply = msgpack.unpackb(await ws.recv(), raw=False)
        if reply.get("re") == rid:
            return reply  # type: ignore[no-any-return]


async def bot_room(port: int, ruleset: str | None, stop: asyncio.Event, started: list[int]) -> int:
    """One all-bot room played until ``stop`` (a new game when one ends); returns the frames
    its watching host received."""
    frames = 0
    async with connect(f"ws://127.0.0.1:{port}/", max_size=2**22) as ws:
        await request(ws, {"type": "hello", "v": 1, "name": "host"}, 1)
        from server.room import game

        msg = {"type": "create_room", "options": BOT_ROOM, "ruleset": ruleset or game.rulesets()[0]}
        ack = await request(ws, msg, 3)
        room = ack["room"]
        for seat in range(4):
            r = await request(ws, {"type": "add_bot", "room": room, "seat": seat}, 10 + seat)
            assert r["type"] == "ack", r
        r = await request(ws, {"type": "start_game", "room": room}, 20)
        assert r["type"] == "ack", r
        started.append(1)
        rid = 100
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            frames += 1
            notice = msgpack.unpackb(raw, raw=False).get("notice") or {}
            if notice.get("type") == "game_over":
                rid += 1
                await ws.send(msgpack.packb({"type": "rematch", "room": room, "id": rid}))
                rid += 1
                await ws.send(msgpack.packb({"type": "start_game", "room": room, "id": rid}))
    return frames


def loadtest(port: int, pid: int, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    cmd = [
        sys.executable, "-m", "loadtest.cli", "--url", f"ws://127.0.0.1:{port}/",
        "--rooms", str(args.rooms), "--interval", str(args.interval),
        "--duration", str(args.duration), "--server-pid", str(pid),
        "--json", str(out), "--quiet",
    ]  # fmt: skip
    if args.ruleset:
        cmd += ["--ruleset", args.ruleset]
    subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    game = json.loads(out.read_text())["game"]
    lat = game["latency_action_to_all_four"]
    return {
        "p50_ms": lat["p50_ms"],
        "p99_ms": lat["p99_ms"],
        "p999_ms": lat["p999_ms"],
        "actions": game["actions"],
        "errors": game["errors_total"],
        "cpu_us_per_action": game.get("cpu_us_per_action"),
    }


async def one_repeat(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    red = EmbeddedRedis(tmp, args=["--appendonly", "no"], new_session=False)
    red.start()
    sproc: subprocess.Popen[str] | None = None
    try:
        sproc, port = start_listening(
            server_command(
                "--redis-url", red.url, "--log-level", "WARNING",
                "--bot-processes", str(args.bot_processes),
            ),
            stderr=subprocess.DEVNULL, cwd=ROOT,
        )  # fmt: skip
        out: dict[str, Any] = {}
        loop = asyncio.get_running_loop()
        out["without"] = await loop.run_in_executor(
            None, loadtest, port, sproc.pid, args, tmp / "without.json"
        )
        stop, started = asyncio.Event(), []
        rooms = [
            asyncio.create_task(bot_room(port, args.ruleset, stop, started))
            for _ in range(args.bot_rooms)
        ]
        while len(started) < args.bot_rooms:
            await asyncio.sleep(0.2)
            for t in rooms:
                if t.done():
                    t.result()  # a room that failed to start: raise
        out["with"] = await loop.run_in_executor(
            None, loadtest, port, sproc.pid, args, tmp / "with.json"
        )
        stop.set()
        out["bot_room_frames"] = sum(await asyncio.gather(*rooms))
        return out
    finally:
        if sproc is not None:
            sproc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                sproc.wait(20)
        red.stop(15)


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    runs = []
    for _ in range(args.repeat):
        tmp = Path(tempfile.mkdtemp(prefix="bench-bots-"))
        try:
            runs.append(await one_repeat(args, tmp))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        print(json.dumps(runs[-1]), flush=True)
    med = {part: statistics.median(r[part]["p99_ms"] for r in runs) for part in ("without", "with")}
    return {
        "bot_processes": args.bot_processes,
        "bot_rooms": args.bot_rooms,
        "rooms": args.rooms,
        "duration": args.duration,
        "runs": runs,
        "median_p99_ms": med,
        "ratio": round(med["with"] / med["without"], 2) if med["without"] else None,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--bot-processes", type=int, default=1)
    p.add_argument("--bot-rooms", type=int, default=100)
    p.add_argument("--rooms", type=int, default=20, help="human-paced rooms (loadtest)")
    p.add_argument("--interval", type=float, default=1.0)
    p.add_argument("--duration", type=float, default=120.0)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--ruleset", default=None)
    print(json.dumps(asyncio.run(main_async(p.parse_args())), indent=2))


if __name__ == "__main__":
    main()
