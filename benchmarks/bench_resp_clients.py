"""Our RESP client (server/storage/resp.py) side by side with redis-py, coredis and valkey-glide on the commit pattern: EVALSHA of server/storage/commit.lua with a patch-sized state, plus a pipelined read, from many rooms at once.

Starts its own redis-server on a free TCP port of 127.0.0.1 (no persistence; the clients
that can use a unix socket would gain the same there). For each client, ``--rooms`` tasks
each commit ``--commits`` versions of their own room (EVALSHA commit.lua: version check,
patch append, log entry, client seq) and read the room's version after each commit (HGET).
Reports commits per second and this process's CPU µs per commit (``time.process_time``:
what the server process would pay; glide's Rust core runs in threads of this process, so
its CPU is counted too), the median over ``--repeat`` runs. coredis and valkey-glide are
not dependencies: ``pip install coredis valkey-glide`` to include them (skipped when
missing).

    python benchmarks/bench_resp_clients.py --rooms 200 --commits 50 --repeat 3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import redis
import redis.asyncio as aioredis

from server.storage.embedded import find_redis_server
from server.storage.resp import PipelinedConnection
from server.storage.store import (
    COMMIT_LUA,
    k_answers,
    k_channel,
    k_log,
    k_seq,
    k_state,
    k_tail,
    pack,
)

Run = Callable[[list[Any]], Awaitable[Any]]  # one command -> its reply

PATCH = pack({"game": [1, {"hand": [1, {"pending": [0, [2]], "seats": [0, [1] * 40]}]}]})
ENTRY = pack({"t": 1, "kind": "play", "actor": "p_x", "actions": [{"type": "discard"}] * 3})
STATE = pack({"status": "playing", "game": {"x": list(range(600))}})


def commit_cmd(sha: str, room: str, version: int) -> list[Any]:
    keys = [k_state(room), k_log(room), k_seq(room), k_tail(room), k_answers(room)]
    state = STATE if version == 0 else b""
    patch = b"" if version == 0 else PATCH
    args = [version, state, ENTRY, "p_x", version + 1, k_channel(room), "", patch, "snap", "", ""]
    return ["EVALSHA", sha, len(keys), *keys, *args]


async def drive(run: Run, sha: str, label: str, rooms: int, commits: int) -> dict[str, float]:
    async def room(i: int) -> None:
        name = f"{label}_{i}"
        for v in range(commits):
            res = await run(commit_cmd(sha, name, v))
            assert res[0] in (b"ok", "ok"), res
            await run(["HGET", k_state(name), "version"])

    c0, t0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*(room(i) for i in range(rooms)))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    n = rooms * commits
    return {"commits_per_s": n / wall, "cpu_us_per_commit": cpu / n * 1e6}


@contextlib.asynccontextmanager
async def ours(port: int) -> Any:
    conn = PipelinedConnection(f"redis://127.0.0.1:{port}/0")
    try:
        yield lambda cmd: conn.execute(*cmd)
    finally:
        await conn.close()


@contextlib.asynccontextmanager
async def redis_py(port: int) -> Any:
    # as the server's pool (server/storage/store_base.py): blocking, 32 connections
    pool = aioredis.BlockingConnectionPool(host="127.0.0.1", port=port, max_connections=32)
    r = aioredis.Redis(connection_pool=pool)
    try:
        yield lambda cmd: r.execute_command(*cmd)
    finally:
        await r.aclose()


@contextlib.asynccontextmanager
async def coredis_client(port: int) -> Any:
    import coredis

    client = coredis.Redis(host="127.0.0.1", port=port, decode_responses=False)
    async with client:

        async def run(cmd: list[Any]) -> Any:
            if cmd[0] == "EVALSHA":
                n = cmd[2]
                return await client.evalsha(cmd[1], keys=cmd[3 : 3 + n], args=cmd[3 + n :])
            return await client.hget(cmd[1], cmd[2])

        yield run


@contextlib.asynccontextmanager
async def glide_client(port: int) -> Any:
    from glide import GlideClient, GlideClientConfiguration, NodeAddress

    client = await GlideClient.create(GlideClientConfiguration([NodeAddress("127.0.0.1", port)]))
    try:
        yield lambda cmd: client.custom_command([str(a) if isinstance(a, int) else a for a in cmd])
    finally:
        await client.close()


CLIENTS: dict[str, Callable[[int], Any]] = {
    "ours (server/storage/resp.py)": ours,
    "redis-py (hiredis)": redis_py,
    "coredis": coredis_client,
    "valkey-glide": glide_client,
}


async def main_async(args: argparse.Namespace, port: int) -> dict[str, Any]:
    sha = redis.Redis(port=port).script_load(COMMIT_LUA)
    out: dict[str, Any] = {}
    runs: dict[str, list[dict[str, float]]] = {}
    for i in range(args.repeat):
        for j, (name, make) in enumerate(CLIENTS.items()):
            try:
                async with make(port) as run:
                    await drive(run, sha, f"warm{i}_{j}", 10, 5)
                    runs.setdefault(name, []).append(
                        await drive(run, sha, f"r{i}_{j}", args.rooms, args.commits)
                    )
            except ImportError as exc:
                out.setdefault("skipped", {})[name] = str(exc)
    for name, rs in runs.items():
        out[name] = {k: round(statistics.median(r[k] for r in rs), 1) for k in rs[0]}
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--rooms", type=int, default=200)
    p.add_argument("--commits", type=int, default=50)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-resp-"))
    with socket_port() as port:
        proc = subprocess.Popen(
            [find_redis_server(), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(tmp)],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
    try:
        for _ in range(200):
            try:
                redis.Redis(port=port).ping()
                break
            except redis.ConnectionError:
                time.sleep(0.02)
        print(json.dumps(asyncio.run(main_async(args, port)), indent=2))
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


@contextlib.contextmanager
def socket_port() -> Any:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    yield port


if __name__ == "__main__":
    main()
