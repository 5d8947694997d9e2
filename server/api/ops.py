"""HTTP on the WebSocket's port: the ops endpoints (``/healthz``, ``/readyz``, ``/metrics``), the browser client's files (:mod:`server.net.web`), and the handshake refusal of a reconnect storm.

Requests and responses are websockets' public HTTP types (``process_request``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from pathlib import Path

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server.flow import bot_pool
from server.flow.runtime import Runtime
from server.net import transport, web


def text_response(
    status: HTTPStatus,
    body: str,
    ctype: str = "text/plain; charset=utf-8",
    retry_after: int | None = None,
) -> Response:
    data = body.encode()
    headers = Headers(
        [("Content-Type", ctype), ("Content-Length", str(len(data))), ("Connection", "close")]
    )
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    return Response(status.value, status.phrase, headers, data)


#: seconds, the Retry-After of a handshake refused for --max-conns-per-address: a connection
#: of that address has to close first (a tab, a device), which takes longer than a storm
ADDRESS_RETRY_AFTER = 10


class Ops:
    """Answers every HTTP request before (or instead of) a WebSocket handshake."""

    def __init__(self, rt: Runtime, open_feeds: Callable[[], int]) -> None:
        self.rt = rt
        self.open_feeds = open_feeds
        # the browser client (server/net/web.py)
        self.site = web.Site(Path(rt.cfg.web_root)) if rt.cfg.web_root else web.Site()
        #: the archive's read API (server/archive/pages.py: ``/api/…``), set by the App
        self.api: Callable[[Request], Awaitable[Response | None]] | None = None

    async def process_request(self, conn: ServerConnection, request: Request) -> Response | None:
        rt = self.rt
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            return text_response(HTTPStatus.OK, "ok\n")
        if path == "/readyz":
            if rt.shutting_down:
                return text_response(HTTPStatus.SERVICE_UNAVAILABLE, "shutting down\n")
            try:
                await asyncio.wait_for(rt.store.ping(), 2.0)
            except Exception:
                rt.metrics.inc("redis_errors")
                return text_response(HTTPStatus.SERVICE_UNAVAILABLE, "redis unavailable\n")
            return text_response(HTTPStatus.OK, "ready\n")
        if path == "/metrics":
            try:
                n: int | None = await asyncio.wait_for(rt.store.count_rooms(), 2.0)
            except Exception:
                n = None
            rt.metrics.counters["bot_fallbacks"] = bot_pool.BOT_STATS["fallbacks"]
            body = rt.metrics.render(n, self.open_feeds(), rt.learned)
            return text_response(HTTPStatus.OK, body, "text/plain; version=0.0.4; charset=utf-8")
        if self.api is not None and path.startswith("/api/"):
            answer = await self.api(request)
            if answer is not None:
                return answer
        if not web.is_websocket(request):
            return self.site.respond(request)  # the browser client, or 404
        if 0 < rt.cfg.hello_backlog <= rt.greeting:
            # A reconnect storm: thousands of clients at once. The ones admitted are answered
            # within a fraction of a second; the rest come back after Retry-After (with
            # jitter) instead of queueing for seconds behind them.
            rt.metrics.inc("handshakes_refused")
            return text_response(
                HTTPStatus.SERVICE_UNAVAILABLE,
                "busy: too many connections waiting for hello; retry\n",
                retry_after=rt.cfg.hello_retry_after,
            )
        if rt.addresses.full(rt.client_address(*transport.peer_of(conn, request))):
            # --max-conns-per-address: the client must close one first (a tab, a device)
            rt.metrics.inc("conns_refused_per_address")
            return text_response(
                HTTPStatus.TOO_MANY_REQUESTS,
                "too many connections from your address; close one and retry\n",
                retry_after=ADDRESS_RETRY_AFTER,
            )
        return None
