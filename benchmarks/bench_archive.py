"""What the game archive costs (server/archive/): writing a finished game of 16 hands
(``put_hands`` + ``put_game``) into SQLite or PostgreSQL, and a game page
(``GET /api/games/<id>``) answered by a real server over HTTP from an archive holding many
games (p50 / p95 / max over warm requests).

Games are synthetic but shaped like real ones: 16 hands, each won with a breakdown and
payments, and a log of ``--entries`` entries of the size of a real game's.

    python benchmarks/bench_archive.py --games 1000 --requests 100
    python benchmarks/bench_archive.py --what replay --gzip --entries 3500   # the browser's read
    python benchmarks/bench_archive.py --url postgresql://postgres@127.0.0.1:5432/bench
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from server.app import run_server
from server.archive import open_archive
from server.archive.records import GameRecord, HandRecord, Seat
from server.process.config import Config
from server.storage.store import Store

WINNER = {
    "seat": 0,
    "hand": {"concealed": ["1m", "2m", "3m"] * 3 + ["5p", "5p"], "melds": []},
    "score": {"total": 24, "fans": [{"name": f"Fan {i}", "points": 2} for i in range(8)]},
    "payments": [{"payer": s, "payee": 0, "amount": 32, "reason": "win"} for s in (1, 2, 3)],
}
ENTRY = {
    "t": 1,
    "kind": "action",
    "actor": "p_0123456789abcdef",
    "actions": [{"type": "discard", "seat": 1, "tile": "5p", "seq": 40}],
    "events": [{"type": "discard", "seat": 1, "tile": "5p", "tsumogiri": False}],
}


def game(i: int, entries: int) -> tuple[GameRecord, list[HandRecord]]:
    gid = f"bench{i:06d}"
    hands = [
        HandRecord(
            game_id=gid,
            hand=h,
            result="win",
            ended_ms=1000 + h,
            scores=[8 * h, -8 * h, 0, 0],
            winners=[WINNER],
            how="discard",
        )
        for h in range(16)
    ]
    record = GameRecord(
        game_id=gid,
        room=f"r_{i:016x}",
        game_no=1,
        ruleset="mcr",
        options={"public": True, "length": "hands", "hands": 16},
        public=True,
        seats=[Seat(s, f"p_{i:08x}{s}", f"Player {s}", False) for s in range(4)],
        started_ms=1,
        finished_ms=1000 + i,
        hands_played=16,
        scores=[120, -40, -40, -40],
        summary={"ruleset": "mcr", "hands_played": 16, "scores": [120, -40, -40, -40]},
        log=[ENTRY] * entries,
    )
    return record, hands


async def fill(url: str, n: int, entries: int) -> list[float]:
    archive = await open_archive(url)
    took = []
    try:
        for i in range(n):
            record, hands = game(i, entries)
            t0 = time.perf_counter()
            await archive.put_hands(hands)
            await archive.put_game(record)
            took.append(time.perf_counter() - t0)
    finally:
        await archive.close()
    return took


async def get(port: int, path: str, gz: bool = False) -> float:
    t0 = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    accept = "Accept-Encoding: gzip\r\n" if gz else ""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n{accept}\r\n".encode())
    await writer.drain()
    data = await reader.read()
    writer.close()
    assert data.startswith(b"HTTP/1.1 200"), data[:200]
    return time.perf_counter() - t0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def pages(
    url: str, n_games: int, requests: int, tmp: Path, what: str = "page", gz: bool = False
) -> list[float]:
    port = free_port()
    exe = shutil.which("redis-server") or "/usr/bin/redis-server"
    redis = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(tmp)],
        stdout=subprocess.DEVNULL,
    )
    try:
        await asyncio.sleep(0.3)
        cfg = replace(Config(), port=0, archive_url=url, log_json=False, bot_processes=0)
        stop = asyncio.Event()
        fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(
            run_server(cfg, Store.from_url(f"redis://127.0.0.1:{port}/0"), fut.set_result, stop)
        )
        http = await fut
        while True:  # the archive opens in the background
            with contextlib.suppress(AssertionError):
                await get(http, "/api/games/bench000000")
                break
            await asyncio.sleep(0.1)
        tail = "" if what == "page" else f"/{what}"
        step = max(1, n_games // requests)
        ids = [f"/api/games/bench{i:06d}{tail}" for i in range(0, n_games, step)]
        for path in ids[:10]:  # warm
            await get(http, path, gz)
        took = [await get(http, ids[i % len(ids)], gz) for i in range(requests)]
        stop.set()
        await task
        return took
    finally:
        redis.terminate()
        redis.wait()


def ms(xs: list[float], q: float) -> float:
    return 1000 * sorted(xs)[min(len(xs) - 1, int(q * len(xs)))]


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", help="the archive (default: a fresh SQLite file)")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--entries", type=int, default=600, help="log entries per game")
    ap.add_argument("--requests", type=int, default=100)
    ap.add_argument(
        "--what",
        choices=("page", "replay", "log"),
        default="page",
        help="which answer: the page (default), /replay (the browser's), /log",
    )
    ap.add_argument("--gzip", action="store_true", help="ask for gzip (as browsers do)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        url = args.url or "sqlite:///" + str(Path(d) / "archive.sqlite3")
        writes = await fill(url, args.games, args.entries)
        print(
            f"write a 16-hand game: mean {1000 * statistics.mean(writes):.2f} ms, "
            f"p95 {ms(writes, 0.95):.2f} ms ({args.games} games, {url.split(':')[0]})"
        )
        took = await pages(url, args.games, args.requests, Path(d), args.what, args.gzip)
        what = "game page" if args.what == "page" else f"/{args.what}"
        print(
            f"{what}{' gzip' if args.gzip else ''} over HTTP ({args.games} games): p50 {ms(took, 0.5):.2f} ms, "
            f"p95 {ms(took, 0.95):.2f} ms, max {1000 * max(took):.2f} ms "
            f"({args.requests} warm requests)"
        )


if __name__ == "__main__":
    asyncio.run(main())
