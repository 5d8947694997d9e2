"""How long each automatic answer in a claim window waits: drawn per window and seat from
the room's recorded randomness, the same for a bot and for a seat that has no choice.

A seat whose only legal answer to a discard is "pass" is not asked: the server passes for
it. So that nobody can tell whether a seat could have claimed, that pass is committed on its
own, like any answer, at a time drawn exactly as a bot's answer is: ``since +
window_delay(seed, decision, seat, hi)``, a value in ``[0.4 × hi, hi]`` from an HMAC of the
room's window seed (kept in the room state), the decision's id and the seat — nothing about
the seat's hand goes into it. docs/table.md "The claim window" says what can still leak.
"""

from __future__ import annotations

import functools
import hashlib
import hmac

__all__ = ["DEFAULT_WINDOW_MS", "window_delay"]

#: the longest an automatic answer waits, unless the room says otherwise (``window_ms``)
DEFAULT_WINDOW_MS = 1000
#: the shortest, as a share of the longest
LOW_SHARE = 0.4


@functools.lru_cache(maxsize=256)
def _keyed(key: bytes) -> hmac.HMAC:
    """An HMAC-SHA256 with ``key`` set up, made once per room's window seed: each
    :func:`window_delay` copies it instead of setting up the key again (the key schedule
    cost ~20 k instructions per delay)."""
    return hmac.new(key, digestmod=hashlib.sha256)


def _hmac_sha256(key: bytes, msg: bytes) -> bytes:
    """``hmac.digest(key, msg, "sha256")`` (the same bytes: tests/server_tests/test_windows.py)."""
    h = _keyed(key).copy()
    h.update(msg)
    return h.digest()


@functools.lru_cache(maxsize=4096)  # a pure function asked again at every deadline scan
def window_delay(seed: str, decision: int, seat: int, hi_ms: int) -> int:
    """Milliseconds after the window opened at which the automatic answer of ``seat`` to
    decision ``decision`` is committed: uniform in ``[LOW_SHARE × hi_ms, hi_ms]``."""
    if hi_ms <= 0:
        return 0
    digest = _hmac_sha256(seed.encode(), f"{decision}:{seat}".encode())
    u = int.from_bytes(digest[:8], "big") / 2**64
    lo = int(hi_ms * LOW_SHARE)
    return lo + int(u * (hi_ms - lo + 1))
