"""Store's global indexes against a real Redis: the timers index re-read from the rooms'
stored deadlines, and the leavers of a graceful stop each claimed by exactly one caller."""

from __future__ import annotations

import asyncio

from server.store import LEAVERS, TIMERS, Store


async def test_reindex_timer_follows_the_stored_deadline(redis_url: str) -> None:
    store = Store.from_url(redis_url)
    try:
        await store.commit("r_due", 0, {"status": "playing"}, {"kind": "create"}, deadline=500)
        await store.commit("r_idle", 0, {"status": "lobby"}, {"kind": "create"})
        await store.r.zadd(TIMERS, {"r_idle": 1, "r_gone": 2})  # stale entries
        await store.r.zrem(TIMERS, "r_due")  # a lost timer write
        await store.reindex_timer("r_due")
        await store.reindex_timer("r_idle")
        await store.reindex_timer("r_gone")
        assert await store.r.zrange(TIMERS, 0, -1, withscores=True) == [(b"r_due", 500.0)]
        await store.r.zadd(TIMERS, {"r_idle": 1})
        await store.r.zrem(TIMERS, "r_due")
        await store.reindex_timers(["r_due", "r_idle", "r_gone"])
        assert await store.r.zrange(TIMERS, 0, -1, withscores=True) == [(b"r_due", 500.0)]
    finally:
        await store.close()


async def test_due_leavers_are_claimed_once(redis_url: str) -> None:
    store = Store.from_url(redis_url)
    other = Store.from_url(redis_url)
    try:
        assert await store.due_leavers(1_000) == []
        await store.add_leavers(["p_a", "p_b"], 100)
        await store.add_leavers(["p_c"], 5_000)
        assert sorted(await store.due_leavers(1_000)) == ["p_a", "p_b"]
        assert await store.due_leavers(1_000) == []  # already claimed
        assert await store.r.zrange(LEAVERS, 0, -1) == [b"p_c"]
        players = [f"p_{i}" for i in range(300)]
        await store.add_leavers(players, 200)
        # two callers at once (two processes' loops): every leaver goes to exactly one
        got: list[str] = []
        while True:
            a, b = await asyncio.gather(store.due_leavers(1_000), other.due_leavers(1_000))
            if not a and not b:
                break
            got += a + b
        assert sorted(got) == sorted(players)
        assert await store.r.zrange(LEAVERS, 0, -1) == [b"p_c"]
    finally:
        await store.close()
        await other.close()
