"""When the clients of a graceful stop should come back, learned from earlier restarts.

A graceful stop tells each client when to reconnect (``closing.retry_after_ms``): after the
expected restart time, spread evenly at the rate the restarted process answers hellos. Both
numbers depend on the machine (the benchmark machine of one session answered ~2,300 resumes
a second, the one of a later session ~700), so a fixed default is wrong somewhere: clients
told to come back before the server listens retry together the moment it does, and clients
sent faster than it answers queue behind each other, which is exactly the storm the spread
was meant to avoid. So the processes measure both and keep them in Redis (``mj:restart``):

* the **restart gap**: from a graceful stop's ``closing`` messages to the next process
  listening (:func:`restart_gap`), smoothed over restarts;
* the **hello rate**: hellos a process answered per second while it was saturated, that is
  while more connections waited for their hello than it processes at once, over the whole
  saturated stretch (:class:`HelloMeter`), smoothed over stretches and restarts
  (:func:`smooth`).

The next graceful stop schedules with them (:func:`plan`). Configuration stays in
charge: ``--reconnect-after-seconds`` is a floor, ``--reconnect-rate`` a ceiling. A restart
whose reconnects, spread at the learned rate, never saturated the process that took them
raises the learned rate a little (:func:`raised`), so it can go up as well as down.

Pure: no clock, no Redis, no randomness of its own; the server passes times, counts and an
RNG (``server/api/stopping.py``: ``Stopping.meter_loop``, ``Stopping.shutdown``, ``Stopping.note_listening``,
``Stopping.probe_plan``)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

__all__ = [
    "MAX_GAP_MS",
    "MAX_OVERSHOOT",
    "MAX_SPREAD_S",
    "PROBE_MIN_SPREAD_S",
    "PROBE_STEP",
    "QUEUE_BUDGET_S",
    "RATE_ERROR",
    "HelloMeter",
    "Learned",
    "Plan",
    "plan",
    "planned_rate",
    "probe_wait",
    "raised",
    "restart_gap",
    "smooth",
]

#: the queueing a reconnect schedule may add to a client's attempt -> snapshot time (half
#: the 1 s the load-test target allows at the 99th percentile): the spread is as short as
#: this budget lets it be, so the process is busy, not idle, while clients are still away
QUEUE_BUDGET_S = 0.5
#: how much slower than the learned hello rate the restarted process may turn out to be:
#: the budget holds down to this. Measured (BENCHMARKS.md, session 6): a storm spread at
#: about the capacity was answered ~20-25 % slower than the pile-up that taught the rate
#: (with 0.1, 8,000 clients queued to a p99 of 1.24 s)
RATE_ERROR = 0.25
#: a few clients are all but let in at once: no plan runs faster than this many times the
#: learned rate (the kernel's accept queue and the WebSocket handshakes still come first)
MAX_OVERSHOOT = 2.0
#: a longer gap was not a restart to plan the next one by (a crash in between, maintenance,
#: a process started by hand much later): nothing is learned from it. Clients told to wait
#: too long sit idle, which is worse than arriving early (a retry with the others)
MAX_GAP_MS = 30 * 1000
#: the learned gap is stretched by this factor and margin: arriving a little late costs a
#: client a fraction of a second, arriving early costs a retry with everyone else
GAP_FACTOR = 1.25
GAP_MARGIN_S = 0.25
#: no client is told to wait longer than this for its turn (a tiny rate, configured or
#: measured in a sick moment, must not park clients for hours)
MAX_SPREAD_S = 300.0
#: a restart whose spread reconnects never saturated the process raises the learned rate by
#: this factor (:func:`raised`)
PROBE_STEP = 1.1
#: a plan spread over less than this (the hello meter's shortest stretch) tests nothing: a
#: process that took its few clients without a queue says nothing about its capacity
PROBE_MIN_SPREAD_S = 1.0
#: a restart's reconnect plan is checked this long after its last client was due (the
#: hellos of the last ones are through by then), and never later than this from now
PROBE_GRACE_S = 2.0
MAX_PROBE_WAIT_S = MAX_SPREAD_S + 30.0


@dataclass(frozen=True)
class Learned:
    """What earlier restarts measured (None: nothing yet)."""

    restart_gap_s: float | None = None
    hello_rate: float | None = None


def restart_gap(stopped_at_ms: int | None, listening_at_ms: int) -> float | None:
    """Seconds from a graceful stop (its ``closing`` messages, ``stopped_at_ms``) to a
    process listening (``listening_at_ms``); None without a stop, or for one in the future
    (clocks of two machines) or older than :data:`MAX_GAP_MS`."""
    if stopped_at_ms is None:
        return None
    gap = listening_at_ms - stopped_at_ms
    if gap < 0 or gap > MAX_GAP_MS:
        return None
    return gap / 1000


def smooth(old: float | None, sample: float, weight: float = 0.5) -> float:
    """The learned rate after one more ``sample``: an exponential moving average (the first
    sample stands alone)."""
    if old is None or old <= 0:
        return sample
    return (1 - weight) * old + weight * sample


class HelloMeter:
    """The hello rate of a saturated process, from periodic samples of two numbers the
    server keeps anyway: hellos answered so far (a counter) and connections waiting for
    their hello.

    A *stretch* is a run of samples that each saw at least ``busy_waiting`` connections
    waiting (the hello slots all taken and a queue behind them): the process was working
    as fast as it could. Its rate is the hellos answered from its first sample to the first
    sample after it, over that time: the whole stretch, not its parts, because a storm's
    first second goes mostly to WebSocket handshakes (hellos answered then are few) and its
    last ones mostly to hellos, and only together do they say how many clients a second the
    process brings back. A stretch shorter than ``window`` seconds measures nothing (too
    little to tell); one longer than ``longest`` seconds is measured and a new one begun
    (a process that stays saturated still reports). Samples below ``busy_waiting`` measure
    only the demand, and yield nothing."""

    def __init__(self, busy_waiting: int, window: float = 1.0, longest: float = 30.0) -> None:
        if busy_waiting < 1 or window <= 0 or longest < window:
            raise ValueError("busy_waiting must be >= 1 and 0 < window <= longest")
        self.busy_waiting = busy_waiting
        self.window = window
        self.longest = longest
        self._start: float | None = None  # the stretch's first sample, None: no stretch
        self._start_done = 0

    def tick(self, now: float, done: int, waiting: int) -> float | None:
        """One sample at monotonic time ``now``: ``done`` hellos answered since the process
        started, ``waiting`` connections waiting for theirs. Returns the hello rate of the
        stretch this sample ends (or cuts at ``longest``), else None."""
        busy = waiting >= self.busy_waiting
        if self._start is not None and done < self._start_done:
            self._start = None  # the counter went back (a new App): start over
        if self._start is None:
            if busy:
                self._start, self._start_done = now, done
            return None
        elapsed = now - self._start
        if busy and elapsed < self.longest:
            return None
        rate = (done - self._start_done) / elapsed if elapsed >= self.window else None
        self._start, self._start_done = (now, done) if busy else (None, 0)
        return rate


@dataclass(frozen=True)
class Plan:
    """A graceful stop's reconnect schedule: the first client after ``after_s`` seconds,
    the rest spread uniformly over ``spread_s`` more, at ``rate_per_process`` hellos a second
    for each process that takes them (0: no spread)."""

    after_s: float
    spread_s: float
    rate_per_process: float

    def delays(self, n: int, rng: random.Random) -> list[int]:
        """The ms from now at which each of ``n`` clients should reconnect."""
        return [int((self.after_s + rng.uniform(0, self.spread_s)) * 1000) for _ in range(n)]

    @property
    def probe_rate(self) -> float:
        """The rate the next process checks this plan by (:func:`raised`): 0 for a plan
        spread over less than :data:`PROBE_MIN_SPREAD_S` (too short to saturate anything)."""
        return self.rate_per_process if self.spread_s >= PROBE_MIN_SPREAD_S else 0.0


def planned_rate(n: int, capacity: float) -> float:
    """The hello rate to send ``n`` clients at, to processes that answer ``capacity`` hellos
    a second in all (learned): as fast as keeps the queueing of the last client within
    :data:`QUEUE_BUDGET_S` even if the processes are :data:`RATE_ERROR` slower than learned.

    Clients arriving at ``r`` a second to a process answering ``c < r`` queue; the last one
    arrives after ``n / r`` and is answered after ``n / c``, so it waits ``n / c - n / r``.
    Keeping that within the budget ``W`` for ``c = capacity * (1 - RATE_ERROR)`` gives
    ``1 / r = 1 / c - W / n``: a large storm is sent at about the slower capacity (8,000
    clients to 945 hellos/s: 742/s), a smaller one faster (2,000 clients: 861/s; their queue
    is shorter), at most :data:`MAX_OVERSHOOT` times the capacity."""
    fastest = MAX_OVERSHOOT * capacity
    inverse = 1 / (capacity * (1 - RATE_ERROR)) - QUEUE_BUDGET_S / max(1, n)
    rate = fastest if inverse <= 1 / fastest else 1 / inverse
    # a capacity too small for its inverse to be a float (a learned rate of ~1e-309) gives
    # 0, which would mean "no spread": the smallest positive rate spreads the most instead
    return rate if rate > 0 else math.ulp(0.0)


def plan(n: int, after_s: float, rate: float, learned: Learned, others: int) -> Plan:
    """The reconnect schedule of a graceful stop with ``n`` clients.

    ``after_s`` (``--reconnect-after-seconds``) is the wait before the first one; when no
    other process is live (``others``: live processes besides the stopping one) and a restart
    gap was learned, the wait is at least that gap (stretched by :data:`GAP_FACTOR` plus
    :data:`GAP_MARGIN_S`). With other live processes the clients can reconnect to them at
    once, so the learned gap does not apply.

    The clients are then spread uniformly over ``n / r`` seconds, where ``r`` is ``rate``
    (``--reconnect-rate``; 0: no spread) or, when lower, :func:`planned_rate` for the
    learned hello rate times the processes that take the clients (the others, or the
    restarted one when there are none), at most :data:`MAX_SPREAD_S`."""
    after = max(0.0, after_s)
    if learned.restart_gap_s is not None and others <= 0:
        after = max(after, learned.restart_gap_s * GAP_FACTOR + GAP_MARGIN_S)
    takers = max(1, others)
    r = rate
    if r > 0 and learned.hello_rate is not None and learned.hello_rate > 0:
        r = min(r, planned_rate(n, learned.hello_rate * takers))
    spread = min(n / r, MAX_SPREAD_S) if r > 0 else 0.0
    return Plan(after, spread, r / takers if r > 0 else 0.0)


def raised(learned_rate: float | None, planned_rate: float, ceiling: float) -> float | None:
    """The hello rate to learn after a restart whose reconnects, sent at ``planned_rate``
    per process, never saturated the process that took them: it answers at least that
    fast, and maybe faster. Without this a learned rate could only go down (a storm spread
    below the capacity is never saturated, so never measured): the learned rate (or the
    planned one, if higher) is raised by :data:`PROBE_STEP`, no higher than the configured
    ceiling (``--reconnect-rate``; 0: none), which caps every plan anyway. The next storm
    then runs a little closer to the capacity; one that saturates the process is measured
    again (:class:`HelloMeter`). None: nothing to raise (nothing learned, or no plan long
    enough to tell: :attr:`Plan.probe_rate`)."""
    if learned_rate is None or learned_rate <= 0 or planned_rate <= 0:
        return None
    new = max(learned_rate, planned_rate) * PROBE_STEP
    if ceiling > 0:
        new = min(new, ceiling)
    return max(new, learned_rate)


def probe_wait(until_ms: int, now_ms: int) -> float:
    """Seconds from ``now_ms`` until a plan whose last client is due at ``until_ms`` is
    checked (:data:`PROBE_GRACE_S` after it, at most :data:`MAX_PROBE_WAIT_S`)."""
    return min(max(0, until_ms - now_ms) / 1000 + PROBE_GRACE_S, MAX_PROBE_WAIT_S)
