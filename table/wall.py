"""The wall: a verifiable shuffle from a seed supplied from outside, and its commitment.

The server draws ``seed`` with :mod:`secrets` (32 bytes); the engine never produces
randomness. From the seed, deterministically:

* a byte stream ``SHA-256(seed || "stream" || counter_be64)`` for counter 0, 1, 2, …;
* the wall: the sorted tile set (136 or 144) shuffled by Fisher–Yates, ``j`` for position
  ``i`` drawn uniformly from ``0..i`` by rejection sampling 4-byte big-endian words;
* the dealer's three dice (1-6 each) from the same stream, after the shuffle;
* ``salt = SHA-256(seed || "salt")[:16]``.

The commitment published at hand start is ``SHA-256(salt || wall_text)`` where
``wall_text`` is the tile codes joined by single spaces (UTF-8); at hand end salt and wall are
revealed and :func:`verify_commitment` checks them. Anyone can re-run this with the revealed
wall and salt; the seed itself is never revealed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from scoring.tiles import FLOWERS, KINDS, Tile

__all__ = [
    "Deal",
    "build_wall",
    "commitment",
    "full_tile_set",
    "shuffle_wall",
    "verify_commitment",
    "wall_text",
]


def full_tile_set(flowers: bool) -> tuple[Tile, ...]:
    """The sorted tile set: four of each of the 34 kinds, plus the eight flowers."""
    tiles = [t for t in KINDS for _ in range(4)]
    if flowers:
        tiles.extend(FLOWERS)
    return tuple(tiles)


class _Stream:
    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._buf = b""

    def _block(self) -> bytes:
        data = self._seed + b"stream" + self._counter.to_bytes(8, "big")
        self._counter += 1
        return hashlib.sha256(data).digest()

    def word(self) -> int:
        if len(self._buf) < 4:
            self._buf += self._block()
        w = int.from_bytes(self._buf[:4], "big")
        self._buf = self._buf[4:]
        return w

    def below(self, n: int) -> int:
        """Uniform in 0..n-1 (rejection sampling, no modulo bias)."""
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            w = self.word()
            if w < limit:
                return w % n


class Deal:
    """Everything the seed decides for one hand: the wall, the dice and the salt."""

    __slots__ = ("commitment", "dice", "salt", "wall")

    def __init__(self, seed: bytes, flowers: bool, preset: Sequence[Tile] | None = None) -> None:
        stream = _Stream(seed)
        tiles = list(full_tile_set(flowers))
        for i in range(len(tiles) - 1, 0, -1):
            j = stream.below(i + 1)
            tiles[i], tiles[j] = tiles[j], tiles[i]
        if preset is not None:
            if sorted(preset) != sorted(tiles):
                raise ValueError(
                    f"a preset wall must hold exactly the {len(tiles)} tiles of the set"
                )
            tiles = list(preset)
        self.wall: tuple[Tile, ...] = tuple(tiles)
        self.dice: tuple[int, int, int] = (
            stream.below(6) + 1,
            stream.below(6) + 1,
            stream.below(6) + 1,
        )
        self.salt: bytes = hashlib.sha256(seed + b"salt").digest()[:16]
        self.commitment: str = commitment(self.wall, self.salt)


def build_wall(
    flowers: bool,
    hand_size: int,
    dealer: int,
    hands: Sequence[Sequence[Tile]],
    draws: Sequence[Tile] = (),
    replacements: Sequence[Tile] = (),
) -> tuple[Tile, ...]:
    """A preset wall giving seat ``s`` the tiles ``hands[s]`` (the dealer's list has one
    tile more), then ``draws`` in draw order from the head and ``replacements`` in order from
    the tail; every other tile fills the middle in sorted order. For tests and hand-built
    scenarios (golden logs)."""
    rest = list(full_tile_set(flowers))
    head: list[Tile] = []
    for i in range(4):
        s = (dealer + i) % 4
        want = hand_size + (1 if s == dealer else 0)
        if len(hands[s]) != want:
            raise ValueError(f"seat {s} needs {want} tiles, got {len(hands[s])}")
        head.extend(hands[s])
    head.extend(draws)
    for t in (*head, *replacements):
        try:
            rest.remove(t)
        except ValueError:
            raise ValueError(f"too many {t} in the preset wall") from None
    return tuple(head + rest + list(reversed(replacements)))


def shuffle_wall(seed: bytes, flowers: bool) -> tuple[Tile, ...]:
    return Deal(seed, flowers).wall


def wall_text(wall: Sequence[Tile]) -> str:
    return " ".join(str(t) for t in wall)


def commitment(wall: Sequence[Tile], salt: bytes) -> str:
    """Hex SHA-256 of ``salt || wall_text(wall)``."""
    return hashlib.sha256(salt + wall_text(wall).encode()).hexdigest()


def verify_commitment(commit_hex: str, wall_codes: Sequence[str], salt_hex: str) -> bool:
    """Check a revealed wall (tile codes) and salt (hex) against the published commitment."""
    try:
        salt = bytes.fromhex(salt_hex)
    except ValueError:
        return False
    text = " ".join(wall_codes)
    return hashlib.sha256(salt + text.encode()).hexdigest() == commit_hex
