"""MCR's special shapes (seven pairs, orphans, the knitted hands) and its waits as bit masks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from scoring.decompose import (
    Arrangement,
    BlockKind,
    Wait,
    block,
    blocks_of_melds,
    concealed_splits,
    is_standard_complete,
    standard_wait_mask,
)
from scoring.engine import SpecialShape
from scoring.hand import Hand
from scoring.rulesets.mcr.data import (
    _HONORS,
    _ORPHANS,
    KNITTED_SEQUENCES,
    _bits,
)
from scoring.shapes import seven_pairs, thirteen_orphans

# -- special shapes -------------------------------------------------------------------------

SEVEN_PAIRS = "seven-pairs"
THIRTEEN_ORPHANS = "thirteen-orphans"
HONORS_KNITTED = "honors-and-knitted"
KNITTED_STRAIGHT = "knitted-straight"


_SUITED_MASK: Final = (1 << 27) - 1
_ORPHAN_MASK: Final = sum(1 << t for t in _ORPHANS)
_SEQ_MASKS = tuple(sum(1 << t for t in seq) for seq in KNITTED_SEQUENCES)


def _mask(c: Sequence[int]) -> int:
    """The tiles present in the counts ``c`` as a bit set (bit t: tile index t)."""
    mask = 0
    for t in range(34):
        if c[t]:
            mask |= 1 << t
    return mask


def _knitted_of(c: Sequence[int]) -> tuple[int, ...] | None:
    if 27 - list(c[:27]).count(0) < 9:  # fewer than 9 different suited tiles: quick no
        return None
    mask = _mask(c)
    if (mask & _SUITED_MASK).bit_count() < 9:  # fewer than 9 different suited tiles
        return None
    for seq, sm in zip(KNITTED_SEQUENCES, _SEQ_MASKS, strict=True):
        if mask & sm == sm:
            return seq
    return None


def _honors_knitted() -> SpecialShape:
    """全不靠 / 七星不靠: 14 different tiles, the suited ones all from one knitted sequence."""

    def complete(c: Sequence[int], n_melds: int) -> bool:
        if n_melds or max(c) > 1 or sum(c) != 14:
            return False
        suited = [t for t in range(27) if c[t]]
        return any(set(suited) <= set(seq) for seq in KNITTED_SEQUENCES)

    def arrange(hand: Hand, c: Sequence[int]) -> list[Arrangement]:
        blocks = tuple(block(BlockKind.SINGLE, t) for t in range(34) if c[t])
        return [Arrangement(HONORS_KNITTED, blocks, None, Wait.SPECIAL)]

    return SpecialShape(HONORS_KNITTED, complete, arrange, max_melds=0)


def _knitted_straight() -> SpecialShape:
    """組合龍 + a set + a pair (at most one declared meld: the set)."""

    def rest(c: Sequence[int], n_melds: int) -> tuple[tuple[int, ...], list[int]] | None:
        if n_melds > 1 or sum(c) != 14 - 3 * n_melds:
            return None
        seq = _knitted_of(c)
        if seq is None:
            return None
        r = list(c)
        for t in seq:
            r[t] -= 1
        return seq, r

    def complete(c: Sequence[int], n_melds: int) -> bool:
        got = rest(c, n_melds)
        return got is not None and is_standard_complete(got[1])

    def arrange(hand: Hand, c: Sequence[int]) -> list[Arrangement]:
        got = rest(c, len(hand.melds))
        if got is None:
            return []
        seq, r = got
        knitted = tuple(block(BlockKind.KNITTED, t) for t in sorted(seq[i] for i in (0, 3, 6)))
        melds = blocks_of_melds(hand.melds)
        out = []
        for pair, sets in concealed_splits(r):
            blocks = (
                *melds,
                *knitted,
                *(block(k, t) for k, t in sets),
                block(BlockKind.PAIR, pair),
            )
            win = next(i for i, b in enumerate(blocks) if hand.win_tile in b.tiles)
            out.append(Arrangement(KNITTED_STRAIGHT, blocks, win, Wait.SPECIAL))
        return out

    return SpecialShape(KNITTED_STRAIGHT, complete, arrange, max_melds=1)


SHAPES: tuple[SpecialShape, ...] = (
    seven_pairs(four_as_two=True),
    thirteen_orphans(),
    _honors_knitted(),
    _knitted_straight(),
)

# -- unique waits -------------------------------------------------------------------------------


def _seven_pairs_wait(c: Sequence[int]) -> int | None:
    """The tile completing 13 concealed tiles into seven pairs (four alike = two pairs)."""
    if c.count(1) + c.count(3) != 1:  # (counts are 0-4: odd is 1 or 3)
        return None
    return c.index(1) if 1 in c else c.index(3)


# The last answer of _unique_wait_mask: (counts, with seven pairs, tiles). One slot, shared
# by RuleSet.waits and the wait fans of the same hand (both ask for the counts before the
# win); never an answer for another hand (nothing is remembered from hand to hand, so a
# benchmark scoring the same hands again measures the work, not a memo). The slot is one
# tuple replaced at once: threads at worst compute again.
_last_waits: tuple[tuple[int, ...], bool, int] | None = None


def _unique_wait_mask(c: tuple[int, ...], with_seven_pairs: bool) -> int:
    """Tiles completing the concealed counts ``c`` (before the win) into sets + a pair, or
    seven pairs — what decides a unique wait — as a bit mask (bit t: tile t). A tile the
    player already holds four of still counts (a wait is a shape, not a count of live
    tiles), as in the reference calculator."""
    global _last_waits
    last = _last_waits
    if last is not None and last[1] is with_seven_pairs and last[0] == c:
        return last[2]
    out = standard_wait_mask(c)
    if with_seven_pairs and sum(c) == 13:
        t = _seven_pairs_wait(c)
        if t is not None:
            out |= 1 << t
    _last_waits = (c, with_seven_pairs, out)
    return out


_HONOR_TILES_MASK: Final = _bits(_HONORS)


def mcr_wait_mask(c: Sequence[int], n_melds: int) -> int:
    """Every tile completing the concealed counts ``c`` (before the win) with ``n_melds``
    declared melds into any MCR winning shape (live or not), as a bit mask (bit t: tile t)."""
    ct: tuple[int, ...] = c if isinstance(c, tuple) else tuple(c)
    out = _unique_wait_mask(ct, n_melds == 0)  # sets + a pair, seven pairs
    # the tiles present (a bit mask), their number and the most of one kind, in one pass
    mask = total = most = 0
    for t in range(34):
        n = ct[t]
        if n:
            mask |= 1 << t
            total += n
            if n > most:
                most = n
    if n_melds == 0 and total == 13:
        if not mask & ~_ORPHAN_MASK:
            missing = _ORPHAN_MASK & ~mask
            if not missing:
                out |= _ORPHAN_MASK
            elif missing & (missing - 1) == 0:  # one missing
                out |= missing
        if most <= 1:
            suited = mask & _SUITED_MASK
            for sm in _SEQ_MASKS:
                if not suited & ~sm:
                    out |= (sm | _HONOR_TILES_MASK) & ~mask
    if n_melds <= 1 and total == 13 - 3 * n_melds and (mask & _SUITED_MASK).bit_count() >= 8:
        # 組合龍 + a set + a pair: at most one tile of the knitted straight may be missing
        for seq, sm in zip(KNITTED_SEQUENCES, _SEQ_MASKS, strict=True):
            have = mask & sm
            n = have.bit_count()
            if n == 8:  # the missing one is the only candidate
                m = (sm & ~have).bit_length() - 1
                lst = list(ct)
                lst[m] += 1
                for t in seq:
                    lst[t] -= 1
                if is_standard_complete(lst):
                    out |= 1 << m
            elif n == 9:  # complete already: the rest waits for its set / pair
                lst = list(ct)
                for t in seq:
                    lst[t] -= 1
                out |= standard_wait_mask(lst)
    return out


def mcr_waits(c: Sequence[int], n_melds: int) -> set[int]:
    """Every tile completing the concealed counts ``c`` (before the win) with ``n_melds``
    declared melds into any MCR winning shape (live or not)."""
    m = mcr_wait_mask(c, n_melds)
    return {t for t in range(34) if m >> t & 1}
