"""The seeded shuffle, the dice, preset walls and the commitment."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.tiles import Tile
from table.wall import Deal, build_wall, commitment, full_tile_set, verify_commitment, wall_text


def test_tile_sets() -> None:
    assert len(full_tile_set(False)) == 136
    assert len(full_tile_set(True)) == 144
    c = Counter(full_tile_set(True))
    assert all(c[Tile(i)] == 4 for i in range(34))
    assert all(c[Tile(i)] == 1 for i in range(34, 42))


@given(seed=st.binary(min_size=16, max_size=64), flowers=st.booleans())
def test_shuffle_is_a_deterministic_permutation(seed: bytes, flowers: bool) -> None:
    a = Deal(seed, flowers)
    b = Deal(seed, flowers)
    assert a.wall == b.wall and a.dice == b.dice and a.salt == b.salt
    assert sorted(a.wall) == sorted(full_tile_set(flowers))
    assert all(1 <= d <= 6 for d in a.dice)
    assert verify_commitment(a.commitment, [str(t) for t in a.wall], a.salt.hex())


def test_shuffle_is_specified_exactly() -> None:
    """An independent re-implementation of the documented algorithm gives the same wall."""
    seed = bytes(range(32))
    stream = bytearray()
    counter = 0

    def word() -> int:
        nonlocal counter
        if len(stream) < 4:
            stream.extend(hashlib.sha256(seed + b"stream" + counter.to_bytes(8, "big")).digest())
            counter += 1
        w = int.from_bytes(stream[:4], "big")
        del stream[:4]
        return w

    tiles = list(full_tile_set(True))
    for i in range(len(tiles) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        while (w := word()) >= limit:
            pass
        j = w % n
        tiles[i], tiles[j] = tiles[j], tiles[i]
    assert Deal(seed, True).wall == tuple(tiles)
    salt = hashlib.sha256(seed + b"salt").digest()[:16]
    text = " ".join(str(t) for t in tiles)
    assert Deal(seed, True).commitment == hashlib.sha256(salt + text.encode()).hexdigest()


def test_different_seeds_give_different_walls() -> None:
    walls = {Deal(bytes([i]) * 16, False).wall for i in range(50)}
    assert len(walls) == 50


def test_commitment_detects_tampering() -> None:
    d = Deal(b"x" * 32, True)
    codes = [str(t) for t in d.wall]
    assert verify_commitment(d.commitment, codes, d.salt.hex())
    swapped = [codes[1], codes[0], *codes[2:]]
    if swapped != codes:
        assert not verify_commitment(d.commitment, swapped, d.salt.hex())
    assert not verify_commitment(d.commitment, codes, "00" * 16)
    assert not verify_commitment(d.commitment, codes, "not hex")
    assert commitment(d.wall, d.salt) == d.commitment
    assert wall_text(d.wall).split() == codes


def test_preset_wall() -> None:
    hands = [
        [Tile(i % 34) for i in range(14)],
        [Tile(i) for i in range(14, 27)],
        [Tile(i) for i in range(0, 13)],
        [Tile(i) for i in range(20, 33)],
    ]
    w = build_wall(False, 13, 0, hands, draws=[Tile.WHITE], replacements=[Tile.RED, Tile.GREEN])
    assert sorted(w) == sorted(full_tile_set(False))
    assert list(w[:14]) == hands[0]
    assert list(w[14:27]) == hands[1]
    assert w[53] == Tile.WHITE
    assert w[-1] == Tile.RED and w[-2] == Tile.GREEN
    d = Deal(b"s" * 16, False, w)
    assert d.wall == w
    with pytest.raises(ValueError):
        Deal(b"s" * 16, False, w[:-1])
    with pytest.raises(ValueError):
        build_wall(False, 13, 0, [[Tile.M1] * 14, *hands[1:]])
