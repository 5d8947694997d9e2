"""The reconnect schedule of a graceful stop, learned from earlier restarts
(``server/process/reconnect.py``): the pure parts table-driven and by property, then the meter on a
real server saturated with hellos, measuring its hello rate into Redis and /metrics. (The
restart gap learned from a real stop and used by the next one: ``test_ops.py``.)"""

from __future__ import annotations

import asyncio
import contextlib
import random

import pytest
import redis.asyncio as aredis
from hypothesis import example, given
from hypothesis import strategies as st

from server.process.reconnect import (
    GAP_FACTOR,
    GAP_MARGIN_S,
    MAX_GAP_MS,
    MAX_OVERSHOOT,
    MAX_SPREAD_S,
    PROBE_MIN_SPREAD_S,
    PROBE_STEP,
    QUEUE_BUDGET_S,
    RATE_ERROR,
    HelloMeter,
    Learned,
    plan,
    planned_rate,
    probe_wait,
    raised,
    restart_gap,
    smooth,
)
from server.storage.store import RESTART
from server_tests.conftest import running_server
from server_tests.helpers import http_get, metric, until
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize(
    ("stopped_at", "listening_at", "expected"),
    [
        (None, 5_000, None),  # no graceful stop before this start
        (1_000, 3_500, 2.5),
        (1_000, 1_000, 0.0),
        (5_000, 4_000, None),  # a stop "after" the start: clocks of two machines
        (0, MAX_GAP_MS, MAX_GAP_MS / 1000),
        (0, MAX_GAP_MS + 1, None),  # too old to be the stop this start follows
    ],
)
def test_restart_gap(stopped_at: int | None, listening_at: int, expected: float | None) -> None:
    assert restart_gap(stopped_at, listening_at) == expected


def test_smooth_starts_from_the_first_sample_then_averages() -> None:
    assert smooth(None, 700.0) == 700.0
    assert smooth(0.0, 700.0) == 700.0
    assert smooth(700.0, 900.0) == 800.0
    assert smooth(700.0, 900.0, weight=0.25) == 750.0


def _ticks(meter: HelloMeter, rows: list[tuple[float, int, int]]) -> list[float | None]:
    return [meter.tick(t, done, waiting) for t, done, waiting in rows]


def test_meter_measures_whole_saturated_stretches() -> None:
    meter = HelloMeter(busy_waiting=32, window=1.0)
    got = _ticks(
        meter,
        [
            (0.0, 0, 10),  # not saturated: nothing starts
            (0.5, 50, 2000),  # a storm: the stretch starts here
            (1.0, 100, 1500),  # (its first second goes to handshakes: few hellos) ...
            (1.5, 600, 900),
            (2.0, 1100, 400),
            (2.5, 1600, 31),  # ... ends here: 1,550 hellos in 2 s
            (3.0, 1610, 5),
            (3.5, 1620, 40),  # a short burst ...
            (4.0, 1700, 20),  # ... too short to measure
        ],
    )
    assert got == [None, None, None, None, None, 775.0, None, None, None]


def test_meter_reports_a_long_stretch_and_survives_a_counter_reset() -> None:
    meter = HelloMeter(busy_waiting=1, window=1.0, longest=2.0)
    assert _ticks(meter, [(0.0, 0, 5), (1.0, 100, 5), (1.9, 190, 5)]) == [None, None, None]
    assert meter.tick(2.0, 400, 5) == 200.0  # still saturated: reported, a new stretch
    assert meter.tick(3.0, 500, 0) == 100.0  # that one ends after 1 s
    # a smaller count than the stretch's start (a new App): start over, no negative rate
    assert _ticks(meter, [(3.5, 600, 5), (4.0, 3, 5), (5.5, 303, 0)]) == [None, None, 200.0]


@pytest.mark.parametrize(
    ("busy", "window", "longest"), [(0, 1.0, 30.0), (1, 0.0, 30.0), (1, 2.0, 1.0)]
)
def test_meter_rejects_nonsense(busy: int, window: float, longest: float) -> None:
    with pytest.raises(ValueError):
        HelloMeter(busy, window, longest)


_NOTHING = Learned()
_SLOW = Learned(restart_gap_s=2.0, hello_rate=500.0)
#: planned_rate(1000, 500): 1 / (1 / 375 - 0.5 / 1000) (test_planned_rate)
_R1000 = 461.53846
#: planned_rate(1000, 1000) (two processes at 500 each): 1 / (1 / 750 - 0.5 / 1000)
_R1000x2 = 1200.0


@pytest.mark.parametrize(
    ("n", "capacity", "expected"),
    [
        (8000, 945.0, 741.62),  # a large storm: 1 / (1 / 708.75 - 0.5 / 8000)
        (2000, 945.0, 861.37),  # a smaller one faster: 1 / (1 / 708.75 - 0.5 / 2000)
        (1000, 500.0, _R1000),
        (1000, 1000.0, _R1000x2),
        (100, 500.0, 1000.0),  # a queue of 100 at 375/s is within the budget: 2 × capacity
        (0, 500.0, 1000.0),
        (1, 1e-9, 0.75e-9),  # a tiny rate: even one client would queue
    ],
)
def test_planned_rate(n: int, capacity: float, expected: float) -> None:
    assert planned_rate(n, capacity) == pytest.approx(expected, rel=1e-4)


@given(n=st.integers(1, 100_000), capacity=st.floats(1.0, 100_000.0))
def test_planned_rate_keeps_the_queue_within_the_budget(n: int, capacity: float) -> None:
    """Sent at the planned rate to a process RATE_ERROR slower than learned, the last client
    waits no more than the budget; never faster than MAX_OVERSHOOT × capacity; a larger storm
    is never sent faster."""
    r = planned_rate(n, capacity)
    slow = capacity * (1 - RATE_ERROR)
    assert 0 < r <= MAX_OVERSHOOT * capacity * (1 + 1e-9)
    assert n / slow - n / r <= QUEUE_BUDGET_S + 1e-6
    assert planned_rate(n + 1, capacity) <= r * (1 + 1e-9)


@pytest.mark.parametrize(
    ("n", "after", "rate", "learned", "others", "lo_ms", "hi_ms"),
    [
        # nothing learned: the configuration as it is
        (1000, 1.0, 2000.0, _NOTHING, 0, 1000, 1500),
        (3, 1.0, 0.0, _NOTHING, 0, 1000, 1000),  # rate 0: no spread
        # learned: wait for the measured restart, spread as the queueing budget allows
        (1000, 1.0, 2000.0, _SLOW, 0, (2.0 * GAP_FACTOR + GAP_MARGIN_S) * 1000,
         (2.0 * GAP_FACTOR + GAP_MARGIN_S + 1000 / _R1000) * 1000),
        # the configured wait is a floor, the configured rate a ceiling
        (1000, 9.0, 2000.0, _SLOW, 0, 9000, 9000 + 1000 / _R1000 * 1000),
        (1000, 1.0, 100.0, _SLOW, 0, 2750, 2750 + 10_000),
        # other live processes take reconnects at once: no restart to wait for, and they
        # share the clients (two others: twice the rate; one, as a new process taking over
        # from a stopping one: the rate of one)
        (1000, 0.0, 2000.0, _SLOW, 2, 0, 1000 / _R1000x2 * 1000),
        (1000, 0.0, 2000.0, _SLOW, 1, 0, 1000 / _R1000 * 1000),
        (3, 1.0, 0.0, _SLOW, 0, 2750, 2750),  # rate 0 stays "no spread"
        # a tiny rate (configured, or measured in a sick moment) parks nobody for hours
        (1000, 0.0, 1e-9, _NOTHING, 0, 0, MAX_SPREAD_S * 1000),
        (1000, 0.0, 2000.0, Learned(None, 1e-9), 0, 0, MAX_SPREAD_S * 1000),
    ],
)  # fmt: skip
def test_schedule(
    n: int, after: float, rate: float, learned: Learned, others: int, lo_ms: float, hi_ms: float
) -> None:
    delays = plan(n, after, rate, learned, others).delays(n, random.Random(1))
    assert len(delays) == n
    assert min(delays) >= int(lo_ms) and max(delays) <= int(hi_ms)
    if hi_ms - lo_ms >= 1000:  # spread evenly, not bunched at one end
        mid = (lo_ms + hi_ms) / 2
        assert 0.4 * n <= sum(1 for d in delays if d < mid) <= 0.6 * n


@given(
    n=st.integers(0, 300),
    after=st.floats(-1.0, 30.0),
    rate=st.floats(0.0, 10_000.0),
    gap=st.none() | st.floats(0.0, 600.0),
    hello=st.none() | st.floats(0.0, 10_000.0),
    others=st.integers(0, 5),
)
# a learned hello rate whose inverse is not a float once gave rate 0, "no spread"
@example(n=1, after=0.0, rate=1.0, gap=None, hello=2.225073858507203e-309, others=2)
def test_schedule_is_never_sooner_than_configured_nor_faster(
    n: int, after: float, rate: float, gap: float | None, hello: float | None, others: int
) -> None:
    """Learning only ever waits longer and spreads wider than the configuration says."""
    learned = plan(n, after, rate, Learned(gap, hello), others).delays(n, random.Random(0))
    plain = plan(n, after, rate, Learned(), others).delays(n, random.Random(0))
    assert len(learned) == len(plain) == n
    assert all(a >= b for a, b in zip(sorted(learned), sorted(plain), strict=True))
    assert all(d >= int(max(0.0, after) * 1000) for d in learned)


async def test_a_server_saturated_with_hellos_learns_its_hello_rate(redis_url: str) -> None:
    """Clients saying hello faster than a server with one hello slot answers them (a small
    reconnect storm, kept up for a few seconds, then over): the server measures the rate it
    answered them at, keeps it in Redis (mj:restart) and shows it in /metrics."""
    r = aredis.Redis.from_url(redis_url)
    async with running_server(redis_url, hello_concurrency=1) as srv:
        stop = asyncio.Event()
        said = 0

        async def churn(i: int) -> None:
            nonlocal said
            while not stop.is_set():
                c = await Client.connect(srv.port, f"s{i}")
                try:
                    await c.hello(f"s{i}")
                    said += 1
                finally:
                    await c.close()

        tasks = [asyncio.create_task(churn(i)) for i in range(40)]
        try:
            await asyncio.sleep(2.5)  # the server saturated for more than a meter window
        finally:
            stop.set()
            for t in tasks:
                with contextlib.suppress(Exception):
                    await t

        async def learned() -> bool:
            return await r.hget(RESTART, "hello_rate") is not None

        await until(learned, "a hello rate measured and stored (the storm is over)")
        rate = float(await r.hget(RESTART, "hello_rate") or 0)
        # a real rate: positive, and no more than the hellos answered in the run allow
        assert 0 < rate <= said
        _, _, body = await http_get(srv.port, "/metrics")
        assert metric(body, "mahjong_learned_hello_rate") == pytest.approx(rate, abs=0.1)
    await r.aclose()


def test_plan_counts_the_processes_that_take_the_clients() -> None:
    alone = plan(1000, 1.0, 2000.0, _SLOW, 0)
    assert alone.rate_per_process == pytest.approx(_R1000)
    assert alone.spread_s == pytest.approx(1000 / _R1000)
    assert alone.after_s == 2.0 * GAP_FACTOR + GAP_MARGIN_S
    two = plan(1000, 1.0, 2000.0, _SLOW, 2)  # two others share them: half each
    assert two.rate_per_process == pytest.approx(_R1000x2 / 2)
    assert two.spread_s == pytest.approx(1000 / _R1000x2)
    assert two.after_s == 1.0  # no restart to wait for
    capped = plan(1000, 1.0, 100.0, _SLOW, 0)
    assert capped.rate_per_process == 100.0 and capped.spread_s == 10.0
    assert plan(3, 1.0, 0.0, _SLOW, 0).rate_per_process == 0.0  # no spread planned


def test_a_plan_too_short_to_saturate_anything_probes_nothing() -> None:
    """The rate the next process checks a plan by: the plan's, unless it was spread over
    less than PROBE_MIN_SPREAD_S (a few clients taken without a queue say nothing about
    the capacity)."""
    assert plan(1000, 1.0, 2000.0, _SLOW, 0).probe_rate == pytest.approx(_R1000)
    short = plan(100, 1.0, 2000.0, _SLOW, 0)  # at 1,000/s: 0.1 s
    assert short.spread_s < PROBE_MIN_SPREAD_S and short.probe_rate == 0.0
    assert plan(1000, 1.0, 0.0, _SLOW, 0).probe_rate == 0.0  # no spread at all


def test_probe_waits_for_the_last_client_and_a_little_more() -> None:
    assert probe_wait(10_000, 4_000) == 8.0  # 6 s to the last client, + 2 s
    assert probe_wait(4_000, 10_000) == 2.0  # already due: the grace only
    assert probe_wait(10_000_000, 0) == 330.0  # a plan no longer than the spread allows


@pytest.mark.parametrize(
    ("learned", "planned", "ceiling", "expected"),
    [
        (None, 80.0, 2000.0, None),  # nothing learned: nothing to raise
        (100.0, 0.0, 2000.0, None),  # no spread was planned
        (100.0, 80.0, 2000.0, 100.0 * PROBE_STEP),  # planned below it: a step up from it
        (100.0, 120.0, 2000.0, 120.0 * PROBE_STEP),  # planned above it and not saturated
        (100.0, 80.0, 105.0, 105.0),  # no higher than the ceiling
        (100.0, 80.0, 40.0, 100.0),  # the ceiling caps below it already: unchanged
        (100.0, 80.0, 0.0, 100.0 * PROBE_STEP),  # no ceiling
    ],
)
def test_raised(
    learned: float | None, planned: float, ceiling: float, expected: float | None
) -> None:
    got = raised(learned, planned, ceiling)
    assert got == (pytest.approx(expected) if expected is not None else None)


async def test_a_restart_that_did_not_saturate_raises_the_learned_rate(redis_url: str) -> None:
    """A graceful stop plans its reconnects by the learned rate (here 10 hellos/s; 20
    clients: planned_rate(20, 10) = 1 / (1/7.5 - 0.5/20) = 9.23/s, spread over 2.2 s); the
    next process, never saturated by them, raises the learned rate by PROBE_STEP once the
    plan's last client was due — so the rate can go up, not only down."""
    r = aredis.Redis.from_url(redis_url)
    await r.hset(RESTART, "hello_rate", "10.0")
    expected = planned_rate(20, 10.0)
    assert expected == pytest.approx(9.23, abs=0.01)
    async with running_server(redis_url) as srv:
        clients = [await Client.connect(srv.port, f"p{i}") for i in range(20)]
        for i, c in enumerate(clients):
            await c.hello(f"p{i}")
    # the stop noted its plan: the rate for the one process taking the clients
    assert float(await r.hget(RESTART, "planned_rate") or 0) == pytest.approx(expected, abs=0.05)
    async with running_server(redis_url):

        async def raised_rate() -> bool:
            return float(await r.hget(RESTART, "hello_rate") or 0) != 10.0

        await until(raised_rate, "the learned rate raised", tries=600)  # plan ~3 s, +2 s
        assert float(await r.hget(RESTART, "hello_rate") or 0) == pytest.approx(
            10.0 * PROBE_STEP, abs=0.1
        )
        assert await r.hget(RESTART, "planned_rate") is None  # taken by this process
    await r.aclose()
