"""What the store keeps about players and server processes: tokens, names, room indexes, which process holds a player's connections, the live processes, what restarts taught them, and the leavers of a graceful stop.

Key names and the shared round trips are in :mod:`server.storage.store_base`; :class:`server.storage.store.Store`
adds the rooms.
"""

from __future__ import annotations

import secrets

from server.storage.peers import MARKS, PROCS, peers_of
from server.storage.store_base import (
    BATCH,
    LEAVERS,
    PLAYER_PREFIX,
    RESTART,
    RESUME_LUA,
    StoreBase,
    k_online,
    k_player,
    k_player_rooms,
    k_state,
    k_token,
)

_STATE_PREFIX, _STATE_SUFFIX = k_state("\0").split("\0")


class PlayerStore(StoreBase):
    """Players and processes (see the module docstring)."""

    async def register_process(self, proc_id: str, live_ms: int) -> None:
        """Record this process as live for ``live_ms`` from now (call again before that
        runs out) and forget processes whose time ran out a minute ago. From the first call
        on, this store's commits notify only when another live process exists (commit.lua):
        so call it only once this process's own subscription is listening.

        It is also marked in each of ``peers.MARKS`` (what this version reads), and finds
        out whether a live process is of an older version (:attr:`peers`; see
        :meth:`check_peers`)."""
        now = self.clock.now_ms()
        keys = (PROCS, *MARKS)
        async with self.r.pipeline(transaction=False) as p:
            for key in keys:
                p.zadd(key, {proc_id: now + live_ms})
                p.zremrangebyscore(key, "-inf", now - 60_000)
            for key in keys:
                p.zrangebyscore(key, now, "+inf")
            replies = await p.execute()
        live, *marked = replies[-len(keys) :]
        self.peers = peers_of(live, marked, proc_id.encode())
        self.proc_id = proc_id

    async def check_peers(self) -> bool:
        """Which older versions are live among the other processes (:attr:`peers`,
        server/storage/peers.py: while one is, the store writes what it reads); whether one
        reads only the format of before snapshots. Checked at start and with every
        :meth:`register_process`."""
        now = self.clock.now_ms()
        live, *marked = await self._cmds(
            *(("ZRANGEBYSCORE", key, now, "+inf") for key in (PROCS, *MARKS))
        )
        self.peers = peers_of(live, marked, (self.proc_id or "").encode())
        return self.peers.old_snap

    async def unregister_process(self) -> None:
        """This process stops (a graceful stop): the others stop counting it."""
        if self.proc_id is not None:
            await self._cmds(*(("ZREM", key, self.proc_id) for key in (PROCS, *MARKS)))

    async def _add_to_player_set(self, key: str, member: str) -> None:
        """Add to one of a player's sets, which lives as long as the player: one round trip
        (a resume in a reconnect storm makes one of these)."""
        expire = [("EXPIRE", key, self.player_ttl)] if self.player_ttl else []
        await self._cmds(("SADD", key, member), *expire)

    async def note_online(self, pid: str, proc: str) -> None:
        """Process ``proc`` holds a connection of player ``pid`` now (its first one there)."""
        await self._add_to_player_set(k_online(pid), proc)

    async def note_offline(self, pid: str, proc: str) -> None:
        """Process ``proc`` closed its last connection of player ``pid``."""
        await self._cmd("SREM", k_online(pid), proc)

    async def online_elsewhere(self, pid: str, proc: str) -> bool:
        """Whether a live process other than ``proc`` holds a connection of player ``pid``.

        Each process notes its first connection of a player (:meth:`note_online`) and its
        last one closing (:meth:`note_offline`); a process that stopped noting (crashed, or
        stopped gracefully: it leaves ``mj:procs``) is not live, and its members are removed
        here on the way. Call it after the caller's own :meth:`note_offline`: of two
        processes losing a player's last connections at once, the later one to ask then sees
        neither, so the seat is marked away exactly when no connection is left."""
        raw_members, raw_live = await self._cmds(
            ("SMEMBERS", k_online(pid)), ("ZRANGEBYSCORE", PROCS, self.clock.now_ms(), "+inf")
        )
        members = {m.decode() for m in raw_members} - {proc}
        live = {m.decode() for m in raw_live}
        dead = members - live
        if dead:
            await self._cmd("SREM", k_online(pid), *sorted(dead))
        return bool(members & live)

    async def live_processes(self) -> int:
        """Processes live now (``mj:procs``, this one included when registered)."""
        return int(await self.r.zcount(PROCS, self.clock.now_ms(), "+inf"))

    async def learned_restart(self) -> tuple[float | None, float | None]:
        """(restart gap in seconds, hello rate) learned from earlier restarts, None where
        nothing was learned yet (``server/process/reconnect.py``)."""
        gap, rate = await self.r.hmget(RESTART, ["gap_ms", "hello_rate"])
        return (
            int(gap) / 1000 if gap is not None else None,
            float(rate) if rate is not None else None,
        )

    async def note_stopping(self, at_ms: int, until_ms: int, planned_rate: float) -> None:
        """A graceful stop told its clients to reconnect from ``at_ms`` until ``until_ms`` at
        ``planned_rate`` hellos a second per process: the next process to listen measures
        the restart gap from it and checks the plan (:meth:`take_stopped`)."""
        await self.r.hset(
            RESTART,
            mapping={
                "stopped_at": at_ms,
                "planned_until": until_ms,
                "planned_rate": f"{planned_rate:.1f}",
            },
        )

    async def take_stopped(self) -> tuple[int | None, int | None, float | None]:
        """The last graceful stop's (time, end of its reconnect plan, planned rate), removed:
        only the first process listening after it follows up on it (two starting together
        both read it, which is harmless)."""
        fields = ["stopped_at", "planned_until", "planned_rate"]
        async with self.r.pipeline(transaction=False) as p:
            p.hmget(RESTART, fields)
            p.hdel(RESTART, *fields)
            (at, until, rate), _ = await p.execute()
        return (
            int(at) if at is not None else None,
            int(until) if until is not None else None,
            float(rate) if rate is not None else None,
        )

    async def save_restart_gap(self, seconds: float) -> None:
        await self.r.hset(RESTART, "gap_ms", max(0, round(seconds * 1000)))

    async def save_hello_rate(self, rate: float) -> None:
        await self.r.hset(RESTART, "hello_rate", f"{rate:.1f}")

    # ----------------------------------------------------------------------- players

    async def new_player(self, name: str) -> tuple[str, str]:
        pid = "p_" + secrets.token_hex(8)
        token = secrets.token_urlsafe(32)  # 256 bits
        ttl = self.player_ttl or None
        async with self.r.pipeline(transaction=True) as p:
            p.hset(k_player(pid), mapping={"name": name})
            if ttl is not None:
                p.expire(k_player(pid), ttl)
            p.set(k_token(token), pid, ex=ttl)
            await p.execute()
        return pid, token

    async def set_player_name(self, pid: str, name: str) -> None:
        await self._cmd("HSET", k_player(pid), "name", name)

    async def player_rooms(self, pid: str) -> list[str]:
        """The player's rooms; rooms whose keys have expired (closed rooms past their
        retention) are dropped from the index on the way."""
        key = k_player_rooms(pid)
        members = sorted(m.decode() for m in await self._cmd("SMEMBERS", key))
        return await self._alive_rooms(pid, members)

    async def _alive_rooms(self, pid: str, members: list[str]) -> list[str]:
        """``members`` (rooms of the player's index) whose keys still exist; the others
        (expired after their retention) are dropped from the index."""
        key = k_player_rooms(pid)
        if not members:
            return []
        async with self.r.pipeline(transaction=False) as p:
            for room in members:
                p.exists(k_state(room))
            alive = await p.execute()
        gone = [room for room, a in zip(members, alive, strict=True) if not a]
        if gone:
            await self.r.srem(key, *gone)
        return [room for room, a in zip(members, alive, strict=True) if a]

    async def add_player_room(self, pid: str, room: str) -> None:
        await self._add_to_player_set(k_player_rooms(pid), room)

    async def remove_player_room(self, pid: str, room: str) -> None:
        await self._cmd("SREM", k_player_rooms(pid), room)

    # ----------------------------------------------------------------------- leavers

    async def add_leavers(self, players: list[str], at_ms: int) -> None:
        for i in range(0, len(players), BATCH):
            await self.r.zadd(LEAVERS, {p: at_ms for p in players[i : i + BATCH]})

    async def due_leavers(self, now_ms: int, limit: int = 256) -> list[str]:
        """Leavers whose time is up, each claimed by exactly one caller (its own ZREM
        decides; the ZREMs pipelined, one round trip)."""
        rows = await self.r.zrangebyscore(LEAVERS, "-inf", now_ms, start=0, num=limit)
        if not rows:
            return []
        async with self.r.pipeline(transaction=False) as p:
            for raw in rows:
                p.zrem(LEAVERS, raw)
            removed = await p.execute()
        return [raw.decode() for raw, n in zip(rows, removed, strict=True) if n]

    async def resume_player(self, token: str) -> tuple[str, str, list[str]] | None:
        """A resuming player's (id, name, rooms) from its token, and it is no longer a leaver
        of a graceful stop: two round trips (the token, then the rest pipelined) instead of
        four — a reconnect storm is thousands of these at once — plus one pipelined existence
        check of its rooms when it has any (rooms expired after their retention are dropped
        from its index, as in :meth:`player_rooms`). On a single Redis (the pipelined
        connection exists) all of it is one script, ``server/storage/resume.lua``: one round trip."""
        if self.commits is not None:
            res = await self._eval(
                RESUME_LUA,
                [k_token(token), LEAVERS],
                [PLAYER_PREFIX, _STATE_PREFIX, _STATE_SUFFIX, self.player_ttl],
            )
            if res is None:
                return None
            pid_b, name_b, alive_b = res
            return (
                pid_b.decode(),
                name_b.decode() if name_b else "player",
                [r.decode() for r in alive_b],
            )
        raw = await self.r.get(k_token(token))
        if raw is None:
            return None
        pid = raw.decode()
        async with self.r.pipeline(transaction=False) as p:
            p.hget(k_player(pid), "name")
            p.zrem(LEAVERS, pid)
            p.smembers(k_player_rooms(pid))
            if self.player_ttl:  # seen: the player lives on (the same keys as resume.lua)
                for key in (k_token(token), k_player(pid), k_player_rooms(pid)):
                    p.expire(key, self.player_ttl)
            name, _, rooms, *_ = await p.execute()
        alive = await self._alive_rooms(pid, sorted(m.decode() for m in rooms))
        return pid, (name.decode() if name else "player"), alive
