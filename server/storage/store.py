"""Everything the server keeps in Redis about rooms: commits, loads, the event log and the timers (the rooms' registry: :mod:`server.storage.store_rooms`; players and processes: :mod:`server.storage.store_players`; key names and round trips: :mod:`server.storage.store_base`).

Per room (hash-tagged so one room lives in one Redis Cluster slot):

* ``{room:<id>}:state`` hash: ``version`` (int, the latest committed version) and
  ``deadline`` (the room's next deadline in ms, or empty), and the room's state in one of
  two formats:

  - ``snap`` (msgpack room state at version ``sv``) plus ``{room:<id>}:tail``, a list of the
    state patches (``server/storage/patches.py``) of versions ``sv + 1`` .. ``version``, in order: the
    format of ``--snapshot-every`` N > 1, where a commit writes the whole state only every N
    versions and at hand boundaries (a new snapshot empties the tail);
  - ``state`` (msgpack room state at ``version``): the format of every commit before
    snapshots existed (commit ``d1dd70d`` and earlier), and of ``--snapshot-every 1``. A
    process writing it deletes ``snap``/``sv`` and the tail; a process writing the snapshot
    format deletes ``state``, so the hash holds one format at a time and ``state``, when
    present, is always the state at ``version``. Processes of before snapshots find no
    ``state`` in a room written in the snapshot format and treat the room as gone: so while
    any of them is live (a rolling upgrade), the new processes write this format
    (:meth:`Store.register_process` finds them: they do not mark themselves in
    ``mj:procs:snap``).

* ``{room:<id>}:log`` stream, one entry per version with ID ``<version>-1`` (the event log);
* ``{room:<id>}:seq`` hash, per player the last applied client sequence number;
* ``{room:<id>}:ch`` pub/sub channel carrying each new version number.

Global: ``mj:code:<CODE>`` -> room id, ``mj:rooms`` (open rooms), ``mj:public`` (listed
rooms), ``mj:timers`` (sorted set room -> next deadline in ms), ``mj:tok:<sha256(token)>`` ->
player id, ``mj:player:<id>`` (hash name), ``mj:player:<id>:rooms`` (set),
``mj:player:<id>:on`` (set: the processes holding a connection of the player, see
:meth:`Store.online_elsewhere`), ``mj:sweep:lock`` /
``mj:sweep:cursor`` (the retention sweeper, ``server/flow/retention.py``), ``mj:leavers`` (players
of a graceful stop), ``mj:procs`` (live server processes, see :meth:`Store.register_process`)
and ``mj:procs:snap`` (those of them that read the snapshot format).

Retention: a closed room's own keys get an expiry (``--closed-room-ttl``) in
:meth:`Store.close_room`; the sweeper closes abandoned rooms (``--idle-room-seconds``).

Every change goes through one Lua script (``commit.lua``) touching only the room's own keys
(one hash slot): idempotency check of the client sequence number, version check, the
snapshot or the patch and the next-deadline write, stream append, publish and (single Redis)
the global timers index, all atomic and in one round trip. With Redis Cluster the timers
index lives in another slot and is updated right after (see :meth:`Store.reindex_timers` for
why that is safe).
"""

from __future__ import annotations

from typing import Any

from server.room import stored
from server.room.held_answers import HeldAnswer
from server.room.state import Entry, RoomState
from server.storage import patches
from server.storage.patches import Patch
from server.storage.peers import PROCS, PROCS_HELD, PROCS_SNAP
from server.storage.store_base import (
    ANSWER_LUA,
    BATCH,
    CHANNEL_PATTERN,
    COMMIT_LUA,
    CONNECT_TIMEOUT,
    FORMAT_SNAP,
    FORMAT_STATE,
    JSON,
    LEAVERS,
    PLAYER_PREFIX,
    PUBLIC,
    RESTART,
    ROOMS,
    SOCKET_TIMEOUT,
    TIMERS,
    VERSIONS_LUA,
    CommitResult,
    answer_args,
    answers_reply,
    commit_args,
    commit_reply,
    k_answers,
    k_channel,
    k_log,
    k_online,
    k_player,
    k_player_rooms,
    k_seq,
    k_state,
    k_tail,
    k_token,
    pack,
    room_of_channel,
    token_hash,
    unpack,
)
from server.storage.store_players import PlayerStore
from server.storage.store_rooms import RoomRegistry

__all__ = [
    "ANSWER_LUA",
    "CHANNEL_PATTERN",
    "COMMIT_LUA",
    "CONNECT_TIMEOUT",
    "JSON",
    "LEAVERS",
    "PLAYER_PREFIX",
    "PROCS",
    "PROCS_HELD",
    "PROCS_SNAP",
    "PUBLIC",
    "RESTART",
    "ROOMS",
    "SOCKET_TIMEOUT",
    "TIMERS",
    "CommitResult",
    "Loaded",
    "Store",
    "answer_args",
    "commit_args",
    "commit_reply",
    "k_answers",
    "k_channel",
    "k_log",
    "k_online",
    "k_player",
    "k_player_rooms",
    "k_seq",
    "k_state",
    "k_tail",
    "k_token",
    "pack",
    "room_of_channel",
    "token_hash",
    "unpack",
]

#: a loaded room: (version, state, the version of its last snapshot or None when it has
#: none: the format of before snapshots, whose next commit writes one)
Loaded = tuple[int, RoomState, int | None]
#: attempts at a consistent read of a snapshot and its patches (commits landing in between)
LOAD_ATTEMPTS = 8


class Store(PlayerStore, RoomRegistry):
    """Rooms: commits, loads, the log, indexes and timers (see the module docstring)."""

    async def commit(
        self,
        room: str,
        expected_version: int,
        state: RoomState,
        entry: Entry,
        player: str | None = None,
        client_seq: int | None = None,
        deadline: int | None = None,
        patch: Patch | None = None,
        answers_n: int | None = None,
        close_window: bool = False,
        now: int | None = None,
    ) -> CommitResult:
        """Commit ``state`` as the room's version ``expected_version + 1`` with its log
        ``entry`` (compare-and-set on the version, idempotent per client seq). With ``patch``
        (the difference from the committed state at ``expected_version``, server/storage/patches.py)
        only the patch is written, unless the room has no snapshot the patch can follow (its
        state is in the format of before snapshots), or a live process reads only that format
        (:attr:`peers`, ``old_snap``) or it is asked for (:attr:`old_format`): then the whole state is
        (a second round trip in the first case). While a live process reads a room's open
        decisions only in the form of up to 0.9.3 (``peers.old_pending``), the whole
        state is written in that form (``server/room/stored.py``, :func:`~server.room.stored.older`).

        ``answers_n``: the commit read the answers held for the room's open claim window
        (:meth:`answers`), and saw that many written: if one was added since, it is a
        conflict. ``close_window``: it applied them (the window closed): they are deleted.
        ``now``: the commit's time (ms), against which commit.lua counts the live processes
        (whether to publish the commit to the others); None: the clock's."""
        older = self.peers.old_pending
        fmt = FORMAT_STATE if older or self.peers.old_snap or self.old_format else FORMAT_SNAP
        if patch is not None and fmt == FORMAT_SNAP:
            args = commit_args(
                room,
                expected_version,
                None,
                entry,
                player,
                client_seq,
                deadline,
                patch,
                answers_n=answers_n,
                close_window=close_window,
            )
            res = await self._commit_script(room, args, deadline, now)
            if res.status != "snap":
                return res
        args = commit_args(
            room,
            expected_version,
            stored.older(state) if older else state,
            entry,
            player,
            client_seq,
            deadline,
            fmt=fmt,
            answers_n=answers_n,
            close_window=close_window,
        )
        return await self._commit_script(room, args, deadline, now)

    async def answers(self, room: str) -> tuple[int, dict[int, HeldAnswer]]:
        """The answers held for the room's open claim window (server/storage/answer.lua): (how many
        were written, seat -> ``{"g": game_no, "a": action}``); (0, {}) when none."""
        return answers_reply(await self._cmd("HGETALL", k_answers(room)))

    async def hold_answer(
        self,
        room: str,
        expected_version: int,
        answers_n: int,
        seat: int,
        record: HeldAnswer,
        player: str | None,
        client_seq: int | None,
        deadline: int | None,
    ) -> CommitResult:
        """Hold ``seat``'s answer ``record`` to the open claim window (answer.lua): only if
        the room is still at ``expected_version`` and ``answers_n`` answers were written,
        none of them by the seat; the room's next deadline becomes ``deadline``. "held" (the
        version unchanged), "conflict" or "dup"."""
        args = answer_args(expected_version, answers_n, seat, record, player, client_seq, deadline)
        keys = [k_state(room), k_answers(room), k_seq(room), TIMERS]
        return commit_reply(await self._eval(ANSWER_LUA, keys, [*args, room]))

    async def _commit_script(
        self, room: str, args: list[Any], deadline: int | None, now: int | None = None
    ) -> CommitResult:
        """Run commit.lua once with ``args`` (ARGV[1..11], :func:`commit_args`); ``now``: the
        time the live processes are counted at (None: the clock's)."""
        # one round trip: the script also updates the global timers index (single Redis:
        # every key is on the one server; ClusterStore overrides this)
        keys = [k_state(room), k_log(room), k_seq(room), k_tail(room), k_answers(room), TIMERS]
        args.append(room)  # ARGV[12], with KEYS[6]
        if self.proc_id is not None:
            keys.append(PROCS)
            args += [self.clock.now_ms() if now is None else now, self.proc_id]
        return commit_reply(await self._eval(COMMIT_LUA, keys, args))

    # ------------------------------------------------------------------------- rooms

    async def load(self, room: str) -> tuple[int, RoomState] | None:
        """The room's (version, state), None when it has none."""
        loaded = await self.load_room(room)
        return None if loaded is None else (loaded[0], loaded[1])

    async def load_room(self, room: str) -> Loaded | None:
        """The room's (version, state, version of its snapshot), None when it has none: in
        the format of before snapshots the state itself, else its snapshot with the patches
        after it replayed (at most ``--snapshot-every`` - 1 of them).

        One round trip, not atomic (a Redis Cluster client pipelines it too): the hash, the
        patches, then the snapshot's version again. The same snapshot version both times
        means no snapshot was written in between, so the patches read are those after it,
        perhaps with more appended since, which are left out; otherwise it reads again."""
        key = k_state(room)
        for _ in range(LOAD_ATTEMPTS):
            head, tail, sv_after = await self._cmds(
                ("HMGET", key, "version", "state", "snap", "sv"),
                ("LRANGE", k_tail(room), 0, -1),
                ("HGET", key, "sv"),
            )
            version_b, state_b, snap_b, sv_b = head
            if version_b is None:
                return None
            version = int(version_b)
            if state_b is not None:
                return version, stored.current(unpack(state_b)), None
            if snap_b is None or sv_b is None:
                return None  # (never written so: a key of something else)
            sv = int(sv_b)
            n = version - sv
            if sv_after != sv_b or len(tail) < n:
                continue  # a snapshot was written in between: read again
            state = patches.replay(unpack(snap_b), [unpack(p) for p in tail[:n]])
            return version, stored.current(state), sv
        raise RuntimeError(f"room {room}: no consistent read of its state")

    async def version(self, room: str) -> int:
        v = await self._cmd("HGET", k_state(room), "version")
        return int(v) if v is not None else 0

    async def last_seq(self, room: str, player: str) -> tuple[int, int]:
        raw = await self.r.hmget(k_seq(room), [player, f"{player}:v"])
        return int(raw[0] or 0), int(raw[1] or 0)

    async def read_log(
        self, room: str, start: int, end: int | None = None, count: int | None = None
    ) -> list[tuple[int, Entry]]:
        """The room's log entries from version ``start`` to ``end`` (the last when None), at
        most ``count``."""
        return [(v, unpack(d)) for v, d in await self.read_log_packed(room, start, end, count)]

    async def read_log_packed(
        self, room: str, start: int, end: int | None = None, count: int | None = None
    ) -> list[tuple[int, bytes]]:
        """:meth:`read_log`'s entries as stored (msgpack maps), not unpacked: the archive's
        reads (server/archive/scan.py)."""
        lo, hi = f"{start}-1", "+" if end is None else f"{end}-1"
        rows: list[tuple[int, bytes]] = []
        if self.commits is not None:  # on the pipelined connection (no pool): raw replies
            args = ["XRANGE", k_log(room), lo, hi, *(["COUNT", count] if count else [])]
            for entry_id, flat in await self.commits.execute(*args):
                fields = dict(zip(flat[::2], flat[1::2], strict=True))
                rows.append((int(entry_id.split(b"-")[0]), fields[b"d"]))
        else:
            for entry_id, fields in await self.r.xrange(k_log(room), min=lo, max=hi, count=count):
                rows.append((int(entry_id.split(b"-")[0]), fields[b"d"]))
        return rows

    async def reindex_timer(self, room: str) -> None:
        """:meth:`reindex_timers` for one room."""
        await self.reindex_timers([room])

    async def postpone_timer(self, room: str, at_ms: int) -> None:
        await self._cmd("ZADD", TIMERS, at_ms, room)

    async def due_rooms(self, now_ms: int, limit: int = 32) -> list[str]:
        """Rooms whose deadline is due (on the pipelined connection when there is one: the
        timer loop asks after every commit with a near deadline)."""
        rows = await self._cmd("ZRANGEBYSCORE", TIMERS, "-inf", now_ms, "LIMIT", 0, limit)
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
        replies = await self._cmds(*(("HGET", k_state(room), "deadline") for room in rooms))
        return [int(d) if d else None for d in replies]

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
                await self._cmd("ZADD", TIMERS, *(x for r, d in due.items() for x in (d, r)))
            if none:
                await self._cmd("ZREM", TIMERS, *none)
                again = {
                    r: d
                    for r, d in zip(none, await self._deadlines(none), strict=True)
                    if d is not None
                }
                if again:
                    await self._cmd("ZADD", TIMERS, *(x for r, d in again.items() for x in (d, r)))


def open_store(
    url: str,
    cluster: bool = False,
    pool_size: int = 32,
    wait_replicas: int = 1,
    wait_ms: int = 1000,
) -> Store:
    """The store on Redis ``url``: a Redis Cluster's (``server.storage.cluster``) when
    ``cluster`` or the URL says so (``redis+cluster://``, ``rediss+cluster://``), else a
    single Redis's. ``wait_replicas`` / ``wait_ms``: a Cluster commit's ``WAIT``."""
    if cluster or url.startswith(("redis+cluster://", "rediss+cluster://")):
        from server.storage.cluster import ClusterStore  # (redis-py's cluster client: only here)

        return ClusterStore.from_url(url, pool_size, wait_replicas, wait_ms)
    return Store.from_url(url, pool_size)
