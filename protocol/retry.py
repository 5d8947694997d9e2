"""When to try again after the server refused a connection.

A server with too many connections waiting for their ``hello`` (a reconnect storm, see
``--hello-backlog`` in docs/server.md) answers new WebSocket handshakes with HTTP 503 and a
``Retry-After`` header (seconds). Clients wait that long, with jitter so that the refused
clients do not all come back at the same instant, instead of their own backoff.
"""

from __future__ import annotations

import random

__all__ = ["retry_after", "retry_delay"]


def retry_after(exc: BaseException) -> float | None:
    """The ``Retry-After`` seconds of a refused handshake (websockets' ``InvalidStatus``
    carrying a 503 or 429 response), or None (any other failure, or no usable header: delta
    seconds only, not an HTTP date)."""
    response = getattr(exc, "response", None)
    if getattr(response, "status_code", None) not in (429, 503):
        return None
    headers = getattr(response, "headers", None)
    raw = headers.get("Retry-After") if headers is not None else None
    if raw is None:
        return None
    try:
        seconds = float(str(raw).strip())
    except ValueError:
        return None
    return seconds if 0 <= seconds <= 3600 else None


def retry_delay(exc: BaseException, rng: random.Random | None = None) -> float | None:
    """:func:`retry_after` with ±50 % jitter, or None."""
    seconds = retry_after(exc)
    if seconds is None:
        return None
    return seconds * (0.5 + (rng or random).random())
