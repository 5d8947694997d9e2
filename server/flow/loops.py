"""Background loops: commit notifications (pub/sub), timers that fire due rooms, and the healing of lost notifications and timers.

The subscription is a :class:`Notifier`: :class:`PubSubNotifier` here (one ``PSUBSCRIBE``),
``server.flow.cluster_notifier.ClusterNotifier`` on a Redis Cluster; ``App`` is given the one to use.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

import redis.exceptions

from protocol.codes import ErrorCode
from server.flow import bot_pool, bot_worker, entropy
from server.flow.commits import Commits, Offload, Outcome
from server.flow.fanout import Feeds
from server.flow.runtime import REDIS_OR_OS, Runtime
from server.room import commands, game, game_room, schedule
from server.room.rooms import RoomError
from server.room.state import Entry, RoomState
from server.storage import resp
from server.storage.store import CHANNEL_PATTERN, room_of_channel
from server.storage.store_base import BATCH

log = logging.getLogger("mahjong.server")
#: a process counts as live (is sent other processes' commit notifications) this long after
#: it last renewed its registration (every 5 s, by the heal loop)
PROCESS_LIVE_MS = 30_000
#: rooms whose timers fire at once (each a task: a tick waiting for a bot's decision in the
#: worker process holds up no other room)
MAX_FIRING = 128
#: the random source of a timer tick in which no bot chooses (never drawn from; were it
#: ever, the operating system's randomness, which needs no seeding)
_NO_CHOICE = random.SystemRandom()


class Notifier(Protocol):
    """Hears of other processes' commits and kicks the feeds they concern."""

    def loops(self) -> list[Coroutine[Any, Any, None]]:
        """The notifier's background loops, started with the process's other loops."""
        ...


#: makes the process's notifier: (runtime, feeds, loops)
NotifierFactory = Callable[[Runtime, Feeds, "Loops"], Notifier]


class Loops:
    """Timers and healing (see the module docstring)."""

    def __init__(
        self,
        rt: Runtime,
        feeds: Feeds,
        commits: Commits,
        sweep_leavers: Callable[[], Awaitable[None]],
    ) -> None:
        self.rt = rt
        self.feeds = feeds
        self.commits = commits
        #: once a second: presence's sweep of the players a graceful stop disconnected
        #: (given, as presence is a layer above: docs/server.md "Layers")
        self.sweep_leavers = sweep_leavers
        #: room -> the task firing its timer (see timer_loop)
        self.firing: dict[str, asyncio.Task[None]] = {}

    def committed(self, room: str, version: int, entry: Entry, deadline: int | None) -> None:
        """After-commit hook: a deadline due before the next poll wakes the timer loop."""
        self._wake_for(deadline)

    def held(self, room: str, deadline: int | None) -> None:
        """After an answer is held: the window's close, due before the next poll, wakes the
        timer loop."""
        self._wake_for(deadline)

    def _wake_for(self, deadline: int | None) -> None:
        if deadline is not None and deadline <= self.rt.clock.now_ms() + self.rt.cfg.timer_poll_ms:
            self.rt.timer_wake.set()

    def on_notification(self, channel: bytes | str, data: Any) -> None:
        """A pub/sub notification of a room's new version: wake its feed if it is behind."""
        room = room_of_channel(channel.decode() if isinstance(channel, bytes) else channel)
        if room is None or room not in self.feeds:
            return
        try:
            v: int | None = int(data)
        except (TypeError, ValueError):
            v = None
        self.feeds.notified(room, v)

    async def reconcile_timers(self) -> None:
        """After a restart: make sure every open room with a deadline has a timer."""
        store = self.rt.store
        await store.reindex_timers(await store.open_rooms())

    async def register_process(self) -> None:
        """Count this process among the live ones (``mj:procs``), once its subscription is
        listening: from then on the others publish their commits' notifications for it, and
        a process that finds itself alone publishes none (commit.lua). Renewed by the heal
        loop; a process that stops renewing (crashed, or stalled for ``PROCESS_LIVE_MS``)
        stops being notified, and its heal loop still finds what it missed."""
        await self.rt.store.register_process(self.rt.proc_key, PROCESS_LIVE_MS)

    async def heal_loop(self) -> None:
        """Safety nets: lost pub/sub messages (versions compared once a second) and timers
        lost between a commit and its index update (all open rooms re-indexed every 30 s)."""
        rt = self.rt
        ticks = 0
        loop = asyncio.get_running_loop()
        while not rt.stopped:
            t = loop.time()
            await asyncio.sleep(1.0)
            # how late the loop woke us: a blocked or saturated event loop (GC, CPU)
            lag = loop.time() - t - 1.0
            rt.metrics.loop_lag_max = max(rt.metrics.loop_lag_max, lag)
            if lag > 0.05:
                rt.metrics.inc("loop_lags")
            ticks += 1
            with rt.redis_guard():
                await self.sweep_leavers()
                if ticks % 5 == 0 and rt.store.proc_id is not None:
                    await self.register_process()
            if ticks % 30 == 0:
                with rt.redis_guard():
                    await self.reconcile_timers()
            names = self.feeds.rooms()
            with rt.redis_guard() as g:
                versions = await rt.store.versions(names)  # pipelined: 1 trip / 256 rooms
            if g.failed:
                continue
            for i, (room, v) in enumerate(zip(names, versions, strict=True)):
                if i and i % BATCH == 0:
                    # let waiting requests run between slices: at thousands of rooms this
                    # pass would otherwise hold the event loop for several ms each second
                    await asyncio.sleep(0)
                f = self.feeds.get(room)
                if f is not None and any(c.rooms.get(room, 0) < v for c in f.conns):
                    rt.metrics.inc("gap_heals")
                    f.kick()

    async def timer_loop(self) -> None:
        """Fire the due rooms, each in a task of its own (at most :data:`MAX_FIRING` at
        once): a room waiting for its tick (a bot thinking in a worker process) never holds
        up another room's timer."""
        rt = self.rt
        try:
            while not rt.stopped:
                try:
                    with rt.redis_guard("timer loop: redis error", REDIS_OR_OS):
                        # the rooms already firing are still due: ask for that many more
                        due = await rt.store.due_rooms(
                            self.rt.clock.now_ms(), 32 + len(self.firing)
                        )
                        random.shuffle(due)  # processes polling together: different rooms
                        for room in due:
                            if room in self.firing:
                                continue
                            if len(self.firing) >= MAX_FIRING:
                                break
                            task = asyncio.get_running_loop().create_task(self._fire(room))
                            self.firing[room] = task
                            task.add_done_callback(functools.partial(self._fired, room))
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("timer loop crashed")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(rt.timer_wake.wait(), rt.cfg.timer_poll_ms / 1000)
                rt.timer_wake.clear()
        finally:
            for task in list(self.firing.values()):
                task.cancel()

    def _fired(self, room: str, _task: asyncio.Task[None]) -> None:
        self.firing.pop(room, None)

    async def _fire(self, room: str) -> None:
        """:meth:`fire`, its errors logged (a task of the timer loop)."""
        try:
            with self.rt.redis_guard("timer loop: redis error", REDIS_OR_OS):
                await self.fire(room)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("timer fire crashed", extra={"room": room})

    async def fire(self, room: str) -> None:
        rt = self.rt
        if rt.shutting_down:
            return  # take no new work; the next process (or start) fires it
        rt.metrics.inc("timer_fires")
        tick = TimerTick(rt, rt.clock.now_ms())
        try:
            # the tick (engine steps and real-bot decisions) runs where off_loop says: a slow
            # bot decision never stalls the event loop, and in a bot worker process it never
            # holds the event loop's interpreter lock either
            offload: Offload = tick.off_loop if rt.cfg.bot_thread else False
            res, _ = await self.commits.mutate_window(room, tick.step, offload=offload)
        except RoomError as exc:
            if exc.code == ErrorCode.ROOM_NOT_FOUND:
                await rt.store.r.zrem("mj:timers", room)
                return
            raise
        except game.GameError:
            log.exception("timer action rejected by the engine", extra={"room": room})
            await rt.store.postpone_timer(room, self.rt.clock.now_ms() + 5000)
            return
        if res is None:
            # nothing was due (another process fired first): re-arm from the stored deadline
            await rt.store.reindex_timer(room)


class TimerTick:
    """One timer fire's tick of a room at ``t``: what is due, and where it runs."""

    def __init__(self, rt: Runtime, t: int) -> None:
        self.rt = rt
        self.t = t
        self.budget = rt.cfg.bot_budget_ms / 1000
        self.timing = rt.timing

    def step(self, state: RoomState, answers: game_room.Answers) -> Outcome | None:
        # seeded here, for the bots' choices: seeding costs ~30 µs, and most ticks (a
        # claim window's automatic passes) choose nothing (see off_loop)
        return self._tick(state, answers, random.Random(secrets.randbits(64)))

    def _tick(
        self, state: RoomState, answers: game_room.Answers, rng: random.Random, max_steps: int = 32
    ) -> Outcome | None:
        tick = commands.Tick(
            rng, bot_pool.chooser(self.budget), max_steps, entropy.secret_wall_seed
        )
        return commands.tick(state, tick, self.t, self.timing, answers)

    def due_kinds(self, state: RoomState, answers: game_room.Answers) -> set[str]:
        """The kinds of what is due in ``state`` that need more than one engine step (a
        bot's move, a deal): none when no seat is a bot or on automatic and no deal waits."""
        if state.get("next_hand_at") is None and not any(
            seat and (seat["bot"] or seat.get("auto")) for seat in state["seats"]
        ):
            return set()
        try:
            # (the commit of this state computed them: remembered, not redone)
            due = schedule.committed_deadlines(
                state, self.timing.grace_ms, self.timing.bot_delay_ms, answers
            )
        except game.GameError:
            return set()
        return {kind for at, kind, _ in due if at <= self.t}

    async def off_loop(self, state: RoomState, answers: game_room.Answers) -> Outcome | None:
        """Where the tick runs: in a bot worker process when a bot is due to move (a
        worker thread when there is no such process); a deal in a worker thread; the
        rest (a claim window's automatic answers, timeouts, a player's own settings, a
        grace period ending) in the event loop, one step, as a player's action is: an
        engine step costs less than a thread's hand-off and wake-ups (the threads took
        a quarter of the server's CPU at paced play)."""
        kinds = self.due_kinds(state, answers)
        if "bot" in kinds:
            if self.rt.cfg.bot_processes > 0:
                done = await self.in_bot_process(state, answers)
                if done is not None:
                    return done[0]
            return await asyncio.to_thread(self.step, state, answers)
        if "deal" in kinds:
            return await asyncio.to_thread(self.step, state, answers)
        # one step: a bot due after it (bot delay 0) waits for the next fire, which
        # sends it to the worker process; no bot chooses, so no seeded generator
        return self._tick(state, answers, _NO_CHOICE, max_steps=1)

    async def in_bot_process(
        self, state: RoomState, answers: game_room.Answers
    ) -> tuple[Outcome | None] | None:
        """The tick in a bot worker process: (its change,), or None when no process
        could take it (the pool is stopping, or a worker died: a new pool next time)."""
        args = (
            state,
            self.t,
            self.timing,
            secrets.randbits(64),
            self.budget,
            answers,
        )
        fut = bot_pool.in_bot_process(bot_worker.tick, *args)
        if fut is None:
            return None
        try:
            return (bot_worker.result(await asyncio.wrap_future(fut)),)
        except concurrent.futures.BrokenExecutor:
            bot_pool.drop_bot_pool()  # a worker died: a new one next time
            return None


class PubSubNotifier:
    """Commit notifications on one ``PSUBSCRIBE`` of every room's channel (single Redis)."""

    def __init__(self, rt: Runtime, feeds: Feeds, loops: Loops) -> None:
        self.rt = rt
        self.feeds = feeds
        self.owner = loops

    def loops(self) -> list[Coroutine[Any, Any, None]]:
        return [self.run()]

    async def run(self) -> None:
        commits = getattr(self.rt.store, "commits", None)
        if commits is not None:
            await self._run_pipelined(commits.url)
            return
        rt = self.rt
        while not rt.stopped:
            pubsub = rt.store.r.pubsub()
            try:
                await pubsub.psubscribe(CHANNEL_PATTERN)
                await self.owner.register_process()
                self.feeds.kick_all()  # we may have missed notifications
                while not rt.stopped:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if msg is None:
                        continue
                    self.owner.on_notification(msg["channel"], msg["data"])
                with contextlib.suppress(Exception):  # stopped
                    await asyncio.wait_for(pubsub.aclose(), 2.0)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pubsub.aclose(), 2.0)
                raise
            except (redis.exceptions.RedisError, OSError):
                rt.metrics.inc("redis_errors")
                log.warning("pub/sub connection lost; reconnecting", exc_info=True)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(0.5)

    async def _run_pipelined(self, url: str) -> None:
        """The pub/sub subscription on a connection of server/storage/resp.py: notifications are
        handled as they are parsed, without redis-py's per-message polling."""
        rt = self.rt
        while not rt.stopped:
            sub: resp.Subscription | None = None
            try:
                with rt.redis_guard("pub/sub connection failed; reconnecting", REDIS_OR_OS):
                    sub = await resp.psubscribe(url, CHANNEL_PATTERN, self.owner.on_notification)
                    if rt.stopped:
                        sub.close()
                        return
                    await self.owner.register_process()
                    self.feeds.kick_all()  # we may have missed notifications
                    await sub.wait_closed()
                    if rt.stopped:
                        return
                    rt.metrics.inc("redis_errors")
                    log.warning("pub/sub connection lost; reconnecting")
            except asyncio.CancelledError:
                if sub is not None:
                    sub.close()
                raise
            await asyncio.sleep(0.5)
