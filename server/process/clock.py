"""The server's clock, injected: wall time for deadlines and log times, monotonic time for intervals, and sleeping.

One :class:`Clock` per process, made by ``server.app.App`` (the real one, :data:`REAL`,
unless a test hands it another) and kept in ``Runtime.clock``; every part that reads the
game's time (deadlines, grace, timers, leavers, retention, restart gaps, process liveness)
reads it there. :class:`TestClock` is the clock a test advances: its time runs with the real
one and jumps forward when told to, so a deadline five seconds away is due at once, over the
same real websockets and Redis. What measures the real world stays on the real clock (the
event loop's lag, request latencies, keepalive pings, retry back-offs against Redis, the
collector's cadence), and Redis's own expiries (TTL) run on Redis's clock (docs/server.md,
"The clock").
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Protocol


class Clock(Protocol):
    """What the server reads the time from."""

    def now_ms(self) -> int:
        """Wall-clock time in milliseconds since the epoch (what deadlines are stored in)."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (intervals, give-up times)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return once ``seconds`` have passed on this clock."""
        ...


class RealClock:
    """The clock of the machine: ``time`` and ``asyncio``."""

    __slots__ = ()

    def now_ms(self) -> int:
        return int(time.time() * 1000)

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


#: the process's real clock (what the server is built with unless a test gives another)
REAL = RealClock()


def now_ms() -> int:
    """Wall-clock time in milliseconds since the epoch, on the real clock (tools and tests
    that do not run a server; a server's parts read ``Runtime.clock``)."""
    return REAL.now_ms()


class TestClock:
    """A clock a test advances: the real time plus every :meth:`advance` so far. Sleepers
    wake as soon as an advance takes them past their time, not when the real time does."""

    __test__ = False  # not a pytest test class, despite the name
    __slots__ = ("_moved", "offset")

    def __init__(self) -> None:
        #: seconds this clock is ahead of the real one
        self.offset = 0.0
        self._moved: asyncio.Event | None = None

    def now_ms(self) -> int:
        return int((time.time() + self.offset) * 1000)

    def monotonic(self) -> float:
        return time.monotonic() + self.offset

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` forward, at once; wake every sleeper now due."""
        if seconds < 0:
            raise ValueError("a clock does not go back")
        self.offset += seconds
        moved, self._moved = self._moved, None
        if moved is not None:
            moved.set()

    async def sleep(self, seconds: float) -> None:
        until = self.monotonic() + seconds
        while (left := until - self.monotonic()) > 0:
            await self._wait(left)

    async def _wait(self, seconds: float) -> None:
        """Wait ``seconds`` of real time, or less if the clock is advanced meanwhile."""
        if self._moved is None:
            self._moved = asyncio.Event()
        moved = self._moved
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(moved.wait(), seconds)
