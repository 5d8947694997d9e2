"""`mahjong-server` / `python -m server`: run the game server."""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import ssl
import sys
from collections.abc import Callable

from protocol.fdlimit import raise_nofile_limit
from server.app import run_server
from server.flow.loops import NotifierFactory
from server.net.addresses import parse_networks
from server.process.config import Config, load_config
from server.process.logs import setup_logging
from server.process.metrics import GC
from server.process.procs import announce_listening
from server.storage.embedded import EmbeddedRedis, EmbeddedRedisError
from server.storage.store import open_store

log = logging.getLogger("mahjong.server")

#: allocations (minus deallocations) between young-generation collections (CPython: 700)
GC_GEN0 = 20_000


def main(argv: list[str] | None = None) -> int:
    cfg = load_config(argv)
    setup_logging(cfg.log_level, cfg.log_json)
    soft, _ = raise_nofile_limit()  # one descriptor per connection: thousands of them
    if 0 <= soft < 10_000:
        log.warning("open-file limit is low for many connections", extra={"nofile": soft})
    if not _flags_agree(cfg):
        return 2
    ssl_context = None
    if cfg.tls_cert and cfg.tls_key:
        from protocol.tls import TLSConfigError, make_server_ssl_context

        try:
            ssl_context = make_server_ssl_context(cfg.tls_cert, cfg.tls_key)
        except TLSConfigError as exc:
            log.error(str(exc))
            return 2
    loop_factory = None
    if cfg.event_loop != "asyncio":
        try:
            loop_factory = importlib.import_module("uvloop").new_event_loop
        except ImportError:
            if cfg.event_loop == "uvloop":
                log.error("--event-loop uvloop: uvloop is not installed (pip install '.[fast]')")
                return 2
    embedded: EmbeddedRedis | None = None
    url = cfg.redis_url
    if not url:
        try:
            embedded = EmbeddedRedis(cfg.data_path, cfg.redis_server)
            embedded.start()
        except EmbeddedRedisError as exc:
            log.error(str(exc))
            return 2
        url = embedded.url
    try:
        return _serve(cfg, url, ssl_context, loop_factory)
    finally:
        # whatever failed after the start (a bad Redis URL, a port in use, a crash), the
        # embedded redis-server is stopped with the process; only a SIGKILL leaves it
        # running, for the restart to take over (docs/server.md "Embedded Redis")
        if embedded is not None:
            embedded.stop()


def _flags_agree(cfg: Config) -> bool:
    """Whether the flags make sense together (else each problem is logged)."""
    problems = []
    if bool(cfg.tls_cert) != bool(cfg.tls_key):
        problems.append("--tls-cert and --tls-key go together")
    if min(cfg.closed_room_ttl, cfg.idle_room_seconds) < 0 or cfg.retention_sweep_seconds <= 0:
        problems.append(
            "--closed-room-ttl and --idle-room-seconds must be >= 0 (0: off), "
            "--retention-sweep-seconds > 0"
        )
    for flag, spec in (
        ("--trusted-proxies", cfg.trusted_proxies),
        ("--conn-limit-exempt", cfg.conn_limit_exempt),
    ):
        try:
            parse_networks(spec)
        except ValueError as exc:
            problems.append(f"{flag}: {exc}")
    if cfg.max_conns_per_address < 0:
        problems.append("--max-conns-per-address must be >= 0 (0: no limit)")
    if cfg.redis_cluster and not cfg.redis_url:
        problems.append("--redis-cluster needs --redis-url (any node of the cluster)")
    if cfg.event_loop not in ("auto", "asyncio", "uvloop"):
        problems.append("--event-loop must be auto, asyncio or uvloop")
    for problem in problems:
        log.error(problem)
    return not problems


def _serve(
    cfg: Config,
    url: str,
    ssl_context: ssl.SSLContext | None,
    loop_factory: Callable[[], asyncio.AbstractEventLoop] | None,
) -> int:
    """Run the server on Redis ``url`` until it stops: the process's exit status."""
    # Everything imported so far (the engine, scoring tables, the bot's caches) lives for the
    # whole process: move it out of the collector's way, and collect the young generation
    # less often (a server allocates many short-lived dicts per action, few cycles).
    gc.collect()
    gc.freeze()
    gc.set_threshold(cfg.gc_gen0 or GC_GEN0, 20, 20)
    GC.install()  # pause times per generation, in /metrics

    store = open_store(
        url, cfg.redis_cluster, cfg.redis_pool_size, cfg.redis_wait_replicas, cfg.redis_wait_ms
    )
    notifier: NotifierFactory | None = None
    if store.IS_CLUSTER:
        from server.flow.cluster_notifier import ClusterNotifier

        notifier = ClusterNotifier
    try:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            runner.run(
                run_server(
                    cfg, store, announce_listening, ssl_context=ssl_context, notifier=notifier
                )
            )
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        log.error("cannot start: %s", exc)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
