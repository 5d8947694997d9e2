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

__all__ = ["PARAMS", "GameParams", "InstantRules", "get_params", "param_names"]


@dataclass(frozen=True, slots=True)
class InstantRules:
    """Instant payments and automatic penalties (即收 / 即罰) of the hk-tw16 table.

    Amounts are in the same unit as the scoring total (fan); each is paid by each of the other
    three seats to the one who earned it (penalties: by the offender to each of the others).
    """

    flower_set: int = 5  # 一台花: f1-f4 complete
    grass_set: int = 3  # 一台草: f5-f8 complete
    dice_triple: int = 5  # 圍骰: the dealer's three dice show one number
    dice_straight: int = 5  # 一二三 / 四五六
    concealed_kong: int = 5  # 暗槓
    heaven_kong: int = 10  # 天槓: concealed kong before the seat's first draw
    chase_honor_terminal: int = 5  # 追 with a terminal or honour
    chase_simple: int = 10  # 追 with a simple (中張)
    self_chase_honor_terminal: int = 5  # 自追
    self_chase_simple: int = 10
    three_ting_one_laugh: int = 15  # 三叮一笑: each of three 叮 seats pays the fourth's win
    slay_discard: int = 10  # 天誅地滅 on a discard: the discarder pays
    slay_self_drawn: int = 15  # 天誅地滅 self-drawn: each other seat pays

    def to_json(self) -> dict[str, int]:
        return {
            "flower_set": self.flower_set,
            "grass_set": self.grass_set,
            "dice_triple": self.dice_triple,
            "dice_straight": self.dice_straight,
            "concealed_kong": self.concealed_kong,
            "heaven_kong": self.heaven_kong,
            "chase_honor_terminal": self.chase_honor_terminal,
            "chase_simple": self.chase_simple,
            "self_chase_honor_terminal": self.self_chase_honor_terminal,
            "self_chase_simple": self.self_chase_simple,
            "three_ting_one_laugh": self.three_ting_one_laugh,
            "slay_discard": self.slay_discard,
            "slay_self_drawn": self.slay_self_drawn,
        }


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
    #: extra context keys the scoring rule set reads for first-turn wins, as pairs
    #: (table fact ``heaven`` / ``earth`` / ``human``, the rule set's key).
    first_turn_keys: tuple[tuple[str, str], ...]
    #: instant payments / penalties; None when the rule set has none.
    instant: InstantRules | None

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
            "first_turn_keys": dict(self.first_turn_keys),
            "instant": self.instant.to_json() if self.instant else None,
        }


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
            first_turn_keys=(),
            instant=None,
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
            first_turn_keys=(),
            instant=InstantRules(),
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
            first_turn_keys=(("heaven", "heavenly"), ("earth", "earthly")),
            instant=None,
        ),
        GameParams(
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
            first_turn_keys=(
                ("heaven", "blessing_of_heaven"),
                ("human", "blessing_of_earth"),
                ("earth", "blessing_of_man"),
            ),
            instant=None,
        ),
        GameParams(
            ruleset="zung-jung-v3.3",
            title="Zung Jung v3.3 (official)",
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
            first_turn_keys=(
                ("heaven", "blessing_of_heaven"),
                ("human", "blessing_of_earth"),
                ("earth", "blessing_of_earth"),
            ),
            instant=None,
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
