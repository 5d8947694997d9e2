"""Connections per client address (``--max-conns-per-address``, behind a trusted proxy by the
forwarded address) and the Origin allow-list (``--allowed-origins``), over real WebSockets.

Before (issue 34, item 10) one address could open as many connections as it liked (2,000 in
1.47 s), and nothing said so in ``welcome.limits``."""

from __future__ import annotations

import asyncio

import msgpack
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

from server.net.addresses import AddressCounts, client_address, parse_networks
from server_tests.conftest import running_server

pytestmark = pytest.mark.timeout(60)

LOOPBACK = parse_networks("127.0.0.1,::1")
PRIVATE = parse_networks("127.0.0.1, 10.0.0.0/8")

ADDRESS_CASES = [
    # (peer, X-Forwarded-For values, trusted proxies, client address)
    ("198.51.100.7", [], LOOPBACK, "198.51.100.7"),
    ("198.51.100.7", ["203.0.113.1"], LOOPBACK, "198.51.100.7"),  # not a proxy: ignored
    ("127.0.0.1", [], LOOPBACK, "127.0.0.1"),
    ("127.0.0.1", ["203.0.113.1"], LOOPBACK, "203.0.113.1"),
    ("127.0.0.1", ["1.1.1.1, 203.0.113.1"], LOOPBACK, "203.0.113.1"),  # the client's own: no
    ("127.0.0.1", ["1.1.1.1", "203.0.113.1"], LOOPBACK, "203.0.113.1"),  # two headers
    ("127.0.0.1", ["203.0.113.1, 10.0.0.5"], PRIVATE, "203.0.113.1"),  # two trusted proxies
    ("127.0.0.1", ["203.0.113.1, 10.0.0.5"], LOOPBACK, "10.0.0.5"),  # 10.0.0.5 not trusted
    ("127.0.0.1", ["10.0.0.6, 10.0.0.5"], PRIVATE, "10.0.0.6"),  # all trusted: the leftmost
    ("127.0.0.1", ["203.0.113.1:4711"], LOOPBACK, "203.0.113.1"),
    ("127.0.0.1", ["[2001:db8::1]:4711"], LOOPBACK, "2001:db8::1"),
    ("::ffff:198.51.100.7", [], LOOPBACK, "198.51.100.7"),
    ("::1", ["2001:db8::1"], LOOPBACK, "2001:db8::1"),
    ("127.0.0.1", ["unknown"], LOOPBACK, "unknown"),
    ("127.0.0.1", ["203.0.113.1"], (), "127.0.0.1"),  # no trusted proxies
    (None, ["203.0.113.1"], LOOPBACK, None),
]


@pytest.mark.parametrize(("peer", "forwarded", "trusted", "expected"), ADDRESS_CASES)
def test_client_address(peer, forwarded, trusted, expected):
    assert client_address(peer, forwarded, trusted) == expected


def test_address_counts():
    counts = AddressCounts(2, parse_networks("127.0.0.0/8, ::1"))
    assert counts.add("198.51.100.7") and counts.add("198.51.100.7")
    assert counts.full("198.51.100.7") and not counts.add("198.51.100.7")
    assert counts.add("198.51.100.8")  # another address
    # IPv6 counts by /64
    assert counts.add("2001:db8::1") and counts.add("2001:db8::2")
    assert not counts.add("2001:db8::ffff:1") and counts.add("2001:db8:0:1::1")
    # exempt: never full, never counted
    for _ in range(5):
        assert counts.add("127.0.0.1") and counts.add("::1")
    counts.remove("198.51.100.7")
    assert not counts.full("198.51.100.7") and counts.add("198.51.100.7")
    assert not AddressCounts(0).full("198.51.100.7")  # 0: no limit
    with pytest.raises(ValueError, match="nope"):
        parse_networks("127.0.0.1, nope")


async def _open(
    port: int, forwarded: str | None = None, origin: str | None = None
) -> ClientConnection:
    headers = {"X-Forwarded-For": forwarded} if forwarded is not None else None
    return await connect(
        f"ws://127.0.0.1:{port}/",
        additional_headers=headers,
        origin=Origin(origin) if origin is not None else None,
        open_timeout=10,
    )


async def _hello(ws: ClientConnection) -> dict:
    await ws.send(msgpack.packb({"type": "hello", "v": 1, "name": "n", "id": 1}))
    reply = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 10), raw=False)
    assert reply["type"] == "welcome", reply
    return reply


async def _refused(port: int, forwarded: str | None = None) -> int:
    """The HTTP status of a handshake that must be refused; its Retry-After is checked."""
    with pytest.raises(InvalidStatus) as e:
        await _open(port, forwarded)
    response = e.value.response
    if response.status_code == 429:
        assert int(response.headers["Retry-After"]) > 0
    return response.status_code


async def test_a_client_address_behind_the_proxy_holds_at_most_the_limit(redis_url):
    async with running_server(redis_url, max_conns_per_address=3) as srv:
        # the test's connections come from 127.0.0.1, a trusted proxy by default: each
        # counts against the address it forwards
        mine = [await _open(srv.port, "203.0.113.9") for _ in range(3)]
        welcome = await _hello(mine[0])
        assert welcome["limits"]["max_conns_per_address"] == 3
        assert await _refused(srv.port, "203.0.113.9") == 429
        assert await _refused(srv.port, "1.2.3.4, 203.0.113.9") == 429  # a spoofed first hop
        other = await _open(srv.port, "203.0.113.10")  # another client: its own count
        await _hello(other)
        # one closes: a new connection of that address is served again
        await mine.pop().close()
        for _ in range(100):
            try:
                mine.append(await _open(srv.port, "203.0.113.9"))
                break
            except InvalidStatus:
                await asyncio.sleep(0.05)
        await _hello(mine[-1])
        # the server's own machine (no forwarded address) is not limited by default
        local = [await _open(srv.port) for _ in range(5)]
        for ws in [*mine, other, *local]:
            await ws.close()


async def test_without_a_trusted_proxy_the_peer_counts_and_the_header_is_ignored(redis_url):
    async with running_server(
        redis_url, max_conns_per_address=2, trusted_proxies="", conn_limit_exempt=""
    ) as srv:
        mine = [await _open(srv.port, "203.0.113.1"), await _open(srv.port, "203.0.113.2")]
        assert await _refused(srv.port, "203.0.113.3") == 429  # all are 127.0.0.1
        # handshakes that pass the check together: only the limit's worth is served, the
        # others are closed with 1013, try again later (or refused, when they come later)
        await mine.pop().close()
        await asyncio.sleep(0.2)
        results = await asyncio.gather(*(_open(srv.port) for _ in range(8)), return_exceptions=True)
        served = 0
        for r in results:
            if isinstance(r, InvalidStatus):
                assert r.response.status_code == 429
                continue
            assert isinstance(r, ClientConnection), r
            try:
                await _hello(r)
                served += 1
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 1013
            await r.close()
        assert served == 1
        await mine[0].close()


async def test_the_origin_allow_list(redis_url):
    async with running_server(redis_url) as srv:  # the default: any origin
        ws = await _open(srv.port, origin="https://elsewhere.example")
        await _hello(ws)
        await ws.close()
    allowed = "https://play.example.org, http://localhost:8765/"
    async with running_server(redis_url, allowed_origins=allowed) as srv:
        for origin in ("https://play.example.org", "http://localhost:8765", None):
            ws = await _open(srv.port, origin=origin)  # None: not a browser
            await _hello(ws)
            await ws.close()
        for origin in ("https://elsewhere.example", "http://play.example.org", "null"):
            with pytest.raises(InvalidStatus) as e:
                await _open(srv.port, origin=origin)
            assert e.value.response.status_code == 403, origin
