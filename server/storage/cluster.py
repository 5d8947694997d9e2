"""Redis Cluster support: ``mahjong-server --redis-cluster --redis-url redis://node:port``.

An adapter over :mod:`server.storage.store` (:class:`ClusterStore`) and the process's notifier
(:class:`server.flow.cluster_notifier.ClusterNotifier`, given to ``run_server``); nothing else
changes.

* **One room, one slot.** Every per-room key is ``{room:<id>}:...`` (see ``server/storage/store.py``),
  so the commit script touches a single slot and runs on the shard that owns the room.
  Rooms spread over the shards by their random ids.
* **Commit**: ``commit.lua`` (idempotency + version check + state/deadline write + log
  append, all in the room's slot) without its ``PUBLISH``, sent in one pipeline with
  ``WAIT <replicas> <ms>`` and ``SPUBLISH`` on one connection to the owning master: the caller
  (and so the client's ack) only returns once the shard's replica has the change, so a master
  killed after an ack does not take the acknowledged action with it when its replica is
  promoted. The notification goes out after that ``WAIT`` too, so no other process shows
  clients a version that is not yet replicated. A master without any connected replica skips
  ``WAIT`` (nothing to fail over to; its AOF keeps the data).
* **Sharded pub/sub.** Each process ``SSUBSCRIBE``s, on the master owning the slot, the
  channel ``{room:<id>}:ch`` of every room it has local clients for (instead of one
  ``PSUBSCRIBE`` that every shard would have to broadcast). After a failover / slot move the
  subscriptions follow the slot map; missed notifications are healed by ``Loops.heal_loop``.
* **Timers.** As in ``Store``: the deadline is stored in the room's hash by the commit, the
  global ``mj:timers`` index (another slot) is written right after. If that write fails (its
  master is failing over) the room is remembered and re-indexed from its hash within a second;
  all open rooms are re-indexed every ``TIMER_RECONCILE_SECONDS`` (an index write lost in a
  failover, or a process that died between a commit and its index write).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import redis.asyncio as aioredis
import redis.exceptions
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import ConnectionPool

from server.room.held_answers import HeldAnswer
from server.storage.store import (
    ANSWER_LUA,
    COMMIT_LUA,
    TIMERS,
    CommitResult,
    Store,
    answer_args,
    commit_reply,
    k_answers,
    k_channel,
    k_log,
    k_player,
    k_seq,
    k_state,
    k_tail,
    k_token,
)

log = logging.getLogger("mahjong.cluster")

_PUBLISH = "redis.call('PUBLISH', ARGV[6], nv)"
if _PUBLISH not in COMMIT_LUA:  # pragma: no cover - caught by the cluster drill at once
    raise RuntimeError("server/storage/commit.lua changed: update server/storage/cluster.py")
_DUP = "    return {'dup', v, last}"
if _DUP not in COMMIT_LUA:  # pragma: no cover - caught by test_cluster_dup_wait at once
    raise RuntimeError("server/storage/commit.lua changed: update server/storage/cluster.py")
# commit.lua without its PUBLISH: on a cluster the notification is an SPUBLISH sent after
# WAIT. And a repeated change ("dup": the first attempt's connection was lost, perhaps before
# its WAIT answered) writes the sequence number it found again, the same value: WAIT covers
# the writes of the connection it is sent on, and a new connection has written nothing, so
# without a write of its own the WAIT after a "dup" would promise nothing about the change
# it repeats (Redis 7.0 happens to record the offset after any command, read-only ones too,
# which the WAIT documentation does not promise)
COMMIT_CLUSTER_LUA = COMMIT_LUA.replace(_PUBLISH, "").replace(
    _DUP, "    redis.call('HSET', KEYS[3], player, last)\n" + _DUP
)

# errors after which the slot map is re-read and the command retried
_RETRY_PREFIXES = ("MOVED", "ASK", "CLUSTERDOWN", "TRYAGAIN", "READONLY", "LOADING", "MASTERDOWN")
COMMIT_RETRY_SECONDS = 8.0


def cluster_url(url: str) -> str:
    """``redis+cluster://h:p`` / ``rediss+cluster://`` -> the plain URL redis-py expects."""
    for prefix, plain in (("redis+cluster://", "redis://"), ("rediss+cluster://", "rediss://")):
        if url.startswith(prefix):
            return plain + url[len(prefix) :]
    return url


class _Cluster(RedisCluster):
    """``RedisCluster`` whose "cluster unreachable / slot not covered" errors (which redis-py
    does not derive from ``RedisError``) are ``ConnectionError``s, so every caller that handles
    a Redis outage (the client gets ``unavailable`` and retries) handles these too."""

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return await super().execute_command(*args, **kwargs)
        except redis.exceptions.RedisClusterException as exc:
            raise redis.exceptions.ConnectionError(f"cluster unavailable: {exc}") from exc

    async def initialize(self, *args: Any, **kwargs: Any) -> RedisCluster:
        try:
            await super().initialize(*args, **kwargs)
        except redis.exceptions.RedisClusterException as exc:
            raise redis.exceptions.ConnectionError(f"cluster unavailable: {exc}") from exc
        return self


class ClusterStore(Store):
    """:class:`Store` on a Redis Cluster (``self.r`` is a ``RedisCluster``)."""

    IS_CLUSTER = True

    def __init__(self, client: RedisCluster, wait_replicas: int = 1, wait_ms: int = 1000) -> None:
        super().__init__(client)  # type: ignore[arg-type]
        self.cluster = client
        self.wait_replicas = wait_replicas
        self.wait_ms = wait_ms
        self._nodes: dict[str, aioredis.Redis] = {}
        self._node_shas: dict[str, str] = {}
        self._answer_shas: dict[str, str] = {}  # (answer.lua, as _node_shas)
        self._replicas: dict[str, tuple[float, int]] = {}  # node -> (checked at, connected)
        self.under_replicated = 0  # commits whose WAIT returned fewer replicas than asked
        self.timer_debt: set[str] = set()  # rooms whose timer could not be written

    @classmethod
    def from_url(
        cls, url: str, pool_size: int = 32, wait_replicas: int = 1, wait_ms: int = 1000
    ) -> ClusterStore:
        client = _Cluster.from_url(
            cluster_url(url),
            max_connections=pool_size,
            decode_responses=False,
            socket_timeout=5,
            socket_connect_timeout=2,
        )
        store = cls(client, wait_replicas, wait_ms)
        store.url = url
        return store

    async def close(self) -> None:
        for c in self._nodes.values():
            with contextlib.suppress(Exception):
                await c.aclose()
        self._nodes.clear()
        await self.cluster.aclose()

    async def node_for(self, key: str) -> Any:
        """The master owning ``key``'s slot (the client learns the slot map on first use)."""
        await self.cluster.initialize()
        return self.cluster.get_node_from_key(key)

    async def ping(self) -> bool:
        node = await self.node_for(TIMERS)
        return bool(await self._node_client(node).ping())

    async def refresh_topology(self) -> None:
        """Re-read the slot map (after a failover); failures are left to the next attempt."""
        with contextlib.suppress(
            redis.exceptions.RedisError, redis.exceptions.RedisClusterException, OSError
        ):
            await self.cluster.nodes_manager.initialize()

    def _node_client(self, node: Any) -> aioredis.Redis:
        """A plain client for one master, with the cluster client's credentials and TLS
        settings (a pipeline on it keeps EVALSHA and WAIT on one connection)."""
        c = self._nodes.get(node.name)
        if c is None:
            c = self._nodes[node.name] = node_redis(node, max_connections=16)
        return c

    async def _drop_node(self, name: str) -> None:
        c = self._nodes.pop(name, None)
        self._node_shas.pop(name, None)
        self._answer_shas.pop(name, None)
        self._replicas.pop(name, None)
        if c is not None:
            with contextlib.suppress(Exception):
                await c.aclose()

    async def loading(self) -> bool:
        # a loading node answers LOADING, which the cluster client retries (see _RETRY_PREFIXES)
        return False

    async def _commit_script(
        self, room: str, args: list[Any], deadline: int | None, now: int | None = None
    ) -> Any:
        """commit.lua on the room's master (retried across a failover), then WAIT for its
        replicas and the timers index (another slot) written after it. (``now`` is not used:
        a Cluster's commit counts no live processes, it publishes on its shard always.)"""
        keys = [k_state(room), k_log(room), k_seq(room), k_tail(room), k_answers(room)]
        return await self._on_master(room, keys, args, deadline, answer=False)

    async def hold_answer(
        self,
        room: str,
        expected_version: int,
        answers_n: int,
        seat: int,
        record: HeldAnswer,
        player: str | None,
        client_seq: int | None,
        deadline: int | None,
    ) -> CommitResult:
        """answer.lua on the room's master, WAITed for like a commit (a master killed after
        the ack does not take the held answer with it), then the timers index."""
        args = answer_args(expected_version, answers_n, seat, record, player, client_seq, deadline)
        keys = [k_state(room), k_answers(room), k_seq(room)]
        out: CommitResult = await self._on_master(room, keys, args, deadline, answer=True)
        return out

    async def _on_master(
        self, room: str, keys: list[str], args: list[Any], deadline: int | None, answer: bool
    ) -> Any:
        """commit.lua (or with ``answer`` answer.lua) on the room's master, retried across a
        failover; the timers index after it."""
        give_up = time.monotonic() + COMMIT_RETRY_SECONDS
        delay = 0.05
        while True:
            try:
                res = await self._commit_once(room, keys, args, answer)
            except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError):
                # The master went away. If the script ran before that, the retry answers
                # "conflict" (or "dup" for a sequenced action), which mutate() handles.
                if time.monotonic() > give_up:
                    raise
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.5)
                await self.refresh_topology()
                continue
            if res is not None:
                break
            if time.monotonic() > give_up:
                raise redis.exceptions.ConnectionError("cluster did not settle in time")
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.5)
            await self.refresh_topology()
        out = commit_reply(res)
        if out.status in ("ok", "held") and deadline is not None:
            # the index lives in another slot (single Redis: in the script), so it is written
            # afterwards
            try:
                await self.cluster.zadd(TIMERS, {room: deadline})
            except (redis.exceptions.RedisError, redis.exceptions.RedisClusterException, OSError):
                # the commit stands (the client gets its ack); the timer is repaired soon
                self.timer_debt.add(room)
        return out

    async def _commit_once(
        self, room: str, keys: list[str], args: list[Any], answer: bool = False
    ) -> Any:
        """One attempt; None when the slot map changed and the caller should retry."""
        node = await self.node_for(keys[0])
        client = self._node_client(node)
        shas = self._answer_shas if answer else self._node_shas
        sha = shas.get(node.name)
        if sha is None:
            script = ANSWER_LUA if answer else COMMIT_CLUSTER_LUA
            sha = shas[node.name] = await client.script_load(script)
        want = min(self.wait_replicas, await self._connected_replicas(node.name, client))
        async with client.pipeline(transaction=False) as p:
            p.evalsha(sha, len(keys), *keys, *args)
            if want > 0:
                p.execute_command("WAIT", want, self.wait_ms)
            if not answer:
                p.execute_command("SPUBLISH", k_channel(room), "1")
            out = await p.execute(raise_on_error=False)
        res, acked = out[0], (out[1] if want > 0 else 0)
        if isinstance(res, redis.exceptions.NoScriptError):
            shas.pop(node.name, None)  # a promoted replica: load the script again
            return None
        if isinstance(res, redis.exceptions.ResponseError):
            if str(res).startswith(_RETRY_PREFIXES):
                await self._drop_node(node.name)
                return None
            raise res
        if isinstance(res, Exception):
            raise res
        if want > 0 and isinstance(acked, int) and acked < want:
            self.under_replicated += 1
            log.warning(
                "commit not replicated in time",
                extra={"room": room, "replicas": acked, "node": node.name},
            )
        return res

    async def _connected_replicas(self, name: str, client: aioredis.Redis) -> int:
        """How many replicas the master has now (re-read every 2 s). A master without a
        replica (its replica died, or it was just promoted) cannot lose acknowledged writes to
        a failover -- there is nothing to fail over to -- so its commits skip WAIT instead of
        stalling for ``wait_ms`` each; its AOF keeps them across a restart."""
        t = time.monotonic()
        cached = self._replicas.get(name)
        if cached is not None and t - cached[0] < 2.0:
            return cached[1]
        info = await client.info("replication")
        n = int(info.get("connected_slaves", 0))
        if cached is not None and cached[1] != n:
            log.warning("master %s now has %d connected replica(s)", name, n)
        self._replicas[name] = (t, n)
        return n

    async def new_player(self, name: str) -> tuple[str, str]:
        # the player hash and the token live in different slots: write the hash first, so a
        # token never points at a missing player
        import secrets

        pid = "p_" + secrets.token_hex(8)
        token = secrets.token_urlsafe(32)
        ttl = self.player_ttl or None
        await self.cluster.hset(k_player(pid), mapping={"name": name})
        if ttl is not None:
            await self.cluster.expire(k_player(pid), ttl)
        await self.cluster.set(k_token(token), pid, ex=ttl)
        return pid, token


def node_redis(node: Any, max_connections: int | None = None) -> aioredis.Redis:
    """``redis.asyncio.Redis`` for one cluster node, connecting exactly as the cluster
    client's own connections to it do (host, port, password, username, TLS, timeouts)."""
    kwargs = dict(node.connection_kwargs)
    pool = ConnectionPool(
        connection_class=node.connection_class, max_connections=max_connections, **kwargs
    )
    return aioredis.Redis(connection_pool=pool)
