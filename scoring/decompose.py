"""Decomposition of a complete hand into every standard arrangement, and waits.

A *standard* arrangement is n sets (chows, pungs, kongs) plus one pair, where n is 4 for
13-tile rule sets and 5 for 16-tile ones; the declared melds are fixed sets and the concealed
tiles (win tile included) are split in every possible way. Special shapes (seven pairs,
thirteen orphans, …) are declared by each rule set as :data:`ShapeMatcher` functions and
produce :class:`Arrangement` values of their own ``shape``.

The per-suit split is memoised on the suit's 9 counts, so a hand costs four dictionary
look-ups once the cache is warm.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import TypeVar

from scoring.hand import Hand, Meld, MeldKind
from scoring.tiles import KINDS, Tile

__all__ = [
    "STANDARD",
    "Arrangement",
    "Block",
    "BlockKind",
    "ShapeMatcher",
    "Wait",
    "arrangements",
    "block",
    "blocks_of_melds",
    "concealed_splits",
    "is_standard_complete",
    "mask_tiles",
    "standard_arrangements",
    "standard_wait_mask",
    "standard_waits",
    "waits",
]

STANDARD = "standard"


class BlockKind(enum.Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    PAIR = "pair"
    KNITTED = "knitted"  # three tiles of a knitted straight (1-4-7 / 2-5-8 / 3-6-9 of a suit)
    SINGLE = "single"  # a lone tile of a special shape (orphans, 不搭 …)


class Wait(enum.Enum):
    """The shape the win tile completed (per arrangement)."""

    TWO_SIDED = "two-sided"  # 23 waiting 1/4
    EDGE = "edge"  # 12 waiting 3, 89 waiting 7
    CLOSED = "closed"  # 13 waiting 2
    SINGLE = "single"  # waiting on the pair
    DUAL_PUNG = "dual-pung"  # two pairs, one becomes a pung
    SPECIAL = "special"  # a special shape


#: (kind, tile index) -> (kind code, tile codes): the JSON of a block, built once.
_BLOCK_CODES: dict[tuple[str, int], tuple[str, tuple[str, ...]]] = {}


class Block:
    """One part of an arrangement.

    ``tile`` is the lowest tile. ``concealed`` is true when the set is hidden: formed in hand
    (and, for a pung, not completed by a claimed winning tile) or a concealed kong.
    ``meld`` is the declared meld it comes from, None for tiles in hand.

    Immutable (never assign to a field: blocks are shared between arrangements and hands).
    A plain class with a hand-written ``__init__``, ``__eq__``, ``__hash__`` and
    ``__repr__`` (a dataclass's: fields compared in order), not a frozen dataclass: compiled
    (mypyc) its constructor is then native, where a dataclass's generated ``__init__`` stays
    interpreted (one ``object.__setattr__`` per field).
    """

    __slots__ = ("concealed", "kind", "meld", "tile")

    def __init__(
        self, kind: BlockKind, tile: Tile, concealed: bool, meld: Meld | None = None
    ) -> None:
        self.kind = kind
        self.tile = tile
        self.concealed = concealed
        self.meld = meld

    def _key(self) -> tuple[BlockKind, Tile, bool, Meld | None]:
        return (self.kind, self.tile, self.concealed, self.meld)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Block:
            return NotImplemented
        assert isinstance(other, Block)
        return (
            self.kind is other.kind
            and self.tile == other.tile
            and self.concealed == other.concealed
            and self.meld == other.meld
        )

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"Block(kind={self.kind!r}, tile={self.tile!r}, concealed={self.concealed!r}, "
            f"meld={self.meld!r})"
        )

    @property
    def tiles(self) -> tuple[Tile, ...]:
        k = self.kind
        t = self.tile
        if k is BlockKind.CHOW:
            return (t, KINDS[t + 1], KINDS[t + 2])
        if k is BlockKind.PUNG:
            return (t, t, t)
        if k is BlockKind.KONG:
            return (t, t, t, t)
        if k is BlockKind.PAIR:
            return (t, t)
        if k is BlockKind.KNITTED:
            return (t, KINDS[t + 3], KINDS[t + 6])
        return (t,)

    @property
    def is_set(self) -> bool:
        return self.kind in (BlockKind.CHOW, BlockKind.PUNG, BlockKind.KONG)

    @property
    def is_pung_like(self) -> bool:
        """Pung or kong."""
        return self.kind is BlockKind.PUNG or self.kind is BlockKind.KONG

    def to_json(self) -> dict[str, object]:
        key = (self.kind._value_, self.tile._value_)  # plain str / int: cheap to hash
        codes = _BLOCK_CODES.get(key)
        if codes is None:
            codes = _BLOCK_CODES[key] = (self.kind.value, tuple(str(t) for t in self.tiles))
        out: dict[str, object] = {
            "kind": codes[0],
            "tiles": list(codes[1]),
            "concealed": self.concealed,
        }
        if self.meld is not None:
            out["melded"] = True
        return out


class Arrangement:
    """One way to read a complete hand.

    ``blocks`` lists the declared melds first (in hand order), then the concealed sets, then
    the pair(s) / singles. ``win_block`` is the index of the block the win tile completed
    (None for shapes where that is meaningless); ``wait`` is the shape it completed.

    Immutable; a plain class for a native constructor when compiled (see :class:`Block`).
    """

    __slots__ = ("blocks", "shape", "wait", "win_block")

    def __init__(
        self, shape: str, blocks: tuple[Block, ...], win_block: int | None, wait: Wait
    ) -> None:
        self.shape = shape
        self.blocks = blocks
        self.win_block = win_block
        self.wait = wait

    def __eq__(self, other: object) -> bool:
        if type(other) is not Arrangement:
            return NotImplemented
        assert isinstance(other, Arrangement)
        return (
            self.shape == other.shape
            and self.blocks == other.blocks
            and self.win_block == other.win_block
            and self.wait is other.wait
        )

    def __hash__(self) -> int:
        return hash((self.shape, self.blocks, self.win_block, self.wait))

    def __repr__(self) -> str:
        return (
            f"Arrangement(shape={self.shape!r}, blocks={self.blocks!r}, "
            f"win_block={self.win_block!r}, wait={self.wait!r})"
        )

    @property
    def sets(self) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.is_set)

    @property
    def pairs(self) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.kind is BlockKind.PAIR)

    def to_json(self) -> dict[str, object]:
        return {
            "shape": self.shape,
            "blocks": [b.to_json() for b in self.blocks],
            "win_block": self.win_block,
            "wait": self.wait._value_,
        }


#: A special-shape matcher: (hand, concealed counts incl. win tile) -> its arrangements.
ShapeMatcher = Callable[[Hand, Sequence[int]], list[Arrangement]]

# A split of a tile group: (pair index or -1, ((kind, index), ...)) with kind 0 chow, 1 pung.
_Split = tuple[int, tuple[tuple[int, int], ...]]


def _split_rec(
    c: list[int], i: int, pair: int, sets: list[tuple[int, int]], honors: bool, out: list[_Split]
) -> None:
    """Depth-first splits of counts ``c`` from index ``i`` (module level, not a closure: a
    recursive closure is a reference cycle, garbage only the cycle collector frees, one per
    cache miss; see ``server.app.freeze_loop``)."""
    n = len(c)
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        out.append((pair, tuple(sets)))
        return
    if c[i] >= 3:
        c[i] -= 3
        sets.append((1, i))
        _split_rec(c, i, pair, sets, honors, out)
        sets.pop()
        c[i] += 3
    if c[i] >= 2 and pair < 0:
        c[i] -= 2
        _split_rec(c, i, i, sets, honors, out)
        c[i] += 2
    if not honors and i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        sets.append((0, i))
        _split_rec(c, i, pair, sets, honors, out)
        sets.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


#: the most entries each memo of a group's counts holds (:func:`_suit_splits`,
#: :func:`_suit_ok`: least recently used dropped first; the per-group tables
#: ``_GROUP_SPLITS`` and ``_WAIT_TABLES``: emptied when full, by :func:`_memo_room`). A
#: long-running process (the server, a bot worker) meets new group counts for as long as it
#: runs: unbounded, these memos grew for its whole life (~1.6 MB per 150,000 actions at a
#: 2,000-room soak's 30 minutes, issue 34; docs/memory.md). The common counts are met again
#: within seconds, so a bound keeps nearly every hit.
MEMO_MAX = 4096
_V = TypeVar("_V")


def _memo_room(table: dict[bytes, _V]) -> dict[bytes, _V]:
    """``table``, emptied first when it holds :data:`MEMO_MAX` entries (a miss is about to
    add one)."""
    if len(table) >= MEMO_MAX:
        table.clear()
    return table


@lru_cache(maxsize=MEMO_MAX)
def _suit_splits(c: tuple[int, ...], honors: bool) -> tuple[_Split, ...]:
    """Every split of one group's counts into chows/pungs and at most one pair."""
    out: list[_Split] = []
    _split_rec(list(c), 0, -1, [], honors, out)
    # Different removal orders can reach the same split (11123: pair-then-chow and
    # chow-then-pair); keep each split once.
    unique: dict[_Split, None] = {}
    for pair, sets in out:
        unique.setdefault((pair, tuple(sorted(sets))), None)
    return tuple(unique)


@lru_cache(maxsize=MEMO_MAX)
def _suit_ok(c: tuple[int, ...], honors: bool) -> tuple[bool, bool]:
    """(can split with no pair, can split with exactly one pair)."""
    no_pair = with_pair = False
    for pair, _ in _suit_splits(c, honors):
        if pair < 0:
            no_pair = True
        else:
            with_pair = True
    return no_pair, with_pair


_GROUPS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


def is_standard_complete(c: Sequence[int]) -> bool:
    """True when the 34 counts split into sets and exactly one pair."""
    total = sum(c)
    if total % 3 != 2:
        return False
    pairs = 0
    for lo, hi, honors in _GROUPS:
        g = tuple(c[lo:hi])
        if not any(g):
            continue
        no_pair, with_pair = _suit_ok(g, honors)
        if sum(g) % 3 == 2:
            if not with_pair:
                return False
            pairs += 1
        elif sum(g) % 3 == 0:
            if not no_pair:
                return False
        else:
            return False
    return pairs == 1


def concealed_splits(c: Sequence[int]) -> list[tuple[int, tuple[tuple[BlockKind, Tile], ...]]]:
    """Every split of the 34 counts into sets + one pair: ``[(pair tile, ((kind, tile)…))]``."""
    return [(pair, tuple((b.kind, b.tile) for b in blocks)) for pair, blocks in _block_splits(c)]


_INTERNED: dict[tuple[str, int, bool], Block] = {}


def block(kind: BlockKind, tile: int, concealed: bool = True) -> Block:
    """The shared :class:`Block` of a set / pair / single in hand (not a declared meld).

    Blocks are immutable, so one instance per (kind, tile, concealed) serves every
    arrangement of every hand: building arrangements allocates no blocks.
    """
    key = (kind._value_, tile, concealed)  # (an Enum member hashes in Python: slow)
    b = _INTERNED.get(key)
    if b is None:
        b = _INTERNED[key] = Block(kind, KINDS[tile], concealed)
    return b


# A split of one group as blocks: (pair tile index or -1, the sets as shared blocks).
_BlockSplit = tuple[int, tuple[Block, ...]]


def _group_block_splits(g: tuple[int, ...], lo: int, honors: bool) -> tuple[_BlockSplit, ...]:
    """:func:`_suit_splits` of one group as shared blocks with absolute tile indices."""
    return tuple(
        (
            lo + p if p >= 0 else -1,
            tuple(block(BlockKind.CHOW if k == 0 else BlockKind.PUNG, lo + i) for k, i in ss),
        )
        for p, ss in _suit_splits(g, honors)
    )


#: :func:`_group_block_splits` memoised, one table per group of :data:`_GROUPS` keyed by the
#: group's counts as bytes (:func:`_group_keys`: a dictionary look-up with a bytes key, not a
#: tuple to build and hash, nor a call through ``functools.cache``); an empty group's entry
#: is :data:`_NO_TILES` (compared by identity)
_GROUP_SPLITS: tuple[dict[bytes, tuple[_BlockSplit, ...]], ...] = ({}, {}, {}, {})
_NO_TILES: tuple[_BlockSplit, ...] = ((-1, ()),)


def _block_splits(c: Sequence[int]) -> list[_BlockSplit]:
    """Every split of the 34 counts into sets + exactly one pair, as shared blocks."""
    keys = _group_keys(c)
    # while every group has one split (the usual case): the pair and the blocks so far, and
    # no list; then the combinations
    pair = -1
    blocks: tuple[Block, ...] = ()
    combos: list[_BlockSplit] | None = None
    for k in range(4):
        lo, hi, honors = _GROUPS[k]
        if keys is None:  # (a count outside 0-255: no such hand; not memoised)
            g = tuple(c[lo:hi])
            splits = _group_block_splits(g, lo, honors) if any(g) else _NO_TILES
        else:
            key = keys[k]
            table = _GROUP_SPLITS[k]
            got = table.get(key)
            if got is None:
                got = _memo_room(table)[key] = (
                    _group_block_splits(tuple(key), lo, honors) if any(key) else _NO_TILES
                )
            splits = got
        if splits is _NO_TILES:  # (the group is empty: nothing to add)
            continue
        if not splits:
            return []
        if combos is None:
            if len(splits) == 1:  # one way so far and here
                p, bs = splits[0]
                if p >= 0:
                    if pair >= 0:
                        return []
                    pair = p
                blocks += bs
                continue
            combos = [(pair, blocks)]
        new: list[_BlockSplit] = []
        for cp, cb in combos:
            for p, bs in splits:
                if p < 0:
                    new.append((cp, cb + bs))
                elif cp < 0:
                    new.append((p, cb + bs))
        combos = new
    if combos is None:
        return [(pair, blocks)] if pair >= 0 else []
    return [x for x in combos if x[0] >= 0]


_CHOW_K = BlockKind.CHOW
_PUNG_K = BlockKind.PUNG
_KONG_K = BlockKind.KONG
_PAIR_K = BlockKind.PAIR


def blocks_of_melds(melds: Iterable[Meld]) -> tuple[Block, ...]:
    """The declared melds as blocks (a concealed kong stays concealed)."""
    out = []
    for m in melds:
        k = m.kind
        kind = _KONG_K if k is MeldKind.KONG else _CHOW_K if k is MeldKind.CHOW else _PUNG_K
        out.append(Block(kind, m.tiles[0], m.concealed, m))
    return tuple(out)


#: the shared pair block of each tile (what ``block(BlockKind.PAIR, t)`` returns)
_PAIR_BLOCKS: tuple[Block, ...] = tuple(block(_PAIR_K, t) for t in range(34))


def _wait_of(block: Block, win: Tile) -> Wait:
    if block.kind is BlockKind.PAIR:
        return Wait.SINGLE
    if block.kind is BlockKind.PUNG:
        return Wait.DUAL_PUNG
    pos = win - block.tile
    if pos == 1:
        return Wait.CLOSED
    n = block.tile.number
    if (pos == 2 and n == 1) or (pos == 0 and n == 7):
        return Wait.EDGE
    return Wait.TWO_SIDED


def standard_arrangements(hand: Hand, counts: Sequence[int] | None = None) -> list[Arrangement]:
    """Every standard arrangement of ``hand``, one per (split, block holding the win tile).

    A pung completed by a claimed (not self-drawn) win tile is exposed.
    """
    c = counts if counts is not None else hand.concealed_counts()
    splits = _block_splits(c)
    if not splits:
        return []
    melds = blocks_of_melds(hand.melds) if hand.melds else ()
    win = hand.win_tile
    w = win._value_
    self_drawn = hand.win.self_drawn
    out: list[Arrangement] = []
    n_melds = len(melds)
    for pair, sets in splits:
        candidates = (*sets, _PAIR_BLOCKS[pair])
        seen: list[Block] = []
        for j, b in enumerate(candidates):
            t = b.tile._value_
            if b.kind is _CHOW_K:
                if not t <= w <= t + 2:
                    continue
            elif t != w:
                continue
            if b in seen:  # shared blocks: the same set twice is the same reading
                continue
            seen.append(b)
            blocks = melds + candidates
            if b.kind is _PUNG_K and not self_drawn:
                blocks = (*melds, *candidates[:j], block(_PUNG_K, t, False), *candidates[j + 1 :])
            out.append(Arrangement(STANDARD, blocks, n_melds + j, _wait_of(b, win)))
    return out


def arrangements(hand: Hand, shapes: Sequence[ShapeMatcher] = ()) -> list[Arrangement]:
    """Standard arrangements plus those of the given special shapes."""
    c = hand.concealed_counts()
    out = standard_arrangements(hand, c)
    for match in shapes:
        out.extend(match(hand, c))
    return out


def _can_split(c: list[int], i: int, need_pair: bool, honors: bool) -> bool:
    """Whether counts ``c`` from index ``i`` split into sets and (``need_pair``) exactly one
    pair, or (not ``need_pair``) no pair: :func:`_split_rec`'s search, stopping at the first
    split found (module level, not a closure: see :func:`_split_rec`)."""
    n = len(c)
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        return not need_pair
    x = c[i]
    if x >= 3:
        c[i] = x - 3
        ok = _can_split(c, i, need_pair, honors)
        c[i] = x
        if ok:
            return True
    if need_pair and x >= 2:
        c[i] = x - 2
        ok = _can_split(c, i, False, honors)
        c[i] = x
        if ok:
            return True
    if not honors and i + 2 < n and c[i + 1] and c[i + 2]:
        c[i] = x - 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _can_split(c, i, need_pair, honors)
        c[i] = x
        c[i + 1] += 1
        c[i + 2] += 1
        return ok
    return False


#: what :func:`standard_wait_mask` reads of a group, packed in one integer (see
#: :func:`_group_wait_info`)
_VALID = 1  # the group splits (no pair when its count is 0 mod 3, one pair when 2 mod 3)
_ADD_SHIFT = 3  # above: the indices where one more tile leaves a group that splits


def _group_wait_info(c: list[int], honors: bool) -> int:
    """A group's facts for :func:`standard_wait_mask`, from its counts ``c`` (changed and
    restored while it searches): bit 0 :data:`_VALID`, bits 1-2 its tile count mod 3, and from
    bit :data:`_ADD_SHIFT` the indices where one more tile leaves a group that splits (only
    computed when the count is 1 or 2 mod 3: with 0 mod 3 one more tile never splits)."""
    size = len(c)
    r = sum(c) % 3
    info = r << 1
    if r != 1 and _can_split(c, 0, r == 2, honors):
        info |= _VALID
    if r == 0:
        return info
    need_pair = r == 1  # one more tile makes the count 2 mod 3
    for i in range(size):
        if not c[i]:
            if honors:
                continue  # a lone honour can neither form a set nor a pair
            lo_ = i - 2 if i >= 2 else 0
            hi_ = i + 3 if i + 3 <= size else size
            if not any(c[lo_:hi_]):
                continue  # a lone new tile can neither form a set nor a pair
        c[i] += 1
        if _can_split(c, 0, need_pair, honors):
            info |= 1 << _ADD_SHIFT + i
        c[i] -= 1
    return info


#: :func:`_group_wait_info` by group (index in :data:`_GROUPS`) and its counts as bytes
#: (:func:`_group_keys`): one dictionary look-up per group, whose value is one integer
_WAIT_TABLES: tuple[dict[bytes, int], ...] = ({}, {}, {}, {})


def _group_keys(c: Sequence[int]) -> tuple[bytes, bytes, bytes, bytes] | None:
    """The counts of each group of :data:`_GROUPS` as bytes (one byte per tile): a cheap,
    exact dictionary key (one C call and four slices, in pure Python too); None when a count
    is not 0-255 (no such hand)."""
    try:
        b = bytes(c)
    except ValueError:
        return None
    return b[0:9], b[9:18], b[18:27], b[27:34]


def standard_wait_mask(counts: Sequence[int]) -> int:
    """Tiles completing concealed counts (34, before the win) into sets + one pair, as a bit
    mask (bit t: tile t).

    Same answer as trying every tile with :func:`is_standard_complete`, but from memoised
    per-group tables keyed by the group's counts: a group's own counts decide which
    added tile keeps it splittable. A tile the hand already holds four of is included
    (callers filter live tiles).
    """
    keys = _group_keys(counts)
    if keys is None:  # (a count outside 0-255: no such hand; tried tile by tile)
        out = 0
        lst = list(counts)
        for t in range(34):
            lst[t] += 1
            if is_standard_complete(lst):
                out |= 1 << t
            lst[t] -= 1
        return out
    infos = [0, 0, 0, 0]
    invalid = pairs = 0
    for k in range(4):
        key = keys[k]
        table = _WAIT_TABLES[k]
        info = table.get(key)
        if info is None:
            info = _memo_room(table)[key] = _group_wait_info(
                list(key), k == 3
            )  # (group 3: honours)
        infos[k] = info
        if info & _VALID:
            if info >> 1 & 3 == 2:
                pairs += 1
        else:
            invalid += 1
    if invalid > 1:
        return 0  # adding one tile changes one group only
    out = 0
    for k in range(4):
        info = infos[k]
        valid = info & _VALID
        r = info >> 1 & 3
        pair = 1 if valid and r == 2 else 0
        if invalid and valid:
            continue  # another group is broken and this tile cannot mend it
        r2 = (r + 1) % 3
        if r2 == 1 or pairs - pair + (1 if r2 == 2 else 0) != 1:
            continue
        out |= (info >> _ADD_SHIFT) << _GROUPS[k][0]
    return out


def mask_tiles(mask: int) -> list[Tile]:
    """The tiles of a bit mask (bit t: tile t), in order."""
    out: list[Tile] = []
    t = 0
    while mask:
        if mask & 1:
            out.append(KINDS[t])
        mask >>= 1
        t += 1
    return out


def standard_waits(counts: Sequence[int]) -> list[Tile]:
    """Tiles completing concealed counts (34, before the win) into sets + one pair
    (:func:`standard_wait_mask` as a sorted list of tiles)."""
    return mask_tiles(standard_wait_mask(counts))


def waits(
    counts: Sequence[int],
    complete: Callable[[Sequence[int]], bool] = is_standard_complete,
    held: Sequence[int] | None = None,
) -> list[Tile]:
    """The tiles that complete a ready hand.

    ``counts`` are the 34 counts of the concealed tiles before the win; ``complete`` decides
    whether counts form a win (a rule set passes one that knows its special shapes and its
    melds); ``held`` (34 counts, e.g. concealed + melds) excludes a tile when all four copies
    are already the player's own. Default ``held``: ``counts``.
    """
    c = list(counts)
    mine = held if held is not None else counts
    out: list[Tile] = []
    for t in range(34):
        if mine[t] >= 4:
            continue
        c[t] += 1
        if complete(c):
            out.append(KINDS[t])
        c[t] -= 1
    return out
