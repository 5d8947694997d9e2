"""Server throughput and action latency, end to end (real redis-server, real WebSockets).

    python benchmarks/bench_server.py --rooms 8 --hands 1

Runs, side by side in one process tree:

1. ``engine``: the pure table engine playing the same kind of games in-process (the ceiling);
2. ``bots``: ``--rooms`` rooms on a ``mahjong-server`` subprocess where all four seats are bots
   (bot delay 0) and one spectator per room receives every event: game actions committed per
   second through Redis (Lua commit, stream, pub/sub fan-out, timers);
3. ``humans``: one room with four WebSocket clients playing: the time from sending an action
   to receiving its ``ack`` (p50 / p99).

Needs the table engine and redis-server on the PATH.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server.process.procs import server_command, start_listening  # noqa: E402
from server.storage.embedded import EmbeddedRedis  # noqa: E402


class Ws:
    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.rid = 0
        self.pending: list[dict[str, Any]] = []  # received while waiting for a reply

    async def send(self, msg: dict[str, Any]) -> int:
        self.rid += 1
        await self.ws.send(msgpack.packb({**msg, "id": self.rid}))
        return self.rid

    async def recv(self) -> dict[str, Any]:
        if self.pending:
            return self.pending.pop(0)
        return msgpack.unpackb(await self.ws.recv())  # type: ignore[no-any-return]

    async def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Send and return the reply; what arrives before it stays for :meth:`recv` (the
        start's first ``events``, with the dealer's legal actions, can beat the ack)."""
        rid = await self.send(msg)
        while True:
            m = msgpack.unpackb(await self.ws.recv())
            if m.get("re") == rid:
                return m  # type: ignore[no-any-return]
            self.pending.append(m)


async def client(port: int, name: str) -> Ws:
    c = Ws(await connect(f"ws://127.0.0.1:{port}/", max_queue=None))
    await c.request({"type": "hello", "v": 1, "name": name})
    return c


def bench_engine(ruleset: str, games: int, hands: int) -> tuple[int, float]:
    import table

    rng = random.Random(1)
    n = 0
    t0 = time.perf_counter()
    for _ in range(games):
        st = table.new_game(table.GameConfig(ruleset, max_hands=hands))
        players = [table.RandomPlayer(random.Random(rng.random())) for _ in range(4)]
        while st.phase is not table.Phase.GAME_OVER:
            if st.phase is table.Phase.BETWEEN_HANDS:
                a = table.Action(table.ActionType.START_HAND, None, st.seq, seed=os.urandom(32))
            else:
                seat = st.hand.turn if st.phase is table.Phase.TURN else st.hand.pending[0]
                a = players[seat].choose(st, seat)
            st, events = table.apply(st, a)
            n += sum(1 for e in events if e.type in ("discard", "answered"))
    return n, time.perf_counter() - t0


async def bench_bots(port: int, ruleset: str, rooms: int, hands: int) -> tuple[int, float]:
    opts = {
        "turn_seconds": 0,
        "claim_seconds": 0,
        "hand_pause_ms": 0,
        "bot_delay_ms": 0,
        "length": "hands",
        "hands": hands,
    }
    hosts, watchers, room_ids = [], [], []
    for i in range(rooms):
        h = await client(port, f"h{i}")
        ack = await h.request({"type": "create_room", "ruleset": ruleset, "options": opts})
        room = ack["room"]
        await h.request({"type": "sit", "room": room, "seat": 0})
        await h.request({"type": "ready", "room": room})
        for s in (1, 2, 3):
            await h.request({"type": "add_bot", "room": room, "seat": s})
        w = await client(port, f"w{i}")
        snap = None
        while snap is None:  # the host's snapshot holds the code
            snap = await h.request({"type": "resync", "room": room, "since": 0})
        await w.request({"type": "join_room", "code": snap["lobby"]["code"]})
        hosts.append(h)
        watchers.append(w)
        room_ids.append(room)
    t0 = time.perf_counter()
    for h, room in zip(hosts, room_ids, strict=True):
        await h.request({"type": "start_game", "room": room})
        await h.request({"type": "leave_room", "room": room})  # bots play all four seats
    actions = 0

    async def watch(w: Ws) -> None:
        nonlocal actions
        while True:
            m = await w.recv()
            if m["type"] == "events":
                actions += sum(1 for e in m["events"] if e["type"] in ("discard", "answered"))
                if (m.get("notice") or {}).get("type") == "game_over":
                    return

    await asyncio.gather(*(watch(w) for w in watchers))
    return actions, time.perf_counter() - t0


async def bench_humans(port: int, ruleset: str, hands: int) -> list[float]:
    opts = {
        "turn_seconds": 0,
        "claim_seconds": 0,
        "hand_pause_ms": 0,
        "length": "hands",
        "hands": hands,
    }
    cs = [await client(port, f"p{i}") for i in range(4)]
    ack = await cs[0].request({"type": "create_room", "ruleset": ruleset, "options": opts})
    room = ack["room"]
    snap = await cs[0].request({"type": "resync", "room": room, "since": 0})
    for c in cs[1:]:
        await c.request({"type": "join_room", "code": snap["lobby"]["code"]})
    for i, c in enumerate(cs):
        await c.request({"type": "sit", "room": room, "seat": i})
        await c.request({"type": "ready", "room": room})
    lat: list[float] = []

    async def play(i: int, c: Ws) -> None:
        rng = random.Random(i)
        seq = 0
        inflight: tuple[int, float] | None = None
        acted = -1
        legal: list[dict[str, Any]] = []
        at = -1
        while True:
            if inflight is None and legal and at > acted:
                acted = at
                by = {a["type"]: a for a in legal}
                a = (
                    by.get("win")
                    or by.get("pass")
                    or rng.choice([x for x in legal if x["type"] == "discard"] or legal)
                )
                seq += 1
                rid = await c.send({"type": "action", "room": room, "seq": seq, "action": a})
                inflight = (rid, time.perf_counter())
            m = await c.recv()
            if m["type"] == "events":
                if m.get("legal") is not None:
                    legal, at = m["legal"], m["seq"]
                if (m.get("notice") or {}).get("type") == "game_over":
                    return
            elif inflight and m.get("re") == inflight[0]:
                if m["type"] == "ack":
                    lat.append(time.perf_counter() - inflight[1])
                    acted = max(acted, m["seq"] - 1)
                inflight = None

    await cs[0].request({"type": "start_game", "room": room})
    await asyncio.gather(*(play(i, c) for i, c in enumerate(cs)))
    return lat


async def main_async(args: argparse.Namespace) -> None:
    import table

    ruleset = args.ruleset or table.playable_rulesets()[0]
    tmp = Path(tempfile.mkdtemp())
    # the server's own embedded Redis (unix socket, AOF everysec), kept in this session
    red = EmbeddedRedis(tmp, new_session=False)
    red.start()
    srv: subprocess.Popen[str] | None = None
    try:
        srv, port = start_listening(
            server_command(
                "--redis-url", red.url, "--log-level", "WARNING", "--timer-poll-ms", "10",
                "--rate-per-second", "10000", "--rate-burst", "10000",
            ),
            stderr=None,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )  # fmt: skip
        n, dt = bench_engine(ruleset, args.rooms, args.hands)
        print(f"ruleset {ruleset}, {args.rooms} games x {args.hands} hand(s)")
        print(f"engine  in-process          {n / dt:10.0f} actions/s  ({n} discards and answers)")
        n, dt = await bench_bots(port, ruleset, args.rooms, args.hands)
        print(
            f"bots    via server + Redis  {n / dt:10.0f} actions/s  ({n} discards and answers, "
            f"{args.rooms} rooms at once, one spectator each)"
        )
        lat = sorted(await bench_humans(port, ruleset, args.hands))
        print(
            f"humans  action -> ack       p50 {lat[len(lat) // 2] * 1000:6.2f} ms   "
            f"p99 {lat[int(len(lat) * 0.99)] * 1000:6.2f} ms  ({len(lat)} actions)"
        )
    finally:
        if srv is not None:
            srv.terminate()
            srv.wait()
        red.stop(15)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rooms", type=int, default=8)
    p.add_argument("--hands", type=int, default=1)
    p.add_argument("--ruleset", default=None)
    asyncio.run(main_async(p.parse_args()))


if __name__ == "__main__":
    main()
