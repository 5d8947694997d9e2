"""What the bot needs to know about a rule set, derived from the scoring engine.

Nothing here is hard-coded per rule-set name: :func:`shape_rules` reads the hand size and
the number of sets from :class:`scoring.RuleSet` and *probes* each of its special shapes
(:class:`scoring.SpecialShape`) with canonical example hands to learn which of the shanten
calculator's shape families it belongs to (pairs-like: seven pairs / 嚦咕嚦咕, with or
without four-alike-as-two-pairs; orphans-like: 十三么 with 0 or 1 extra set). A shape that
matches none of them (knitted hands, 十六不搭, …) is listed in ``unsupported``: the bot does
not steer towards it, but still declares a win on it whenever the table offers one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from bots.shanten import ORPHANS, OrphansShape, PairsShape, ShapeRules

__all__ = ["BotRules", "bot_rules", "probe_shape"]

# spaced kinds for pairs probes: no two can form a chow or a standard hand together
_PAIR_KINDS = (0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29)
_PUNG_KIND = 31  # red dragon


@dataclass(frozen=True, slots=True)
class BotRules:
    """Shanten parameters plus the few game facts the bot's policy reads."""

    name: str
    shapes: ShapeRules
    unsupported: tuple[str, ...] = ()
    min_score: int = 0


def _counts(kinds: Sequence[int]) -> list[int]:
    c = [0] * 34
    for k in kinds:
        c[k] += 1
    return c


def probe_shape(shape: Any, hand_size: int) -> PairsShape | OrphansShape | None:
    """Which shanten shape family a :class:`scoring.SpecialShape` belongs to, if any."""
    total = hand_size + 1
    complete = shape.complete
    for q in (0, 1, 2):
        if (total - 3 * q) % 2 or total - 3 * q < 2:
            continue
        p = (total - 3 * q) // 2
        if p > len(_PAIR_KINDS) - q:
            continue
        kinds = [k for k in _PAIR_KINDS[:p] for _ in range(2)]
        kinds += [_PUNG_KIND] * 3 * q
        if not _safe(complete, _counts(kinds)):
            continue
        # four alike as two pairs: merge the first two pairs into one kind
        four = [_PAIR_KINDS[0]] * 4 + [k for k in _PAIR_KINDS[2:p] for _ in range(2)]
        four += [_PUNG_KIND] * 3 * q
        return PairsShape(p, q, _safe(complete, _counts(four)))
    extra = (total - 14) // 3
    if (total - 14) % 3 == 0 and 0 <= extra <= 1:
        kinds = [*ORPHANS, 33]
        if extra:
            kinds += [21, 22, 23]  # 4s 5s 6s
        if _safe(complete, _counts(kinds)):
            return OrphansShape(extra)
    return None


def _safe(complete: Any, counts: list[int]) -> bool:
    try:
        return bool(complete(counts, 0))
    except Exception:  # a shape predicate that rejects the probe outright
        return False


@cache
def bot_rules(name: str, hand_size: int | None = None, min_score: int = 0) -> BotRules:
    """The bot's view of rule set ``name``.

    Uses the scoring rule set when it is registered; otherwise (a rule set whose scoring is
    not written yet) the standard shape for ``hand_size`` only.
    """
    from scoring import UnknownRuleSetError, get_ruleset

    try:
        rs = get_ruleset(name)
    except UnknownRuleSetError:
        size = hand_size or 13
        return BotRules(name, ShapeRules(size, (size - 1) // 3), (), min_score)
    pairs: list[PairsShape] = []
    orphans: list[OrphansShape] = []
    unsupported: list[str] = []
    for shape in rs.shapes:
        kind = probe_shape(shape, rs.hand_size)
        if isinstance(kind, PairsShape):
            pairs.append(kind)
        elif isinstance(kind, OrphansShape):
            orphans.append(kind)
        else:
            unsupported.append(shape.name)
    return BotRules(
        name,
        ShapeRules(rs.hand_size, rs.sets, tuple(pairs), tuple(orphans)),
        tuple(unsupported),
        max(min_score, rs.minimum),
    )
