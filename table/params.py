"""Game parameters: one data record per rule set.

The scoring engine knows how to *value* a hand; these records say how the *game* is played
under each rule set: which tiles are in play, how many tiles a hand holds, when the wall is
exhausted, which claims exist and how they rank, how many players may win on one discard,
robbing kongs, the missed-win (過水) rule, the minimum to win, ting (叮), dealer rotation and
game length, and the settlement defaults. ``docs/table.md`` documents every field and every
record, with the reasons for the choices.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from table.errors import UnknownRulesetError

__all__ = ["PARAMS", "GameParams", "get_params", "param_names"]


@dataclass(frozen=True, slots=True)
class GameParams:
    """How a game is played under one rule set (see docs/table.md for each field)."""

    ruleset: str
    title: str
    #: 144 tiles (with the eight flowers, replaced automatically) or 136.
    flowers: bool
    #: 13 or 16 concealed tiles before the draw.
    hand_size: int
    #: tiles that are never drawn normally: a draw is exhaustive when no more than this many
    #: tiles remain (replacement draws may still take them).
    dead_wall: int
    #: chows allowed (only ever from the previous player).
    chow: bool
    #: most winners on one discard: 1 = head bump (the first in turn order after the
    #: discarder wins alone), 2 = 雙響, 3 = 三響.
    max_winners: int
    #: a kong made by adding a tile to an exposed pung may be robbed.
    robbing_kong: bool
    #: 過水: after passing a discard you could have won on, no win on a discard until your
    #: next draw.
    missed_win: bool
    #: minimum total to win (MCR 8); the scoring result's ``minimum_met`` is authoritative.
    min_score: int
    #: 叮 may be declared (the hand is fixed afterwards; drawn tiles are discarded unless they
    #: win).
    ting: bool
    #: after 叮, no win on the tile discarded with the declaration (不可食/自摸叮的牌).
    ting_tile_barred: bool
    #: 連莊: the dealer keeps the deal when among the winners / on an exhaustive draw.
    dealer_keeps_on_win: bool
    dealer_keeps_on_draw: bool
    #: game length in round winds (1, 2 or 4) …
    rounds: int
    #: … or a fixed number of hands (overrides ``rounds`` when set).
    max_hands: int | None
    #: a self-drawn win on the replacement of an exposed kong made from a discard is paid as
    #: if the kong's discarder had dealt in (hk-tw16 槓上自摸 "當打出明槓者放槍").
    kong_discarder_pays: bool
    #: the flower wins the rule set scores (七隻花, 八仙過海, 七搶一, 一搶七), as pairs
    #: (table kind, value of the ``flower_win`` context key the scoring rule set reads).
    flower_win_ids: tuple[tuple[str, str], ...]
    #: for 七搶一 / 一搶七: the robbed flower(s) are listed in the winner's hand (all eight,
    #: tw16-tai) or not (hk-tw16: the winner's own seven / one).
    robbed_flowers_in_hand: bool
    #: the table detects the instant payments and automatic penalties (即收 / 即罰: flower
    #: sets, dice, concealed kongs, 追, 自追, 三叮一笑, 天誅地滅) and the scoring rule set's
    #: ``instant_payments`` values them (hk-tw16).
    instant: bool
    #: 反雪: a seat that dealt into 雙響 / 三響 and self-draws in the next hand scores twice
    #: the bonus it suffered (accumulated over consecutive such hands), paid by the winners
    #: of those hands only; the table keeps the record from hand to hand (hk-tw16).
    fanxue: bool = False

    def with_overrides(self, **changes: Any) -> GameParams:
        return replace(self, **changes)

    @property
    def flower_wins(self) -> bool:
        return bool(self.flower_win_ids)

    @property
    def tile_count(self) -> int:
        return 144 if self.flowers else 136

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "title": self.title,
            "flowers": self.flowers,
            "tiles": self.tile_count,
            "hand_size": self.hand_size,
            "dead_wall": self.dead_wall,
            "chow": self.chow,
            "max_winners": self.max_winners,
            "robbing_kong": self.robbing_kong,
            "missed_win": self.missed_win,
            "min_score": self.min_score,
            "ting": self.ting,
            "ting_tile_barred": self.ting_tile_barred,
            "dealer_keeps_on_win": self.dealer_keeps_on_win,
            "dealer_keeps_on_draw": self.dealer_keeps_on_draw,
            "rounds": self.rounds,
            "max_hands": self.max_hands,
            "kong_discarder_pays": self.kong_discarder_pays,
            "flower_wins": dict(self.flower_win_ids),
            "robbed_flowers_in_hand": self.robbed_flowers_in_hand,
            "instant": self.instant,
            "fanxue": self.fanxue,
        }


_ZUNG_JUNG = GameParams(
    ruleset="zung-jung",
    title="Zung Jung (中庸麻雀, seed table)",
    flowers=False,
    hand_size=13,
    dead_wall=0,
    chow=True,
    max_winners=3,
    robbing_kong=True,
    missed_win=True,
    min_score=0,
    ting=False,
    ting_tile_barred=False,
    dealer_keeps_on_win=True,
    dealer_keeps_on_draw=True,
    rounds=4,
    max_hands=None,
    kong_discarder_pays=False,
    flower_win_ids=(),
    robbed_flowers_in_hand=False,
    instant=False,
)


PARAMS: dict[str, GameParams] = {
    p.ruleset: p
    for p in (
        GameParams(
            ruleset="mcr",
            title="Chinese Official (MCR), competition rules",
            flowers=True,
            hand_size=13,
            dead_wall=0,
            chow=True,
            max_winners=1,
            robbing_kong=True,
            missed_win=False,
            min_score=8,
            ting=False,
            ting_tile_barred=False,
            dealer_keeps_on_win=False,
            dealer_keeps_on_draw=False,
            rounds=4,
            max_hands=None,
            kong_discarder_pays=False,
            flower_win_ids=(),
            robbed_flowers_in_hand=False,
            instant=False,
        ),
        GameParams(
            ruleset="hk-tw16",
            title="Hong Kong–Taiwanese 16-tile (港式台牌 V1)",
            flowers=True,
            hand_size=16,
            dead_wall=16,
            chow=True,
            max_winners=3,
            robbing_kong=True,
            missed_win=True,
            min_score=0,
            ting=True,
            ting_tile_barred=True,
            dealer_keeps_on_win=True,
            dealer_keeps_on_draw=True,
            rounds=4,
            max_hands=None,
            kong_discarder_pays=True,
            flower_win_ids=(
                ("seven-flowers", "seven-flowers"),
                ("eight-flowers", "eight-flowers"),
                ("seven-robs-one", "seven-robs-one"),
                ("one-robs-seven", "one-robs-seven"),
            ),
            robbed_flowers_in_hand=False,
            instant=True,
            fanxue=True,
        ),
        GameParams(
            ruleset="tw16-tai",
            title="Taiwanese 16-tile (台)",
            flowers=True,
            hand_size=16,
            dead_wall=16,
            chow=True,
            max_winners=3,
            robbing_kong=True,
            missed_win=True,
            min_score=0,
            ting=True,
            ting_tile_barred=False,
            dealer_keeps_on_win=True,
            dealer_keeps_on_draw=True,
            rounds=4,
            max_hands=None,
            kong_discarder_pays=False,
            flower_win_ids=(("eight-flowers", "eight"), ("seven-robs-one", "seven-robs-one")),
            robbed_flowers_in_hand=True,
            instant=False,
        ),
        _ZUNG_JUNG,
        replace(
            _ZUNG_JUNG,
            ruleset="zung-jung-v3.3",
            title="Zung Jung v3.3 (official)",
        ),
    )
}


def param_names() -> list[str]:
    return sorted(PARAMS)


def get_params(name: str) -> GameParams:
    try:
        return PARAMS[name]
    except KeyError:
        raise UnknownRulesetError(
            f"no game parameters for rule set {name!r} (known: {', '.join(param_names())})"
        ) from None
