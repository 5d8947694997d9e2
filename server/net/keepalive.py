"""The keepalive: pings every connection now and then, a few at a time, and closes those whose pong does not come.

One task for all connections (a task per connection costs memory at thousands of them);
websockets' own keepalive is off (``server/net/transport.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import time

from websockets.exceptions import ConnectionClosed

from server.net.transport import Conn
from server.process.metrics import Metrics

#: the keepalive's tick, and how long it takes to look at every connection once (a slice of
#: them per tick): a ping goes out at most ~SCAN_ROUND after it is due
SCAN_TICK = 0.05
SCAN_ROUND = 0.5


class Keepalive:
    """Pings every connection every ``--keepalive-seconds`` (±20 %, with a random phase per
    connection; websockets' own keepalive is off), so connections opened together (a
    reconnect storm, a load test) do not all ping at the same instant. One task for all
    connections (a task per connection costs memory at thousands of them); a ping's wait for
    its pong is a short-lived task. No pong within that time: the connection is dead and
    closed (1011)."""

    def __init__(self, conns: set[Conn], every: float, metrics: Metrics) -> None:
        self.conns = conns
        self.every = every
        self.metrics = metrics
        self.pings: set[asyncio.Task[None]] = set()  # pings waiting for a pong

    async def run(self) -> None:
        every = self.every
        if every <= 0:
            return
        tick = min(SCAN_TICK, every / 4)
        ticks_per_round = min(SCAN_ROUND, every / 4) / tick
        loop = asyncio.get_running_loop()
        ring: list[Conn] = []
        at = n = 0
        while True:
            await asyncio.sleep(tick)
            # A slice of the connections per tick, so that every connection is looked at
            # about every SCAN_ROUND seconds: the pings go out a few at a time, instead of
            # every due ping at once (at 8,000 connections, ~200 pings and a scan of them
            # all in one turn of the event loop held it up for several ms, twice a second).
            if at >= len(ring):
                ring, at = list(self.conns), 0
                n = max(1, math.ceil(len(ring) / ticks_per_round))
            now = time.monotonic()
            for conn in ring[at : at + n]:
                if conn.next_ping <= now and not conn.pinging and not conn.closed:
                    conn.pinging = True
                    t = loop.create_task(self._ping(conn, every))
                    self.pings.add(t)  # (the loop keeps only weak references to tasks)
                    t.add_done_callback(self.pings.discard)
            at += n

    async def _ping(self, conn: Conn, every: float) -> None:
        try:
            pong = await conn.ws.ping()
            await asyncio.wait_for(pong, every)
            self.metrics.inc("keepalive_pongs")
        except TimeoutError:
            with contextlib.suppress(Exception):
                await conn.ws.close(1011, "keepalive ping timeout")  # as websockets does
            return
        except ConnectionClosed:
            return
        finally:
            conn.pinging = False
        conn.next_ping = time.monotonic() + random.uniform(0.8, 1.2) * every
