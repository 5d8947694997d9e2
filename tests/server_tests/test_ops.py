"""HTTP endpoints, graceful SIGTERM, Redis script cache loss, flags and env vars."""

from __future__ import annotations

import asyncio
import random
import re
import signal
from pathlib import Path

import pytest
import redis
from websockets.exceptions import ConnectionClosed

from protocol.codes import CloseCode
from server.process.config import load_config
from server.process.reconnect import GAP_FACTOR, GAP_MARGIN_S
from server.room import game
from server.storage.store import RESTART
from server_tests.conftest import ServerProc, running_server
from server_tests.helpers import http_get, metric, metrics_of, until
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(60)

RS = game.rulesets()[0]


async def test_health_ready_metrics(server):
    assert (await http_get(server.port, "/healthz"))[0] == 200
    assert (await http_get(server.port, "/readyz"))[0] == 200
    c = await Client.connect(server.port)
    await c.hello()
    await c.request({"type": "create_room", "ruleset": RS})
    await c.send_raw(b"\xc1")
    await c.recv()
    status, ctype, body = await http_get(server.port, "/metrics")
    assert status == 200 and ctype.startswith("text/plain; version=0.0.4")
    lines = metrics_of(body)
    assert lines["mahjong_connections"] == 1
    assert lines["mahjong_rooms_open"] >= 1
    assert lines['mahjong_errors_total{code="bad_frame"}'] == 1
    assert 'mahjong_action_seconds_bucket{le="+Inf"}' in lines
    assert "mahjong_redis_errors_total" in lines
    await c.close()


async def test_readyz_fails_without_redis(redis_proc):
    # a server pointed at a dead Redis port says it is not ready (but stays alive)
    from server_tests.conftest import free_port

    dead = f"redis://127.0.0.1:{free_port()}/0"
    import contextlib

    from server.app import App
    from server.storage.store import Store
    from server_tests.conftest import make_config

    app = App(make_config(), Store.from_url(dead))
    from websockets.asyncio.server import serve

    async with serve(app.handler, "127.0.0.1", 0, process_request=app.process_request) as s:
        port = next(iter(s.sockets)).getsockname()[1]
        status, _, body = await http_get(port, "/readyz")
        assert status == 503 and "redis" in body
        assert (await http_get(port, "/healthz"))[0] == 200
    with contextlib.suppress(Exception):
        await app.store.close()


async def test_script_cache_flush_is_survived(server, redis_proc):
    c = await Client.connect(server.port)
    await c.hello()
    ack = await c.request({"type": "create_room", "ruleset": RS})
    room = ack["room"]
    redis.Redis(port=redis_proc.port).script_flush()  # as after a Redis restart / failover
    r = await c.request({"type": "sit", "room": room, "seat": 2})
    assert r["type"] == "ack"
    r = await c.request({"type": "chat", "room": room, "text": "still here"})
    assert r["type"] == "ack"
    await c.close()


async def test_sigterm_tells_clients_to_reconnect_and_exits_cleanly(redis_url):
    srv = ServerProc("--redis-url", redis_url)
    try:
        c = await Client.connect(srv.port)
        w = await c.hello("z")
        ack = await c.request({"type": "create_room", "ruleset": RS})
        srv.proc.send_signal(signal.SIGTERM)
        closing = await c.wait_for(lambda m: m["type"] == "closing", 10)
        assert closing["reconnect"] is True
        # one connection: after the expected restart (1 s by default), no spread to speak of
        assert 1000 <= closing["retry_after_ms"] <= 1001
        c.drain()
        with pytest.raises(ConnectionClosed) as exc:
            await c.recv(timeout=10)
        assert exc.value.rcvd is not None and exc.value.rcvd.code == CloseCode.GOING_AWAY
        assert srv.proc.wait(15) == 0
        # nothing was lost: a new process resumes the player in the room
        srv2 = ServerProc("--redis-url", redis_url)
        try:
            c2 = await Client.connect(srv2.port)
            w2 = await c2.hello("z", token=w["token"])
            assert w2["rooms"] == [ack["room"]]
            snap = await c2.wait_for(lambda m: m["type"] == "snapshot")
            assert snap["room"] == ack["room"]
            # the new process measured the restart (the stop's closing -> it listening) ...
            r = redis.Redis.from_url(redis_url)

            async def learned() -> bool:
                return r.hget(RESTART, "gap_ms") is not None

            await until(learned, "the restart gap learned")
            gap_s = int(r.hget(RESTART, "gap_ms") or 0) / 1000
            r.close()
            assert 0 < gap_s < 60
            # ... and its own graceful stop waits that long (stretched) before reconnects
            srv2.proc.send_signal(signal.SIGTERM)
            closing2 = await c2.wait_for(lambda m: m["type"] == "closing", 10)
            expected = int(max(1.0, gap_s * GAP_FACTOR + GAP_MARGIN_S) * 1000)  # 1 s: floor
            assert expected <= closing2["retry_after_ms"] <= expected + 1
            assert srv2.proc.wait(15) == 0
            await c2.close()
        finally:
            srv2.stop()
    finally:
        srv.stop()


def test_flags_and_env_vars():
    cfg = load_config(
        ["--port", "9000", "--grace-seconds", "5"],
        env={
            "REDIS_URL": "redis://h:1/0",
            "MAHJONG_PORT": "1",
            "MAHJONG_CHAT_MAX_LEN": "50",
            "MAHJONG_LOG_JSON": "false",
        },
    )
    assert cfg.port == 9000  # the flag wins over the env var
    assert cfg.redis_url == "redis://h:1/0"
    assert cfg.grace_seconds == 5.0 and cfg.chat_max_len == 50 and cfg.log_json is False
    assert load_config([], env={}).redis_url is None  # embedded Redis by default


async def test_redis_restart_is_survived(tmp_path):
    from server_tests.conftest import RedisProc, running_server

    rp = RedisProc(tmp_path, appendonly=True)
    try:
        async with running_server(rp.url) as srv:
            c = await Client.connect(srv.port)
            await c.hello("r")
            ack = await c.request({"type": "create_room", "ruleset": RS})
            room = ack["room"]
            rp.stop()
            r = await c.request({"type": "sit", "room": room, "seat": 1})
            assert r["type"] == "error" and r["code"] == "unavailable"
            assert (await http_get(srv.port, "/readyz"))[0] == 503
            # the same port and data dir: the AOF brings the room back
            rp = RedisProc(tmp_path, appendonly=True, port=rp.port)
            for _ in range(50):
                r = await c.request({"type": "sit", "room": room, "seat": 1})
                if r["type"] == "ack":
                    break
                await asyncio.sleep(0.1)
            assert r["type"] == "ack", r
            assert (await http_get(srv.port, "/readyz"))[0] == 200
            _, _, body = await http_get(srv.port, "/metrics")
            assert metric(body, "mahjong_redis_errors_total") >= 1
            ev = await c.wait_for(lambda m: m["type"] == "events" and m["seq"] == r["seq"])
            assert ev["lobby"]["seats"][1]["name"] == "r"
            await c.close()
    finally:
        rp.stop()


async def test_sigterm_stops_promptly_while_bots_play_flat_out(redis_url):
    """Rooms of bots playing with no delay (timer ticks in worker threads) do not hold up a
    stop: the process exits cleanly soon after SIGTERM."""
    srv = ServerProc("--redis-url", redis_url, "--shutdown-grace", "2")
    try:
        c = await Client.connect(srv.port)
        await c.hello("host")
        rooms_ = []
        for _ in range(3):
            ack = await c.request({"type": "create_room", "ruleset": RS})
            room = ack["room"]
            for seat in range(4):
                r = await c.request({"type": "add_bot", "room": room, "seat": seat})
                assert r["type"] == "ack", r
            assert (await c.request({"type": "start_game", "room": room}))["type"] == "ack"
            rooms_.append(room)
        # the bots are playing: events keep arriving for every room
        for room in rooms_:
            await c.wait_for(
                lambda m, room=room: m["type"] == "events" and m["room"] == room and m["seq"] > 20,
                20,
            )
        srv.proc.send_signal(signal.SIGTERM)
        # the stop is bounded by --shutdown-grace (2 s) + 5 s: a longer one is TimeoutExpired
        assert await asyncio.to_thread(srv.proc.wait, 2 + 5) == 0
    finally:
        srv.stop()


async def test_keepalive_pings_keep_a_live_idle_connection_open(redis_url):
    from server_tests.conftest import running_server

    async with running_server(redis_url, keepalive_seconds=0.2) as srv:
        c = await Client.connect(srv.port)
        await c.hello("idle")

        async def pongs() -> float:
            _, _, body = await http_get(srv.port, "/metrics")
            return metric(body, "mahjong_keepalive_pongs_total")

        async def three_pongs() -> bool:
            return await pongs() >= 3

        # several ping rounds (every 0.2 s) answered by the client, however busy the machine;
        # bounded by until's 500 polls: a failure names what never happened
        await until(three_pongs, "three keepalive pongs counted in /metrics")
        r = await c.request({"type": "ping"})
        assert r["type"] == "pong"
        assert await pongs() >= 3
        await c.close()


def test_a_graceful_stop_spreads_the_reconnects_over_a_window():
    """closing.retry_after_ms: after --reconnect-after-seconds, uniformly over connections /
    --reconnect-rate seconds (4,000 clients at 1,000/s: 2 s, then over 4 s)."""
    from server.app import App
    from server.process.config import Config

    app = App(Config(reconnect_after_seconds=2.0, reconnect_rate=1000.0), None)  # type: ignore[arg-type]
    delays = app.stopping.reconnect_plan(4000).delays(4000, random.Random())
    assert len(delays) == 4000 and all(2000 <= d <= 6000 for d in delays)
    per_second = [
        sum(1 for d in delays if 2000 + 1000 * k <= d < 3000 + 1000 * k) for k in range(4)
    ]
    assert all(800 <= n <= 1200 for n in per_second), per_second  # even, not all at once
    still = App(Config(reconnect_rate=0), None)  # type: ignore[arg-type]
    assert still.stopping.reconnect_plan(3).delays(3, random.Random()) == [1000] * 3


def documented_metrics() -> dict[str, tuple[str, set[str], bool]]:
    """docs/server.md's "Metrics" table: name -> (type, label names, always shown)."""
    text = (Path(__file__).parents[2] / "docs" / "server.md").read_text("utf-8")
    section = text.split("\n## Metrics\n", 1)[1].split("\n## ", 1)[0]
    out: dict[str, tuple[str, set[str], bool]] = {}
    for row in section.splitlines():
        cells = [c.strip() for c in row.strip("|").split("|")]
        if len(cells) == 5 and cells[0].startswith("`mahjong_"):
            labels = set(re.findall(r"`(\w+)`", cells[2]))
            out[cells[0].strip("`")] = (cells[1], labels, cells[3] == "always")
    return out


async def test_metrics_are_the_documented_ones(redis_url):
    """Every metric /metrics shows is in docs/server.md's table with its type and labels, and
    every one the table lists is shown: those shown "always" on a fresh server, the others
    once what they report exists (a restart learned, the archiver's first look)."""
    docs = documented_metrics()
    assert len(docs) >= 30, "the table was not found"
    r = redis.Redis.from_url(redis_url)
    r.hset(RESTART, mapping={"gap_ms": 1500, "hello_rate": 900.0})  # learned earlier
    r.close()
    async with running_server(redis_url) as srv:
        c = await Client.connect(srv.port)
        await c.hello()
        await c.request({"type": "create_room", "ruleset": RS})

        async def archive_looked() -> bool:
            _, _, body = await http_get(srv.port, "/metrics")
            return "mahjong_archive_waiting_rooms" in metrics_of(body)

        await until(archive_looked, "the archiver's lag in /metrics")
        _, _, body = await http_get(srv.port, "/metrics")
        await c.close()
    types = dict(re.findall(r"^# TYPE (\S+) (\S+)$", body, re.M))
    assert types == {name: kind for name, (kind, _, _) in docs.items()}
    for series in metrics_of(body):
        name, _, labels = series.partition("{")
        base = re.sub(r"_(bucket|sum|count)$", "", name) if name not in types else name
        assert base in types, series
        assert set(re.findall(r"(\w+)=", labels)) <= docs[base][1], series
    # a labelled counter has its samples (the room's creation was committed)
    assert any(s.startswith('mahjong_commits_total{kind="') for s in metrics_of(body))


async def test_a_fresh_server_shows_every_metric_documented_always(server):
    _, _, body = await http_get(server.port, "/metrics")
    types = dict(re.findall(r"^# TYPE (\S+) (\S+)$", body, re.M))
    always = {n: k for n, (k, _, shown) in documented_metrics().items() if shown}
    assert {n: types.get(n) for n in always} == always
