"""Process metrics: counted in plain fields on the hot path, exposed in the Prometheus text format by prometheus-client's registry at each scrape.

Each :class:`Metrics` has its own ``CollectorRegistry`` (several servers may run in one test
process) whose one collector reads the fields when ``/metrics`` is asked for. The counting
itself stays in plain dicts and ints: prometheus-client's own instruments cost several times
as much per call on the per-action path (``benchmarks/bench_metrics.py``; docs/server.md,
"Metrics").
"""

from __future__ import annotations

import gc
import itertools
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.utils import floatToGoString

from server.process.reconnect import Learned

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

#: the plain counters (``Metrics.inc``), each exposed as ``mahjong_<name>_total``
COUNTERS: tuple[tuple[str, str], ...] = (
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
)


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
        #: what the scrape in progress was given (:meth:`render`)
        self._scrape: tuple[int | None, int, Learned | None] = (None, 0, None)
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(_Scrape(self))

    def inc(self, name: str, by: float = 1) -> None:
        self.counters[name] += by

    def render(
        self, rooms_open: int | None, rooms_local: int, learned: Learned | None = None
    ) -> str:
        """The exposition text; ``learned``: what restarts taught (server/process/reconnect.py)."""
        self._scrape = (rooms_open, rooms_local, learned)
        return generate_latest(self.registry).decode()

    def families(self) -> Iterator[Metric]:
        """Every metric's current samples, read at a scrape (``collect`` of the registry)."""
        rooms_open, rooms_local, learned = self._scrape
        yield _gauge(
            "mahjong_connections", "Open WebSocket connections on this process.", self.connections
        )
        yield _gauge(
            "mahjong_rooms_local", "Rooms with a client connected to this process.", rooms_local
        )
        if rooms_open is not None:
            yield _gauge("mahjong_rooms_open", "Open rooms in Redis (all processes).", rooms_open)
        yield _labelled(
            CounterMetricFamily,
            "mahjong_commits_total",
            "Changes committed to Redis, by kind.",
            "kind",
            self.commits,
        )
        yield _labelled(
            CounterMetricFamily,
            "mahjong_errors_total",
            "Error replies sent, by error code.",
            "code",
            self.errors,
        )
        for name, help_ in COUNTERS:
            yield CounterMetricFamily(
                f"mahjong_{name}_total", help_, value=int(self.counters.get(name, 0))
            )
        yield from _gc_families()
        yield from _learned(learned)
        if self.archive_lag is not None:
            yield _gauge(
                "mahjong_archive_waiting_rooms",
                "Rooms with a finished hand or game not yet in the archive (all processes).",
                self.archive_lag[0],
            )
            yield _gauge(
                "mahjong_archive_oldest_wait_seconds",
                "How long the room waiting longest for the archive has waited.",
                self.archive_lag[1],
            )
        yield _gauge(
            "mahjong_loop_lag_seconds_max", "Latest event-loop wake-up seen.", self.loop_lag_max
        )
        yield _histogram(self.action_latency)


def _gc_families() -> Iterator[Metric]:
    """The collector's counts and pauses, by generation (:data:`GC`)."""
    for name, family, help_, values in (
        ("gc_collections_total", CounterMetricFamily, "Garbage collections, by generation.", GC.count),
        ("gc_pause_seconds_total", CounterMetricFamily, "Collector pause time, by generation.", GC.total),
        ("gc_pause_seconds_max", GaugeMetricFamily, "Longest collector pause, by generation.", GC.max),
        ("gc_pause_cpu_seconds_max", GaugeMetricFamily, "Longest pause in CPU time, by gen.", GC.cpu_max),
    ):  # fmt: skip
        by_gen = {str(g): values[g] for g in range(3)}
        yield _labelled(family, f"mahjong_{name}", help_, "generation", by_gen)


def _histogram(h: Histogram) -> Metric:
    cum = itertools.accumulate(h.counts[:-1])
    return HistogramMetricFamily(
        "mahjong_action_seconds",
        "Time from receiving a request to its commit.",
        buckets=[*zip(map(floatToGoString, BUCKETS), cum, strict=True), ("+Inf", h.n)],
        sum_value=h.total,
    )


class _Scrape:
    """The registry's one collector: a :class:`Metrics`' values, read at each scrape."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        return self.metrics.families()


def _gauge(name: str, help_: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, help_, value=value)


def _labelled(
    family: type[CounterMetricFamily] | type[GaugeMetricFamily],
    name: str,
    help_: str,
    label: str,
    values: Mapping[str, float],
) -> Metric:
    """One sample per value of ``label``, in its sorted order."""
    out = family(name, help_, labels=[label])
    for key, v in sorted(values.items()):
        out.add_metric([key], v)
    return out


def _learned(learned: Learned | None) -> Iterator[Metric]:
    """What restarts taught (server/process/reconnect.py), once there is something."""
    if learned is not None and learned.restart_gap_s is not None:
        yield _gauge(
            "mahjong_learned_restart_gap_seconds",
            "Graceful stop to the next process listening, last measured.",
            learned.restart_gap_s,
        )
    if learned is not None and learned.hello_rate is not None:
        yield _gauge(
            "mahjong_learned_hello_rate",
            "Hellos per second a saturated process answered (smoothed).",
            learned.hello_rate,
        )
