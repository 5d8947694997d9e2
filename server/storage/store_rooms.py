"""The rooms' registry in the store: room codes, the open and public room sets, a closed room's expiry, and the scans and cursor of retention's sweeper.

Key names and the shared round trips are in :mod:`server.storage.store_base`; :class:`server.storage.store.Store`
adds the rooms' states, their log and their timers.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from server.storage.store_base import (
    PUBLIC,
    ROOMS,
    SWEEP_CURSOR,
    SWEEP_LOCK,
    TIMERS,
    StoreBase,
    expire_room_keys,
    k_log,
    k_state,
    unpack,
)


class RoomRegistry(StoreBase):
    """Which rooms exist, by code and by listing, and how a closed room goes."""

    async def reserve_code(self, code: str, room: str) -> bool:
        return bool(await self._cmd("SET", f"mj:code:{code}", room, "NX"))

    async def room_by_code(self, code: str) -> str | None:
        v = await self._cmd("GET", f"mj:code:{code}")
        return v.decode() if v is not None else None

    async def register_room(self, room: str, public: bool) -> None:
        await self._cmd("SADD", ROOMS, room)
        if public:
            await self._cmd("SADD", PUBLIC, room)

    async def close_room(self, room: str, code: str, ttl_seconds: float = 0.0) -> None:
        """Retire a closed room: its keys expire after ``ttl_seconds`` (0: kept forever), its
        code is freed, it leaves the open/public sets and the timers index (players' room
        indexes drop it when read after it expires, see :meth:`player_rooms`).

        Idempotent, and ``mj:rooms`` is left last: a process dying half-way leaves the room
        in ``mj:rooms`` with status ``closed``, and the retention sweeper runs this again.

        One pipeline (one pooled connection, one round trip; the commands run in this
        order): when a load test's 8,000 seats left at once, four round trips per room, each
        taking its own connection from the pool of 32, left requests waiting past the pool's
        10 s and failing with ``unavailable``.
        """
        async with self.r.pipeline(transaction=False) as p:
            if ttl_seconds > 0:
                expire_room_keys(p, room, ttl_seconds)
            p.delete(f"mj:code:{code}")
            p.zrem(TIMERS, room)
            p.srem(PUBLIC, room)
            p.srem(ROOMS, room)
            await p.execute()

    async def expire_room(self, room: str, ttl_seconds: float) -> None:
        """Let the room's own keys (state, log, client seqs; one slot) expire."""
        async with self.r.pipeline(transaction=False) as p:
            expire_room_keys(p, room, ttl_seconds)
            await p.execute()

    async def room_ttl_ms(self, room: str) -> int:
        """PTTL of the room's state: -1 no expiry, -2 gone."""
        return int(await self.r.pttl(k_state(room)))

    async def forget_room(self, room: str) -> None:
        """Drop a room whose state is gone (expired) from the global sets and index."""
        await self.r.zrem(TIMERS, room)
        await self.r.srem(PUBLIC, room)
        await self.r.srem(ROOMS, room)

    async def last_change_ms(self, room: str) -> tuple[int, int] | None:
        """(version, server time in ms) of the room's latest log entry, None without one."""
        rows = await self.r.xrevrange(k_log(room), max="+", min="-", count=1)
        if not rows:
            return None
        entry_id, fields = rows[0]
        return int(entry_id.split(b"-")[0]), int(unpack(fields[b"d"]).get("t", 0))

    async def scan_open_rooms(self, cursor: int, count: int) -> tuple[int, list[str]]:
        """One SSCAN step over ``mj:rooms`` (cursor 0 starts and ends a full pass)."""
        nxt, rows = await self.r.sscan(ROOMS, cursor=cursor, count=count)
        return int(nxt), sorted({m.decode() for m in rows})

    async def sweep_turn(self, owner: str, period_ms: int) -> int | None:
        """Take the fleet-wide retention sweep for one period (SET NX PX: one process sweeps
        per period) and return the shared SSCAN cursor; None when another process has it."""
        if not await self.r.set(SWEEP_LOCK, owner, nx=True, px=max(1, period_ms)):
            return None
        raw = await self.r.get(SWEEP_CURSOR)
        return int(raw) if raw else 0

    async def set_sweep_cursor(self, cursor: int) -> None:
        await self.r.set(SWEEP_CURSOR, cursor)

    async def scan_room_states(self) -> AsyncIterator[str]:
        """Every room with a state key (SCAN, incremental; a cluster client scans each
        master): used once per start to put an expiry on rooms closed before retention
        existed."""
        async for key in self.r.scan_iter(match="{room:*}:state", count=200, _type="hash"):
            k = key.decode() if isinstance(key, bytes) else str(key)
            if k.startswith("{room:") and k.endswith("}:state"):
                yield k[len("{room:") : -len("}:state")]

    async def open_rooms(self) -> list[str]:
        return sorted(m.decode() for m in await self.r.smembers(ROOMS))

    async def public_rooms(self) -> list[str]:
        return sorted(m.decode() for m in await self.r.smembers(PUBLIC))

    async def count_rooms(self) -> int:
        return int(await self.r.scard(ROOMS))
