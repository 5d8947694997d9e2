"""Help while playing: what you may do, how far the hand is from ready, and the waits.

Computed from the seat's view only (your tiles, and what everybody can see on the table).
The shanten number comes from the bot's calculator (:mod:`bots.shanten`) when that package
is installed; the waits from :func:`scoring.waits` with the rule set's special shapes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from clients.cli.i18n import tr
from clients.cli.model import RoomState

JSON = dict[str, Any]

ACTION_NAMES = (
    "discard",
    "ting",
    "chow",
    "pung",
    "kong",
    "concealed_kong",
    "added_kong",
    "win",
    "pass",
)


def tile_index(code: str) -> int | None:
    from scoring.tiles import Tile

    try:
        t = int(Tile.parse(code))
    except Exception:
        return None
    return t if t < 34 else None


def tile_code(i: int) -> str:
    from scoring.tiles import Tile

    return str(Tile(i))


def describe(a: JSON) -> str:
    """A legal action in words: ``chow 3m-4m-5m``, ``pung 7p``, ``discard 9s``."""
    t = str(a.get("type"))
    tile = a.get("tile")
    if t == "chow" and isinstance(tile, str) and len(tile) == 2 and tile[0].isdigit():
        n, s = int(tile[0]), tile[1]
        return f"{tr('act_chow')} {n}{s}-{n + 1}{s}-{n + 2}{s}"
    name = tr(f"act_{t}") if t in ACTION_NAMES else t
    return f"{name} {tile}" if tile else name


@dataclass
class Advice:
    shanten: int | None = None  # None: unknown (no calculator); -1 complete, 0 ready
    waits: list[tuple[str, int]] = field(default_factory=list)  # (tile, unseen copies)
    discards: list[tuple[str, list[tuple[str, int]]]] = field(default_factory=list)
    note: str = ""


def visible_counts(r: RoomState) -> list[int]:
    """34 counts of every tile this seat can see (own hand, all melds and rivers)."""
    out = [0] * 34
    h = r.hand
    if h is None:
        return out
    me = r.my_view() or {}
    for code in me.get("concealed") or []:
        i = tile_index(code)
        if i is not None:
            out[i] += 1
    for s in h.get("seats") or []:
        for meld in s.get("melds") or []:
            for code in meld.get("tiles") or []:
                i = tile_index(code)
                if i is not None:
                    out[i] += 1
        for code in s.get("discards") or []:
            i = tile_index(code)
            if i is not None:
                out[i] += 1
    return out


def _my_counts(r: RoomState) -> tuple[list[int], int, list[int]]:
    me = r.my_view() or {}
    counts = [0] * 34
    for code in me.get("concealed") or []:
        i = tile_index(code)
        if i is not None:
            counts[i] += 1
    melds = me.get("melds") or []
    meld_counts = [0] * 34
    for meld in melds:
        for code in (meld.get("tiles") or [])[:3]:
            i = tile_index(code)
            if i is not None:
                meld_counts[i] += 1
    return counts, len(melds), meld_counts


def _complete_fn(ruleset: str, n_melds: int) -> Callable[[Sequence[int]], bool]:
    from scoring import is_standard_complete

    shapes: tuple[Any, ...] = ()
    try:
        from scoring import get_ruleset

        shapes = tuple(get_ruleset(ruleset).shapes)
    except Exception:
        shapes = ()

    def complete(c: Sequence[int]) -> bool:
        if is_standard_complete(c):
            return True
        for sh in shapes:
            try:
                if sh.complete(c, n_melds):
                    return True
            except Exception:
                continue
        return False

    return complete


def _shanten_fn(ruleset: str, hand_size: int) -> Callable[[list[int], int, list[int]], int] | None:
    try:
        from bots.rules import bot_rules
        from bots.shanten import shanten
    except ImportError:
        return None
    rules = bot_rules(ruleset, hand_size).shapes

    def fn(counts: list[int], n_melds: int, meld_counts: list[int]) -> int:
        return int(shanten(counts, n_melds, rules, meld_counts))

    return fn


def _hand_size(ruleset: str, counts: list[int], n_melds: int) -> int:
    try:
        from scoring import get_ruleset

        return int(get_ruleset(ruleset).hand_size)
    except Exception:
        return 16 if sum(counts) + 3 * n_melds >= 16 else 13


def advise(r: RoomState) -> Advice:
    """Shanten, and the waits (with unseen counts) when ready, for this seat now."""
    if r.my_view() is None or r.phase not in ("turn", "claim", "rob"):
        return Advice(note="")
    counts, n_melds, meld_counts = _my_counts(r)
    n = sum(counts)
    if n == 0:
        return Advice()
    seen = visible_counts(r)
    complete = _complete_fn(r.ruleset, n_melds)
    shanten = _shanten_fn(r.ruleset, _hand_size(r.ruleset, counts, n_melds))
    adv = Advice()

    def waits_of(c: list[int]) -> list[tuple[str, int]]:
        from scoring import waits

        h = [a + b for a, b in zip(c, meld_counts, strict=True)]
        return [(str(t), max(0, 4 - seen[int(t)])) for t in waits(c, complete, h)]

    if n % 3 == 1:  # waiting for a tile
        adv.waits = waits_of(counts)
        if shanten is not None:
            adv.shanten = shanten(counts, n_melds, meld_counts)
        elif adv.waits:
            adv.shanten = 0
        if adv.waits:
            adv.shanten = 0
        return adv
    # holding one tile too many: the discards that keep the hand closest to ready
    if complete(counts):
        adv.shanten = -1
    elif shanten is not None:
        adv.shanten = shanten(counts, n_melds, meld_counts)
    for i in range(34):
        if counts[i] == 0:
            continue
        counts[i] -= 1
        w = waits_of(counts)
        counts[i] += 1
        if w:
            adv.discards.append((tile_code(i), w))
    if adv.discards and (adv.shanten is None or adv.shanten > 0):
        adv.shanten = 0
    adv.discards.sort(key=lambda d: -sum(u for _, u in d[1]))
    return adv


def shanten_words(s: int | None) -> str:
    if s is None:  # no shanten calculator (the bots package) installed, and no waits
        return tr("shanten_none")
    if s < 0:
        return tr("shanten_win")
    if s == 0:
        return tr("shanten_ready")
    return tr("shanten_one") if s == 1 else tr("shanten_n", n=s)
