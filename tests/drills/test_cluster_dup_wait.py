"""A repeated commit on Redis Cluster waits for the replication of the change it repeats.

A client's action is committed, then the connection to the shard's master is lost before
``WAIT`` answers; the server's commit loop sends it again, on a new connection, and the
script answers "dup", and the client is acknowledged. ``WAIT`` is documented to cover the
writes of the connection it is sent on, and the new one has written nothing, so the cluster
commit script writes the sequence number it found again (the same value) on "dup": the
``WAIT`` after it then covers the master's history up to now, the repeated change included.
(Redis 7.0, the one on this machine, records the offset after *any* command, read-only ones
too, so here the test holds without that write as well; the write makes it hold by the
documented contract.) Real cluster (three masters with a replica each); the replica is
frozen (SIGSTOP) to hold its acknowledgements back."""

from __future__ import annotations

import pytest

from drills.procs import RedisCluster, RedisNode
from server.storage.cluster import ClusterStore
from server.storage.store import k_state

pytestmark = pytest.mark.timeout(120)

WAIT_MS = 300


def _hset_calls(node: RedisNode) -> int:
    """HSETs the node has run (scripts' included: INFO commandstats)."""
    c = node.client()
    try:
        return int(c.info("commandstats").get("cmdstat_hset", {}).get("calls", 0))
    finally:
        c.close()


async def test_a_repeated_commit_waits_for_the_replica(tmp_path):
    cluster = RedisCluster(tmp_path / "cluster")
    stores: list[ClusterStore] = []

    def store() -> ClusterStore:
        s = ClusterStore.from_url(cluster.url, wait_ms=WAIT_MS)
        stores.append(s)
        return s

    try:
        room = "dupwait"
        master = cluster.master_of_key(k_state(room))
        replica = cluster.replica_of_key(k_state(room))
        first = store()
        res = await first.commit(room, 0, {"v": 1}, {"kind": "t"}, "p_a", 1)
        assert res.status == "ok" and first.under_replicated == 0  # the replica has it
        replica.freeze()
        try:
            res = await first.commit(room, 1, {"v": 2}, {"kind": "t"}, "p_a", 2)
            # committed on the master; the frozen replica never acknowledged it
            assert res.status == "ok" and first.under_replicated == 1
            # the same action again, on a new connection (the first one was lost)
            again = store()
            hsets = _hset_calls(master)
            res = await again.commit(room, 1, {"v": 2}, {"kind": "t"}, "p_a", 2)
            assert res.status == "dup" and res.version == 2
            assert again.under_replicated == 1  # its WAIT waited for the repeated change
            assert _hset_calls(master) == hsets + 1  # the dup's own write
        finally:
            replica.thaw()
        # the replica catches up: the same repeat is confirmed
        late = store()
        res = await late.commit(room, 1, {"v": 2}, {"kind": "t"}, "p_a", 2)
        assert res.status == "dup" and late.under_replicated == 0
    finally:
        for s in stores:
            await s.close()
        cluster.stop()
