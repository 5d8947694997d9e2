"""Rooms stored in an earlier form load in the current one (server/room/stored.py), whether kept
whole (the format of before snapshots) or as a snapshot with patches; the room logic never
sees the older form. While a process that reads only the form of before is live (a rolling
upgrade), rooms are written in that form, and read back unchanged."""

from __future__ import annotations

import copy
from typing import Any

import redis.asyncio as aioredis
from hypothesis import given, settings
from hypothesis import strategies as st

from server.room import stored
from server.storage import peers
from server.storage.store import Store
from server.storage.store_base import k_state, pack, unpack
from server_tests.test_snapshots import played_states


def older(v: int) -> dict[str, object]:
    """A room's state as a version of before decision ids stored it."""
    return {"status": "playing", "n": v, "pending_seq": {"0": 40 + v}, "pending_ids": {}}


def test_each_step_is_idempotent_and_keeps_the_current_form() -> None:
    now = {
        "status": "playing",
        "n": 1,
        "pending": {"0": {"kind": "turn", "since": 5, "id": 7, "auto": False}},
    }
    assert stored.current(copy.deepcopy(now)) == now
    assert stored.current(older(1)) == {"status": "playing", "n": 1, "pending": {}}
    assert stored.current(stored.current(older(1))) == stored.current(older(1))


def five_maps() -> dict[str, Any]:
    """A state of 0.9.3 in a claim window: seat 1 asked, seat 2 passed for by the server,
    seat 3 answered by its player's own setting (a win)."""
    win = {"type": "win", "seat": 3, "seq": 41}
    return {
        "status": "playing",
        "pending_kinds": {"1": "claim", "2": "claim", "3": "claim"},
        "pending_since": {"1": 1000, "2": 1000, "3": 1000},
        "pending_ids": {"1": 41, "2": 41, "3": 41},
        "pending_auto": ["2"],
        "pending_act": {"3": win},
    }


def test_the_five_maps_of_0_9_3_load_as_one_pending_per_seat() -> None:
    s = stored.current(five_maps())
    assert s == {
        "status": "playing",
        "pending": {
            "1": {"kind": "claim", "since": 1000, "id": 41, "auto": False},
            "2": {"kind": "claim", "since": 1000, "id": 41, "auto": True},
            "3": {
                "kind": "claim",
                "since": 1000,
                "id": 41,
                "auto": False,
                "act": {"type": "win", "seat": 3, "seq": 41},
            },
        },
    }
    assert stored.older(s) == {**five_maps(), "pending_auto": ["2"]}
    # a lobby of 0.9.3 (only the two maps every room had) has no open decision
    assert stored.current({"pending_since": {}, "pending_ids": {}}) == {"pending": {}}


pendings = st.dictionaries(
    st.sampled_from(["0", "1", "2", "3"]),
    st.fixed_dictionaries(
        {
            "kind": st.sampled_from(["turn", "claim"]),
            "since": st.integers(0, 2**45),
            "id": st.integers(0, 10_000),
            "auto": st.booleans(),
        },
        optional={"act": st.fixed_dictionaries({"type": st.sampled_from(["win", "discard"])})},
    ),
)


@settings(max_examples=200, deadline=None)
@given(pendings)
def test_the_form_written_for_0_9_3_reads_back_unchanged(pending: dict[str, Any]) -> None:
    s: Any = {"status": "playing", "pending": pending}
    back = stored.current(unpack(pack(stored.older(s))))
    assert back == s


def test_every_state_of_a_played_game_reads_back_unchanged_from_the_older_form() -> None:
    states = played_states(120)
    assert any(s["pending"] for s in states)
    for s in states:
        assert stored.current(unpack(pack(stored.older(s)))) == s


async def test_an_older_form_loads_in_the_current_one(redis_url: str) -> None:
    store = Store.from_url(redis_url)
    try:
        # kept whole, as before snapshots
        await store.r.hset(k_state("r_old1"), mapping={"version": 3, "state": pack(older(3))})
        assert await store.load("r_old1") == (3, {"status": "playing", "n": 3, "pending": {}})
        # a snapshot and the patches after it, each still holding the older field
        for v in range(4):
            await store.commit("r_old2", v, older(v), {"kind": "action", "n": v})
        loaded = await store.load_room("r_old2")
        assert loaded is not None and loaded[0] == 4
        assert loaded[1] == {"status": "playing", "n": 3, "pending": {}}
        # the five maps of 0.9.3, kept whole
        await store.r.hset(k_state("r_old3"), mapping={"version": 9, "state": pack(five_maps())})
        assert await store.load("r_old3") == (9, stored.current(five_maps()))
    finally:
        await store.close()


async def test_while_a_process_of_0_9_3_is_live_rooms_are_written_in_its_form(
    redis_url: str,
) -> None:
    """A rolling upgrade from 0.9.3: a live process that reads a room's open decisions only
    as the five maps (in ``mj:procs``, ``mj:procs:snap`` and ``mj:procs:held``, not in
    ``mj:procs:pending``). While it is live a commit writes the whole state in its form,
    which this version loads unchanged; once it is gone, commits write patches again."""
    r = aioredis.Redis.from_url(redis_url)
    for key in ("mj:procs", "mj:procs:snap", "mj:procs:held"):
        await r.zadd(key, {"proc-0.9.3": 2**50})
    store = Store.from_url(redis_url)
    try:
        await store.register_process("new", 60_000)
        assert store.peers.old_pending and not store.peers.old_snap and not store.peers.unheld
        states = played_states(6)
        await store.commit("r_roll", 0, states[0], {"kind": "create", "t": 0, "actor": None})
        for v, s in enumerate(states[1:], start=1):
            patch = {"pending": [0, s["pending"]]}
            await store.commit("r_roll", v, s, {"kind": "tick", "t": v, "actor": None}, patch=patch)
            raw = await r.hgetall(k_state("r_roll"))
            assert b"snap" not in raw and b"state" in raw, "written whole, not as a patch"
            written = unpack(raw[b"state"])
            assert "pending" not in written
            assert set(stored.FIVE) <= set(written), "the five maps the old process reads"
            assert await store.load("r_roll") == (v + 1, s)
        # the old process is gone: the current form again (in the snapshot format)
        await r.zrem("mj:procs", "proc-0.9.3")
        await store.check_peers()
        assert not store.peers.old_pending
        nxt = played_states(7)[-1]
        res = await store.commit(
            "r_roll", len(states), nxt, {"kind": "tick", "t": 9, "actor": None}, patch={}
        )
        assert res.status == "ok"
        raw = await r.hgetall(k_state("r_roll"))
        assert b"state" not in raw and "pending" in unpack(raw[b"snap"])
        assert await store.load("r_roll") == (len(states) + 1, nxt)
    finally:
        await store.unregister_process()
        await store.close()
        await r.aclose()


def test_peers_are_the_live_processes_missing_from_a_mark() -> None:
    """Table-driven: which older versions are live, from ``mj:procs`` and the marks' sets
    (server/storage/peers.py); this process itself never counts."""
    me, new, snap_only, before_all = b"me", b"new", b"093", b"old"
    cases = [
        # live, (snap, held, pending), expected (old_snap, unheld, old_pending)
        ({me, new}, ({me, new}, {me, new}, {me, new}), (False, False, False)),
        ({me, new, snap_only}, ({me, new, snap_only},) * 2 + ({me, new},), (False, False, True)),
        ({me, before_all}, ({me},) * 3, (True, True, True)),
        ({me}, (set(), set(), set()), (False, False, False)),
        # a mark of a process no longer live does not count
        ({me}, ({me, before_all},) * 3, (False, False, False)),
    ]
    for live, marked, expected in cases:
        p = peers.peers_of(live, list(marked), me)
        assert (p.old_snap, p.unheld, p.old_pending) == expected, (live, marked)
