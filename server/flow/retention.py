"""Retention: what keeps Redis from growing forever (docs/server.md, "Retention").

* A room that closes (its last member left, or the sweeper below closed it) gets an expiry
  on its own keys (state, event log, client seqs) of ``--closed-room-ttl`` seconds in
  :meth:`Store.close_room`, called by ``Commits.after_commit``; its code, its place in the open /
  public sets and the timers index go at once. ``0`` keeps closed rooms forever.
* The **sweeper** (one bounded pass every ``--retention-sweep-seconds``, by one process of the
  fleet at a time) walks ``mj:rooms`` with a shared SSCAN cursor, at most
  :data:`SWEEP_BATCH` rooms a pass, and

  - closes an *abandoned* room (``rooms.abandoned``: no seated human present, no spectator
    connected to a game) whose last change is older than ``--idle-room-seconds``, through
    the normal commit path (``notice room_closed``, every member leaves), so connected
    clients see it and the close expires like any other;
  - finishes closes a process died in the middle of (closed, still in ``mj:rooms``);
  - drops rooms whose state is gone from the sets.

* Once per process start, rooms closed before retention existed (closed, no expiry) get
  their expiry, a few at a time.
* A player's room index (``mj:player:<id>:rooms``) drops rooms whose keys have expired
  whenever it is read (:meth:`Store.player_rooms`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol

import redis.exceptions

from server.archive.queue import waits_for_archive
from server.process.clock import Clock
from server.process.config import Config
from server.process.metrics import Metrics
from server.room import commands, rooms
from server.room.rooms import RoomError
from server.room.state import RoomState
from server.storage.store import CommitResult, Store

log = logging.getLogger("mahjong.retention")

#: rooms looked at per sweep pass (bounded work: a few ms of Redis per pass)
SWEEP_BATCH = 100
#: legacy rooms (closed, no expiry) looked at per sweep pass
LEGACY_BATCH = 200


@dataclass
class SweepResult:
    looked_at: int = 0
    closed: int = 0  # abandoned rooms closed
    repaired: int = 0  # half-done closes finished
    forgotten: int = 0  # rooms whose state was gone, dropped from the sets
    legacy_expired: int = 0  # closed rooms without expiry that got one
    skipped: bool = False  # another process had this period's turn


class Host(Protocol):
    """What the sweeper needs of its server process (``server.app.App`` is one)."""

    @property
    def cfg(self) -> Config: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def store(self) -> Store: ...

    @property
    def metrics(self) -> Metrics: ...

    @property
    def server_id(self) -> str: ...

    @property
    def stopped(self) -> bool: ...

    @property
    def shutting_down(self) -> bool: ...

    async def apply(
        self, room: str, command: commands.Command
    ) -> tuple[CommitResult | None, RoomState | None]:
        """Commit ``command`` to ``room`` through the server's commit path."""
        ...

    def members_here(self, room: str) -> set[str]:
        """The players connected to ``room`` on this process."""
        ...


class Sweeper:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.legacy: AsyncIterator[str] | None = None  # room ids with a state, while walked
        self.legacy_done = False

    @property
    def idle_ms(self) -> int:
        return int(self.host.cfg.idle_room_seconds * 1000)

    async def run(self) -> None:
        """The sweeper's loop (one of the process's background tasks)."""
        period = self.host.cfg.retention_sweep_seconds
        while not self.host.stopped:
            await self.host.clock.sleep(period)
            if self.host.shutting_down or self.host.stopped:
                continue
            try:
                res = await self.sweep(self.host.clock.now_ms())
            except asyncio.CancelledError:
                raise
            except (redis.exceptions.RedisError, OSError):
                self.host.metrics.inc("redis_errors")
                log.warning("retention sweep: redis error; next pass retries", exc_info=True)
                continue
            except Exception:
                log.exception("retention sweep failed")
                continue
            if res.closed or res.repaired or res.forgotten or res.legacy_expired:
                log.info(
                    "retention sweep",
                    extra={
                        "closed": res.closed,
                        "repaired": res.repaired,
                        "forgotten": res.forgotten,
                        "legacy_expired": res.legacy_expired,
                    },
                )

    async def sweep(self, now: int, take_turn: bool = True) -> SweepResult:
        """One bounded pass at time ``now`` (ms). ``take_turn=False`` sweeps without taking
        the fleet-wide turn (tests, operators' one-off runs)."""
        store = self.host.store
        out = SweepResult()
        period_ms = int(self.host.cfg.retention_sweep_seconds * 1000)
        if take_turn:
            cursor = await store.sweep_turn(self.host.server_id, period_ms)
            if cursor is None:
                out.skipped = True
                return out
        else:
            cursor = 0
        cursor, batch = await store.scan_open_rooms(cursor, SWEEP_BATCH)
        if take_turn:
            await store.set_sweep_cursor(cursor)
        for room in batch:
            out.looked_at += 1
            await self.sweep_room(room, now, out)
        await self.sweep_legacy(out)
        return out

    async def sweep_room(self, room: str, now: int, out: SweepResult) -> None:
        store = self.host.store
        loaded = await store.load(room)
        if loaded is None:
            await store.forget_room(room)
            out.forgotten += 1
            return
        version, state = loaded
        if state["status"] == "closed":
            await store.close_room(room, state["code"], self.host.cfg.closed_room_ttl)
            out.repaired += 1
            return
        if self.idle_ms <= 0 or not rooms.abandoned(state) or self._present_here(room, state):
            return
        last = await store.last_change_ms(room)
        if last is None or last[0] != version or now - last[1] < self.idle_ms:
            return
        members = list(state["members"])

        try:
            # the room as this process is about to change it must be the one judged idle: a
            # change since (a player came back, a move) makes it differ and the close is off
            res, _ = await self.host.apply(room, commands.CloseIdle(state))
        except RoomError:
            return  # gone meanwhile
        if res is None or res.status != "ok":
            return
        out.closed += 1
        log.info("closed an abandoned room", extra={"room": room, "idle_since": last[1]})
        # the close itself expired the room (after_commit); its former members' room index
        for pid in members:
            await store.remove_player_room(pid, room)

    def _present_here(self, room: str, state: RoomState) -> bool:
        """Whether a member is connected to this process (the only presence a lobby has)."""
        return any(p in state["members"] for p in self.host.members_here(room))

    async def sweep_legacy(self, out: SweepResult) -> None:
        """Rooms closed before retention existed: no expiry, not in ``mj:rooms``. Walked once
        per process start, :data:`LEGACY_BATCH` keys per pass."""
        ttl = self.host.cfg.closed_room_ttl
        if self.legacy_done or ttl <= 0:
            return
        store = self.host.store
        if self.legacy is None:
            self.legacy = store.scan_room_states()
        it = self.legacy
        for _ in range(LEGACY_BATCH):
            try:
                room = await anext(it)
            except StopAsyncIteration:
                self.legacy = None
                self.legacy_done = True
                return
            if await store.room_ttl_ms(room) != -1 or await waits_for_archive(store, room):
                continue  # (a room waiting for the archive gets its expiry once archived)
            loaded = await store.load(room)
            if loaded is not None and loaded[1]["status"] == "closed":
                await store.expire_room(room, ttl)
                out.legacy_expired += 1
