"""Rooms stored in an earlier form load in the current one (server/room/stored.py), whether kept
whole (the format of before snapshots) or as a snapshot with patches; the room logic never
sees the older form."""

from __future__ import annotations

from server.room import stored
from server.storage.store import Store
from server.storage.store_base import k_state, pack


def older(v: int) -> dict[str, object]:
    """A room's state as a version of before decision ids stored it."""
    return {"status": "playing", "n": v, "pending_seq": {"0": 40 + v}, "pending_ids": {}}


def test_each_step_is_idempotent_and_keeps_the_current_form() -> None:
    now = {"status": "playing", "n": 1, "pending_ids": {"0": 7}}
    assert stored.current(dict(now)) == now
    assert stored.current(older(1)) == {"status": "playing", "n": 1, "pending_ids": {}}
    assert stored.current(stored.current(older(1))) == stored.current(older(1))


async def test_an_older_form_loads_in_the_current_one(redis_url: str) -> None:
    store = Store.from_url(redis_url)
    try:
        # kept whole, as before snapshots
        await store.r.hset(k_state("r_old1"), mapping={"version": 3, "state": pack(older(3))})
        assert await store.load("r_old1") == (3, {"status": "playing", "n": 3, "pending_ids": {}})
        # a snapshot and the patches after it, each still holding the older field
        for v in range(4):
            await store.commit("r_old2", v, older(v), {"kind": "action", "n": v})
        loaded = await store.load_room("r_old2")
        assert loaded is not None and loaded[0] == 4
        assert loaded[1] == {"status": "playing", "n": 3, "pending_ids": {}}
    finally:
        await store.close()
