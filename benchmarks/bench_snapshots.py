"""What snapshots and patches cost (server/storage/patches.py, server/storage/store.py), side by side with writing the whole state on every commit.

On the states of a real four-bot game (one action per commit, as with human players):

* server CPU per commit to encode what is written: the whole state (``--snapshot-every 1``)
  vs a patch (``patches.diff`` + encode), and the bytes each sends to Redis;
* commits per second through ``Store.commit`` against a real redis-server (its own, on a
  unix socket, no persistence), whole states vs patches with a snapshot every N, and the
  Redis CPU each used;
* the cost of a rebuild (``Store.load_room``) with 0 .. N-1 patches after the snapshot:
  what a process without the room in memory pays, bounded by N.

    python benchmarks/bench_snapshots.py --every 16
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from server.flow.entropy import OS_SEEDS
from server.room import game, game_room, rooms
from server.room.options import validate_options
from server.storage import patches
from server.storage.embedded import EmbeddedRedis
from server.storage.store import Store, k_state, k_tail, pack


def played_states(n: int, seed: int) -> list[dict[str, Any]]:
    rs = game.rulesets()[0]
    opts = validate_options(rs, {"bot_delay_ms": 1})
    s = rooms.new_room("r_1", "ABCDEF", "p_a", "A", rs, opts, 0).state
    for seat in range(4):
        s = rooms.add_bot(s, "p_a", seat).state
    s = game_room.start(s, "p_a", 0, OS_SEEDS).state
    rng, now, out = random.Random(seed), 0, [s]
    while len(out) < n:
        now += 2000
        change = game_room.tick(s, now, 0, 1, rng)
        if change is None:
            continue
        s = change.state
        out.append(s)
        if s["status"] != "playing":
            break
    return out


def encode_costs(chain: list[dict[str, Any]], repeat: int) -> dict[str, float]:
    pairs = list(itertools.pairwise(chain))
    whole, patch = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        for _a, b in pairs:
            pack(b)
        whole.append((time.perf_counter() - t) / len(pairs))
        t = time.perf_counter()
        for a, b in pairs:
            pack(patches.diff(a, b))
        patch.append((time.perf_counter() - t) / len(pairs))
    return {
        "whole_us": min(whole) * 1e6,
        "patch_us": min(patch) * 1e6,
        "whole_bytes": statistics.mean(len(pack(b)) for _a, b in pairs),
        "patch_bytes": statistics.mean(len(pack(patches.diff(a, b))) for a, b in pairs),
    }


async def redis_cpu(store: Store) -> float:
    info = await store.r.info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


async def commits(
    store: Store, chain: list[dict[str, Any]], every: int, room: str
) -> tuple[float, float, float]:
    """(commits per second, this process's CPU µs per commit, Redis's CPU µs per commit) of
    ``chain`` with a snapshot every ``every`` versions."""
    r0, c0 = await redis_cpu(store), time.process_time()
    t = time.perf_counter()
    res = await store.commit(room, 0, chain[0], {"kind": "create"})
    sv = 1
    for v in range(1, len(chain)):
        patch = None
        if v + 1 - sv < every:
            patch = patches.diff(chain[v - 1], chain[v])
        res = await store.commit(room, v, chain[v], {"kind": "x", "t": v}, patch=patch)
        assert res.status == "ok", res
        if res.snapshot:
            sv = res.version
    wall = time.perf_counter() - t
    cpu, rcpu = time.process_time() - c0, await redis_cpu(store) - r0
    n = len(chain)
    return n / wall, cpu / n * 1e6, rcpu / n * 1e6


async def rebuilds(store: Store, chain: list[dict[str, Any]], every: int) -> dict[int, float]:
    """ms per ``load_room`` with k patches after the snapshot, k = 0 .. every-1."""
    out = {}
    for k in range(every):
        room = f"r_rebuild_{k}"
        await store.commit(room, 0, chain[0], {"kind": "create"})
        for v in range(1, k + 1):
            p = patches.diff(chain[v - 1], chain[v])
            await store.commit(room, v, chain[v], {"kind": "x"}, patch=p)
        loaded = await store.load_room(room)
        assert loaded is not None and loaded[0] - (loaded[2] or 0) == k
        times = []
        for _ in range(50):
            t = time.perf_counter()
            await store.load_room(room)
            times.append(time.perf_counter() - t)
        out[k] = statistics.median(times) * 1000
    return out


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    chain = played_states(args.versions, args.seed)
    out: dict[str, Any] = {"versions": len(chain), "every": args.every}
    out["encode"] = encode_costs(chain, args.repeat)
    tmp = Path(tempfile.mkdtemp(prefix="bench-snap-"))
    red = EmbeddedRedis(tmp, args=["--appendonly", "no"], new_session=False)
    red.start()
    try:
        store = Store.from_url(red.url)
    except BaseException:
        red.stop(15)
        raise
    try:
        rate: dict[str, list[tuple[float, float, float]]] = {"whole": [], "patches": []}
        for i in range(args.repeat):
            for name, every in (("whole", 1), ("patches", args.every)):
                rate[name].append(await commits(store, chain, every, f"r_{name}_{i}"))
        for i, what in enumerate(("commits_per_s", "client_cpu_us", "redis_cpu_us")):
            out[what] = {k: statistics.median(x[i] for x in v) for k, v in rate.items()}
        sizes: dict[str, int] = {}
        for name in rate:
            sizes[name] = 0
            for key in (k_state, k_tail):
                sizes[name] += int(await store.r.memory_usage(key(f"r_{name}_0"), samples=0) or 0)
        out["state_and_tail_bytes"] = sizes
        out["rebuild_ms"] = await rebuilds(store, chain, args.every)
    finally:
        await store.close()
        red.stop(15)
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--every", type=int, default=16, help="snapshot every N versions")
    p.add_argument("--versions", type=int, default=150, help="commits of the game played")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    print(json.dumps(asyncio.run(main_async(p.parse_args())), indent=2))


if __name__ == "__main__":
    main()
