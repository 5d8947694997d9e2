"""The server's wall clock, in one place (deadlines, log entry times, retention)."""

from __future__ import annotations

import time


def now_ms() -> int:
    """Wall-clock time in milliseconds since the epoch (what deadlines are stored in)."""
    return int(time.time() * 1000)
