"""Commits: the only way a room's state changes in Redis — the room lock, the state cache, loads, the mutate loop with its compare-and-set retry, and the after-commit hooks. Room creation goes through here too.

A change is a command to the room (:mod:`server.room.commands`), whose ``step`` is a pure
function of the room's state returning a :class:`~server.commands.Outcome` (the state, log
entry and next deadline to write) or None; :meth:`Commits.apply` applies it to the latest
state and commits it with the version check of ``commit.lua``, retrying on a conflict.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

from protocol.codes import ErrorCode
from server.process.clock import Clock
from server.process.config import Config
from server.process.metrics import Metrics
from server.room import commands, game, game_room
from server.room.rooms import Change, RoomError
from server.room.state import Entry, RoomState
from server.storage import patches
from server.storage.store import CommitResult, Store

log = logging.getLogger("mahjong.server")
JSON = dict[str, Any]
MAX_ATTEMPTS = 25
#: rooms whose latest committed state this process keeps in memory (LRU)
STATE_CACHE_ROOMS = 2048

Answers = game_room.Answers
Held = game_room.Held
Outcome = commands.Outcome
#: a change of a room given its state and the answers held for its open claim window
#: (``game_room.held_answers``): its outcome, None, or (``game_room.answer``) an answer to
#: hold (``commands.step`` of a command)
WindowFn = Callable[[RoomState, Answers], Outcome | Held | None]
#: where a change is computed: False in the event loop, True in a worker thread, or a
#: coroutine function computing it elsewhere (a bot worker process, server/flow/loops.py)
Offload = bool | Callable[[RoomState, Answers], Awaitable[Outcome | None]]

#: after-commit hook: (room, version, log entry, the room's next deadline or None)
Hook = Callable[[str, int, Entry, int | None], None]


class Cached(NamedTuple):
    """A room's state as this process last committed or loaded it."""

    version: int
    state: RoomState
    #: the version of its last snapshot (None: the state in Redis is in the format of
    #: before snapshots; see ``Commits._commit``)
    snap: int | None
    #: whether answers may be held for the claim window open in it
    #: (``Outcome.holds_answers``; None: not known, asked of the room)
    holds: bool | None


class Commits:
    """Changes to rooms, committed atomically (see the module docstring)."""

    def __init__(
        self, cfg: Config, store: Store, metrics: Metrics, clock: Clock, timing: commands.Timing
    ) -> None:
        self.cfg = cfg
        self.clock = clock
        self.store = store
        self.metrics = metrics
        #: the server's settings a room's deadlines are computed with (``Runtime.timing``)
        self.timing = timing
        self.room_locks: dict[str, asyncio.Lock] = {}
        # room -> its state as last committed or loaded by this process (see _base), the
        # ``STATE_CACHE_ROOMS`` rooms used last
        self.cache: OrderedDict[str, Cached] = OrderedDict()
        # room -> (version, n, answers): the answers held for the room's open claim window
        # as this process last knew them at that version (see _mutate), for rooms in
        # ``cache``
        self.answers_seen: dict[str, tuple[int, int, Answers]] = {}
        # room -> its load from Redis in progress (see load_shared)
        self.loading: dict[str, asyncio.Future[tuple[int, RoomState] | None]] = {}
        #: called after each commit of this process, in order (fan-out, timers)
        self.hooks: list[Hook] = []
        #: called after an answer is held (no commit): (room, the room's next deadline)
        self.held_hooks: list[Callable[[str, int | None], None]] = []

    # ------------------------------------------------------------------ reads

    async def load_shared(self, room: str) -> tuple[int, RoomState] | None:
        """The room's latest state for a snapshot: this process's cached copy when it is
        at the room's committed version (one small read instead of loading and decoding the
        whole state), else one load from Redis shared by every caller waiting for the same
        room (the four seats of a room resuming together after a restart) and kept in the
        cache, so the presence update and the next action of the room need no load of their
        own."""
        cached = self.cache.get(room)
        if cached is not None and await self.store.version(room) == cached.version:
            return cached.version, cached.state
        pending = self.loading.get(room)
        if pending is not None:
            try:
                return await asyncio.shield(pending)
            except asyncio.CancelledError:
                if not pending.cancelled():
                    raise  # this caller was cancelled
                return await self.store.load(room)  # the loading caller was
        fut: asyncio.Future[tuple[int, RoomState] | None] = (
            asyncio.get_running_loop().create_future()
        )
        self.loading[room] = fut
        try:
            full = await self.store.load_room(room)
        except asyncio.CancelledError:
            fut.cancel()
            raise
        except Exception as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved here: the waiters re-raise it
            raise
        finally:
            self.loading.pop(room, None)
        loaded = None if full is None else (full[0], full[1])
        known = self.cache.get(room)
        if full is not None and (known is None or known.version < full[0]):
            self._remember_state(room, *full)
        fut.set_result(loaded)
        self.metrics.inc("room_loads")
        return loaded

    # ------------------------------------------------------------------ writes

    def _lock(self, room: str) -> asyncio.Lock:
        lock = self.room_locks.get(room)
        if lock is None:
            lock = self.room_locks[room] = asyncio.Lock()
            if len(self.room_locks) > 4 * STATE_CACHE_ROOMS:  # bounded: drop idle locks
                for r, lk in list(self.room_locks.items()):
                    if not lk.locked() and r != room:
                        del self.room_locks[r]
        return lock

    async def create(self, room: str, change: Change) -> CommitResult:
        """Commit a new room's first state (version 1), under the room's lock, cached and
        announced to the hooks like every other commit."""
        out = commands.outcome(None, change, self.clock.now_ms(), self.timing)
        async with self._lock(room):
            res = await self._commit(room, 0, out)
        if res.status != "ok":  # a room id taken (never: 64 random bits)
            raise RoomError(ErrorCode.BUSY, "could not create the room; retry")
        return res

    async def apply(
        self,
        room: str,
        command: commands.Command,
        player: str | None = None,
        client_seq: int | None = None,
    ) -> tuple[CommitResult | None, RoomState | None]:
        """Commit ``command`` to the room: :func:`server.room.commands.step` on its latest state,
        at the time of each attempt, with the answers held for its claim window (a
        :class:`~server.commands.Play` may hold one more: written by answer.lua, no commit;
        the result's status is "held" and its version the room's). Atomic, retried on
        version conflicts. Returns (result or None when nothing changed, state).

        Changes to one room are serialised within this process (a lock per room), so
        concurrent requests for a room (three seats answering a discard) queue up instead of
        conflicting on the version check; other processes still race through it."""

        def fn(state: RoomState, answers: Answers) -> Outcome | Held | None:
            return commands.step(state, command, self.clock.now_ms(), self.timing, answers)

        return await self.mutate_window(room, fn, player, client_seq)

    async def mutate_window(
        self,
        room: str,
        fn: WindowFn,
        player: str | None = None,
        client_seq: int | None = None,
        offload: Offload = False,
    ) -> tuple[CommitResult | None, RoomState | None]:
        """:meth:`apply` of a function of the room's state and held answers rather than a
        command: the timer's tick, which ``offload`` may run in a bot worker process."""
        async with self._lock(room):
            return await self._mutate(room, fn, player, client_seq, offload)

    async def _mutate(
        self,
        room: str,
        fn: WindowFn,
        player: str | None,
        client_seq: int | None,
        offload: Offload,
    ) -> tuple[CommitResult | None, RoomState | None]:
        again: _Again | None = None
        for attempt in range(MAX_ATTEMPTS):
            done = await self._attempt(room, fn, player, client_seq, offload, attempt, again)
            if not isinstance(done, _Again):
                return done
            again = done
        raise RoomError(ErrorCode.BUSY, "the room is too busy; retry")

    async def _attempt(
        self,
        room: str,
        fn: WindowFn,
        player: str | None,
        client_seq: int | None,
        offload: Offload,
        attempt: int,
        again: _Again | None,
    ) -> tuple[CommitResult | None, RoomState | None] | _Again:
        """One attempt of :meth:`_mutate`: its result, or why to try again (``KEEP``: the
        last attempt failed on the held answers only, so this process's copy of the state
        is kept and the answers are read)."""
        keep = again is _Again.KEEP
        base = await self._base(room, attempt == 0 or keep, player, client_seq)
        if isinstance(base, _Dup):
            return base.result, base.state
        start, cached = base
        version, state, snap_version = start.version, start.state, start.snap
        answers_n, answers, guessed = await self._window_answers(room, start, cached, keep)
        try:
            out = await _compute(fn, offload, state, answers)
        except (RoomError, game.GameError):
            if not cached:
                raise
            self._forget_state(room)  # maybe stale, or a duplicate: decide on Redis's
            return _Again.RELOAD
        if isinstance(out, game_room.Held):
            res = await self.store.hold_answer(
                room, version, answers_n or 0, out.seat, out.record, player, client_seq,
                out.deadline,
            )  # fmt: skip
            if res.status == "answers":  # an answer was added meanwhile: read them
                return _Again.KEEP
            if res.status == "conflict":
                await self._conflict(room, attempt)
                return _Again.RELOAD
            if res.status == "held":
                self._held(room, version, answers_n, answers, out)
            return res, state
        if out is None:
            return await self._nothing(room, version, state, cached, guessed, client_seq)
        held = (answers_n, answers) if answers_n is not None else None
        res = await self._commit(
            room,
            version,
            out,
            player=player,
            client_seq=client_seq,
            base=state,
            snap_version=snap_version,
            held=held,
        )
        if res.status == "answers":
            return _Again.KEEP
        if res.status == "conflict":
            await self._conflict(room, attempt)
            return _Again.RELOAD
        return res, out.change.state

    async def _nothing(
        self,
        room: str,
        version: int,
        state: RoomState,
        cached: bool,
        guessed: bool,
        client_seq: int | None,
    ) -> tuple[None, RoomState] | _Again:
        """The change changes nothing: so it is, unless that was decided on a guess."""
        if guessed:
            # (a timer fired for a window another process's held answer made due: our
            # guess of the answers may be what says nothing is due) read them
            return _Again.KEEP
        if cached:
            # nothing to change on our copy: true of the room itself if our copy is its
            # committed version (one small read instead of a reload: a presence check of
            # a seat resuming after a restart, thousands in a reconnect storm); a request
            # with a client seq is decided on Redis's state (it may be a duplicate). A
            # no-op on a stale copy (a join_room "already in" a room another process has
            # since removed the player from) is decided on Redis's state too
            if client_seq is None and await self.store.version(room) == version:
                return None, state
            self._forget_state(room)
            return _Again.RELOAD
        return None, state

    async def _base(
        self, room: str, use_cache: bool, player: str | None, client_seq: int | None
    ) -> tuple[Cached, bool] | _Dup:
        """The state an attempt starts from, and whether it is this process's cached copy
        (loaded: whether it holds answers is not known). The state this process committed last
        for the room, if any, is used optimistically (no load from Redis; the commit's
        version check catches a stale copy: another process committed since, and then the
        loop reloads from Redis). Loaded from Redis, a request already applied (its client
        seq) is a duplicate: its result."""
        cached = self.cache.get(room) if use_cache else None
        if cached is not None:
            return cached, True
        loaded = await self.store.load_room(room)
        if loaded is None:
            raise RoomError(ErrorCode.ROOM_NOT_FOUND, "no such room")
        version, state, snap_version = loaded
        if client_seq is not None and player is not None:
            last, at = await self.store.last_seq(room, player)
            if client_seq <= last:
                return _Dup(CommitResult("dup", at, last), state)
        return Cached(version, state, snap_version, None), False

    async def _window_answers(
        self, room: str, start: Cached, cached: bool, keep: bool
    ) -> tuple[int | None, Answers, bool]:
        """The answers held for the open claim window: (how many, them, guessed). None
        when no window a player could answer is open; every commit while one is takes them
        into account (its deadline) and checks them (none added since: else "answers", and
        they are read again). Used optimistically like the state: as this process last knew
        them at this version, or none (almost always true: at paced play ~1 answer in 100 is
        held, the others close their window at once); a wrong guess costs one attempt."""
        holds = start.holds
        if not (game_room.holds_answers(start.state) if holds is None else holds):
            return None, {}, False
        if not cached or keep:
            n, answers = await self.store.answers(room)
            return n, answers, False
        seen = self.answers_seen.get(room)
        if seen is not None and seen[0] == start.version:
            return seen[1], seen[2], True
        return 0, {}, True

    def _held(
        self, room: str, version: int, answers_n: int | None, answers: Answers, out: Held
    ) -> None:
        """An answer was held (no commit): remembered, and the hooks told."""
        n = (answers_n or 0) + 1
        self.answers_seen[room] = (version, n, {**answers, out.seat: out.record})
        self.metrics.inc("held_answers")
        for held_hook in self.held_hooks:
            held_hook(room, out.deadline)

    async def _conflict(self, room: str, attempt: int) -> None:
        """Another process committed first: forget our copy, back off a little."""
        self._forget_state(room)
        self.metrics.inc("commit_conflicts")
        await asyncio.sleep(random.uniform(0, 0.002 * (attempt + 1)))

    async def _commit(
        self,
        room: str,
        version: int,
        out: Outcome,
        *,
        player: str | None = None,
        client_seq: int | None = None,
        base: RoomState | None = None,
        snap_version: int | None = None,
        held: tuple[int, Answers] | None = None,
    ) -> CommitResult:
        """Commit the outcome ``out`` over ``version`` (compare-and-set; ``base``: the state
        at ``version``, whose last snapshot is at ``snap_version``); on success cache the
        state and run the after-commit work. The one call of ``Store.commit`` in the server.

        ``held``: (n, the answers) held for the claim window open in ``base``, as read (the
        outcome's deadlines took them into account): the commit fails if one was added
        since, and a change that closes the window deletes them (it applied them:
        ``game_room.tick``).

        The whole state is written when the last snapshot is ``--snapshot-every`` versions
        old or at a hand boundary (``out.boundary``); else a patch from ``base``."""
        entry = out.entry
        if client_seq is not None:
            entry = entry.copy()
            entry["cseq"] = client_seq
        patch = None
        if (
            base is not None
            and snap_version is not None
            and version + 1 - snap_version < self.cfg.snapshot_every
            and not out.boundary
        ):
            patch = patches.diff(base, out.change.state)
        closes_window = held is not None and out.window_changed
        res = await self.store.commit(
            room,
            version,
            out.change.state,
            entry,
            player,
            client_seq,
            deadline=out.next_deadline,
            patch=patch,
            answers_n=held[0] if held is not None else None,
            close_window=closes_window,
            now=entry["t"],
        )
        if res.status == "ok":
            self._committed(
                room, res, out.change, snap_version, None if closes_window else held,
                out.holds_answers,
            )  # fmt: skip
            await self.after_commit(room, res.version, out.change.state, entry, out.next_deadline)
        return res

    def _committed(
        self,
        room: str,
        res: CommitResult,
        change: Change,
        snap_version: int | None,
        still_held: tuple[int, Answers] | None,
        holds: bool,
    ) -> None:
        """What this process keeps of a commit: the metrics, the answers held for the claim
        window still open (``still_held``; none when the commit closed it), the state (and
        ``holds``: whether answers may be held for its window)."""
        log.debug(
            "commit",
            extra={
                "room": room,
                "version": res.version,
                "kind": change.kind,
                "actor": change.actor,
                "actions": len(change.actions),
            },
        )
        self.metrics.commits[change.kind] += 1
        self.metrics.counters["actions"] += len(change.actions)
        snapped = res.version if res.snapshot else snap_version
        if still_held is None:
            self.answers_seen[room] = (res.version, 0, {})  # (closed: deleted)
        else:
            self.answers_seen[room] = (res.version, still_held[0], still_held[1])
        self._remember_state(room, res.version, change.state, snapped, holds)

    async def after_commit(
        self, room: str, version: int, state: RoomState, entry: Entry, deadline: int | None
    ) -> None:
        """A closed room expires (``Store.close_room``); then every hook hears of the commit."""
        if state["status"] == "closed":
            await self.store.close_room(room, state["code"], self.cfg.closed_room_ttl)
        for hook in self.hooks:
            hook(room, version, entry, deadline)

    def _remember_state(
        self,
        room: str,
        version: int,
        state: RoomState,
        snap_version: int | None,
        holds: bool | None = None,
    ) -> None:
        if state["status"] == "closed":
            self._forget_state(room)
            return  # (its lock, if idle, goes with the next sweep of idle locks)
        self.cache[room] = Cached(version, state, snap_version, holds)
        self.cache.move_to_end(room)
        while len(self.cache) > STATE_CACHE_ROOMS:
            old, _ = self.cache.popitem(last=False)
            self.answers_seen.pop(old, None)

    def _forget_state(self, room: str) -> None:
        self.cache.pop(room, None)
        self.answers_seen.pop(room, None)


class _Again(enum.Enum):
    """Why an attempt of a change is made again: ``RELOAD`` from Redis's state, or
    ``KEEP`` this process's copy and read the answers held for the claim window."""

    RELOAD = "reload"
    KEEP = "keep"


class _Dup(NamedTuple):
    """A request already applied (its client seq), found at an attempt's load."""

    result: CommitResult
    state: RoomState


async def _compute(
    fn: WindowFn, offload: Offload, state: RoomState, answers: Answers
) -> Outcome | Held | None:
    """``fn`` of the state where ``offload`` says (the event loop, a thread, elsewhere)."""
    if callable(offload):
        return await offload(state, answers)
    if offload:
        return await asyncio.to_thread(fn, state, answers)
    return fn(state, answers)
