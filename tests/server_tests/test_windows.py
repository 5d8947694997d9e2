"""The claim window's delays (server/room/windows.py): the HMAC they are drawn from is HMAC-SHA256
(``hmac.digest``), from a keyed HMAC made once per seed and copied."""

from __future__ import annotations

import hmac
import random

from server.room import windows


def test_hmac_is_the_standard_one() -> None:
    rng = random.Random(3)
    for n in (0, 1, 32, 63, 64, 65, 100, 200):
        for _ in range(20):
            key = rng.randbytes(n)
            msg = rng.randbytes(rng.randrange(0, 150))
            assert windows._hmac_sha256(key, msg) == hmac.digest(key, msg, "sha256")
            # (again: the cached keyed HMAC is copied, never changed)
            assert windows._hmac_sha256(key, msg) == hmac.digest(key, msg, "sha256")


def test_window_delay_is_drawn_from_the_hmac() -> None:
    seed = random.Random(4).randbytes(32).hex()
    for decision in range(50):
        for seat in range(4):
            digest = hmac.digest(seed.encode(), f"{decision}:{seat}".encode(), "sha256")
            u = int.from_bytes(digest[:8], "big") / 2**64
            lo = int(1000 * windows.LOW_SHARE)
            assert windows.window_delay(seed, decision, seat, 1000) == lo + int(u * (1000 - lo + 1))
    assert windows.window_delay(seed, 1, 1, 0) == 0
