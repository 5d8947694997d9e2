"""Chinese Official Mahjong (MCR, 國標麻將): the 81 fans, the principles, flowers, settlement.

Everything about a fan is a row of :data:`TABLE`: its id (names and points come from the
package data ``scoring/data/mcr.json``, a copy of ``shared/rules/mcr.json``), one predicate
over :class:`MCRFeatures` returning how many times it counts, and the fans it *implies*
(不計, "not counted"). The generic engine loop evaluates the rows in table order; the rule set
uses the engine's *sequential* exclusion so that the four MCR principles hold:

* **non-repeat (不重復)**: a fan implied by a counted fan is not counted (the ``excludes`` data);
  a fan that is itself not counted implies nothing (e.g. Four Concealed Pungs removes Fully
  Concealed Hand, and Self-Drawn, which only Fully Concealed Hand would remove, stays).
* **non-split (不拆移)** and **non-identical (不得相同)**: the sets of one arrangement are
  combined as they stand, and a set that already formed a fan with another set does not form
  the same fan again — :func:`chow_combination_fans` / :func:`pung_combination_fans`.
* **account-once (套算一次)**: an unused set may be combined once with an already combined
  set — also in those two helpers.

The highest-scoring arrangement is chosen (Seven Pairs competes with the standard
arrangements of the same tiles). ``docs/rules/mcr.md`` lists every fan, what it implies and
every interpretation taken; where the reference calculator (pymahjonggb) takes a
conventional reading the same reading is used here and documented there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from scoring.decompose import Arrangement, standard_arrangements
from scoring.engine import Item, Part, Payment, RuleSet, ScoreResult, Seating, register
from scoring.errors import InvalidHandError
from scoring.hand import Hand, Meld, MeldKind
from scoring.rows import Exclusion
from scoring.rulesets.mcr.combos import chow_combination_fans, pung_combination_fans
from scoring.rulesets.mcr.data import CHICKEN, DATA, FANS, FLOWERS, MINIMUM
from scoring.rulesets.mcr.features import MCRFeatures
from scoring.rulesets.mcr.shapes import (
    _ORPHAN_MASK,
    _SUITED_MASK,
    HONORS_KNITTED,
    KNITTED_STRAIGHT,
    SEVEN_PAIRS,
    SHAPES,
    THIRTEEN_ORPHANS,
    mcr_wait_mask,
    mcr_waits,
)
from scoring.rulesets.mcr.table import GROUPS, ROWS, TABLE, _patterns
from scoring.tiles import KINDS, Tile

__all__ = [
    "DATA",
    "FANS",
    "GROUPS",
    "MCR",
    "ROWS",
    "TABLE",
    "MCRFeatures",
    "MCRRuleSet",
    "chow_combination_fans",
    "make_mcr",
    "mcr_waits",
    "pung_combination_fans",
]

# -- the rule set ---------------------------------------------------------------------------


@mypyc_attr(allow_interpreted_subclasses=True)  # (see scoring.engine.RuleSet)
class MCRRuleSet(RuleSet[MCRFeatures]):
    """MCR: 81 fans, 8-point minimum (flowers not counted), 8 + total settlement."""

    def validate(self, hand: Hand) -> None:
        super().validate(hand)
        win = hand.win
        if win.kong_replacement and not any(m.kind is MeldKind.KONG for m in hand.melds):
            raise InvalidHandError("a win on a kong replacement tile needs a declared kong")
        if win.robbing_kong and (
            hand.win_tile in hand.concealed or any(hand.win_tile in m.tiles for m in hand.melds)
        ):
            raise InvalidHandError(
                f"robbing a kong of {hand.win_tile}: the winner cannot hold another {hand.win_tile}"
            )

    def waits(
        self,
        counts: Sequence[int],
        n_melds: int,
        held: Sequence[int] | None = None,
        melds: Sequence[Meld] | None = None,
    ) -> list[Tile]:
        """Same answer as the generic completion test over every tile, computed from the
        memoised per-suit tables and cheap tests for the special shapes. (No MCR shape
        depends on the kind of a declared meld, so ``melds`` changes nothing.)"""
        mine = held if held is not None else counts
        m = mcr_wait_mask(counts, n_melds)
        out: list[Tile] = []
        t = 0
        while m:
            if m & 1 and mine[t] < 4:
                out.append(KINDS[t])
            m >>= 1
            t += 1
        return out

    def arrangements(self, hand: Hand) -> list[Arrangement]:
        """The engine's (the standard arrangements, then each special shape's), with a cheap
        *necessary* condition per shape, from one pass over the counts, tried before its
        completion test: none with two or more declared melds; seven pairs no odd count,
        thirteen orphans no simple tile, honours and knitted no tile twice, a knitted
        straight nine different numbered tiles."""
        c = hand._concealed_counts  # (the hand's own tuple: immutable)
        out = standard_arrangements(hand, c)
        melds = hand.melds
        n = len(melds)
        if n > 1:
            return out  # (every MCR shape allows at most one declared meld: max_melds)
        mask = odd = most = 0
        for t in range(34):
            x = c[t]
            if x:
                mask |= 1 << t
                odd |= x & 1
                if x > most:
                    most = x
        for s in self.shapes:
            if n > s.max_melds:
                continue
            name = s.name
            if name == SEVEN_PAIRS:
                hopeless = odd != 0
            elif name == THIRTEEN_ORPHANS:
                hopeless = mask & ~_ORPHAN_MASK != 0
            elif name == HONORS_KNITTED:
                hopeless = most > 1
            elif name == KNITTED_STRAIGHT:
                hopeless = (mask & _SUITED_MASK).bit_count() < 9
            else:
                hopeless = False
            if hopeless:
                continue
            cm = s.complete_melds  # SpecialShape.matches, inlined
            if cm(c, melds) if cm is not None else s.complete(c, n):
                out.extend(s.arrange(hand, c))
        return out

    def finalize(self, items: list[Item], f: MCRFeatures) -> tuple[list[Item], int]:
        if not items or (len(items) == 1 and items[0].id == FLOWERS):  # ids are unique
            p = self.by_id[CHICKEN]
            items = [Item(p.id, p.name, p.en, p.points, 1), *items]
        return items, sum([i.points * i.count for i in items])

    def choose_key(self, total: int, items: Sequence[Item], f: MCRFeatures) -> tuple[int, ...]:
        """Highest total first. Equal totals are a matter of convention (the fans differ, the
        points do not); the reference calculator's is used so both agree on the fans:

        * a reading with Pure Triple Chow or Triple Pung is preferred, the last such one in
          the order below;
        * the standard reading is preferred over seven pairs (and then the last standard one);
        * otherwise the first reading in the order of the sorted concealed sets, comparing
          set by set with the tiles ordered characters, bamboo, dots, honours and a pung
          before the chow starting on the same tile.
        """
        ids = {i.id for i in items}
        preferred = "pure-triple-chow" in ids or "triple-pung" in ids
        order = f.division_order
        later_wins = preferred or f.seven_pairs_possible
        rank = order if later_wins else tuple(-x for x in order)
        return (total, int(preferred), 0 if f.shape == SEVEN_PAIRS else 1, *rank)

    def settle(
        self, result: ScoreResult, seating: Seating, options: Mapping[str, Any] | None = None
    ) -> list[Payment]:
        """Self-drawn: each of the three others pays 8 + total. Discard: the discarder pays
        8 + total, the two others 8 each. A hand under the 8-point minimum is no win."""
        if not result.minimum_met:
            points = sum(i.total for i in result.items if i.id != FLOWERS)
            raise InvalidHandError(
                f"{points} points ({MINIMUM} needed, flowers not counted): not a win"
            )
        base = 8
        full = (Part("base", base), Part("points", result.total))
        out = []
        for s in range(seating.players):
            if s == seating.winner:
                continue
            if seating.discarder is None:
                out.append(Payment(s, seating.winner, base + result.total, "self-drawn", full))
            elif s == seating.discarder:
                out.append(Payment(s, seating.winner, base + result.total, "discard", full))
            else:
                out.append(Payment(s, seating.winner, base, "base", (Part("base", base),)))
        return out


def make_mcr(guards: bool = True) -> MCRRuleSet:
    """The MCR rule set (``guards=False``: without the :data:`GROUPS` shortcut, for tests)."""
    return MCRRuleSet(
        name="mcr",
        title=DATA["title"],
        hand_size=13,
        patterns=_patterns(guards),
        features=MCRFeatures,
        shapes=SHAPES,
        uses_flowers=True,
        minimum=MINIMUM,
        minimum_excludes=frozenset({FLOWERS}),
        exclusion=Exclusion.COUNTED,
        params={"max_winners": 1},  # one winner on a discard: the next in turn (截和)
    )


MCR = make_mcr()
register(MCR)
