"""Server configuration: command-line flags, each with an environment variable fallback."""

from __future__ import annotations

import argparse
import importlib.metadata
import os
from dataclasses import dataclass, fields
from pathlib import Path

import mahjong_native


@dataclass(frozen=True)
class Config:
    host: str = "0.0.0.0"
    port: int = 8765
    redis_url: str | None = None  # None: start an embedded redis-server
    data_dir: str = "./data"
    redis_server: str | None = None  # path of the redis-server binary for the embedded mode
    redis_pool_size: int = 32
    event_loop: str = "auto"  # auto: uvloop when installed (the 'fast' extra), else asyncio
    redis_load_wait: float = 120.0  # at start, wait this long for a Redis still loading its AOF
    server_id: str | None = None  # defaults to host:port:pid
    grace_seconds: float = 60.0  # a disconnected seat is held this long, then a bot plays it
    # a player disconnected by a graceful stop (restart) is marked away only if it has not
    # said hello again (to any process) within this many seconds
    restart_resume_seconds: float = 30.0
    # a graceful stop tells each client when to reconnect (closing.retry_after_ms): after
    # this many seconds (the expected restart time), spread over connections / reconnect_rate
    # seconds, so a restart with thousands of clients is answered in an even stream
    reconnect_after_seconds: float = 1.0
    reconnect_rate: float = 2000.0  # reconnects per second the restarted server(s) take
    bot_delay_ms: int = 600  # how long a bot "thinks"
    bot_thread: bool = True  # run timer ticks (bot decisions) in a worker thread
    # bots decide in this many worker processes (never holding the server's interpreter
    # lock); 0: in worker threads of the server process
    bot_processes: int = 1
    bot_budget_ms: int = 250  # a bot decision taking longer falls back to a fast legal action
    hello_timeout: float = 10.0
    hello_concurrency: int = 32  # hellos processed at once (the rest queue): reconnect storms
    # connections open but not yet through their hello: above this, new WebSocket handshakes
    # get HTTP 503 with Retry-After (0 = no limit, the default): a reconnect storm is admitted
    # in waves the process can answer promptly instead of all at once (opt-in: each refused
    # client pays another handshake; see BENCHMARKS.md "Reconnect storm")
    hello_backlog: int = 0
    hello_retry_after: int = 1  # seconds, the 503's Retry-After (clients add jitter)
    # open WebSocket connections one client address may hold on this process (IPv6: per
    # /64); one more is refused with HTTP 429 (0 = no limit). docs/deploy.md "Connections
    # per address"
    max_conns_per_address: int = 64
    # client addresses the limit does not apply to (comma-separated addresses / networks):
    # by default the server's own machine (local tools and load tests)
    conn_limit_exempt: str = "127.0.0.0/8,::1"
    # peers whose X-Forwarded-For is believed (comma-separated addresses / networks): a
    # connection through them counts against the forwarded client address. Default: a
    # proxy on the same machine; empty: none
    trusted_proxies: str = "127.0.0.1,::1"
    # WebSocket handshakes from a browser page of another origin are refused (HTTP 403)
    # unless their Origin is listed here (comma-separated, e.g. https://play.example.org);
    # empty (the default): any origin. Clients that send no Origin (not a browser) always pass
    allowed_origins: str = ""
    gc_gen0: int = 20_000  # collector: allocations between young collections (CPython: 700)
    # >0: collect generation 0 and gc.freeze() the survivors this often (0 = off: the
    # interpreter's own young collections, which grow to 300 ms pauses at 500 rooms)
    gc_freeze_seconds: float = 0.1
    # with gc_freeze_seconds: unfreeze and collect everything this often, so a reference
    # cycle that became garbage after being frozen is freed too (0 = never)
    gc_full_seconds: float = 3600.0
    listen_backlog: int = 4096  # accept queue (capped by net.core.somaxconn): reconnect storms
    keepalive_seconds: float = 20.0  # ping each connection this often (jittered); 0 = off
    max_frame_bytes: int = 16 * 1024  # soft limit: error, connection stays
    hard_frame_bytes: int = 256 * 1024  # hard limit: websockets closes with 1009
    rate_per_second: float = 20.0  # sustained messages per connection
    rate_burst: int = 40
    max_errors: int = 200  # bad messages per minute before closing with 1008
    chat_max_len: int = 300
    chat_per_minute: int = 30
    max_rooms_per_player: int = 8
    timer_poll_ms: int = 100
    shutdown_grace: float = 5.0
    log_level: str = "INFO"
    log_json: bool = True
    tls_cert: str | None = None  # PEM certificate chain: serve wss:// (with tls_key)
    tls_key: str | None = None  # PEM private key of tls_cert
    # a commit writes the room's whole state every this many versions and at hand
    # boundaries, and in between only a patch of it (docs/server.md "Snapshots"); 1: every
    # commit writes it whole, in the format of before snapshots
    snapshot_every: int = 16
    redis_cluster: bool = False  # redis_url names a seed node of a Redis Cluster
    redis_wait_replicas: int = 1  # cluster: a commit is acked once this many replicas have it
    redis_wait_ms: int = 1000  # cluster: how long a commit waits for them
    # retention (docs/server.md "Retention"): a closed room's keys expire this many seconds
    # after it closed (0: keep forever); an open room with no change for idle_room_seconds
    # and no seated player present is closed (0: never); the sweeper runs this often
    closed_room_ttl: float = 7 * 86400.0
    idle_room_seconds: float = 30 * 86400.0
    retention_sweep_seconds: float = 60.0
    # a player (token, name, room index) not seen (no hello) for this many seconds expires
    # (0: keep forever); every hello renews it
    player_ttl: float = 180 * 86400.0
    # the browser client's bundle to serve (docs/web.md "Serving"); None: the one built into
    # the package (server/webapp/)
    web_root: str | None = None
    # the game archive (docs/archive.md): a postgresql:// URL, or sqlite:///<path>, or
    # "off" (no archive); none: the SQLite file <data dir>/archive.sqlite3
    archive_url: str | None = None
    # the archive's passes (reading the finished hands' logs, writing the database) run in a
    # process of their own, off the game server's event loop and CPU; off: in this process
    archive_process: bool = True

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir)


ENV_PREFIX = "MAHJONG_"


def _env_name(name: str) -> str:
    if name == "redis_url":
        return "REDIS_URL"
    return ENV_PREFIX + name.upper()


def version_line() -> str:
    """What ``mahjong-server --version`` prints: the release, and which implementation of
    the hot paths this process runs (the compiled modules, or the pure ones and why)."""
    try:
        release = importlib.metadata.version("mahjong-table")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout never installed
        release = "(not installed)"
    return f"mahjong-server {release}: {mahjong_native.describe()}"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mahjong-server",
        description="Authoritative mahjong game server (WebSocket + msgpack). Every flag can "
        "also be set by an environment variable, shown in brackets; flags win.",
    )
    p.add_argument("--version", action="version", version=version_line())
    for f in fields(Config):
        default = f.default
        flag = "--" + f.name.replace("_", "-")
        env = _env_name(f.name)
        if f.type in ("bool", bool):
            p.add_argument(
                flag,
                dest=f.name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=f"[{env}] default {default}",
            )
        else:
            p.add_argument(flag, dest=f.name, default=None, help=f"[{env}] default {default}")
    return p


def _convert(kind: object, raw: str) -> object:
    k = str(kind)
    if "int" in k and "None" not in k:
        return int(raw)
    if "float" in k:
        return float(raw)
    if "bool" in k:
        return raw.strip().lower() in ("1", "true", "yes", "on")
    return raw


def load_config(argv: list[str] | None = None, env: dict[str, str] | None = None) -> Config:
    env = dict(os.environ) if env is None else env
    ns = build_parser().parse_args(argv)
    values: dict[str, object] = {}
    for f in fields(Config):
        v = getattr(ns, f.name)
        if v is None and _env_name(f.name) in env:
            v = env[_env_name(f.name)]
        if v is None:
            continue
        values[f.name] = v if isinstance(v, bool) else _convert(f.type, str(v))
    return Config(**values)  # type: ignore[arg-type]
