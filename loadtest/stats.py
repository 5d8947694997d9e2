"""Counters and latency samples of a load-test run, per second and in total."""

from __future__ import annotations

import bisect
import math
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Recorder", "percentile", "resumes_per_restart", "summarize"]


def percentile(sorted_values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0-100, nearest rank) of already sorted values."""
    if not sorted_values:
        return None
    k = max(0, min(len(sorted_values) - 1, math.ceil(q / 100 * len(sorted_values)) - 1))
    return sorted_values[k]


def summarize(values: Sequence[float]) -> dict[str, float | int | None]:
    """Count, p50/p95/p99/p999/max (milliseconds, 3 decimals) of latency samples in seconds."""
    s = sorted(values)

    def ms(v: float | None) -> float | None:
        return None if v is None else round(v * 1000, 3)

    return {
        "count": len(s),
        "p50_ms": ms(percentile(s, 50)),
        "p95_ms": ms(percentile(s, 95)),
        "p99_ms": ms(percentile(s, 99)),
        "p999_ms": ms(percentile(s, 99.9)),
        "max_ms": ms(s[-1] if s else None),
    }


def resumes_per_restart(
    rows: Iterable[Sequence[float]], restarts: Sequence[tuple[float, float]]
) -> list[dict[str, Any]]:
    """The resumes of a run with several server restarts, split by restart.

    ``rows``: ``(epoch, after_up_s, loss_s)`` per resume (``Recorder.resumes``, or the lists
    of the JSON report); ``restarts``: ``(stop_epoch, up_epoch)`` per restart, in order
    (SIGTERM sent; the new server listening). A restart's resumes are those whose snapshot
    arrived from its stop to the next restart's stop (or the end of the run); those before
    the first stop belong to no restart. The window opens at the stop, not at ``up_epoch``:
    a client may resume on the new server before the orchestrator has read its clock
    (``resumed_before_up`` counts them) and must not be lost.

    Per restart: ``reconnects`` (loss -> snapshot) and ``resume_after_up`` (successful
    attempt -> snapshot) as :func:`summarize`, ``resumed_before_up``, and
    ``up_to_last_resumed_s`` (up -> the restart's last resume; ``None`` without resumes).
    """
    times = [t for restart in restarts for t in restart]
    if times != sorted(times):
        raise ValueError(f"restarts out of order: {restarts}")
    stops = [stop for stop, _ in restarts]
    mine: list[list[Sequence[float]]] = [[] for _ in restarts]
    for row in rows:
        i = bisect.bisect_right(stops, row[0]) - 1  # the last restart stopped at or before it
        if i >= 0:
            mine[i].append(row)
    out = []
    for (_, up), rs in zip(restarts, mine, strict=True):
        last = max((r[0] for r in rs), default=None)
        out.append(
            {
                "reconnects": summarize([r[2] for r in rs]),
                "resume_after_up": summarize([r[1] for r in rs]),
                "resumed_before_up": sum(1 for r in rs if r[0] < up),
                "up_to_last_resumed_s": None if last is None else round(last - up, 3),
            }
        )
    return out


@dataclass
class Second:
    actions: int = 0
    deliveries: int = 0
    latencies: list[float] = field(default_factory=list)  # action -> all four delivered
    errors: int = 0


@dataclass
class Recorder:
    """Everything one run measures. Times are ``time.perf_counter()`` seconds."""

    label: str
    start: float = field(default_factory=time.perf_counter)
    connections: int = 0  # currently open
    peak_connections: int = 0
    connect_failures: int = 0
    disconnects: int = 0  # connections closed by the server or the network mid-run
    rooms: int = 0  # rooms that reached play
    hands: int = 0
    games: int = 0
    actions: int = 0
    deliveries: int = 0
    frames_in: int = 0
    bytes_in: int = 0
    events_frames: int = 0
    events_bytes: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    own: list[float] = field(default_factory=list)  # action -> the actor's own broadcast
    all_four: list[float] = field(default_factory=list)  # action -> all four delivered
    setup: list[float] = field(default_factory=list)  # connect .. room playing
    seconds: dict[int, Second] = field(default_factory=dict)
    end: float | None = None
    cpu: dict[str, float] = field(default_factory=dict)  # pid -> CPU seconds in the window
    rss: dict[str, tuple[int, int]] = field(default_factory=dict)  # pid -> KiB before/after
    # per resume: (wall-clock epoch of the snapshot, the successful reconnect attempt (connect
    # started, server up) -> snapshot, connection lost -> snapshot); the rest of the resume
    # figures are read from it, and resumes_per_restart splits a run with several restarts
    resumes: list[tuple[float, float, float]] = field(default_factory=list)
    reconnect_failures: int = 0
    refused: int = 0  # reconnect attempts the server refused with 503 + Retry-After
    stale: int = 0  # actions refused as stale-seq (the table had moved on): not errors
    held: int = 0  # answers to a claim window held by the server (ack.held: no commit)
    lost_in_flight: int = 0  # actions whose connection was lost before their ack
    resumed_behind: int = 0  # a resume snapshot older than what the seat had already seen

    def _sec(self, t: float | None = None) -> Second:
        k = int((t if t is not None else time.perf_counter()) - self.start)
        s = self.seconds.get(k)
        if s is None:
            s = self.seconds[k] = Second()
        return s

    def opened(self) -> None:
        self.connections += 1
        self.peak_connections = max(self.peak_connections, self.connections)

    def closed(self, unexpected: bool) -> None:
        self.connections -= 1
        if unexpected:
            self.disconnects += 1

    def action_sent(self) -> None:
        self.actions += 1
        self._sec().actions += 1

    def delivered(self, own: float | None, all_four: float | None, arrived: bool = True) -> None:
        """A seat got its first broadcast after an action: that action's (``arrived``), or,
        with sparse delivery, a later one (the seat was not sent the action's commit)."""
        sec = self._sec()
        if arrived:
            self.deliveries += 1
            sec.deliveries += 1
        if own is not None:
            self.own.append(own)
        if all_four is not None:
            self.all_four.append(all_four)
            sec.latencies.append(all_four)

    def error(self, code: str) -> None:
        self.errors[code] += 1
        self._sec().errors += 1

    def frame(self, size: int, events: bool) -> None:
        self.frames_in += 1
        self.bytes_in += size
        if events:
            self.events_frames += 1
            self.events_bytes += size

    def resumed(self, epoch: float, after_up: float, loss: float) -> None:
        """A seat got its room's snapshot back at wall-clock ``epoch``, ``after_up`` seconds
        after its successful reconnect attempt started and ``loss`` seconds after its
        connection was lost."""
        self.resumes.append((epoch, after_up, loss))

    @property
    def reconnects(self) -> list[float]:
        """Connection lost -> the room's snapshot, per resume."""
        return [r[2] for r in self.resumes]

    @property
    def resume_after_up(self) -> list[float]:
        """The successful reconnect attempt -> the room's snapshot, per resume."""
        return [r[1] for r in self.resumes]

    @property
    def resumed_first_epoch(self) -> float | None:
        return min((r[0] for r in self.resumes), default=None)

    @property
    def resumed_last_epoch(self) -> float | None:
        return max((r[0] for r in self.resumes), default=None)

    def finish(self) -> None:
        self.end = time.perf_counter()

    @classmethod
    def merged(cls, parts: Sequence[Recorder]) -> Recorder:
        """One recorder from those of several harness processes (same run, same window)."""
        out = cls(parts[0].label)
        out.start = 0.0
        out.end = max(p.elapsed for p in parts)
        for p in parts:
            for name in (
                "peak_connections", "connect_failures", "disconnects", "rooms", "hands",
                "games", "actions", "deliveries", "frames_in", "bytes_in", "events_frames",
                "events_bytes",
            ):  # fmt: skip
                setattr(out, name, getattr(out, name) + getattr(p, name))
            out.errors.update(p.errors)
            out.own.extend(p.own)
            out.all_four.extend(p.all_four)
            out.setup.extend(p.setup)
            out.cpu.update(p.cpu)
            out.rss.update(p.rss)
            out.resumes.extend(p.resumes)
            out.reconnect_failures += p.reconnect_failures
            out.refused += p.refused
            out.stale += p.stale
            out.held += p.held
            out.lost_in_flight += p.lost_in_flight
            out.resumed_behind += p.resumed_behind
            for k, sec in p.seconds.items():
                mine = out.seconds.setdefault(k, Second())
                mine.actions += sec.actions
                mine.deliveries += sec.deliveries
                mine.latencies.extend(sec.latencies)
                mine.errors += sec.errors
        out.resumes.sort()  # the workers' resumes interleave in time
        return out

    @property
    def elapsed(self) -> float:
        return (self.end or time.perf_counter()) - self.start

    def progress_line(self) -> str:
        k = int(time.perf_counter() - self.start) - 1
        sec = self.seconds.get(k, Second())
        lat = summarize(sec.latencies)
        return (
            f"[{self.label}] t={k + 1:>4}s conns={self.connections:>5} rooms={self.rooms:>4} "
            f"hands={self.hands:>6} actions/s={sec.actions:>6} p50={lat['p50_ms']} "
            f"p99={lat['p99_ms']} errors={sum(self.errors.values())} "
            f"disconnects={self.disconnects}"
        )

    def to_json(self) -> dict[str, Any]:
        el = max(1e-9, self.elapsed)
        series = []
        for k in sorted(self.seconds):
            if k >= int(el):  # the last, partial second
                continue
            s = self.seconds[k]
            lat = summarize(s.latencies)
            series.append(
                {
                    "t": k,
                    "actions": s.actions,
                    "deliveries": s.deliveries,
                    "p50_ms": lat["p50_ms"],
                    "p99_ms": lat["p99_ms"],
                    "max_ms": lat["max_ms"],
                    "errors": s.errors,
                }
            )
        return {
            "label": self.label,
            "seconds": round(el, 3),
            "connections_peak": self.peak_connections,
            "connect_failures": self.connect_failures,
            "disconnects": self.disconnects,
            "rooms": self.rooms,
            "hands": self.hands,
            "games": self.games,
            "actions": self.actions,
            "actions_per_s": round(self.actions / el, 1),
            "deliveries": self.deliveries,
            "frames_in": self.frames_in,
            "mean_events_frame_bytes": (
                round(self.events_bytes / self.events_frames, 1) if self.events_frames else None
            ),
            "events_frames_per_action": (
                round(self.events_frames / self.actions, 2) if self.actions else None
            ),
            "errors": dict(self.errors),
            "errors_total": sum(self.errors.values()),
            "latency_action_to_all_four": summarize(self.all_four),
            "latency_action_to_own_broadcast": summarize(self.own),
            "setup": summarize(self.setup),
            "reconnects": summarize(self.reconnects),
            "resume_after_up": summarize(self.resume_after_up),
            "resumed_first_epoch": self.resumed_first_epoch,
            "resumed_last_epoch": self.resumed_last_epoch,
            # [epoch, attempt -> snapshot s, loss -> snapshot s] per resume (ms resolution)
            "resumes": [[round(x, 3) for x in r] for r in self.resumes],
            "reconnect_failures": self.reconnect_failures,
            "reconnects_refused_503": self.refused,
            "stale_actions": self.stale,
            "held_answers": self.held,
            "lost_in_flight": self.lost_in_flight,
            "resumed_behind": self.resumed_behind,
            "cpu_seconds": {k: round(v, 3) for k, v in self.cpu.items()},
            "rss_kib_before_after": {k: list(v) for k, v in self.rss.items()},
            # growth of each measured process per connection of this run (server memory
            # per connection, room state included, when the process is the game server)
            "rss_kib_per_connection": {
                k: round((v[1] - v[0]) / self.peak_connections, 2)
                for k, v in self.rss.items()
                if self.peak_connections
            },
            "cpu_us_per_action": {
                k: round(1e6 * v / self.actions, 1) for k, v in self.cpu.items() if self.actions
            },
            "series": series,
        }
