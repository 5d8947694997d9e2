"""The cluster adapter's small pieces (the cluster drill covers the behaviour)."""

from __future__ import annotations

import subprocess
import sys

from drills.procs import ROOT

from server.process.config import load_config
from server.storage.cluster import COMMIT_CLUSTER_LUA, cluster_url
from server.storage.store import COMMIT_LUA


def test_cluster_urls():
    assert cluster_url("redis+cluster://h:7000") == "redis://h:7000"
    assert cluster_url("rediss+cluster://h:7000/0") == "rediss://h:7000/0"
    assert cluster_url("redis://h:7000") == "redis://h:7000"


def test_cluster_commit_is_the_commit_script_without_its_publish_and_writing_on_dup():
    """The commit script less its PUBLISH, plus one write before the "dup" answer (see
    server/storage/cluster.py and tests/drills/test_cluster_dup_wait.py)."""
    assert "PUBLISH" in COMMIT_LUA and "PUBLISH" not in COMMIT_CLUSTER_LUA
    expected = []
    for line in COMMIT_LUA.splitlines():
        if line.strip() == "return {'dup', v, last}":
            expected.append("    redis.call('HSET', KEYS[3], player, last)")
        if "redis.call('PUBLISH'" not in line:
            expected.append(line)
    assert [x for x in COMMIT_CLUSTER_LUA.splitlines() if x.strip()] == [
        x for x in expected if x.strip()
    ]


def test_cluster_flags_and_env():
    cfg = load_config(["--redis-cluster", "--redis-wait-ms", "250"], env={})
    assert cfg.redis_cluster and cfg.redis_wait_ms == 250 and cfg.redis_wait_replicas == 1
    cfg = load_config([], env={"MAHJONG_REDIS_CLUSTER": "true", "REDIS_URL": "redis://x:1"})
    assert cfg.redis_cluster and cfg.redis_url == "redis://x:1"
    assert not load_config([], env={}).redis_cluster


def test_cluster_mode_needs_a_url():
    out = subprocess.run(
        [sys.executable, "-m", "server", "--redis-cluster"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 2 and "--redis-cluster needs --redis-url" in out.stderr
