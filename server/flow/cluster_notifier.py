"""Redis Cluster notifications: sharded pub/sub (one ``SSUBSCRIBE`` per room with a connection here, on the master owning its slot) and the repair of timers lost in a failover; the notifier of a process on a Redis Cluster.

The store's side of a cluster (commits with ``WAIT``, one slot per room) is
:mod:`server.storage.cluster`; this is the process's: which channels to hold on which master, and
re-indexing timers whose write failed (docs/server.md, "Redis Cluster").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine
from typing import Any

import redis.exceptions

from server.flow.fanout import Feeds
from server.flow.loops import Loops
from server.flow.runtime import Runtime
from server.storage.cluster import ClusterStore, node_redis
from server.storage.store import k_channel, room_of_channel

log = logging.getLogger("mahjong.cluster")

TIMER_RECONCILE_SECONDS = 5.0


class _NodeSubscriber:
    """The sharded subscriptions this process holds on one master."""

    def __init__(self, owner: ClusterNotifier, node: Any) -> None:
        self.owner = owner
        self.name = node.name
        self.client = node_redis(node)
        self.pubsub = self.client.pubsub()
        self.want: set[str] = set()
        self.have: set[str] = set()
        self.failed = False
        self.closing = False
        self.task = asyncio.get_running_loop().create_task(self._run())

    def _kick(self, channel: str) -> None:
        room = room_of_channel(channel)
        f = self.owner.feeds.get(room) if room is not None else None
        if f is not None:
            f.kick()

    async def _run(self) -> None:
        try:
            while not (self.closing or self.owner.rt.stopped):
                for ch in sorted(self.want - self.have):
                    await self.pubsub.ssubscribe(ch)
                    self.have.add(ch)
                    self._kick(ch)  # notifications may have been missed before this
                for ch in sorted(self.have - self.want):
                    await self.pubsub.sunsubscribe(ch)
                    self.have.discard(ch)
                if not self.have:
                    await asyncio.sleep(0.2)
                    continue
                msg = await self.pubsub.get_message(timeout=0.2)
                if msg is None:
                    continue
                kind = msg["type"]
                kind = kind.decode() if isinstance(kind, bytes) else str(kind)
                ch = msg["channel"]
                ch = ch.decode() if isinstance(ch, bytes) else str(ch)
                if kind == "smessage":
                    self._kick(ch)
                elif kind == "sunsubscribe" and ch in self.have:
                    # the server dropped us: the slot moved (failover / resharding)
                    self.have.discard(ch)
                    if ch in self.want:
                        raise redis.exceptions.ConnectionError(f"slot of {ch} moved")
        except asyncio.CancelledError:
            raise
        except (redis.exceptions.RedisError, OSError) as exc:
            self.owner.rt.metrics.inc("redis_errors")
            log.warning("sharded pub/sub on %s lost: %s", self.name, exc)
        finally:
            self.failed = True
            self.owner.subs_changed.set()

    async def close(self) -> None:
        # told to stop and cancelled, and waited for (bounded): see App.stop_tasks
        self.closing = True
        self.task.cancel()
        await asyncio.wait({self.task}, timeout=2.0)
        if self.task.done() and not self.task.cancelled():
            self.task.exception()  # retrieved
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.client.aclose()


class ClusterNotifier:
    """Sharded pub/sub (one ``SSUBSCRIBE`` per room with a connection here, on the master
    owning its slot) and periodic timer reconciliation: the notifier of a process on a Redis
    Cluster (``run_server(..., notifier=ClusterNotifier)``)."""

    def __init__(self, rt: Runtime, feeds: Feeds, loops: Loops) -> None:
        assert isinstance(rt.store, ClusterStore)
        self.rt = rt
        self.store: ClusterStore = rt.store
        self.feeds = feeds
        self.owner = loops
        self.subs_changed = asyncio.Event()
        self.subscribers: dict[str, _NodeSubscriber] = {}
        # a room's first and last connection here change what to subscribe
        feeds.opened.append(self._changed)
        feeds.closed.append(self._changed)

    def _changed(self, room: str) -> None:
        self.subs_changed.set()

    def loops(self) -> list[Coroutine[Any, Any, None]]:
        return [self.pubsub_loop(), self.timer_reconcile_loop()]

    async def pubsub_loop(self) -> None:
        try:
            while not self.rt.stopped:
                self.subs_changed.clear()
                try:
                    await self._reconcile_subscriptions()
                except (
                    redis.exceptions.RedisError,
                    redis.exceptions.RedisClusterException,
                    OSError,
                ):
                    self.rt.metrics.inc("redis_errors")
                    log.warning("cannot map rooms to shards; retrying", exc_info=True)
                    await asyncio.sleep(0.5)
                    self.subs_changed.set()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.subs_changed.wait(), 1.0)
        finally:
            for sub in list(self.subscribers.values()):
                await sub.close()
            self.subscribers.clear()

    async def _reconcile_subscriptions(self) -> None:
        failed = [name for name, s in self.subscribers.items() if s.failed]
        if failed:
            for name in failed:
                await self.subscribers.pop(name).close()
            await self.store.refresh_topology()
            await asyncio.sleep(0.2)  # do not spin against a node that is still down
        desired: dict[str, tuple[Any, set[str]]] = {}
        for room in self.feeds.rooms():
            ch = k_channel(room)
            node = await self.store.node_for(ch)
            desired.setdefault(node.name, (node, set()))[1].add(ch)
        for name, (node, chans) in desired.items():
            sub = self.subscribers.get(name)
            if sub is None:
                sub = self.subscribers[name] = _NodeSubscriber(self, node)
                for ch in chans:  # whatever was published meanwhile
                    self._kick_channel(ch)
            sub.want = chans
        for name, sub in list(self.subscribers.items()):
            if name not in desired:
                sub.want = set()
                if not sub.have:
                    await self.subscribers.pop(name).close()

    def _kick_channel(self, ch: str) -> None:
        room = room_of_channel(ch)
        f = self.feeds.get(room) if room is not None else None
        if f is not None:
            f.kick()

    async def timer_reconcile_loop(self) -> None:
        """Repair timers: at once for rooms whose timer write failed, and every
        ``TIMER_RECONCILE_SECONDS`` for all open rooms (a timer write lost in a failover of the
        timer set's master, or a process that died between a commit and its timer write)."""
        last_full = time.monotonic()
        while not self.rt.stopped:
            await asyncio.sleep(0.5)
            try:
                for room in sorted(self.store.timer_debt):
                    await self.store.reindex_timer(room)
                    self.store.timer_debt.discard(room)
                if time.monotonic() - last_full >= TIMER_RECONCILE_SECONDS:
                    await self.owner.reconcile_timers()
                    last_full = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception:  # a cluster in failover raises more than RedisError
                self.rt.metrics.inc("redis_errors")
                log.warning("timer reconciliation failed; retrying", exc_info=True)
