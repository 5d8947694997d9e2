"""The pipelined connection the commit script runs on (server/storage/resp.py), against a real
Redis: replies, error types, ordering under concurrency, a lost connection, and commits
through a Store using it."""

from __future__ import annotations

import asyncio

import pytest
import redis
import redis.asyncio as aioredis
import redis.exceptions
from hypothesis import given
from hypothesis import strategies as st

from server.storage.resp import PipelinedConnection, encode_command, psubscribe, supported
from server.storage.store import Store, k_state


def test_supported_urls() -> None:
    assert supported("unix:///tmp/x/redis.sock")
    assert supported("unix:///tmp/x/redis.sock?db=2")
    assert supported("redis://127.0.0.1:6379/0")
    assert supported("redis://:secret@10.0.0.5:6380/3")
    assert supported("redis://localhost")
    assert not supported("rediss://10.0.0.5:6379/0")  # TLS: redis-py
    assert not supported("redis+cluster://10.0.0.5:7000")
    assert not supported("redis://127.0.0.1:6379/0?socket_timeout=3")
    assert not supported("unix://")
    assert not supported("redis://127.0.0.1:6379/x")


def test_encode_command() -> None:
    assert (
        encode_command(("SET", b"k\r\n", 12)) == b"*3\r\n$3\r\nSET\r\n$3\r\nk\r\n\r\n$2\r\n12\r\n"
    )
    assert encode_command(("GET", "é")) == b"*2\r\n$3\r\nGET\r\n$2\r\n\xc3\xa9\r\n"
    with pytest.raises(redis.exceptions.DataError):
        encode_command(("SET", "k", 1.5))
    with pytest.raises(redis.exceptions.DataError):
        encode_command(("SET", "k", True))


def _resp(args: tuple[bytes | str | int, ...]) -> bytes:
    """RESP as the protocol's description gives it: an array of bulk strings."""
    parts = [b"*%d\r\n" % len(args)]
    for a in args:
        b = a if isinstance(a, bytes) else str(a).encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(b), b))
    return b"".join(parts)


@given(
    st.lists(st.one_of(st.binary(), st.text(), st.integers(-(2**63), 2**63 - 1)), min_size=1).map(
        tuple
    )
)
def test_encode_command_is_resp(args: tuple[bytes | str | int, ...]) -> None:
    """hiredis's encoding, checked against RESP written out from its description."""
    assert encode_command(args) == _resp(args)
    with pytest.raises(redis.exceptions.DataError):
        encode_command((*args, None))  # type: ignore[arg-type]
    with pytest.raises(redis.exceptions.DataError):
        encode_command((*args, False))


async def test_replies_errors_and_order(redis_url: str) -> None:
    c = PipelinedConnection(redis_url)
    try:
        assert await c.execute("SET", "k", b"\x00v") == b"OK"
        assert await c.execute("GET", "k") == b"\x00v"
        assert await c.execute("GET", "missing") is None
        assert await c.execute("EVAL", "return {'ok', 7}", 0) == [b"ok", 7]
        with pytest.raises(redis.exceptions.NoScriptError):
            await c.execute("EVALSHA", "0" * 40, 0)
        with pytest.raises(redis.exceptions.ResponseError):
            await c.execute("INCR", "k")  # not an integer
        # many commands in flight at once (one write per loop iteration): each gets its reply
        got = await asyncio.gather(*(c.execute("INCR", f"n{i % 7}") for i in range(700)))
        per_key: dict[int, list[int]] = {}
        for i, v in enumerate(got):
            per_key.setdefault(i % 7, []).append(v)
        assert all(vs == list(range(1, 101)) for vs in per_key.values())
        # a cancelled caller does not shift the replies of the others
        t = asyncio.ensure_future(c.execute("GET", "n0"))
        await asyncio.sleep(0)  # the GET is sent (its reply still on the way), then cancelled
        t.cancel()
        assert await c.execute("GET", "n1") == b"100"
    finally:
        await c.close()


@pytest.mark.parametrize("connected", [True, False])
async def test_execute_many_runs_in_order_in_one_batch(redis_url: str, connected: bool) -> None:
    """Several commands sent together (also as the first use of the connection, while it
    is still connecting): run in order, replies in order; a refused one raises its error
    after the others ran, and the connection goes on."""
    c = PipelinedConnection(redis_url)
    try:
        if connected:
            assert await c.execute("PING") == b"PONG"
        got = await c.execute_many(
            ("DEL", "m"), ("RPUSH", "m", "a"), ("RPUSH", "m", "b"), ("LRANGE", "m", 0, -1)
        )
        assert got == [0, 1, 2, [b"a", b"b"]]
        with pytest.raises(redis.exceptions.ResponseError):
            await c.execute_many(("INCR", "m"), ("RPUSH", "m", "c"))  # m is a list
        assert await c.execute("LRANGE", "m", 0, -1) == [b"a", b"b", b"c"]
    finally:
        await c.close()


async def test_lost_connection_fails_in_flight_and_reconnects(redis_url: str) -> None:
    c = PipelinedConnection(redis_url)
    admin = redis.Redis.from_url(redis_url)
    try:
        await c.execute("CLIENT", "SETNAME", "pipelined-test")
        blocked = asyncio.ensure_future(c.execute("BLPOP", "never", 0))
        await asyncio.sleep(0.05)
        admin.client_kill_filter(_type="normal", skipme=True)
        with pytest.raises(redis.exceptions.ConnectionError):
            await blocked
        assert await c.execute("PING") == b"PONG"  # a new connection
    finally:
        admin.close()
        await c.close()


async def test_store_commits_through_the_pipelined_connection(redis_url: str) -> None:
    store = Store.from_url(redis_url)
    assert store.commits is not None
    try:
        res = await store.commit("r_x", 0, {"status": "lobby"}, {"kind": "create"})
        assert (res.status, res.version) == ("ok", 1)
        res = await store.commit("r_x", 0, {"status": "lobby"}, {"kind": "create"})
        assert (res.status, res.version) == ("conflict", 1)
        res = await store.commit("r_x", 1, {"status": "x"}, {"kind": "a"}, "p_1", 5)
        assert (res.status, res.version) == ("ok", 2)
        res = await store.commit("r_x", 2, {"status": "y"}, {"kind": "a"}, "p_1", 5)
        assert (res.status, res.version, res.client_seq) == ("dup", 2, 5)
        # the script cache flushed (a Redis restart): loaded again, the commit goes through
        await store.r.script_flush()
        res = await store.commit("r_x", 2, {"status": "z"}, {"kind": "a"}, "p_1", 6, 123)
        assert (res.status, res.version) == ("ok", 3)
        assert await store.load("r_x") == (3, {"status": "z"})
        assert await store.r.hget(k_state("r_x"), "deadline") == b"123"
        assert [v for v, _ in await store.read_log("r_x", 1)] == [1, 2, 3]
    finally:
        await store.close()
    plain = Store(aioredis.Redis.from_url(redis_url))  # without: redis-py's pool
    assert plain.commits is None
    try:
        res = await plain.commit("r_x", 3, {"status": "w"}, {"kind": "a"})
        assert (res.status, res.version) == ("ok", 4)
    finally:
        await plain.close()


async def test_psubscribe_calls_back_each_message_and_reports_a_lost_connection(
    redis_url: str,
) -> None:
    got: list[tuple[bytes, bytes]] = []
    arrived = asyncio.Event()

    def on_message(channel: bytes, data: bytes) -> None:
        got.append((channel, data))
        if len(got) == 3:
            arrived.set()

    sub = await psubscribe(redis_url, "{room:*}:ch", on_message)
    admin = redis.Redis.from_url(redis_url)
    try:
        admin.publish("{room:a}:ch", "1")
        admin.publish("other", "x")  # not matched
        admin.publish("{room:b}:ch", "7")
        admin.publish("{room:a}:ch", "2")
        await asyncio.wait_for(arrived.wait(), 5)
        assert got == [(b"{room:a}:ch", b"1"), (b"{room:b}:ch", b"7"), (b"{room:a}:ch", b"2")]
        admin.client_kill_filter(_type="pubsub")
        await asyncio.wait_for(sub.wait_closed(), 5)
    finally:
        sub.close()
        admin.close()
