"""Bots decide in worker processes (``--bot-processes``, server/flow/bot_pool.py): their decisions are
the real bot's, legal, made in another process (never holding the server's interpreter
lock), and a worker that dies is replaced (the decision meanwhile is the fast fallback)."""

from __future__ import annotations

import os
import pathlib
import random
import subprocess
import sys
import time

import psutil
import pytest

from server.flow import bot_pool
from server.room import commands, game
from server.room.options import validate_options


def play_hand(rng: random.Random) -> int:
    """One hand of four bots deciding with a generous budget; every action legal. Returns
    the decisions made."""
    rs = game.rulesets()[0]
    st = game.new_game(rs, {"length": "hands", "hands": 1, "names": ["a", "b", "c", "d"]})
    n = 0
    while not game.finished(st):
        start = game.start_hand_action(st, f"{rng.getrandbits(256):064x}")
        if start is not None:
            st, _ = game.apply(st, start)
            continue
        seat = sorted(game.pending(st))[0]
        action = game.bot_action(st, seat, rng, bot_pool.chooser(10.0))
        assert action in game.legal(st, seat)
        st, _ = game.apply(st, action)
        n += 1
    return n


def test_decisions_in_a_worker_process_are_legal_and_a_dead_worker_is_replaced() -> None:
    rng = random.Random(5)
    bot_pool.configure_bots(1)
    try:
        pid = bot_pool._bot_pool().submit(bot_pool._warm_worker).result(30)
        assert pid != os.getpid(), "decisions are made in another process"
        before = bot_pool.BOT_STATS["in_processes"]
        n = play_hand(rng)
        assert bot_pool.BOT_STATS["in_processes"] - before == n > 20
        os.kill(pid, 9)  # the worker dies: a decision or two fall back, then a new worker
        fell = bot_pool.BOT_STATS["fallbacks"]
        before = bot_pool.BOT_STATS["in_processes"]
        n = play_hand(rng)
        made = bot_pool.BOT_STATS["in_processes"] - before
        assert made + (bot_pool.BOT_STATS["fallbacks"] - fell) == n and made >= n - 2
        new_pid = bot_pool._bot_pool().submit(bot_pool._warm_worker).result(30)
        assert new_pid not in (pid, os.getpid())
    finally:
        bot_pool.configure_bots(0)
        bot_pool.stop_bots()


async def test_a_server_with_a_bot_process_plays_an_all_bot_game(redis_url: str) -> None:
    """The timer ticks of a room run in the bot worker process (server/flow/bot_worker.py) and
    are committed by the server: an all-bot game watched by its host is played to its end."""
    import redis.asyncio as aioredis

    from server.storage.store import k_state

    from .conftest import running_server
    from .helpers import setup_table, start_all_bots, until

    opts = {"turn_seconds": 0, "claim_seconds": 0, "hand_pause_ms": 0, "bot_delay_ms": 0}
    opts |= {"length": "hands", "hands": 1}
    r = aioredis.Redis.from_url(redis_url)
    try:
        async with running_server(redis_url, bot_processes=1) as srv:
            (host,), room = await setup_table(srv.port, 1, game.rulesets()[0], opts)
            await start_all_bots(host, room)
            await host.wait_for(lambda m: (m.get("notice") or {}).get("type") == "game_over")
            assert int(await r.hget(k_state(room), "version") or 0) > 5

            async def pool_up() -> bool:
                return bot_pool._BOT_PROCESSES == 1

            await until(pool_up, "the bot process configured")
            await host.close()
    finally:
        bot_pool.configure_bots(0)
        bot_pool.stop_bots()
        await r.aclose()


_KILLED_SERVER = """
import sys, time
from server.flow import bot_pool
if __name__ == "__main__":
    bot_pool.configure_bots(1)
    print(bot_pool._bot_pool().submit(bot_pool._warm_worker).result(60), flush=True)
    time.sleep(120)
"""


def test_a_worker_ends_when_its_server_process_is_killed(tmp_path: pathlib.Path) -> None:
    """A server killed with SIGKILL cannot shut its pool down: its worker sees its parent
    gone and ends by itself (before, it lived on as an idle orphan)."""
    script = tmp_path / "server_stand_in.py"
    script.write_text(_KILLED_SERVER)
    root = pathlib.Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, str(script)], cwd=root, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        worker = int(proc.stdout.readline())
        assert psutil.Process(worker).ppid() == proc.pid
    finally:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 15
    while psutil.pid_exists(worker) and psutil.Process(worker).status() != "zombie":
        assert time.monotonic() < deadline, "the worker outlived its killed server"
        time.sleep(0.1)


def test_a_worker_keeps_nothing_of_the_states_of_its_ticks() -> None:
    """A worker is sent each room state anew (unpickled: a new object every tick), so what
    the identity-keyed caches (parsed states, legal actions, deadlines) remembered of it can
    never be found again. Before issue 34 they kept every tick's states up to the server's
    bounds (4,096 / 1,024 / 4,096 entries): the worker grew ~9 MB per 1,000 decisions to
    ~70 MB more (benchmarks/bench_bot_memory.py). Now nothing stays after a tick."""
    from server.flow import bot_worker
    from server.flow.entropy import new_game_id
    from server.room import game_room, rooms

    rs = game.rulesets()[0]
    opts = validate_options(rs, {"length": "hands", "hands": 1, "hand_pause_ms": 0})
    state = rooms.new_room("r_1", "ABCDEF", "p_a", "A", rs, opts, 0).state
    for seat in range(4):
        state = rooms.add_bot(state, "p_a", seat).state
    # a fixed deal, whose hand the bots play in 29 ticks (with the operating system's
    # randomness, as before, about one deal in thirty ended in fewer than 20: a bot won early)
    walls = random.Random(0)
    seeds = game_room.Seeds(lambda: f"{walls.getrandbits(256):064x}", new_game_id)
    state = game_room.start(state, "p_a", 0, seeds).state
    bot_pool.configure_bots(1)
    try:
        ticks = 0
        now = 0
        while state["status"] == "playing" and ticks < 60:
            now += 1000
            fut = bot_pool.in_bot_process(
                bot_worker.tick, state, now, commands.Timing(1000, 0), ticks, 10.0
            )
            assert fut is not None
            change = bot_worker.result(fut.result(60))
            if change is not None:
                state = change.state
                ticks += 1
        assert ticks >= 20, "the bots played"
        probe = bot_pool.in_bot_process(bot_worker.remembered)
        assert probe is not None
        assert probe.result(30) == {"parsed": 0, "legal": 0, "deadlines": 0}
    finally:
        bot_pool.configure_bots(0)
        bot_pool.stop_bots()


def test_a_pool_is_replaced_after_its_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """After ``TASKS_PER_WORKER`` tasks per process the pool is retired (its queued tasks
    still run) and a new process takes the next ones: a worker's memory starts again from
    its rule sets (docs/memory.md). Every task submitted is run."""
    monkeypatch.setattr(bot_pool, "TASKS_PER_WORKER", 4)
    bot_pool.configure_bots(1)
    try:
        before = bot_pool.BOT_STATS["recycled"]
        futs = []
        for _ in range(10):
            fut = bot_pool.in_bot_process(os.getpid)
            assert fut is not None
            futs.append(fut)
        pids = [f.result(60) for f in futs]
        assert bot_pool.BOT_STATS["recycled"] - before == 2
        assert len(set(pids[:4])) == 1 and len(set(pids[4:8])) == 1 and len(set(pids[8:])) == 1
        assert len(set(pids)) == 3 and os.getpid() not in pids
        deadline = time.monotonic() + 15
        for old in (pids[0], pids[4]):  # the retired pools' processes end
            while psutil.pid_exists(old) and psutil.Process(old).status() != "zombie":
                assert time.monotonic() < deadline, "a retired worker lived on"
                time.sleep(0.1)
    finally:
        bot_pool.configure_bots(0)
        bot_pool.stop_bots()
