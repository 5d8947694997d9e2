"""The log is the authority: a commit writes the room's whole state every ``snapshot_every``
versions and at hand boundaries and a patch in between; a process rebuilds the state from the
snapshot and the patches. Rooms written by commit d1dd70d's format (``state`` at ``version``)
load, and while a process of that format is live the new processes write it."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import msgpack
import redis.asyncio as aioredis
from hypothesis import given, settings
from hypothesis import strategies as st

from server.flow.entropy import new_game_id
from server.room import game, game_room, rooms, stored
from server.room.game_room import Seeds
from server.room.options import validate_options
from server.storage import patches
from server.storage.store import PROCS, Store, k_log, k_seq, k_state, k_tail, pack, unpack

from .conftest import running_server
from .helpers import setup_table, until

OLD_COMMIT_LUA = (Path(__file__).parent / "data" / "commit_d1dd70d.lua").read_text()
RS = game.rulesets()[0]


def roundtrip(value: Any) -> Any:
    return unpack(pack(value))


# ------------------------------------------------------------------------------ patches

scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=3))
values = st.recursive(
    scalars,
    lambda kids: st.one_of(
        st.lists(kids, max_size=4), st.dictionaries(st.sampled_from("abcde"), kids, max_size=4)
    ),
    max_leaves=20,
)
states = st.dictionaries(st.sampled_from("abcdefg"), values, max_size=6)


@settings(max_examples=400, deadline=None)
@given(st.lists(states, min_size=2, max_size=5))
def test_a_chain_of_patches_rebuilds_every_state(chain: list[dict[str, Any]]) -> None:
    base = roundtrip(chain[0])
    stored = [roundtrip(patches.diff(a, b)) for a, b in itertools.pairwise(chain)]
    before = roundtrip(chain[0])
    assert patches.replay(base, stored) == roundtrip(chain[-1])
    assert base == before, "replay changed the snapshot it was given"


def played_states(n: int, seed: int = 1) -> list[dict[str, Any]]:
    """``n`` successive room states of a game of four bots, one action per state."""
    s = rooms.new_room(
        "r_1", "ABCDEF", "p_a", "A", RS, validate_options(RS, {"bot_delay_ms": 1}), 0
    ).state
    for seat in range(4):
        s = rooms.add_bot(s, "p_a", seat).state
    s = game_room.start(s, "p_a", 0, Seeds(lambda: "ab" * 32, new_game_id)).state
    rng, now, out = random.Random(seed), 0, [s]
    while len(out) < n and s["status"] == "playing":
        now += 2000
        change = game_room.tick(s, now, 0, 1, rng)
        if change is not None:
            s = change.state
            out.append(s)
    return out


def test_patches_of_a_played_hand_rebuild_it_and_are_small() -> None:
    states_ = played_states(120)
    base = roundtrip(states_[0])
    stored = [pack(patches.diff(a, b)) for a, b in itertools.pairwise(states_)]
    for i in range(1, len(states_)):
        assert patches.replay(base, [unpack(p) for p in stored[:i]]) == roundtrip(states_[i]), i
    whole = sum(len(pack(s)) for s in states_[1:]) / len(stored)
    assert sum(len(p) for p in stored) / len(stored) < whole / 4


# ------------------------------------------------------------------------------ the store


async def old_commit(r: Any, room: str, expected: int, state: Any, entry: Any) -> Any:
    """A commit exactly as d1dd70d's commit.lua makes it (a process of before snapshots)."""
    keys = [k_state(room), k_log(room), k_seq(room)]
    args = [expected, msgpack.packb(state), msgpack.packb(entry), "", "", f"{{room:{room}}}:ch", ""]
    return await r.eval(OLD_COMMIT_LUA, len(keys), *keys, *args)


async def old_load(r: Any, room: str) -> tuple[int, Any] | None:
    """A load exactly as d1dd70d's Store.load makes it."""
    raw = await r.hmget(k_state(room), ["version", "state"])
    if raw[0] is None or raw[1] is None:
        return None
    return int(raw[0]), unpack(raw[1])


async def test_patches_between_snapshots_and_a_consistent_rebuild(redis_url: str) -> None:
    store = Store.from_url(redis_url)
    r = aioredis.Redis.from_url(redis_url)
    try:
        chain = played_states(12)
        res = await store.commit("r_s", 0, chain[0], {"kind": "create"})
        assert res.status == "ok" and res.snapshot
        for v, (a, b) in enumerate(itertools.pairwise(chain), start=1):
            res = await store.commit("r_s", v, b, {"kind": "x"}, patch=patches.diff(a, b))
            assert (res.status, res.version, res.snapshot) == ("ok", v + 1, False)
            loaded = await store.load_room("r_s")
            assert loaded == (v + 1, roundtrip(b), 1)
        assert await r.llen(k_tail("r_s")) == len(chain) - 1
        assert await r.hget(k_state("r_s"), "state") is None
        # a process of before snapshots finds no state: it refuses the room, and its commit
        # (it cannot have the current version) conflicts without writing anything
        assert await old_load(r, "r_s") is None
        assert (await old_commit(r, "r_s", 3, chain[0], {"kind": "old"}))[0] == b"conflict"
        # a snapshot empties the tail; a patch that does not follow the snapshot is refused
        n = len(chain)
        res = await store.commit("r_s", n, chain[0], {"kind": "x"})
        assert res.snapshot and await r.llen(k_tail("r_s")) == 0
        assert await store.load_room("r_s") == (n + 1, roundtrip(chain[0]), n + 1)
        # the log and the client seqs are as before: one entry per version
        assert [v for v, _ in await store.read_log("r_s", 1)] == list(range(1, n + 2))
    finally:
        await r.aclose()
        await store.close()


async def test_a_room_written_by_d1dd70d_loads_and_moves_on_to_snapshots(redis_url: str) -> None:
    store = Store.from_url(redis_url)
    r = aioredis.Redis.from_url(redis_url)
    try:
        chain = played_states(6)
        for v, s in enumerate(chain[:3]):
            assert (await old_commit(r, "r_old", v, s, {"kind": "old"}))[0] == b"ok"
        assert await store.load_room("r_old") == (3, roundtrip(chain[2]), None)
        # a patch over the old format is refused by the script, and the store writes the
        # whole state instead (a snapshot), in one call
        res = await store.commit(
            "r_old", 3, chain[3], {"kind": "x"}, patch=patches.diff(chain[2], chain[3])
        )
        assert (res.status, res.version, res.snapshot) == ("ok", 4, True)
        res = await store.commit(
            "r_old", 4, chain[4], {"kind": "x"}, patch=patches.diff(chain[3], chain[4])
        )
        assert (res.status, res.snapshot) == ("ok", False)
        assert await store.load_room("r_old") == (5, roundtrip(chain[4]), 4)
        assert [v for v, _ in await store.read_log("r_old", 1)] == [1, 2, 3, 4, 5]
    finally:
        await r.aclose()
        await store.close()


async def test_while_an_old_process_is_live_commits_write_its_format(redis_url: str) -> None:
    """A rolling upgrade: a process of d1dd70d (in ``mj:procs``, not in ``mj:procs:snap``)
    is live, so the new process writes ``state`` at ``version`` on every commit, which the
    old process reads and commits on; once it is gone, patches again."""
    store = Store.from_url(redis_url)
    r = aioredis.Redis.from_url(redis_url)
    try:
        await r.zadd(PROCS, {"old-proc": 2**50})
        await store.register_process("new-proc", 10_000)
        assert store.peers.old_snap
        chain = played_states(8)
        await store.commit("r_mix", 0, chain[0], {"kind": "create"})
        res = await store.commit(
            "r_mix", 1, chain[1], {"kind": "x"}, patch=patches.diff(chain[0], chain[1])
        )
        assert res.snapshot, "the whole state, in the old format"
        # (in the form of before ``pending`` too: a process of d1dd70d is also one of
        # 0.9.3 or earlier, server/room/stored.py)
        assert await old_load(r, "r_mix") == (2, roundtrip(stored.older(chain[1])))
        old = stored.older(chain[2])
        assert (await old_commit(r, "r_mix", 2, old, {"kind": "old"}))[0] == b"ok"
        assert await store.load_room("r_mix") == (3, roundtrip(chain[2]), None)
        # the old process stops: back to snapshots and patches
        await r.zrem(PROCS, "old-proc")
        assert not await store.check_peers()
        res = await store.commit(
            "r_mix", 3, chain[3], {"kind": "x"}, patch=patches.diff(chain[2], chain[3])
        )
        assert res.snapshot, "no snapshot yet: the first commit writes one"
        assert await old_load(r, "r_mix") is None
        res = await store.commit(
            "r_mix", 4, chain[4], {"kind": "x"}, patch=patches.diff(chain[3], chain[4])
        )
        assert not res.snapshot
        assert await store.load_room("r_mix") == (5, roundtrip(chain[4]), 4)
    finally:
        await r.aclose()
        await store.close()


async def test_snapshot_every_1_writes_the_old_format(redis_url: str) -> None:
    """``--snapshot-every 1`` (before a rollback): every commit is d1dd70d's format."""
    r = aioredis.Redis.from_url(redis_url)
    try:
        async with running_server(redis_url, snapshot_every=1) as srv:
            clients, room = await setup_table(srv.port, 1, RS, {})
            version = int(await r.hget(k_state(room), "version") or 0)
            assert version > 3
            loaded = await old_load(r, room)
            assert loaded is not None and loaded[0] == version
            assert loaded[1]["seats"][0]["player"] is not None
            assert await r.hget(k_state(room), "snap") is None
            assert await r.exists(k_tail(room)) == 0
            for c in clients:
                await c.close()
    finally:
        await r.aclose()


async def test_a_server_writes_snapshots_every_n_and_a_fresh_process_rebuilds(
    redis_url: str,
) -> None:
    """Four bots play on a server with snapshot_every 4: the tail never holds more than
    three patches, and the state rebuilt from Redis is the one the server holds."""
    r = aioredis.Redis.from_url(redis_url)
    fresh = Store.from_url(redis_url)
    try:
        opts = {"turn_seconds": 0, "claim_seconds": 0, "hand_pause_ms": 0, "bot_delay_ms": 5}
        async with running_server(redis_url, snapshot_every=4) as srv:
            clients, room = await setup_table(srv.port, 1, RS, opts)
            host = clients[0]
            r0 = await host.request({"type": "stand", "room": room})
            assert r0["type"] == "ack", r0
            r0 = await host.request({"type": "add_bot", "room": room, "seat": 0})
            assert r0["type"] == "ack", r0
            r0 = await host.request({"type": "start_game", "room": room})
            assert r0["type"] == "ack", r0
            tails: list[int] = []

            async def played() -> bool:
                tails.append(int(await r.llen(k_tail(room))))
                return int(await r.hget(k_state(room), "version") or 0) > 40

            await until(played, "40 versions played", tries=1500)
            assert 0 < max(tails) <= 3, "patches between snapshots, at most three"
            loaded = await fresh.load_room(room)
            assert loaded is not None
            version, state, sv = loaded
            assert sv is not None and version - sv <= 3
            assert state["status"] == "playing" and state["game"]["seq"] > 0
            for c in clients:
                await c.close()
    finally:
        await fresh.close()
        await r.aclose()
