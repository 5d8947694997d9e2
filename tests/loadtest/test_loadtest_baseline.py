"""The load-test harness against the bare room-broadcast baseline, over real WebSockets."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
import redis as redis_sync
from server_tests.conftest import RedisProc

from loadtest.baseline import run as run_baseline_server
from loadtest.cli import main, run_baseline
from loadtest.rooms import Pacing, pick_action
from loadtest.stats import percentile, summarize


async def _with_server(
    rooms: int, seconds: float, pacing: Pacing, fanout: float = 4.0
) -> dict[str, object]:
    stop = asyncio.Event()
    port: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(run_baseline_server("127.0.0.1", 0, port.set_result, stop))
    p = await asyncio.wait_for(port, 10)
    rec = await run_baseline(
        [f"ws://127.0.0.1:{p}"], rooms, seconds, pacing, 350, progress=False, fanout=fanout
    )
    stop.set()
    await server
    return rec.to_json()


async def test_flat_out_baseline_run_is_clean() -> None:
    rep = await _with_server(5, 2.0, Pacing(0))
    assert rep["rooms"] == 5
    assert rep["connections_peak"] == 20
    assert rep["errors_total"] == 0 and rep["disconnects"] == 0
    assert rep["actions"] > 100
    lat = rep["latency_action_to_all_four"]
    assert isinstance(lat, dict) and lat["count"] > 100
    assert lat["p50_ms"] <= lat["p99_ms"] <= lat["max_ms"]
    # every action is delivered to the four seats of its room (minus the ones in flight)
    assert rep["deliveries"] >= 4 * (rep["actions"] - 5 * 4)
    assert 300 <= rep["mean_events_frame_bytes"] <= 400


async def test_baseline_matches_a_sparse_fanout() -> None:
    """``fanout`` 2.5 (the game's frames per action with sparse delivery): half the actions
    reach the actor only, half all four, and the run stays clean (latency is measured to the
    seats each action is sent to; a seat an action skipped still gets the next one)."""
    rep = await _with_server(5, 2.0, Pacing(0), fanout=2.5)
    assert rep["errors_total"] == 0 and rep["disconnects"] == 0 and rep["actions"] > 100
    assert 2.1 <= rep["events_frames_per_action"] <= 2.9
    lat = rep["latency_action_to_all_four"]
    assert isinstance(lat, dict) and lat["count"] >= rep["actions"] - 5
    # fewer deliveries than four per action, more than one
    assert rep["actions"] < rep["deliveries"] < 4 * rep["actions"]


async def test_paced_run_respects_the_interval() -> None:
    rep = await _with_server(4, 2.0, Pacing(0.1, 0.0))
    # one action per 0.1 s per room (plus the broadcast time): at most 10/s per room
    assert 0 < rep["actions_per_s"] <= 4 * 10 + 1
    assert rep["errors_total"] == 0


def test_cli_runs_the_baseline_and_writes_json(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "run.json"
    rc = main(["--baseline", "--rooms", "3", "--duration", "1.5", "--quiet", "--json", str(out)])
    assert rc == 0
    rep = json.loads(out.read_text())
    assert rep["baseline"]["rooms"] == 3 and rep["baseline"]["errors_total"] == 0
    assert rep["baseline"]["series"], "per-second series"
    assert "baseline:" in capsys.readouterr().out


def test_pick_action_policy() -> None:
    rng = random.Random(1)
    assert pick_action([], rng) is None
    legal = [{"type": "pass"}, {"type": "win"}, {"type": "pung"}]
    assert pick_action(legal, rng) == {"type": "win"}
    assert pick_action([{"type": "pass"}, {"type": "chow", "tile": "1m"}], rng) == {"type": "pass"}
    discards = [{"type": "discard", "tile": t} for t in ("1m", "2m", "3m")]
    assert pick_action(discards, rng) in discards


def test_percentiles_nearest_rank() -> None:
    v = [i / 1000 for i in range(1, 101)]  # 1..100 ms
    assert percentile(v, 50) == 0.05
    assert percentile(v, 99) == 0.099
    s = summarize(v)
    assert s["count"] == 100 and s["max_ms"] == 100.0 and s["p999_ms"] == 100.0
    assert summarize([])["p50_ms"] is None


@pytest.mark.parametrize("client", ["redis-py", "resp"])
async def test_the_toy_commits_each_action_to_redis_before_broadcasting(tmp_path, client) -> None:  # type: ignore[no-untyped-def]
    """The toy (the baseline with one Lua call per action) against a real redis-server, on
    either Redis client: every room's hash in Redis counts the actions committed, at least
    every action measured."""
    r = RedisProc(tmp_path)
    try:
        stop = asyncio.Event()
        port: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        server = asyncio.create_task(
            run_baseline_server(
                "127.0.0.1", 0, port.set_result, stop, redis_url=r.url, client=client
            )
        )
        p = await asyncio.wait_for(port, 10)
        rec = await run_baseline(
            [f"ws://127.0.0.1:{p}"], 3, 1.5, Pacing(0), 350, progress=False, label="toy"
        )
        stop.set()
        await server
        rep = rec.to_json()
        assert rep["errors_total"] == 0 and rep["actions"] > 20
        c = redis_sync.Redis(port=r.port)
        versions = {k.decode(): int(c.hget(k, "version")) for k in c.keys("toy:*")}
        c.close()
        assert len(versions) == 3
        # every action measured was committed (Redis also counts the ones sent while the
        # other rooms were still being set up, before the measurement started)
        assert sum(versions.values()) >= rep["actions"]
    finally:
        r.stop()


def test_cli_reports_the_toy_beside_the_baseline(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "run.json"
    args = ["--baseline", "--toy", "--rooms", "2", "--duration", "1.0", "--quiet"]
    assert main([*args, "--json", str(out)]) == 0
    rep = json.loads(out.read_text())
    assert rep["toy"]["errors_total"] == 0 and rep["toy"]["actions"] > 0
    # the toy's server and its redis-server are both measured
    assert len(rep["toy"]["cpu_us_per_action"]) == 2
    ratio = rep["toy"]["actions_per_s"] / rep["baseline"]["actions_per_s"]
    assert abs(rep["ratio_toy_over_baseline"] - ratio) < 0.001 + ratio * 0.01
    assert "ratio: toy / baseline" in capsys.readouterr().out


def test_only_a_stale_seq_refusal_counts_as_stale() -> None:
    from loadtest.conn import RequestError

    def err(code: str, table_code: str | None) -> RequestError:
        detail = {} if table_code is None else {"table_code": table_code}
        return RequestError({"type": "error", "code": code, "message": "m", "detail": detail})

    assert err("illegal_action", "stale-seq").stale
    assert not err("illegal_action", "not-your-turn").stale
    assert not err("illegal_action", None).stale
    assert not err("rate_limited", "stale-seq").stale


def test_errors_are_counted_by_code_and_table_code() -> None:
    from loadtest.conn import RequestError

    e = RequestError({"code": "illegal_action", "detail": {"table_code": "not-your-turn"}})
    assert e.label == "illegal_action:not-your-turn"
    assert RequestError({"code": "rate_limited", "detail": {}}).label == "rate_limited"
