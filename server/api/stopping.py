"""Graceful stop and reconnect learning: tell every client when to come back, close, and learn from each restart how fast clients can return (``server/process/reconnect.py``)."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable

from protocol import messages as m
from server.api.presence import Presence
from server.flow.runtime import Runtime
from server.net.transport import flush_all
from server.process.reconnect import (
    HelloMeter,
    Learned,
    Plan,
    plan,
    probe_wait,
    raised,
    restart_gap,
    smooth,
)

log = logging.getLogger("mahjong.server")


class Stopping:
    """A graceful stop's reconnect schedule, and what restarts teach it."""

    def __init__(self, rt: Runtime, presence: Presence) -> None:
        self.rt = rt
        self.presence = presence
        self.meter = HelloMeter(busy_waiting=max(1, rt.cfg.hello_concurrency))
        self.stretches = 0  # saturated stretches the meter measured (see probe_plan)
        self.probe: asyncio.Task[None] | None = None

    async def learn_at_start(self) -> None:
        """What earlier restarts taught (mj:restart), before serving."""
        rt = self.rt
        with rt.redis_guard():
            gap, rate = await rt.store.learned_restart()
            rt.learned = Learned(gap, rate)

    def reconnect_plan(self, n: int, others: int = 0) -> Plan:
        """The reconnect plan of a graceful stop with ``n`` clients and ``others`` live
        processes besides this one (:func:`server.process.reconnect.plan`)."""
        cfg = self.rt.cfg
        return plan(n, cfg.reconnect_after_seconds, cfg.reconnect_rate, self.rt.learned, others)

    async def shutdown(
        self,
        stop_timers: Callable[[], Awaitable[None]],
        close_connections: Callable[[], Awaitable[None]],
        stop_tasks: Callable[[], Awaitable[None]],
    ) -> None:
        """Stop accepting, tell clients to reconnect, finish in-flight requests."""
        rt = self.rt
        if rt.shutting_down:
            return
        rt.shutting_down = True
        log.info("shutting down", extra={"connections": len(rt.conns)})
        # how long each part took, logged at the end: the restart gap clients wait out
        # (server/process/reconnect.py) is mostly this stop at thousands of connections
        phases: dict[str, float] = {}
        t = time.monotonic()

        def lap(name: str) -> None:
            nonlocal t
            now = time.monotonic()
            phases[name] = round(now - t, 3)
            t = now

        # take no new work: the other processes (or the next start) fire the timers; a tick
        # running in a worker thread is not waited for (its commit is dropped or lands)
        await stop_timers()
        lap("timers_s")
        conns = list(rt.conns)
        others = 0
        with rt.redis_guard():
            # what other processes learned since this one started, and who else is live
            gap, rate = await rt.store.learned_restart()
            rt.learned = Learned(
                gap if gap is not None else rt.learned.restart_gap_s,
                rate if rate is not None else rt.learned.hello_rate,
            )
            # the live processes besides this one (registered in mj:procs until it stops)
            others = max(0, await rt.store.live_processes() - 1)
        p = self.reconnect_plan(len(conns), others)
        at = rt.clock.now_ms()
        with rt.redis_guard():
            await rt.store.note_stopping(
                at, at + int((p.after_s + p.spread_s) * 1000), p.probe_rate
            )
        delays = p.delays(len(conns), random.Random())
        for conn, delay_ms in zip(conns, delays, strict=True):
            conn.send(
                m.Closing(reason="server shutting down", reconnect=True, retry_after_ms=delay_ms)
            )
        lap("closing_sent_s")
        await flush_all(conns, 1.0)
        lap("flushed_s")
        await close_connections()
        lap("connections_closed_s")
        await self.presence.record_leavers()
        with rt.redis_guard():
            await rt.store.unregister_process()
        await stop_tasks()
        lap("leavers_and_tasks_s")
        log.info("stopped gracefully", extra={"connections": len(conns), **phases})

    async def meter_loop(self, every: float = 0.25) -> None:
        """Sample the hello meter: a window in which this process was saturated with hellos
        (a reconnect storm) measures its hello rate, kept (smoothed) in Redis for the next
        graceful stop of any process (``server/process/reconnect.py``)."""
        rt = self.rt
        while not rt.stopped:
            await asyncio.sleep(every)
            rate = self.meter.tick(time.monotonic(), rt.hellos_done, rt.greeting)
            if rate is None:
                continue
            self.stretches += 1
            smoothed = smooth(rt.learned.hello_rate, rate)
            rt.learned = Learned(rt.learned.restart_gap_s, smoothed)
            with rt.redis_guard():
                await rt.store.save_hello_rate(smoothed)

    async def note_listening(self) -> asyncio.Task[None] | None:
        """This process listens: if it follows a graceful stop, learn the restart gap (the
        stop's ``closing`` messages -> now), and check the stop's reconnect plan once its
        last client is due (:meth:`probe_plan`, the task returned)."""
        rt = self.rt
        with rt.redis_guard() as g:
            at, until, rate = await rt.store.take_stopped()
            sample = restart_gap(at, rt.clock.now_ms())
            if sample is None:
                return None
            gap = smooth(rt.learned.restart_gap_s, sample)
            await rt.store.save_restart_gap(gap)
        if g.failed:
            return None
        rt.learned = Learned(gap, rt.learned.hello_rate)
        log.info("restart gap learned", extra={"seconds": sample, "smoothed": round(gap, 3)})
        if until is not None and rate is not None and rate > 0:
            return asyncio.get_running_loop().create_task(
                self.probe_plan(until, rate), name="probe_plan"
            )
        return None

    async def probe_plan(self, until_ms: int, planned_rate: float) -> None:
        """After the last client of the graceful stop this process follows was due (and a
        little more): if its reconnects never saturated this process, they could have come
        faster; raise the learned hello rate (:func:`server.process.reconnect.raised`)."""
        rt = self.rt
        before = self.stretches
        await rt.clock.sleep(probe_wait(until_ms, rt.clock.now_ms()))
        if rt.stopped or self.stretches != before:
            return  # a stopping process, or a measured storm: the meter has spoken
        new = raised(rt.learned.hello_rate, planned_rate, rt.cfg.reconnect_rate)
        if new is None or new == rt.learned.hello_rate:
            return
        with rt.redis_guard() as g:
            await rt.store.save_hello_rate(new)
        if g.failed:
            return
        log.info("reconnects did not saturate: hello rate raised", extra={"rate": round(new, 1)})
        rt.learned = Learned(rt.learned.restart_gap_s, new)


async def bounded(task: asyncio.Task[None] | None, timeout: float) -> None:
    """Cancel ``task`` and wait for it at most ``timeout`` seconds (asyncio.wait, not
    wait_for: bounded even if the cancellation is swallowed)."""
    if task is not None:
        task.cancel()
        await asyncio.wait({task}, timeout=timeout)
