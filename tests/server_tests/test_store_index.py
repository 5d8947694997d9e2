"""Store's global indexes against a real Redis: the timers index re-read from the rooms'
stored deadlines, and the leavers of a graceful stop each claimed by exactly one caller."""

from __future__ import annotations

import asyncio

from server.storage.store import LEAVERS, TIMERS, Store
from server.storage.store_base import unpack


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


async def test_a_commit_without_a_deadline_leaves_the_timers_index(redis_url: str) -> None:
    """The commit script keeps the index equal to the stored deadline: a commit with none
    (a seat thinking without a clock) removes the room, so no stale entry fires for nothing."""
    store = Store.from_url(redis_url)
    try:
        await store.commit("r_t", 0, {"status": "playing"}, {"kind": "create"}, deadline=500)
        assert await store.r.zscore(TIMERS, "r_t") == 500.0
        await store.commit("r_t", 1, {"status": "playing"}, {"kind": "action"}, deadline=700)
        assert await store.r.zscore(TIMERS, "r_t") == 700.0
        await store.commit("r_t", 2, {"status": "playing"}, {"kind": "action"})
        assert await store.r.zscore(TIMERS, "r_t") is None
        assert await store.due_rooms(10_000) == []
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


async def _resume_fixture(store: Store, name: str) -> tuple[str, str]:
    """A player in two rooms (one of them since expired) who left in a graceful stop."""
    pid, token = await store.new_player(name)
    await store.commit(f"r_live_{name}", 0, {"status": "playing"}, {"kind": "create"})
    for room in (f"r_live_{name}", f"r_gone_{name}", f"r_also_{name}"):
        await store.add_player_room(pid, room)
    await store.commit(f"r_also_{name}", 0, {"status": "lobby"}, {"kind": "create"})
    await store.add_leavers([pid], 100)
    return pid, token


async def test_resume_player_in_one_script_equals_the_multi_step_path(redis_url: str) -> None:
    """On a single Redis a resume is one script (server/storage/resume.lua); Redis Cluster keeps the
    multi-step path (a store without the pipelined connection takes it too): both give the
    same answer and leave Redis the same way."""
    import redis.asyncio as aioredis

    one = Store.from_url(redis_url)
    steps = Store(aioredis.Redis.from_url(redis_url))  # no pipelined connection
    assert one.commits is not None and steps.commits is None
    try:
        for store, name in ((one, "a"), (steps, "b")):
            pid, token = await _resume_fixture(store, name)
            got = await store.resume_player(token)
            assert got == (pid, name, sorted([f"r_also_{name}", f"r_live_{name}"]))
            # the expired room left the player's index (the stored set, read again); the
            # player is no longer a leaver
            stored = sorted(m.decode() for m in await store.r.smembers(f"mj:player:{pid}:rooms"))
            assert stored == got[2]
            assert await store.r.zscore(LEAVERS, pid) is None
            assert await store.resume_player("not-a-token") is None
    finally:
        await one.close()
        await steps.close()


async def test_commits_notify_only_when_another_live_process_exists(redis_url: str) -> None:
    """commit.lua publishes a commit's notification only if a live process other than the
    committer is registered in mj:procs (a store that never registered always publishes)."""
    import redis.asyncio as aioredis

    from server.storage.store import CHANNEL_PATTERN, PROCS

    sub = aioredis.Redis.from_url(redis_url)
    ps = sub.pubsub()
    await ps.psubscribe(CHANNEL_PATTERN)
    a = Store.from_url(redis_url)
    b = Store.from_url(redis_url)
    version = 0

    async def notified() -> bool:
        """Commit once in room r_n from store a; whether a notification of it came."""
        nonlocal version
        res = await a.commit("r_n", version, {"status": "lobby"}, {"kind": "x"})
        assert res.status == "ok"
        version = res.version
        # the notification, if any, was published before the commit's reply: a PING through
        # the subscription comes back after it
        await ps.ping(b"fence")
        got = False
        while True:
            msg = await ps.get_message(timeout=5)
            assert msg is not None, "the fence never came back"
            if msg["type"] == "pmessage" and msg["data"] == str(version).encode():
                got = True
            if msg["type"] == "pong":
                return got

    try:
        assert await notified()  # a has not registered: it always publishes
        await a.register_process("proc-a", 30_000)
        assert not await notified()  # alone
        await b.register_process("proc-b", 30_000)
        assert await notified()  # b is live and wants to hear about it
        await b.register_process("proc-b", -1)  # b's time has run out (crashed, stalled)
        assert not await notified()
        await b.register_process("proc-b", 30_000)
        await a.r.zrem(PROCS, "proc-a")  # a itself no longer counted: b still is
        assert await notified()
        await b.unregister_process()
        assert not await notified()
        assert await a.r.zrange(PROCS, 0, -1) == []
    finally:
        await ps.aclose()
        await sub.aclose()
        await a.close()
        await b.close()


async def test_versions_in_one_script_equal_the_pipeline(redis_url: str) -> None:
    """Store.versions: one script per batch on a single Redis, redis-py's pipeline without
    the pipelined connection (as on a cluster): the same answer, across batch boundaries."""
    import redis.asyncio as aioredis

    from server.storage import store as store_module

    one = Store.from_url(redis_url)
    steps = Store(aioredis.Redis.from_url(redis_url))
    try:
        rooms = [f"r_v{i}" for i in range(store_module.BATCH + 7)]
        for i, room in enumerate(rooms):
            if i % 3:  # every third room does not exist: version 0
                for v in range(i % 4):
                    await one.commit(room, v, {"status": "lobby"}, {"kind": "x"})
        expected = [(i % 4) if i % 3 else 0 for i in range(len(rooms))]
        assert await one.versions(rooms) == expected
        assert await steps.versions(rooms) == expected
        assert await one.versions([]) == []
    finally:
        await one.close()
        await steps.close()


async def test_players_expire_unless_seen_again(redis_url: str) -> None:
    """--player-ttl: a new player's token, name and room index live that long; every resume
    (one script, or the multi-step path of a store without the pipelined connection) renews
    all three; 0 keeps them forever."""
    import redis.asyncio as aioredis

    from server.storage.store import token_hash

    one = Store.from_url(redis_url)
    steps = Store(aioredis.Redis.from_url(redis_url))
    try:
        await one.commit("r_x", 0, {"status": "lobby"}, {"kind": "create"})  # a room that exists
        for store in (one, steps):
            store.player_ttl = 1000
            pid, token = await store.new_player("t")
            await store.add_player_room(pid, "r_x")
            keys = [f"mj:tok:{token_hash(token)}", f"mj:player:{pid}", f"mj:player:{pid}:rooms"]
            for key in keys:
                assert 990 <= await store.r.ttl(key) <= 1000, key
                await store.r.expire(key, 5)  # time passes
            assert await store.resume_player(token) is not None
            for key in keys:
                assert 990 <= await store.r.ttl(key) <= 1000, key  # seen again: renewed
        one.player_ttl = 0
        pid, token = await one.new_player("forever")
        await one.add_player_room(pid, "r_y")
        for key in (f"mj:tok:{token_hash(token)}", f"mj:player:{pid}", f"mj:player:{pid}:rooms"):
            assert await one.r.ttl(key) == -1, key  # no expiry
        assert await one.resume_player(token) is not None
        assert await one.r.ttl(f"mj:player:{pid}") == -1
    finally:
        await one.close()
        await steps.close()


async def test_reads_on_the_pipelined_connection_equal_redis_py_reads(redis_url):
    """``load`` and ``read_log`` answer the same through the pipelined connection (raw RESP
    replies parsed here) as through redis-py's pool (a store without that connection)."""
    import redis.asyncio as aioredis

    piped = Store.from_url(redis_url)
    pooled = Store(aioredis.Redis.from_url(redis_url))
    assert piped.commits is not None and pooled.commits is None
    try:
        for v in range(6):
            state = {"status": "playing", "n": v, "blob": b"\x00\xff" * v, "list": [v, "x"]}
            await piped.commit("r_reads", v, state, {"kind": "action", "n": v, "e": [{"k": v}]})
        for store in (piped, pooled):
            assert await store.load("r_reads") == (6, state)
            assert await store.load("r_none") is None
        for args in [(1,), (3,), (2, 4), (1, None, 2), (7,)]:
            assert await piped.read_log("r_reads", *args) == await pooled.read_log("r_reads", *args)
        assert [v for v, _ in await piped.read_log("r_reads", 2, 4)] == [2, 3, 4]
        # packed: the same entries as stored, not unpacked (the archive's reads)
        whole = await piped.read_log("r_reads", 1)
        for store in (piped, pooled):
            packed = await store.read_log_packed("r_reads", 1)
            assert [(v, unpack(d)) for v, d in packed] == whole
            assert await store.read_log_packed("r_reads", 2, 4) == packed[1:4]
    finally:
        await piped.close()
        await pooled.close()
