"""港式台牌官方換牌番數 V1 (``hk-tw16``): 16-tile hands, eight flowers, 189 patterns.

* :data:`RULESET` — the registered rule set (pattern table in :mod:`.table`, shapes in
  :mod:`.shapes`, feature record in :mod:`.features`).
* :func:`instant_payments` / :data:`EVENT_RULES` — the 即收 and 即罰 items, settled as events.
* Settlement: :meth:`HKTW16.settle` (base 底, value per fan, dealer rows, 包).

Every interpretation is written down in ``docs/rules/hk-tw16.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from scoring.context import WinContext
from scoring.decompose import Arrangement, Wait
from scoring.engine import Item, Part, Payment, RuleSet, ScoreResult, Seating, register
from scoring.errors import InvalidHandError
from scoring.hand import Hand
from scoring.rows import Exclusion
from scoring.rulesets.hk_tw16.data import EN, table
from scoring.rulesets.hk_tw16.events import (
    EVENT_RULES,
    EventRule,
    chase_events,
    dice_event,
    flower_set_events,
    instant_payments,
    self_chase_events,
)
from scoring.rulesets.hk_tw16.features import HKFeatures
from scoring.rulesets.hk_tw16.groups import PATTERNS
from scoring.rulesets.hk_tw16.patterns import FLOWER_WINS
from scoring.rulesets.hk_tw16.shapes import SHAPES

__all__ = [
    "EN",
    "EVENT_RULES",
    "HKTW16",
    "RULESET",
    "EventRule",
    "HKFeatures",
    "chase_events",
    "dice_event",
    "flower_set_events",
    "instant_payments",
    "kong_liable",
    "self_chase_events",
    "table",
]

FLOWER_WIN = "flower-win"

#: Settlement options (per room) and their defaults.
DEFAULT_OPTIONS: dict[str, Any] = {
    "base": 0,  # 底: fan added to every payment of a win (not to the flower wins: 已包底)
    "per_fan": 1,  # money per fan
    "kong_liability": True,  # 包: a 槓上自摸 on a discarded kong is paid by its discarder
}


def flower_win_of(hand: Hand) -> str | None:
    """The flower win a hand claims: the ``flower_win`` key, or eight flowers held."""
    fw = hand.context.flower_win
    if fw is None and len(hand.flowers) == 8:
        return "eight-flowers"
    return fw


def kong_liable(c: WinContext) -> bool:
    """包 stands: the context names the kong's discarder and its chain (when given) is that
    kong's replacement draw alone. Seed 000, 連續花＋槓上自摸: "如開始為打出的明槓，則當打出明槓者
    放槍。當中若有補槓（或後補花）的情況，則當自摸" — a later kong (補槓, read as any kong's
    replacement draw, as the table's 槓上自摸 "補槓一次後自摸" uses the word) or a later flower
    makes it a self-draw paid by all. Without ``chain`` (the older input form) the given
    ``kong_discarder`` is liable, as before."""
    if c.kong_discarder is None:
        return False
    return c.chain is None or c.chain == ("kong-discard",)


@mypyc_attr(allow_interpreted_subclasses=True)  # (see scoring.engine.RuleSet)
class HKTW16(RuleSet[HKFeatures]):
    """The rule set: the generic loop (大雞胡/大鴨胡 are rows that read the fans counted),
    the flower wins (hands that need not be complete) and the settlement."""

    def validate(self, hand: Hand) -> None:
        fw = flower_win_of(hand)
        if fw is not None:
            if fw not in FLOWER_WINS:
                raise InvalidHandError(f"flower_win must be one of {', '.join(FLOWER_WINS)}")
            if hand.ruleset != self.name:
                raise InvalidHandError(f"hand is for {hand.ruleset!r}, not {self.name!r}")
            return
        super().validate(hand)

    def arrangements(self, hand: Hand) -> list[Arrangement]:
        complete = len(hand.concealed) + 1 + 3 * len(hand.melds) == self.hand_size + 1
        out = super().arrangements(hand) if complete else []
        if not out and flower_win_of(hand) is not None:
            out = [Arrangement(FLOWER_WIN, (), None, Wait.SPECIAL)]
        return out

    def extras(self, items: Sequence[Item], f: HKFeatures) -> dict[str, Any]:
        out: dict[str, Any] = {"shape": f.shape}
        if f.flower_win is not None:
            out["flower_win"] = f.flower_win
        c = f.context
        if c.flower_loser is not None:
            out["flower_loser"] = c.flower_loser
        if kong_liable(c):
            out["kong_discarder"] = c.kong_discarder
        if c.fanxue_payers is not None:
            out["fanxue_payers"] = list(c.fanxue_payers)
        return out

    def settlement_defaults(self) -> dict[str, Any]:
        return dict(DEFAULT_OPTIONS)

    def settle(
        self, result: ScoreResult, seating: Seating, options: Mapping[str, Any] | None = None
    ) -> list[Payment]:
        """Payments of one winner.

        The fan of a payment is 底 (``base``) + the hand's fan without the dealer rows +
        莊 1 and 連n拉n 2n when the dealer is the winner or the payer (``seating.streak``
        is n). A discard win is paid by the discarder; a self-draw by the three others;
        一搶七 / 七搶一 by the player robbed (``flower_loser``); a 槓上自摸 on a kong made
        from a discard by that kong's discarder alone (``kong_discarder``, 包, option
        ``kong_liability``; reported in the extras only when 包 stands: :func:`kong_liable`). 反雪 is added only to the payments of ``fanxue_payers`` when
        given. Amounts are fan × ``per_fan``.
        """
        opt = {**DEFAULT_OPTIONS, **(options or {})}
        per_fan = int(opt["per_fan"])
        ex = result.extras
        flower_win = ex.get("flower_win")
        base = 0 if flower_win else int(opt["base"])
        dealer_fan = sum(i.total for i in result.items if i.id in ("dealer", "dealer-streak"))
        fanxue = sum(i.total for i in result.items if i.id == "fanxue")
        fan = result.total - dealer_fan - fanxue
        w = seating.winner
        reason = "win"
        if seating.discarder is not None:
            payers = [seating.discarder]
        elif flower_win in ("one-robs-seven", "seven-robs-one") and isinstance(
            ex.get("flower_loser"), int
        ):
            payers = [int(ex["flower_loser"])]
        elif (
            opt["kong_liability"]
            and isinstance(ex.get("kong_discarder"), int)
            and any(i.id in ("kong-tsumo", "chain-flower-kong-tsumo") for i in result.items)
        ):
            payers = [int(ex["kong_discarder"])]
            reason = "kong-liability"
        else:
            payers = [s for s in range(seating.players) if s != w]
            reason = "self-drawn"
        fx_payers = ex.get("fanxue_payers")
        out = []
        for p in payers:
            parts = [Part("base", base, per_fan)] if base else []
            parts.append(Part("points", fan, per_fan))
            if seating.dealer in (p, w):
                parts.append(Part("dealer", 1, per_fan))
                if seating.streak:
                    parts.append(Part("streak", 2 * seating.streak, per_fan))
            if fanxue and (not isinstance(fx_payers, list) or p in fx_payers):
                parts.append(Part("fanxue", fanxue, per_fan))
            amount = sum([x.value for x in parts])
            out.append(Payment(p, w, amount * per_fan, reason, tuple(parts)))
        return out


RULESET = HKTW16(
    name="hk-tw16",
    title="港式台牌官方換牌番數 V1 (Hong Kong–Taiwanese 16-tile)",
    hand_size=16,
    patterns=PATTERNS,
    features=HKFeatures,
    shapes=SHAPES,
    uses_flowers=True,
    params={"options": DEFAULT_OPTIONS},
    exclusion=Exclusion.IMPLIED,
)
register(RULESET)
