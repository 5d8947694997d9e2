"""The table's questions to the scoring engine: the rule set of a room, whether a tile completes
a hand, the waits and the discards that leave a ready hand (memoised: pure functions of
immutable values)."""

from __future__ import annotations

import functools
from typing import Any

import scoring
from scoring.decompose import is_standard_complete
from scoring.engine import RuleSet
from scoring.errors import ScoringError
from scoring.hand import Meld
from scoring.tiles import Tile
from table.errors import (
    BadConfigError,
    UnknownRulesetError,
)
from table.tile_math import isolated_count, related_kinds, tile_counts

__all__ = ["completes", "get_scoring_ruleset", "ready_discards", "ruleset_waits"]


@functools.cache
def get_scoring_ruleset(name: str, patterns: tuple[tuple[str, Any], ...] = ()) -> RuleSet[Any]:
    """The scoring rule set, with a room's pattern house rules (``house_rules.patterns``)."""
    if patterns:
        return _with_patterns(name, patterns)
    try:
        return scoring.get_ruleset(name)
    except ScoringError as e:
        raise UnknownRulesetError(str(e)) from None


@functools.lru_cache(maxsize=256)
def _with_patterns(name: str, patterns: tuple[tuple[str, Any], ...]) -> RuleSet[Any]:
    try:
        return scoring.get_ruleset(name).with_patterns(dict(patterns))
    except ScoringError as e:
        raise BadConfigError(str(e)) from None


#: the most entries each memo of a hand's question holds (:func:`completes`,
#: :func:`ready_discards`, :func:`ruleset_waits`). Each question is asked again within its
#: hand's turn or claim window (seconds), so this covers ~80 s of play at 2,000 paced rooms
#: (~100 actions/s) and a memo is full within about a minute and a half of that. (At
#: 32,768 / 65,536 entries, ``completes`` took ~6 minutes to fill, and the server's memory
#: grew all along: issue 34, docs/memory.md.)
HAND_MEMO_MAX = 8192


@functools.lru_cache(maxsize=HAND_MEMO_MAX)
def ruleset_waits(name: str, counts: tuple[int, ...], n_melds: int) -> tuple[Tile, ...]:
    return tuple(get_scoring_ruleset(name).waits(counts, n_melds))


@functools.lru_cache(maxsize=HAND_MEMO_MAX)
def completes(name: str, concealed: tuple[Tile, ...], melds: tuple[Meld, ...], tile: Tile) -> bool:
    """Whether ``tile`` completes ``concealed`` (the hand *without* the win tile) with the
    declared ``melds`` under rule set ``name``: the rule set's ``is_complete``.

    Memoised (a pure function of immutable values; bounded): in a claim window the same
    question is asked for a seat's legal actions after every answer of the window and again
    when the seat answers (its win, or the 過水 check of its pass); the self-draw check asks
    it about the hand before the draw. (Asking for the whole set of winning tiles instead
    costs the special shapes' tests on all 34 kinds per hand: more than the few questions
    a hand is asked before it changes.)"""
    c = tile_counts(concealed)
    c[tile] += 1
    return get_scoring_ruleset(name).is_complete(c, len(melds), melds=melds)


@functools.lru_cache(maxsize=HAND_MEMO_MAX)
def ready_discards(name: str, counts: tuple[int, ...], n_melds: int) -> tuple[Tile, ...]:
    """The discards that leave a ready hand (for 叮 and its legal actions).

    Same answer as asking the rule set's ``waits`` after each discard, computed faster:
    standard shapes can only be completed by a held kind or a suit neighbour, so only those
    are tried with the standard test; the rule set's special shapes are tried on all 34.
    """
    rs = get_scoring_ruleset(name)
    if sum(counts) + 3 * n_melds != rs.hand_size + 1:
        return ()
    c = list(counts)
    out: list[Tile] = []
    # In a ready standard hand every tile but a single-wait tile has a copy or a suit
    # neighbour within two; so with more than two isolated tiles no discard can work.
    candidates = related_kinds(c) if isolated_count(c) <= 2 else []
    for d in range(34):
        if not c[d]:
            continue
        c[d] -= 1
        found = False
        for t in candidates:
            if c[t] >= 4:
                continue
            c[t] += 1
            found = is_standard_complete(c)
            c[t] -= 1
            if found:
                break
        if not found and rs.shapes:
            for t in range(34):
                if c[t] >= 4:
                    continue
                c[t] += 1
                found = any(sh.complete(c, n_melds) for sh in rs.shapes)
                c[t] -= 1
                if found:
                    break
        c[d] += 1
        if found:
            out.append(Tile(d))
    return tuple(out)
