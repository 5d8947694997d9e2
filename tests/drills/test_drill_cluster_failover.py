"""Drill 3: a local Redis Cluster (3 masters + 3 replicas, ``redis-cli --cluster create``) and
two ``mahjong-server --redis-cluster`` processes. Games run in rooms on different shards; the
master of one game's shard is SIGKILLed mid-game; after the replica takes over, every game
continues to the end and no acknowledged action is lost (commits WAIT for the replica)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import msgpack
import pytest
import redis.cluster
from server_tests.wsclient import Client

from drills.common import FAST, Seat, check_room, connect_retrying, setup_room
from drills.procs import RedisCluster, RedisNode, ServerProcess
from server.storage.store import k_channel, k_log, k_seq, k_state

pytestmark = pytest.mark.timeout(200)

HANDS = 1
ROOMS = 3


def read_cluster_log(url: str, room: str) -> dict[int, Any]:
    c = redis.cluster.RedisCluster.from_url(url)
    try:
        rows = c.xrange(k_log(room))
    finally:
        c.close()
    return {
        int(rid.split(b"-")[0]): msgpack.unpackb(f[b"d"], raw=False, strict_map_key=False)
        for rid, f in rows
    }


def shard_channels(node: RedisNode) -> set[str]:
    c = node.client()
    try:
        return {ch.decode() for ch in c.execute_command("PUBSUB", "SHARDCHANNELS")}
    finally:
        c.close()


def pattern_subscriptions(node: RedisNode) -> int:
    c = node.client()
    try:
        return int(c.execute_command("PUBSUB", "NUMPAT"))
    finally:
        c.close()


def diagnose(cluster: RedisCluster, room: str, seats: list[Seat]) -> str:
    """What a stuck game looks like, for the failure report."""
    out = [f"room {room}"]
    for s in seats:
        p = s.player
        out.append(
            f"  {p.c.label}: seen {p.seq_seen} legal_at {p.legal_at} acted_at {p.acted_at} "
            f"inflight {p.inflight} legal {[a['type'] for a in p.legal]} errors {p.errors[-3:]}"
        )
    try:
        c = redis.cluster.RedisCluster.from_url(cluster.url)
        try:
            out.append(f"  version {c.hget(k_state(room), 'version')}")
            out.append(f"  timer {c.zscore('mj:timers', room)} now {int(time.time() * 1000)}")
            raw = c.hget(k_state(room), "state") or c.hget(k_state(room), "snap")
            state = msgpack.unpackb(raw, raw=False) if raw else {}
            out.append(f"  status {state.get('status')} pending {state.get('pending')}")
            out.append(
                f"  deadline {c.hget(k_state(room), 'deadline')!r} "
                f"in mj:rooms {c.sismember('mj:rooms', room)} "
                f"away {[(s or {}).get('away') for s in state.get('seats') or []]}"
            )
            # the last entries: what each seat was last told it may do
            for v, e in sorted(read_cluster_log(cluster.url, room).items())[-4:]:
                events = [x.get("type") for x in e.get("events") or []]
                legal = {k: len(x) for k, x in (e.get("legal") or {}).items()}
                out.append(
                    f"  entry {v}: {e.get('kind')} by {e.get('actor')} events {events} "
                    f"legal {legal} deadlines {e.get('deadlines')}"
                )
        finally:
            c.close()
    except Exception as exc:
        out.append(f"  (cannot read the room: {exc!r})")
    return "\n".join(out)


async def test_cluster_master_killed_mid_game(tmp_path):
    cluster = RedisCluster(tmp_path / "cluster")
    servers: list[ServerProcess] = []
    spare: list[Client] = []
    try:
        common = (
            "--redis-cluster",
            "--redis-url",
            cluster.url,
            "--grace-seconds",
            "60",
            "--bot-delay-ms",
            "0",
        )
        servers = [ServerProcess(*common, log=tmp_path / f"server{i}.log") for i in range(2)]
        # rooms until three of them live on three different masters (room ids are random)
        rooms: dict[int, tuple[str, list[Client]]] = {}  # master port -> room, its clients
        for attempt in range(40):
            if len(rooms) == ROOMS:
                break
            pair = [
                await connect_retrying(servers[0].port, f"a{attempt}"),
                await connect_retrying(servers[1].port, f"b{attempt}"),
            ]
            room = await setup_room(pair, {**FAST, "length": "hands", "hands": HANDS}, bots=2)
            master = cluster.master_of_key(k_state(room)).port
            if master in rooms:
                spare.extend(pair)
            else:
                rooms[master] = (room, pair)
        assert len(rooms) == ROOMS, "three masters should each own one of 40 random rooms"
        # every key of a room is in the room's slot, on that master
        for port, (room, _) in rooms.items():
            node = next(n for n in cluster.nodes if n.port == port)
            c = node.client()
            try:
                for key in (k_state(room), k_log(room)):
                    assert c.exists(key), key  # a key in another slot would be on another node
            finally:
                c.close()
        games: list[tuple[str, list[Seat], int]] = []
        for i, (room, pair) in enumerate(rooms.values()):
            r = await pair[0].request({"type": "start_game", "room": room})
            assert r["type"] == "ack", r
            games.append((room, [Seat(c, 400 + 10 * i + j) for j, c in enumerate(pair)], r["seq"]))

        async def play_game(room: str, seats: list[Seat], start: int, stop_at: int | None) -> None:
            try:
                await _play_game(room, seats, start, stop_at)
            except TimeoutError:
                print(diagnose(cluster, room, seats))
                raise

        async def _play_game(room: str, seats: list[Seat], start: int, stop_at: int | None) -> None:
            await asyncio.gather(
                *(
                    s.play(
                        s.player.c.ws.remote_address[1],
                        room,
                        timeout=120,
                        until=None
                        if stop_at is None
                        else (lambda p: p.seq_seen >= start + stop_at),
                    )
                    for s in seats
                )
            )

        await asyncio.gather(*(play_game(room, seats, start, 12) for room, seats, start in games))
        # sharded pub/sub: each master carries the channels of its own rooms, nobody PSUBSCRIBEs
        masters = {port: next(n for n in cluster.nodes if n.port == port) for port in rooms}
        for port, (room, _) in rooms.items():
            assert k_channel(room) in shard_channels(masters[port])
            assert pattern_subscriptions(masters[port]) == 0
        # kill the master of the first game's shard
        room0 = games[0][0]
        victim = cluster.master_of_key(k_state(room0))
        killed_at = max(s.player.seq_seen for s in games[0][1])
        victim.kill()
        await asyncio.gather(*(play_game(room, seats, start, None) for room, seats, start in games))
        # the replica was promoted; the cluster is whole again
        cluster.wait_healthy()
        assert cluster.master_of_key(k_state(room0)) is not victim
        for room, seats, _ in games:
            owner = cluster.master_of_key(k_state(room))
            c = owner.client()
            try:  # the client sequence numbers live next to the state, on the same master
                assert all(c.exists(k) for k in (k_state(room), k_log(room), k_seq(room)))
            finally:
                c.close()
            log = read_cluster_log(cluster.url, room)
            check_room(log, seats, HANDS)
        assert max(read_cluster_log(cluster.url, room0)) > killed_at + 5
        for _, seats, _ in games:
            for s in seats:
                await s.player.c.close()
    finally:
        for c in spare:
            await c.close()
        for s in servers:
            s.stop()
        cluster.stop()
