"""Hints for one seat, computed from its own view only: how far the hand is from ready, the
discards that keep or reach its best, and each wait with its unseen copies and whether a win
on it reaches the rule set's minimum, by a discard and by a self-draw.

The input is exactly what the seat's client receives (``table.view`` JSON), so a hint can
never tell more than the seat may know: the unseen counts are 4 minus the copies this seat
can see (its hand, every meld, every river). The server answers the protocol's ``hints``
request with :func:`hints` (docs/protocol.md); clients show it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bots.player import Situation, _score, situation
from bots.shanten import shanten, useful_tiles
from scoring.tiles import Tile

__all__ = ["DiscardHint", "Hints", "WaitHint", "hints"]


@dataclass(frozen=True, slots=True)
class WaitHint:
    tile: str
    unseen: int
    #: a win on it by a discard / by a self-draw is a valid win that reaches the minimum
    by_discard: bool
    by_self_draw: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": self.tile,
            "unseen": self.unseen,
            "by_discard": self.by_discard,
            "by_self_draw": self.by_self_draw,
        }


@dataclass(frozen=True, slots=True)
class DiscardHint:
    tile: str
    shanten: int  # after the discard
    useful: int  # unseen copies of the tiles that would then lower it
    waits: tuple[WaitHint, ...]  # when the discard leaves the hand ready

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": self.tile,
            "shanten": self.shanten,
            "useful": self.useful,
            "waits": [w.to_json() for w in self.waits],
        }


@dataclass(frozen=True, slots=True)
class Hints:
    #: -1: complete (a winning hand on your turn), 0: ready, n: n tiles from ready; None:
    #: no hand in play or a spectator
    shanten: int | None
    #: on your turn: the discards that keep or reach the best shanten, best first
    discards: tuple[DiscardHint, ...] = ()
    #: when ready (not your turn): every wait
    waits: tuple[WaitHint, ...] = ()
    #: the rule set's minimum to win (0: none)
    minimum: int = 0
    #: e.g. "ready, but no wait reaches 8", for people
    note: str | None = None
    #: the note's code, which clients word (protocol.codes.HintNote)
    note_code: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "shanten": self.shanten,
            "discards": [d.to_json() for d in self.discards],
            "waits": [w.to_json() for w in self.waits],
            "minimum": self.minimum,
            "note": self.note,
            "note_code": self.note_code,
        }


def hints(view: Mapping[str, Any]) -> Hints:
    """The hints for the seat whose view this is."""
    hand = view.get("hand")
    seat = view.get("you")
    if hand is None or seat is None or view.get("phase") in ("between_hands", "game_over"):
        return Hints(None)
    sit = situation(view)
    minimum = int(sit.rules.min_score)
    counts = list(sit.concealed)
    n = sum(counts)
    if (n - 2) % 3 == 0:  # on your turn (the drawn tile in hand)
        return _turn_hints(sit, counts, minimum)
    s = shanten(counts, sit.n_melds, sit.rules.shapes, caps=sit.caps)
    waits = _waits(sit, counts, minimum) if s == 0 else ()
    below = s == 0 and minimum > 0 and not any(w.by_discard or w.by_self_draw for w in waits)
    return Hints(s, (), waits, minimum, *_below_minimum(below, minimum))


def _turn_hints(sit: Situation, counts: list[int], minimum: int) -> Hints:
    rules = sit.rules.shapes
    whole = shanten(counts, sit.n_melds, rules, caps=sit.caps)
    options: list[DiscardHint] = []
    for t in range(34):
        if counts[t] == 0:
            continue
        counts[t] -= 1
        after = shanten(counts, sit.n_melds, rules, caps=sit.caps)
        useful = useful_tiles(counts, sit.n_melds, rules, sit.caps, after)
        waits = _waits(sit, counts, minimum) if after == 0 else ()
        options.append(DiscardHint(str(Tile(t)), after, sum(sit.unseen(u) for u in useful), waits))
        counts[t] += 1
    best = min((d.shanten for d in options), default=whole)
    keep = sorted(
        (d for d in options if d.shanten == best),
        key=lambda d: (-_reaching(d.waits), -d.useful, d.tile),
    )
    below = best == 0 and minimum > 0 and not any(_reaching(d.waits) for d in keep)
    return Hints(whole, tuple(keep), (), minimum, *_below_minimum(below, minimum))


def _reaching(waits: tuple[WaitHint, ...]) -> int:
    return sum(w.unseen for w in waits if w.by_discard or w.by_self_draw)


#: the note_code of a ready hand none of whose waits reaches the minimum (the value of
#: protocol.codes.HintNote.BELOW_MINIMUM: the bots do not depend on the protocol)
BELOW_MINIMUM = "below_minimum"


def _below_minimum(below: bool, minimum: int) -> tuple[str | None, str | None]:
    """The note and its code: a ready hand none of whose waits reaches the minimum."""
    if below:
        return f"ready, but no wait reaches {minimum}", BELOW_MINIMUM
    return None, None


def _waits(sit: Situation, counts: list[int], minimum: int) -> tuple[WaitHint, ...]:
    """Every tile that completes the ready hand ``counts`` (its draw lowers shanten to -1)."""
    rules = sit.rules.shapes
    out = []
    melds = json.dumps([m for m in sit.melds if m.get("tiles")], sort_keys=True)
    for t in useful_tiles(counts, sit.n_melds, rules, sit.caps, 0):
        four = sit.visible[t] >= 3  # the last copy: three already in sight
        key = (
            sit.rules.name,
            tuple(counts),
            melds,
            tuple(sit.flowers),
            sit.seat_wind,
            sit.round_wind,
            t,
            sit.ting,
        )
        by_discard = _score(*key, self_drawn=False, fourth_tile=four)
        by_self_draw = _score(*key, self_drawn=True, fourth_tile=four)
        out.append(
            WaitHint(str(Tile(t)), sit.unseen(t), _reaches(by_discard), _reaches(by_self_draw))
        )
    return tuple(out)


def _reaches(scored: tuple[int, bool] | None) -> bool:
    """A win the scoring engine takes (``bots.player._score``) that reaches the minimum."""
    return scored is not None and scored[1]
