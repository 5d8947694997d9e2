"""Redis memory per room and per finished game, for capacity planning (docs/deploy.md).

Starts its own redis-server (``server.storage.embedded.EmbeddedRedis`` with AOF off) and one ``mahjong-server`` process, plays
``--rooms`` complete games of ``--hands`` hands with four bots each (the host watches), then
reads ``MEMORY USAGE`` of every room key and Redis's ``used_memory``.

    python benchmarks/bench_room_memory.py --rooms 6 --hands 1
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import tempfile
from pathlib import Path

import msgpack
import redis
from websockets.asyncio.client import connect

from server.process.procs import server_command, start_listening
from server.storage.embedded import EmbeddedRedis

ROOT = Path(__file__).resolve().parents[1]
# bot_delay_ms 1: one bot action per commit, as with human players (0 batches a whole
# sequence of bot moves into one commit)
FAST = {"turn_seconds": 0, "claim_seconds": 0, "hand_pause_ms": 0, "bot_delay_ms": 1}


async def request(ws, msg: dict, rid: int) -> dict:  # type: ignore[no-untyped-def,type-arg]
    await ws.send(msgpack.packb({**msg, "id": rid}))
    while True:
        reply = msgpack.unpackb(await ws.recv(), raw=False)
        if reply.get("re") == rid:
            return reply  # type: ignore[no-any-return]


async def play_room(port: int, ruleset: str, hands: int) -> tuple[str, int]:
    async with connect(f"ws://127.0.0.1:{port}/", max_size=2**22) as ws:
        await request(ws, {"type": "hello", "v": 1, "name": "host"}, 1)
        opts = {**FAST, "length": "hands", "hands": hands}
        ack = await request(ws, {"type": "create_room", "ruleset": ruleset, "options": opts}, 2)
        room = ack["room"]
        for seat in range(4):
            r = await request(ws, {"type": "add_bot", "room": room, "seat": seat}, 10 + seat)
            assert r["type"] == "ack", r
        r = await request(ws, {"type": "start_game", "room": room}, 20)
        assert r["type"] == "ack", r
        frames = 0
        while True:
            msg = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 120), raw=False)
            frames += 1
            notice = msg.get("notice") or {}
            if notice.get("type") == "game_over":
                return room, msg["seq"]


async def main_async(args: argparse.Namespace) -> dict:  # type: ignore[type-arg]
    from server.room import game

    ruleset = args.ruleset or game.rulesets()[0]
    tmp = Path(tempfile.mkdtemp(prefix="bench-mem-"))
    red = EmbeddedRedis(tmp, args=["--appendonly", "no"], new_session=False)
    red.start()
    r = redis.Redis(unix_socket_path=str(red.socket))
    sproc: subprocess.Popen[str] | None = None
    try:
        base = int(r.info("memory")["used_memory"])
        sproc, port = start_listening(
            server_command(
                "--redis-url", red.url, "--bot-delay-ms", "0", "--log-level", "WARNING",
                "--snapshot-every", str(args.snapshot_every),
            ),
            stderr=subprocess.DEVNULL, cwd=ROOT,
        )  # fmt: skip
        results = await asyncio.gather(
            *(play_room(port, ruleset, args.hands) for _ in range(args.rooms))
        )
        per_room = []
        for room, versions in results:
            sizes = {
                k: int(r.memory_usage(f"{{room:{room}}}:{k}", samples=0) or 0)
                for k in ("state", "tail", "log", "seq")
            }
            per_room.append({"versions": versions, **sizes})
        used = int(r.info("memory")["used_memory"]) - base
    finally:
        if sproc is not None:
            sproc.terminate()
            sproc.wait(15)
        r.close()
        red.stop(15)
        shutil.rmtree(tmp, ignore_errors=True)
    n = len(per_room)
    return {
        "ruleset": ruleset,
        "hands": args.hands,
        "rooms": n,
        "versions_per_game": sum(p["versions"] for p in per_room) / n,
        "state_bytes": sum(p["state"] for p in per_room) / n,
        "tail_bytes": sum(p["tail"] for p in per_room) / n,
        "log_bytes": sum(p["log"] for p in per_room) / n,
        "log_bytes_per_version": sum(p["log"] for p in per_room)
        / sum(p["versions"] for p in per_room),
        "used_memory_per_room": used / n,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rooms", type=int, default=6)
    p.add_argument("--hands", type=int, default=1)
    p.add_argument("--ruleset", default=None)
    p.add_argument("--snapshot-every", type=int, default=16, help="the server's setting")
    res = asyncio.run(main_async(p.parse_args()))
    print(
        f"ruleset {res['ruleset']}, {res['rooms']} finished games of {res['hands']} hand(s)\n"
        f"versions per game     {res['versions_per_game']:.0f}\n"
        f"state hash            {res['state_bytes'] / 1024:.1f} KiB per room\n"
        f"patches (tail)        {res['tail_bytes'] / 1024:.1f} KiB per room\n"
        f"event log (stream)    {res['log_bytes'] / 1024:.1f} KiB per game "
        f"({res['log_bytes_per_version']:.0f} B per version)\n"
        f"Redis used_memory     {res['used_memory_per_room'] / 1024:.1f} KiB per room"
    )


if __name__ == "__main__":
    main()
