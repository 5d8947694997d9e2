"""The archiver: moves each hand as it ends and each finished game from Redis (the authority
for live rooms) into the archive, after the commit and off the hot path, retried until the
database takes it.

A queue in Redis, shared by every process of the fleet, says which rooms have something to
archive and where each one's next pass reads from (its keys: ``server/archive/queue.py``).

The commit of a hand's end or a game's end queues the room (:meth:`Archiver.committed`,
after the commit: the rooms whose hands end within :data:`COALESCE` seconds of each other
are queued in one round trip). Each process's loop takes the rooms waiting, reads their
logs from ``pos`` (in one round trip), writes the hands and finished games (idempotent:
keyed by game id and hand number) and takes them off the queue. A database that is down leaves them queued: the
loop retries with back-off, and catches up when it is back; a process killed before its
rooms were archived leaves them queued for any other. While a room waits its keys do not
expire (a close does not start its expiry; the archiver starts it once the room is done),
so retention never drops a game before it is archived. At start, rooms holding a finished
game that is not in the archive (games of before the archive) are queued: the backfill.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any

from server.archive import OFF, Archive, HandRecord, open_archive
from server.archive.queue import DONE, DUE, HANDS, HELD, POS, QUEUED
from server.archive.records import (
    GameLog,
    game_record,
    hand_records,
    last_hand_end,
    split_games,
)
from server.archive.scan import Entry, scan
from server.process.metrics import Metrics
from server.room.lobby import game_id_of
from server.room.state import Entry as LogEntry
from server.room.state import RoomState
from server.storage.store import Store
from server.storage.store_base import k_answers, k_log, k_seq, k_state, k_tail

log = logging.getLogger("mahjong.archive")

#: rooms taken per pass; log entries read per round trip
BATCH = 50
LOG_CHUNK = 1000
#: seconds between passes when nothing wakes the loop (another process's queued rooms)
PERIOD = 5.0
#: seconds a woken loop waits before its pass, so that the hands that end meanwhile in
#: other rooms go in the same pass (one round trip and one transaction for all of them)
GATHER = 0.5
#: seconds the rooms whose hand ended wait to be queued together (one round trip)
COALESCE = 0.05
#: rooms whose logs a pass reads at once
READ_TOGETHER = 16
#: the longest back-off after database errors (seconds)
MAX_BACKOFF = 60.0


@dataclass(slots=True)
class RoomPass:
    """One room's part of a pass: what to write, and the marks to set once written."""

    room: str
    next_pos: int  # where the next pass reads from (``pos``)
    closed: bool  # an entry read closed the room
    finished: list[GameLog] = field(default_factory=list)
    hands: list[HandRecord] = field(default_factory=list)  # of the game in progress
    mark: str = ""  # the game in progress's mark (``hands``), or none
    token: str = ""  # the queue count read ('': queued by the backfill only)
    drop: str = "0"  # "1": no game in progress, its mark is dropped


def closes(entry: Mapping[str, Any]) -> bool:
    """Whether a log entry closes its room (a leave, a kick or the sweeper's close); ``entry``:
    the entry, or an :class:`Entry`'s ``head``."""
    return bool((entry.get("lobby") or {}).get("status") == "closed")


def ends_something(entry: Mapping[str, Any]) -> bool:
    """Whether a log entry ends a hand or a game, or closes the room."""
    if closes(entry) or (entry.get("notice") or {}).get("type") == "game_over":
        return True
    return any(e.get("type") == "hand_ended" for e in entry.get("events") or [])


class Archiver:
    """One process's part of archiving (a background loop, and the commit hook)."""

    def __init__(
        self,
        store: Store,
        url: str,
        closed_room_ttl: float,
        metrics: Metrics | None = None,
        *,
        passes: bool = True,
        period: float = PERIOD,
        gather: float = GATHER,
    ) -> None:
        self.store = store
        #: whether this process's loop archives (its passes and the backfill); False: the
        #: archiver's own process does (server/archive/process.py), and this one's loop only
        #: keeps the lag metric and the archive open for the game pages
        self.passes = passes
        #: seconds between loop turns when nothing wakes it, and a woken loop's wait for more
        self.period = period
        self.gather = gather
        self.metrics = metrics
        self.url = url
        self.ttl = closed_room_ttl
        self.archive: Archive | None = None
        self.opening: asyncio.Future[Archive] | None = None
        self.wake = asyncio.Event()
        #: set: the next pass starts without waiting :data:`GATHER` (:func:`wait_archived`)
        self.hurry = asyncio.Event()
        self.stopped = False
        self.backfilled = False
        self.tasks: set[asyncio.Task[None]] = set()
        #: rooms whose hand or game ended, to be queued at the next flush (:meth:`flush`)
        self.due: set[str] = set()
        self.flushing: asyncio.TimerHandle | None = None
        self.errors = 0
        self.archived_games = 0

    @property
    def r(self) -> Any:
        return self.store.r

    # ------------------------------------------------------------------ the commit hook

    def committed(self, room: str, version: int, entry: LogEntry, deadline: int | None) -> None:
        """A commit hook (``Commits.hooks``): queue the room when a hand or game ended
        (the rooms of :data:`COALESCE` seconds together), or hold or forget it when the
        entry closed it."""
        if self.url == OFF or not ends_something(entry):
            return
        loop = asyncio.get_running_loop()
        if closes(entry):
            self._spawn(self.room_closed(room))
            return
        self.due.add(room)
        if self.flushing is None:
            self.flushing = loop.call_later(COALESCE, self._flush_later)

    def _spawn(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _flush_later(self) -> None:
        self.flushing = None
        self._spawn(self.flush())

    async def flush(self) -> None:
        """Queue the rooms :meth:`committed` gathered, in one round trip."""
        rooms, self.due = sorted(self.due), set()
        if not rooms:
            return
        now = self.store.clock.now_ms()
        zadd: list[str | int] = ["ZADD", DUE, "NX"]
        for room in rooms:
            zadd += [now, room]
        try:
            await self.store.round_trip(
                tuple(zadd), *(("HINCRBY", QUEUED, room, 1) for room in rooms)
            )
        except Exception:  # Redis down: the backfill at the next start finds the rooms
            log.warning("could not queue rooms for the archive", extra={"rooms": len(rooms)})
            return
        self.wake.set()

    async def room_closed(self, room: str) -> None:
        """A room closed: the rooms gathered are queued first (its last hand's end among
        them, maybe); then, waiting to be archived, it keeps its keys until it is, and done,
        it plays no more games: where to read its log from is dropped."""
        await self.flush()
        try:
            if await self.r.zscore(DUE, room) is not None:
                await self.hold(room)
            else:
                await self.forget(room)
        except Exception:  # Redis down: the backfill at the next start finds the room
            log.warning("could not queue a room for the archive", extra={"room": room})

    async def forget(self, room: str) -> None:
        """Drop where a closed room's log is read from (``pos``, the mark of a game it
        left unfinished): it plays no more games."""
        async with self.r.pipeline(transaction=False) as p:
            p.hdel(POS, room)
            p.hdel(HANDS, room)
            await p.execute()

    async def hold(self, room: str) -> None:
        """Keep the closed room's keys (no expiry) while it waits for the archive, marked
        in :data:`HELD` for the pass that takes it off the queue. A pass that finished the
        room meanwhile (off the queue, then its expiry set) may have set its expiry before
        this removed it: looked at again after, and set again."""
        await self.r.hset(HELD, room, 1)
        async with self.r.pipeline(transaction=False) as p:
            for key in (k_state(room), k_log(room), k_seq(room), k_tail(room), k_answers(room)):
                p.persist(key)
            await p.execute()
        if await self.r.zscore(DUE, room) is None and self.ttl > 0:
            await self.r.hdel(HELD, room)
            await self.store.expire_room(room, self.ttl)

    # ------------------------------------------------------------------------ the loop

    async def connect(self) -> Archive:
        """The open archive, opened (and migrated) now if need be. The opening runs in a task
        of its own that a cancelled loop does not cancel (a driver's thread half-way through
        connecting would outlive the event loop): :meth:`close` waits for it."""
        if self.archive is None:
            if self.opening is None:
                self.opening = asyncio.ensure_future(open_archive(self.url))
            opening = self.opening
            try:
                self.archive = await asyncio.shield(opening)
            finally:
                if opening.done():
                    self.opening = None
            log.info("archive open", extra={"dialect": self.archive.dialect})
        return self.archive

    async def run(self) -> None:
        """The archiver's loop (one of the process's background tasks)."""
        if self.url == OFF:
            log.info("archive off (--archive-url off): finished games are not kept")
            return
        backoff = 0.5
        while not self.stopped:
            try:  # Redis alone: the lag is shown while the database is down too
                await self.measure_lag()
            except Exception:
                log.debug("archive lag: redis error", exc_info=True)
            try:
                await self.connect()
                if self.passes and not self.backfilled:
                    await self.backfill()
                    self.backfilled = True
                if self.passes and await self.pass_once():
                    await self.measure_lag()
                backoff = 0.5
            except asyncio.CancelledError:
                raise
            except Exception:
                self.errors += 1
                log.warning("archive pass failed; retrying", exc_info=True)
                await self.drop_connection()
                await asyncio.sleep(backoff * (0.5 + random.random()))
                backoff = min(backoff * 2, MAX_BACKOFF)
                continue
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.period)
            if not self.stopped and self.passes and self.gather > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.hurry.wait(), self.gather)
                self.hurry.clear()

    async def drop_connection(self) -> None:
        if self.archive is not None:
            archive, self.archive = self.archive, None
            try:
                await archive.close()
            except Exception:
                log.debug("closing a failed archive connection", exc_info=True)

    async def close(self) -> None:
        self.stopped = True
        if self.flushing is not None:  # the rooms gathered are queued now, not lost
            self.flushing.cancel()
            self.flushing = None
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.flush(), 2.0)
        for t in list(self.tasks):
            t.cancel()
        opening, self.opening = self.opening, None
        if opening is not None:  # an opening the loop's cancel left running: close what it opens
            try:
                archive = await asyncio.wait_for(asyncio.shield(opening), 10)
                await archive.close()
            except Exception:
                log.debug("an archive opening at stop", exc_info=True)
        await self.drop_connection()

    async def pass_once(self) -> int:
        """Archive the rooms waiting (at most :data:`BATCH`); returns how many were done."""
        rooms = [
            m.decode() if isinstance(m, bytes) else str(m)
            for m in await self.r.zrange(DUE, 0, BATCH - 1)
        ]
        return await self.archive_rooms(rooms) if rooms else 0

    async def measure_lag(self) -> None:
        """The fleet-wide lag, for this process's metrics (rooms waiting, the oldest's age
        in seconds); not read without them (the archiver's own process)."""
        if self.metrics is None:
            return
        async with self.r.pipeline(transaction=False) as p:
            p.zcard(DUE)
            p.zrange(DUE, 0, 0, withscores=True)
            n, oldest = await p.execute()
        now = self.store.clock.now_ms()
        age = max(0.0, (now - float(oldest[0][1])) / 1000) if oldest else 0.0
        self.metrics.archive_lag = (int(n), age)

    async def archive_rooms(self, rooms: list[str]) -> int:
        """Archive what each room's log holds from its ``pos`` on; take each off the queue
        unless it was queued again meanwhile; returns how many were. The rooms' marks are
        read in one round trip, the hands of all of them written in one transaction, and
        the rooms taken off the queue in one more. Raises on a database error (the rooms
        stay queued)."""
        archive = await self.connect()
        async with self.r.pipeline(transaction=False) as p:
            for room in rooms:
                p.hget(QUEUED, room)
                p.hget(POS, room)
                p.hget(HANDS, room)
            marks = await p.execute()
        # the rooms' logs read together (on the pipelined connection: one round trip for
        # each :data:`READ_TOGETHER` rooms; through redis-py's pool, as many connections)
        passes: list[RoomPass] = []
        for at in range(0, len(rooms), READ_TOGETHER):
            passes += await asyncio.gather(
                *(
                    self.read_pass(room, *marks[3 * i : 3 * i + 3])
                    for i, room in enumerate(rooms[at : at + READ_TOGETHER], at)
                )
            )
        # the hands of the games in progress (a finished game's are written with it)
        await archive.put_hands([h for ps in passes for h in ps.hands])
        for ps in passes:
            for g in ps.finished:
                await self.archive_game(archive, ps.room, g)
        keys = (DUE, QUEUED, POS, HANDS, HELD)
        async with self.r.pipeline(transaction=False) as p:
            for ps in passes:
                p.eval(DONE, len(keys), *keys, ps.room, ps.token, ps.next_pos, ps.mark, ps.drop)
            dones = await p.execute()
        done = 0
        for ps, d in zip(passes, dones, strict=True):
            if not d:
                continue  # queued again meanwhile: the next pass reads on
            done += 1
            if int(d) == 2 or ps.closed:
                # off the queue first, then the expiry of a closed room its close left to
                # us; it plays no more games: where to read its log from is dropped too
                # (a backfill that queues it again reads it whole anyway)
                await self.forget(ps.room)
                if self.ttl > 0:
                    await self.store.expire_room(ps.room, self.ttl)
        return done

    async def read_pass(
        self,
        room: str,
        queued: bytes | str | None,
        raw_pos: bytes | str | None,
        raw_mark: bytes | str | None,
    ) -> RoomPass:
        """What a pass does for ``room``, from its queue count, ``pos`` and mark (as read):
        its log read on from there, split into the finished games and the hands of the game
        in progress, and the marks to set when it is done."""
        games, next_pos, closed = await self.games_from(room, raw_pos, raw_mark)
        ps = RoomPass(room, next_pos=next_pos, closed=closed)
        for g in games:
            if g.finished:
                ps.finished.append(g)
                continue
            # in progress: its start is read again for its record
            ps.hands.extend(hand_records(g))
            ps.next_pos = min(ps.next_pos, g.first_version)
            end = last_hand_end(g)
            if end is not None:
                ps.mark = f"{end + 1} {g.game_id}"
        # '' : queued by the backfill only (no count)
        ps.token = queued.decode() if isinstance(queued, bytes) else str(queued or "")
        ps.drop = "1" if all(g.finished for g in games) else "0"
        return ps

    async def archive_game(self, archive: Archive, room: str, g: GameLog) -> None:
        """Keep a finished game and its hands. Read from its start, the game's record
        holds its whole log (its hands keep none). Read on from its last archived hand, its
        record joins the stretches those hands kept with the entries read now: each entry
        is read from Redis once; if a hand kept no stretch (written by an older process),
        the game is read whole again."""
        if g.continues is not None:
            await archive.put_hands(hand_records(g))
            start = scan(await self.store.read_log_packed(room, g.first_version, g.first_version))
            record = game_record(g, start[0]) if start else None
            if record is not None and await archive.put_game(record, joined=True):
                self.archived_games += 1
                return
            whole = split_games(room, await self.read_from(room, g.first_version))
            if not whole:
                return
            g = whole[0]
        record = game_record(g)
        await archive.put_hands(hand_records(g, logs=False))
        if record is not None:
            await archive.put_game(record)
            self.archived_games += 1

    async def games_from(
        self, room: str, raw_pos: bytes | str | None, raw_mark: bytes | str | None
    ) -> tuple[list[GameLog], int, bool]:
        """``(the games to archive, the version after the last entry read, whether an
        entry read closed the room)``, from the room's ``pos`` and mark (as read). A game
        whose hands were archived up to its mark is read on from the mark (its new hands,
        and its end) rather than from its start, so each entry of the log is read once."""
        pos = int(raw_pos) if raw_pos is not None else 1
        continues: tuple[int, str] | None = None
        start = pos
        if raw_mark is not None:
            text = raw_mark.decode() if isinstance(raw_mark, bytes) else str(raw_mark)
            at, _, gid = text.partition(" ")
            if int(at) > pos:
                start, continues = int(at), (pos, gid)
        entries = await self.read_from(room, start)
        closed = any(closes(e.head) for e in entries)
        games = split_games(room, entries, continues)
        return games, entries[-1].version + 1 if entries else start, closed

    async def read_from(self, room: str, start: int) -> list[Entry]:
        """The room's log from ``start`` on, as the archive reads it (server/archive/scan.py:
        the kept fields packed, not unpacked)."""
        out: list[Entry] = []
        while True:
            rows = await self.store.read_log_packed(room, start, count=LOG_CHUNK)
            out.extend(scan(rows))
            if len(rows) < LOG_CHUNK:
                return out
            start = rows[-1][0] + 1

    # --------------------------------------------------------------------- the backfill

    async def backfill(self) -> int:
        """Queue every retained room whose last finished game is not in the archive (games
        finished before the archive existed, or whose queueing was lost); once per start."""
        archive = await self.connect()
        queued = 0
        async for room in self.store.scan_room_states():
            loaded = await self.store.load(room)
            if loaded is None:
                continue
            state = loaded[1]
            gid = last_finished_game(state)
            if gid is None or await archive.has_game(gid):
                continue
            async with self.r.pipeline(transaction=False) as p:
                p.zadd(DUE, {room: self.store.clock.now_ms()}, nx=True)
                p.hdel(POS, room)  # read its whole log again (the writes are idempotent)
                p.hdel(HANDS, room)
                await p.execute()
            if state["status"] == "closed":
                await self.hold(room)
            queued += 1
        if queued:
            log.info("archive backfill", extra={"rooms": queued})
            self.wake.set()
        return queued


def last_finished_game(state: RoomState) -> str | None:
    """The id of the room's last finished game, None when it has none."""
    history = state.get("history") or []
    if not history:
        return None
    gid = history[-1].get("game_id")
    if gid:
        return str(gid)
    # a game of before ids: its number is game_no, or game_no - 1 while the next is played
    n = int(state.get("game_no") or 0)
    if state.get("status") == "playing":
        n -= 1
    return game_id_of({**state, "game_no": n, "game_id": ""}) if n > 0 else None


async def wait_archived(archiver: Archiver, timeout: float) -> None:
    """Wait until no room waits for the archive (tests, a graceful stop's best effort)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        await archiver.flush()  # the rooms gathered but not queued yet
        if not int(await archiver.r.zcard(DUE)):
            return
        archiver.hurry.set()
        archiver.wake.set()
        await asyncio.sleep(0.05)
    raise TimeoutError("rooms still wait for the archive")
