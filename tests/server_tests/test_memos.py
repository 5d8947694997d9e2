"""What a server remembers of its rooms' states (``server/room/memos.py``) follows the number of
rooms, not the traffic: a few busy all-bot rooms played through many commits keep at most
two states per room in each memo (before issue 34 the memos were global LRUs of 4,096 /
1,024 / 4,096 states, which a few busy rooms filled with their old states: whole ones,
when a bot worker process sent them back)."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from server.flow import bot_pool
from server.room import game, memos
from server.storage.store import k_state

from .conftest import running_server
from .helpers import setup_table, start_all_bots

ROOMS = 3
OPTS = {
    "turn_seconds": 0,
    "claim_seconds": 0,
    "hand_pause_ms": 0,
    "bot_delay_ms": 0,
    "length": "hands",
    "hands": 4,
}


def test_a_memo_keeps_a_rooms_latest_states_only() -> None:
    memo: memos.StateMemo[int] = memos.StateMemo(per_room=2, rooms=2, loose=3)
    states = [{"n": i} for i in range(6)]
    for i, s in enumerate(states):
        memo.put("a", s, i)
    assert memo.states_by_room() == {"a": 2}
    assert memo.get("a", states[5]) == 5 and memo.get("a", states[4]) == 4
    assert memo.get("a", states[3]) is None
    assert memo.get("b", states[5]) is None  # (another room's: not found)
    assert memo.get("a", {"n": 5}) is None  # (an equal dict, not the same one)
    memo.put("b", states[0], 0)
    memo.put("c", states[1], 1)  # a third room: the least recently used one goes
    assert memo.states_by_room() == {"b": 1, "c": 1}
    for i, s in enumerate(states):
        memo.put(None, s, i)
    assert memo.states_by_room() == {"b": 1, "c": 1, None: 3}
    assert memo.setdefault("c", states[1], lambda: 9) == 1
    assert memo.setdefault("c", states[2], lambda: 9) == 9
    memo.clear()
    assert len(memo) == 0


@pytest.mark.parametrize("processes", [1, 0])
async def test_busy_rooms_keep_at_most_two_states_each(redis_url: str, processes: int) -> None:
    """Three all-bot rooms played flat out (the bots' ticks in a worker process, or in the
    server's threads): through every commit each memo holds at most two states of each room
    and none outside a room."""
    memos.forget_all()
    r = aioredis.Redis.from_url(redis_url)
    seen: dict[str, int] = {}
    try:
        async with running_server(redis_url, bot_processes=processes) as srv:
            rooms = []
            hosts = []
            for i in range(ROOMS):
                (host,), room = await setup_table(
                    srv.port, 1, game.rulesets()[i % 3], OPTS, label=f"m{i}p"
                )
                await start_all_bots(host, room)
                rooms.append(room)
                hosts.append(host)
            versions = dict.fromkeys(rooms, 0)
            for _ in range(6000):
                for name, memo in (
                    ("parsed", memos.PARSED),
                    ("legal", memos.LEGAL),
                    ("deadlines", memos.DEADLINES),
                ):
                    by_room = memo.states_by_room()
                    assert None not in by_room, f"{name}: states remembered outside a room"
                    assert max(by_room.values(), default=0) <= 2, (name, by_room)
                    seen[name] = max(seen.get(name, 0), len(by_room))
                for room in rooms:
                    versions[room] = int(await r.hget(k_state(room), "version") or 0)
                if min(versions.values()) >= 100:
                    break
                await asyncio.sleep(0.01)
            assert min(versions.values()) >= 100, versions  # many commits in every room
            for host in hosts:
                await host.close()
    finally:
        bot_pool.configure_bots(0)
        bot_pool.stop_bots()
        await r.aclose()
    assert seen == {"parsed": ROOMS, "legal": ROOMS, "deadlines": ROOMS}
