"""Everything the server keeps in Redis.

Per room (hash-tagged so one room lives in one Redis Cluster slot):

* ``{room:<id>}:state`` hash ``state`` (msgpack room state) + ``version`` (int);
* ``{room:<id>}:log`` stream, one entry per version with ID ``<version>-1`` (the event log);
* ``{room:<id>}:seq`` hash, per player the last applied client sequence number;
* ``{room:<id>}:ch`` pub/sub channel carrying each new version number.

Global: ``mj:code:<CODE>`` -> room id, ``mj:rooms`` (open rooms), ``mj:public`` (listed
rooms), ``mj:timers`` (sorted set room -> next deadline in ms), ``mj:tok:<sha256(token)>`` ->
player id, ``mj:player:<id>`` (hash name), ``mj:player:<id>:rooms`` (set),
``mj:player:<id>:on`` (set: the processes holding a connection of the player, see
:meth:`Store.online_elsewhere`), ``mj:sweep:lock`` /
``mj:sweep:cursor`` (the retention sweeper, ``server/retention.py``), ``mj:leavers`` (players
of a graceful stop), ``mj:procs`` (live server processes, see :meth:`Store.register_process`).

Retention: a closed room's own keys get an expiry (``--closed-room-ttl``) in
:meth:`Store.close_room`; the sweeper closes abandoned rooms (``--idle-room-seconds``).

Every change goes through one Lua script (``commit.lua``) touching only the room's own keys
(one hash slot): idempotency check of the client sequence number, version check, state and
next-deadline write, stream append, publish and (single Redis) the global timers index, all
atomic and in one round trip. With Redis Cluster the timers index lives in another slot and
is updated right after (see :meth:`Store.reindex_timers` for why that is safe).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from importlib import resources
from typing import Any

import msgpack
import redis.asyncio as aioredis
from redis.exceptions import NoScriptError

from protocol.codec import encode
from server.clock import now_ms
from server.resp import PipelinedConnection
from server.resp import supported as resp_supported

JSON = dict[str, Any]

TIMERS = "mj:timers"
ROOMS = "mj:rooms"
PUBLIC = "mj:public"
#: rooms per pipelined round trip of the batched reads (heal loop, timer re-index)
BATCH = 256
#: players disconnected by a graceful stop -> when to mark them away unless they are back
LEAVERS = "mj:leavers"
CHANNEL_PATTERN = "{room:*}:ch"
PROCS = "mj:procs"  # live server processes: id -> live-until ms (see commit.lua, KEYS[5])
#: what restarts taught the processes (server/reconnect.py): ``stopped_at``,
#: ``planned_until`` (ms) and ``planned_rate`` (the last graceful stop and its reconnect plan,
#: until a process starting after it takes them), ``gap_ms`` (stop -> the next process
#: listening), ``hello_rate`` (hellos/s of a saturated process)
RESTART = "mj:restart"
SWEEP_LOCK = "mj:sweep:lock"  # the retention sweeper's turn (server/retention.py)
SWEEP_CURSOR = "mj:sweep:cursor"  # its SSCAN cursor over mj:rooms, shared by the processes


def k_state(room: str) -> str:
    return f"{{room:{room}}}:state"


def k_log(room: str) -> str:
    return f"{{room:{room}}}:log"


def k_seq(room: str) -> str:
    return f"{{room:{room}}}:seq"


def k_channel(room: str) -> str:
    return f"{{room:{room}}}:ch"


PLAYER_PREFIX = "mj:player:"


def k_player(pid: str) -> str:
    return PLAYER_PREFIX + pid


def k_player_rooms(pid: str) -> str:
    return f"{PLAYER_PREFIX}{pid}:rooms"


def k_online(pid: str) -> str:
    return f"{PLAYER_PREFIX}{pid}:on"


def k_token(token: str) -> str:
    """The key of a token (only its hash is stored; see :func:`token_hash`)."""
    return f"mj:tok:{token_hash(token)}"


def room_of_channel(channel: str) -> str | None:
    if channel.startswith("{room:") and channel.endswith("}:ch"):
        return channel[len("{room:") : -len("}:ch")]
    return None


def pack(value: Any) -> bytes:
    """msgpack of ``value`` (the wire codec's reusable per-thread packer)."""
    return encode(value)


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def _expire_room(p: Any, room: str, ttl_seconds: float) -> None:
    """Queue on pipeline ``p`` the expiry of the room's own keys (state, log, client seqs)."""
    ms = max(1, int(ttl_seconds * 1000))
    for key in (k_state(room), k_log(room), k_seq(room)):
        p.pexpire(key, ms)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class CommitResult:
    status: str  # "ok" | "conflict" | "dup"
    version: int
    client_seq: int | None = None


COMMIT_LUA = resources.files("server").joinpath("commit.lua").read_text()
RESUME_LUA = resources.files("server").joinpath("resume.lua").read_text()
#: the committed version of each room whose state key is given (0: none), in one reply
VERSIONS_LUA = """
local out = {}
for i, key in ipairs(KEYS) do
  out[i] = tonumber(redis.call('HGET', key, 'version') or '0')
end
return out
"""
_STATE_PREFIX, _STATE_SUFFIX = k_state("\0").split("\0")

#: every Redis call is bounded: a reply not read within this many seconds is a
#: ``redis.exceptions.TimeoutError`` (redis-py before 8 waits forever by default; nothing
#: here uses blocking commands), a connection not made within the connect timeout too
SOCKET_TIMEOUT = 5.0
CONNECT_TIMEOUT = 5.0


def commit_args(
    room: str,
    expected_version: int,
    state: JSON,
    entry: JSON,
    player: str | None,
    client_seq: int | None,
    deadline: int | None,
) -> list[Any]:
    """ARGV[1..7] of commit.lua (see the script), shared by Store and ClusterStore."""
    return [
        expected_version,
        pack(state),
        pack(entry),
        player if client_seq is not None and player else "",
        client_seq if client_seq is not None else "",
        k_channel(room),
        "" if deadline is None else deadline,
    ]


class Store:
    def __init__(self, client: aioredis.Redis, commits: PipelinedConnection | None = None) -> None:
        # redis-py's stubs type replies as ``bytes | str`` unions that depend on
        # decode_responses; we always use bytes, so the client is used untyped.
        self.r: Any = client
        self._shas: dict[str, str] = {}
        #: the connection the commit script runs on (server/resp.py), None: redis-py's pool
        self.commits = commits
        #: this process's id once it is registered as live (:meth:`register_process`):
        #: commits then publish their notification only if another live process exists
        self.proc_id: str | None = None
        #: seconds a player's keys live after its last hello (0: forever); set by the App
        self.player_ttl = 0

    @classmethod
    def from_url(cls, url: str, pool_size: int = 32) -> Store:
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=pool_size,
            timeout=10,
            decode_responses=False,
            socket_timeout=SOCKET_TIMEOUT,
            socket_connect_timeout=CONNECT_TIMEOUT,
        )
        commits = PipelinedConnection(url) if resp_supported(url) else None
        return cls(aioredis.Redis(connection_pool=pool), commits)

    async def close(self) -> None:
        """Close the client and its pool's connections (bounded: a connection that does not
        close in time is dropped with the pool)."""
        if self.commits is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.commits.close(), CONNECT_TIMEOUT)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.r.aclose(close_connection_pool=True), CONNECT_TIMEOUT)

    async def ping(self) -> bool:
        return bool(await self.r.ping())

    async def loading(self) -> bool:
        """Whether Redis is still loading its data set (PING answers during loading; most
        other commands fail with ``BusyLoadingError`` until it is done)."""
        info = await self.r.info("persistence")
        return bool(int(info.get("loading", 0)))

    # ------------------------------------------------------------------------ script

    async def _eval(self, script: str, keys: list[str], args: list[Any]) -> Any:
        sha = self._shas.get(script)
        if sha is None:
            sha = self._shas[script] = await self.r.script_load(script)
        run = self.r.evalsha if self.commits is None else self._evalsha_pipelined
        try:
            return await run(sha, len(keys), *keys, *args)
        except NoScriptError:
            # Redis restarted or failed over and lost its script cache: load it again.
            sha = self._shas[script] = await self.r.script_load(script)
            return await run(sha, len(keys), *keys, *args)

    async def _evalsha_pipelined(self, sha: str, numkeys: int, *args: Any) -> Any:
        assert self.commits is not None
        return await self.commits.execute("EVALSHA", sha, numkeys, *args)

    async def commit(
        self,
        room: str,
        expected_version: int,
        state: JSON,
        entry: JSON,
        player: str | None = None,
        client_seq: int | None = None,
        deadline: int | None = None,
    ) -> CommitResult:
        # one round trip: the script also updates the global timers index (single Redis:
        # every key is on the one server; ClusterStore overrides this)
        keys = [k_state(room), k_log(room), k_seq(room), TIMERS]
        args = commit_args(room, expected_version, state, entry, player, client_seq, deadline)
        args.append(room)  # ARGV[8], with KEYS[4]
        if self.proc_id is not None:
            keys.append(PROCS)
            args += [now_ms(), self.proc_id]
        res = await self._eval(COMMIT_LUA, keys, args)
        status = res[0].decode() if isinstance(res[0], bytes) else str(res[0])
        if status == "dup":
            return CommitResult("dup", int(res[1]), int(res[2]))
        return CommitResult(status, int(res[1]))

    # ------------------------------------------------------------------------- rooms

    async def load(self, room: str) -> tuple[int, JSON] | None:
        raw = await self._cmd("HMGET", k_state(room), "version", "state")
        if raw[0] is None or raw[1] is None:
            return None
        return int(raw[0]), unpack(raw[1])

    async def register_process(self, proc_id: str, live_ms: int) -> None:
        """Record this process as live for ``live_ms`` from now (call again before that
        runs out) and forget processes whose time ran out a minute ago. From the first call
        on, this store's commits notify only when another live process exists (commit.lua):
        so call it only once this process's own subscription is listening."""
        now = now_ms()
        async with self.r.pipeline(transaction=False) as p:
            p.zadd(PROCS, {proc_id: now + live_ms})
            p.zremrangebyscore(PROCS, "-inf", now - 60_000)
            await p.execute()
        self.proc_id = proc_id

    async def unregister_process(self) -> None:
        """This process stops (a graceful stop): the others stop counting it."""
        if self.proc_id is not None:
            await self.r.zrem(PROCS, self.proc_id)

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
            ("SMEMBERS", k_online(pid)), ("ZRANGEBYSCORE", PROCS, now_ms(), "+inf")
        )
        members = {m.decode() for m in raw_members} - {proc}
        live = {m.decode() for m in raw_live}
        dead = members - live
        if dead:
            await self._cmd("SREM", k_online(pid), *sorted(dead))
        return bool(members & live)

    async def live_processes(self) -> int:
        """Processes live now (``mj:procs``, this one included when registered)."""
        return int(await self.r.zcount(PROCS, now_ms(), "+inf"))

    async def learned_restart(self) -> tuple[float | None, float | None]:
        """(restart gap in seconds, hello rate) learned from earlier restarts, None where
        nothing was learned yet (``server/reconnect.py``)."""
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

    async def version(self, room: str) -> int:
        v = await self._cmd("HGET", k_state(room), "version")
        return int(v) if v is not None else 0

    async def last_seq(self, room: str, player: str) -> tuple[int, int]:
        raw = await self.r.hmget(k_seq(room), [player, f"{player}:v"])
        return int(raw[0] or 0), int(raw[1] or 0)

    async def read_log(
        self, room: str, start: int, end: int | None = None, count: int | None = None
    ) -> list[tuple[int, JSON]]:
        lo, hi = f"{start}-1", "+" if end is None else f"{end}-1"
        out = []
        if self.commits is not None:  # on the pipelined connection (no pool): raw replies
            args = ["XRANGE", k_log(room), lo, hi, *(["COUNT", count] if count else [])]
            for entry_id, flat in await self.commits.execute(*args):
                fields = dict(zip(flat[::2], flat[1::2], strict=True))
                out.append((int(entry_id.split(b"-")[0]), unpack(fields[b"d"])))
            return out
        for entry_id, fields in await self.r.xrange(k_log(room), min=lo, max=hi, count=count):
            out.append((int(entry_id.split(b"-")[0]), unpack(fields[b"d"])))
        return out

    async def _cmd(self, *args: Any) -> Any:
        """One command whose reply is used raw (bytes, int, None, a list) or not at all: on
        the pipelined connection when there is one, else through redis-py's pool. The
        requests that come in bursts use it (joins and leaves of a whole load test at once
        waited past the pool's 10 s for one of its 32 connections)."""
        if self.commits is not None:
            return await self.commits.execute(*args)
        return await self.r.execute_command(*args)

    async def _cmds(self, *commands: tuple[Any, ...]) -> list[Any]:
        """Several commands in one round trip, run in this order, their replies as
        :meth:`_cmd` gives them: on the pipelined connection when there is one, else a
        redis-py pipeline (no transaction)."""
        if self.commits is not None:
            return await self.commits.execute_many(*commands)
        async with self.r.pipeline(transaction=False) as p:
            for c in commands:
                p.execute_command(*c)
            return list(await p.execute())

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
                _expire_room(p, room, ttl_seconds)
            p.delete(f"mj:code:{code}")
            p.zrem(TIMERS, room)
            p.srem(PUBLIC, room)
            p.srem(ROOMS, room)
            await p.execute()

    async def expire_room(self, room: str, ttl_seconds: float) -> None:
        """Let the room's own keys (state, log, client seqs; one slot) expire."""
        async with self.r.pipeline(transaction=False) as p:
            _expire_room(p, room, ttl_seconds)
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

    # ------------------------------------------------------------------------ timers

    async def reindex_timer(self, room: str) -> None:
        """:meth:`reindex_timers` for one room."""
        await self.reindex_timers([room])

    async def postpone_timer(self, room: str, at_ms: int) -> None:
        await self._cmd("ZADD", TIMERS, at_ms, room)

    async def due_rooms(self, now_ms: int, limit: int = 32) -> list[str]:
        rows = await self.r.zrangebyscore(TIMERS, "-inf", now_ms, start=0, num=limit)
        return [r.decode() for r in rows]

    async def next_timer(self) -> int | None:
        rows = await self.r.zrange(TIMERS, 0, 0, withscores=True)
        return int(rows[0][1]) if rows else None

    # ---------------------------------------------------------------- batched (scale)

    async def versions(self, rooms: list[str]) -> list[int]:
        """The committed version of each room (0: none), in pipelined batches: one round
        trip per ``BATCH`` rooms instead of one per room (the heal loop asks for every room
        with a feed on this process once a second). On a single Redis (the pipelined
        connection exists) each batch is one script call with one reply (redis-py's pipeline
        of 256 commands cost a few % of the server's CPU at 1,000 rooms); a cluster keeps the
        pipeline (the keys are in different slots)."""
        out: list[int] = []
        if self.commits is not None:
            for i in range(0, len(rooms), BATCH):
                keys = [k_state(room) for room in rooms[i : i + BATCH]]
                out.extend(int(v) for v in await self._eval(VERSIONS_LUA, keys, []))
            return out
        for i in range(0, len(rooms), BATCH):
            async with self.r.pipeline(transaction=False) as p:
                for room in rooms[i : i + BATCH]:
                    p.hget(k_state(room), "version")
                out.extend(int(v) if v is not None else 0 for v in await p.execute())
        return out

    async def _deadlines(self, rooms: list[str]) -> list[int | None]:
        async with self.r.pipeline(transaction=False) as p:
            for room in rooms:
                p.hget(k_state(room), "deadline")
            return [int(d) if d else None for d in await p.execute()]

    async def reindex_timers(self, rooms: list[str]) -> None:
        """Make the timers index agree with the deadline stored in each room's hash,
        pipelined in batches (start-up and the periodic re-index; :meth:`reindex_timer` for
        one room).

        Safe against a concurrent commit: that commit adds its deadline to the index after
        writing it to the hash, so if our ZREM lands after its ZADD, the re-read below sees
        the new deadline and adds it back.
        """
        for i in range(0, len(rooms), BATCH):
            chunk = rooms[i : i + BATCH]
            found = dict(zip(chunk, await self._deadlines(chunk), strict=True))
            due = {r: d for r, d in found.items() if d is not None}
            none = [r for r, d in found.items() if d is None]
            if due:
                await self.r.zadd(TIMERS, due)
            if none:
                await self.r.zrem(TIMERS, *none)
                again = {
                    r: d
                    for r, d in zip(none, await self._deadlines(none), strict=True)
                    if d is not None
                }
                if again:
                    await self.r.zadd(TIMERS, again)

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
        connection exists) all of it is one script, ``server/resume.lua``: one round trip."""
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
