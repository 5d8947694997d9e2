"""Process metrics in the Prometheus text exposition format (no dependency)."""

from __future__ import annotations

import gc
import time
from collections import defaultdict
from typing import Any

from server.reconnect import Learned

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Histogram:
    def __init__(self) -> None:
        self.counts = [0] * (len(BUCKETS) + 1)
        self.total = 0.0
        self.n = 0

    def observe(self, seconds: float) -> None:
        self.n += 1
        self.total += seconds
        for i, b in enumerate(BUCKETS):
            if seconds <= b:
                self.counts[i] += 1
                return
        self.counts[-1] += 1


class GcStats:
    """Garbage-collector pauses of this process, per generation (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.count = [0, 0, 0]
        self.total = [0.0, 0.0, 0.0]
        self.max = [0.0, 0.0, 0.0]
        self.cpu_max = [0.0, 0.0, 0.0]  # CPU time of the pause (without waits for the CPU)
        self._t0 = self._c0 = 0.0

    def callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._t0 = time.perf_counter()
            self._c0 = time.thread_time()
            return
        gen = int(info.get("generation", 0))
        d = time.perf_counter() - self._t0
        self.count[gen] += 1
        self.total[gen] += d
        self.max[gen] = max(self.max[gen], d)
        self.cpu_max[gen] = max(self.cpu_max[gen], time.thread_time() - self._c0)

    def install(self) -> None:
        if self.callback not in gc.callbacks:
            gc.callbacks.append(self.callback)


#: the process's collector pauses (installed by ``mahjong-server`` at start-up)
GC = GcStats()


class Metrics:
    def __init__(self) -> None:
        self.connections = 0
        self.counters: dict[str, float] = defaultdict(float)
        self.errors: dict[str, int] = defaultdict(int)
        self.commits: dict[str, int] = defaultdict(int)
        self.action_latency = Histogram()
        self.loop_lag_max = 0.0  # seconds, see App.heal_loop
        #: the archive's lag, fleet-wide (server/archive/archiver.py): rooms waiting, oldest age
        self.archive_lag: tuple[int, float] | None = None

    def inc(self, name: str, by: float = 1) -> None:
        self.counters[name] += by

    def render(
        self, rooms_open: int | None, rooms_local: int, learned: Learned | None = None
    ) -> str:
        """The exposition text; ``learned``: what restarts taught (server/reconnect.py)."""
        out: list[str] = []

        def metric(name: str, kind: str, help_: str) -> None:
            out.append(f"# HELP {name} {help_}")
            out.append(f"# TYPE {name} {kind}")

        metric("mahjong_connections", "gauge", "Open WebSocket connections on this process.")
        out.append(f"mahjong_connections {self.connections}")
        metric("mahjong_rooms_local", "gauge", "Rooms with a client connected to this process.")
        out.append(f"mahjong_rooms_local {rooms_local}")
        if rooms_open is not None:
            metric("mahjong_rooms_open", "gauge", "Open rooms in Redis (all processes).")
            out.append(f"mahjong_rooms_open {rooms_open}")
        metric("mahjong_commits_total", "counter", "Changes committed to Redis, by kind.")
        for kind, n in sorted(self.commits.items()):
            out.append(f'mahjong_commits_total{{kind="{kind}"}} {n}')
        metric("mahjong_errors_total", "counter", "Error replies sent, by error code.")
        for code, n in sorted(self.errors.items()):
            out.append(f'mahjong_errors_total{{code="{code}"}} {n}')
        for name, help_ in (
            ("messages_in", "Frames received."),
            ("messages_out", "Frames sent."),
            ("actions", "Game actions committed (player, timeout and bot)."),
            ("redis_errors", "Redis command failures."),
            ("commit_conflicts", "Optimistic-concurrency conflicts (retried)."),
            ("held_answers", "Answers to claim windows held until the window closes (no commit)."),
            ("timer_fires", "Room timers fired by this process."),
            ("gap_heals", "Event gaps healed from the stream."),
            ("keepalive_pongs", "Keepalive pings answered by clients."),
            ("bot_fallbacks", "Bot decisions over the time budget (a fast legal action)."),
            ("redis_loading_waits", "Start-up waits for Redis loading its data set."),
            ("loop_lags", "Event-loop wake-ups over 50 ms late (checked once a second)."),
            ("room_loads", "Room states loaded from Redis for snapshots (one per room resuming)."),
            (
                "presence_checks",
                "Players whose last connection here closed, their seats then marked away "
                "unless another process holds one of theirs.",
            ),
            ("handshakes_refused", "WebSocket handshakes answered 503 (--hello-backlog full)."),
            (
                "conns_refused_per_address",
                "WebSocket handshakes answered 429, or connections closed with 1013, because "
                "their client address held --max-conns-per-address connections already.",
            ),
        ):
            metric(f"mahjong_{name}_total", "counter", help_)
            out.append(f"mahjong_{name}_total {int(self.counters.get(name, 0))}")
        for name, kind, help_, values, fmt in (
            (
                "gc_collections_total",
                "counter",
                "Garbage collections, by generation.",
                GC.count,
                "d",
            ),
            (
                "gc_pause_seconds_total",
                "counter",
                "Collector pause time, by generation.",
                GC.total,
                ".6f",
            ),
            (
                "gc_pause_seconds_max",
                "gauge",
                "Longest collector pause, by generation.",
                GC.max,
                ".6f",
            ),
            (
                "gc_pause_cpu_seconds_max",
                "gauge",
                "Longest pause in CPU time, by gen.",
                GC.cpu_max,
                ".6f",
            ),
        ):
            metric(f"mahjong_{name}", kind, help_)
            for g in range(3):
                out.append(f'mahjong_{name}{{generation="{g}"}} {format(values[g], fmt)}')
        if learned is not None and learned.restart_gap_s is not None:
            metric(
                "mahjong_learned_restart_gap_seconds",
                "gauge",
                "Graceful stop to the next process listening, last measured.",
            )
            out.append(f"mahjong_learned_restart_gap_seconds {learned.restart_gap_s:.3f}")
        if learned is not None and learned.hello_rate is not None:
            metric(
                "mahjong_learned_hello_rate",
                "gauge",
                "Hellos per second a saturated process answered (smoothed).",
            )
            out.append(f"mahjong_learned_hello_rate {learned.hello_rate:.1f}")
        if self.archive_lag is not None:
            metric(
                "mahjong_archive_waiting_rooms",
                "gauge",
                "Rooms with a finished hand or game not yet in the archive (all processes).",
            )
            out.append(f"mahjong_archive_waiting_rooms {self.archive_lag[0]}")
            metric(
                "mahjong_archive_oldest_wait_seconds",
                "gauge",
                "How long the room waiting longest for the archive has waited.",
            )
            out.append(f"mahjong_archive_oldest_wait_seconds {self.archive_lag[1]:.3f}")
        metric("mahjong_loop_lag_seconds_max", "gauge", "Latest event-loop wake-up seen.")
        out.append(f"mahjong_loop_lag_seconds_max {self.loop_lag_max:.6f}")
        h = self.action_latency
        metric(
            "mahjong_action_seconds", "histogram", "Time from receiving a request to its commit."
        )
        cum = 0
        for b, c in zip(BUCKETS, h.counts, strict=False):
            cum += c
            out.append(f'mahjong_action_seconds_bucket{{le="{b}"}} {cum}')
        out.append(f'mahjong_action_seconds_bucket{{le="+Inf"}} {h.n}')
        out.append(f"mahjong_action_seconds_sum {h.total:.6f}")
        out.append(f"mahjong_action_seconds_count {h.n}")
        return "\n".join(out) + "\n"
