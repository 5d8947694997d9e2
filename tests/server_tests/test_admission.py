"""Admission in a reconnect storm (``--hello-backlog``): while that many connections are
open without their ``hello`` through, new WebSocket handshakes are refused with HTTP 503 and
``Retry-After``; a hello getting through, or a waiting connection closing, frees a place.
Real server, real WebSocket clients."""

from __future__ import annotations

import pytest
from websockets.asyncio.client import connect
from websockets.datastructures import Headers
from websockets.exceptions import InvalidStatus
from websockets.http11 import Response

from protocol.retry import retry_after, retry_delay
from server_tests.conftest import running_server
from server_tests.helpers import http_get, metric, until
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(60)


async def _refused(port: int) -> InvalidStatus:
    with pytest.raises(InvalidStatus) as info:
        await connect(f"ws://127.0.0.1:{port}/", open_timeout=10)
    return info.value


async def test_handshakes_beyond_the_hello_backlog_get_503_with_retry_after(
    redis_url: str,
) -> None:
    async with running_server(redis_url, hello_backlog=2, hello_retry_after=3) as srv:
        a = await Client.connect(srv.port, "a")
        b = await Client.connect(srv.port, "b")
        exc = await _refused(srv.port)  # a and b have not said hello
        assert exc.response.status_code == 503
        assert exc.response.headers["Retry-After"] == "3"
        assert retry_after(exc) == 3.0
        _, _, body = await http_get(srv.port, "/metrics")
        assert metric(body, "mahjong_handshakes_refused_total") == 1
        # plain HTTP (health, metrics) is never refused
        assert (await http_get(srv.port, "/healthz"))[0] == 200
        await a.hello("a")  # a is through: one place free
        c = await Client.connect(srv.port, "c")
        await _refused(srv.port)  # b and c are waiting now
        await b.close()  # a waiting connection going away frees its place too

        async def b_gone() -> bool:
            _, _, body = await http_get(srv.port, "/metrics")
            return metric(body, "mahjong_connections") == 2

        await until(b_gone, "b's connection closed on the server")
        d = await Client.connect(srv.port, "d")
        await d.hello("d")
        await c.hello("c")
        # every place free again: connections that said hello do not count
        e = await Client.connect(srv.port, "e")
        f = await Client.connect(srv.port, "f")
        for cl in (a, c, d, e, f):
            await cl.close()


async def test_no_limit_when_the_backlog_is_zero(redis_url: str) -> None:
    async with running_server(redis_url, hello_backlog=0) as srv:
        clients = [await Client.connect(srv.port, f"c{i}") for i in range(5)]
        for cl in clients:
            await cl.close()


def test_retry_after_reads_only_a_refusal_with_delta_seconds() -> None:
    def refused(status: int, value: str | None) -> InvalidStatus:
        headers = Headers() if value is None else Headers([("Retry-After", value)])
        return InvalidStatus(Response(status, "x", headers))

    assert retry_after(refused(503, "2")) == 2.0
    assert retry_after(refused(429, "0.5")) == 0.5
    assert retry_after(refused(500, "2")) is None  # not a "come back later"
    assert retry_after(refused(503, None)) is None
    assert retry_after(refused(503, "Wed, 21 Oct 2015 07:28:00 GMT")) is None  # a date
    assert retry_after(refused(503, "-1")) is None
    assert retry_after(OSError("connection refused")) is None
    delays = {retry_delay(refused(503, "2")) for _ in range(50)}
    assert all(d is not None and 1.0 <= d <= 3.0 for d in delays) and len(delays) > 1
