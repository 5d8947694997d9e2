"""Where the game's own memory grows over many actions, in one process: the table engine,
scoring and the server's game boundary (``server.room.game``), without sockets or Redis.

Plays games of ``--ruleset`` back to back with the load-test client's policy
(``loadtest.rooms.pick_action``: win, else pass, else a random discard), asking every
pending seat's legal actions as the server does, and takes a tracemalloc snapshot after
action ``--from`` and after action ``--to``; prints the allocation sites that grew most
between them (``memwatch.growth_sites``) and the memos' sizes. A 30-minute soak of 2,000
rooms at 20 s per seat is ~175,000 actions, its minute 5 ~30,000:

    python benchmarks/bench_engine_memory.py --ruleset zung-jung --from 30000 --to 176000
"""

from __future__ import annotations

import argparse
import functools
import gc
import random
import shutil
import sys
import tempfile
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memwatch import growth_sites  # noqa: E402

from loadtest.rooms import pick_action  # noqa: E402
from server.room import game, memos  # noqa: E402


def memo_sizes() -> dict[str, tuple[int, int | None]]:
    """Every functools memo of this process with entries: (entries, bound)."""
    out = {}
    for o in gc.get_objects():
        if isinstance(o, functools._lru_cache_wrapper):
            info = o.cache_info()
            if info.currsize:
                out[f"{o.__module__}.{o.__qualname__}"] = (info.currsize, info.maxsize)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--ruleset", default="zung-jung")
    ap.add_argument("--from", dest="start", type=int, default=30_000)
    ap.add_argument("--to", dest="end", type=int, default=176_000)
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    game.warm_up()
    tracemalloc.start(1)
    rng = random.Random(args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="engine-mem-"))
    snaps: dict[int, Path] = {}
    n = 0
    while n < args.end:
        st = game.new_game(args.ruleset, {"length": "hands", "hands": 4})
        while not game.finished(st) and n < args.end:
            start = game.start_hand_action(st, f"{rng.getrandbits(256):064x}")
            if start is not None:
                st, _ = game.apply(st, start)
                continue
            pending = game.pending(st)
            for seat in pending:
                game.legal(st, seat)
            action = pick_action(game.legal(st, min(pending)), rng)
            assert action is not None
            st, _ = game.apply(st, action)
            n += 1
            if n in (args.start, args.end):
                snap = tracemalloc.take_snapshot().filter_traces(
                    [tracemalloc.Filter(False, tracemalloc.__file__)]
                )
                snaps[n] = tmp / f"{n}.snapshot"
                snap.dump(str(snaps[n]))
    print(f"growth from action {args.start:,} to {args.end:,} ({args.ruleset}):")
    sites = growth_sites(snaps[args.start], snaps[args.end], 1, args.top)
    shutil.rmtree(tmp, ignore_errors=True)
    for site, kib, blocks, now in sites:
        print(f"{kib:+9.1f} KiB {blocks:+7d} blocks {now:7d} KiB now  {site}")
    print("memos (entries, bound):")
    for name, (size, bound) in sorted(memo_sizes().items()):
        print(f"  {name}: {size:,} / {bound if bound is not None else 'unbounded'}")
    # (the games here are in no room: their states share the memos' bucket of no room)
    for name, size in memos.sizes().items():
        print(f"  server.room.memos {name}: {size:,} states / {memos.LOOSE:,} outside a room")
    return 0


if __name__ == "__main__":
    sys.exit(main())
