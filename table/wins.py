"""Wins: whether a seat may win now (self-draw, discard, robbing a kong, flower win) and the full
:class:`scoring.Hand` of a win, valued by the scoring rule set."""

from __future__ import annotations

from scoring.context import CHAIN_KINDS, WinContext, replacements_of
from scoring.decompose import Arrangement, Wait
from scoring.engine import Item, ScoreResult
from scoring.errors import ScoringError
from scoring.hand import Hand, WinInfo
from scoring.settlement import (
    fanxue_owed,
)
from scoring.tiles import Tile
from table.game_state import GameState
from table.model import (
    Phase,
)
from table.scoring_bridge import completes
from table.state import drawable
from table.tile_math import others, remove_tiles, without
from table.working import WorkingCopy

__all__ = [
    "build_hand",
    "discard_win_error",
    "fanxue_due",
    "first_turn_win",
    "flower_win",
    "flower_win_result",
    "flower_win_shape",
    "kong_discarder_of",
    "may_self_win",
    "score_flower_win",
    "score_hand",
    "self_win_error",
    "self_win_kind",
    "visible_count",
    "why_not_self_win",
    "win_check",
    "win_context",
]


def visible_count(w: WorkingCopy, tile: Tile) -> int:
    n = 0
    for s in w.seats:
        n += s.discards.count(tile)
        for m in s.melds:
            if not m.concealed:
                n += m.tiles.count(tile)
    return n


def first_turn_win(
    w: WorkingCopy, seat: int, self_drawn: bool, robbing: bool, discarder: int | None
) -> str | None:
    """天胡 ("heaven": the dealer wins with its dealt hand), 人胡 ("human": a non-dealer
    self-draws on its first draw), 地胡 ("earth": a non-dealer wins on the dealer's first
    discard) or None; none after a call or a kong."""
    h = w.hand
    s = w.seats[seat]
    dealer = w.dealer
    if h.interrupted:
        return None
    if self_drawn and seat == dealer and s.draws == 0:
        return "heaven"
    if self_drawn and seat != dealer and s.draws == 1:
        return "human"
    if not self_drawn and not robbing and discarder == dealer and h.discards_made == 1:
        return "earth"
    return None


def kong_discarder_of(w: WorkingCopy, self_drawn: bool, chain: tuple[str, ...]) -> int | None:
    """Who discarded the tile of the kong whose replacement won (包, when the rule set charges
    it), from the hand's replacement chain."""
    h = w.hand
    known = all(x in CHAIN_KINDS for x in chain)  # (a state saved before: "kong", any kind)
    if (
        self_drawn
        and w.params.kong_discarder_pays
        and h.chain_kong_from is not None
        and (known or len(chain) == 1)
    ):
        return h.chain_kong_from
    return None


def fanxue_due(w: WorkingCopy, seat: int, self_drawn: bool) -> tuple[int, tuple[int, ...] | None]:
    """The 反雪 a self-drawing ``seat`` collects, and from whom (0, None: none)."""
    if self_drawn and w.params.fanxue:
        owed = fanxue_owed(w.last_result, seat)
        if owed is not None:
            fanxue, payers = owed
            return fanxue, tuple(payers)
    return 0, None


def win_context(
    w: WorkingCopy,
    seat: int,
    *,
    self_drawn: bool,
    discarder: int | None,
    robbing: bool,
    winners: int,
    flower_win: str | None,
    flower_loser: int | None,
) -> WinContext:
    """The shared win context of ``seat``'s win (:class:`scoring.context.WinContext`)."""
    h = w.hand
    s = w.seats[seat]
    dealer = w.dealer
    first_turn = first_turn_win(w, seat, self_drawn, robbing, discarder)
    # the chain says what made each replacement draw; the rule set decides 包 from it
    chain = h.chain if self_drawn else ()
    known = all(x in CHAIN_KINDS for x in chain)
    fanxue, fanxue_payers = fanxue_due(w, seat, self_drawn)
    other_seats = others(seat)
    return WinContext(
        seat=seat,
        dealer=seat == dealer,
        dealer_seat=dealer,
        streak=w.streak,
        discarder=discarder,
        discarder_is_dealer=discarder == dealer if discarder is not None else False,
        ting=s.ting,
        ting_timing=s.ting_kind if s.ting else None,
        ting_concealed=s.ting_concealed,
        ting_instant=s.ting and (s.draws - s.ting_at) <= (1 if self_drawn else 0),
        tiles_left=drawable(h, w.params),
        tiles_seen=h.discards_made - (0 if self_drawn or robbing else 1),
        replacements=replacements_of(chain),
        chain=chain if known and chain else None,
        robbing_kong=robbing,
        kong_discarder=kong_discarder_of(w, self_drawn, chain),
        heaven=first_turn == "heaven",
        earth=first_turn == "earth",
        human=first_turn == "human",
        winners=winners,
        flower_win=dict(w.params.flower_win_ids).get(flower_win) if flower_win else None,
        flower_loser=flower_loser,
        flowers_others=tuple(len(w.seats[o].flowers) for o in other_seats),
        ting_others=sum(1 for o in other_seats if w.seats[o].ting),
        heaven_earth_ting_others=sum(
            1 for o in other_seats if w.seats[o].ting_kind in ("heaven", "earth")
        ),
        hand_number=h.number,
        fanxue=fanxue,
        fanxue_payers=fanxue_payers,
    )


def build_hand(
    w: WorkingCopy,
    seat: int,
    win_tile: Tile,
    *,
    self_drawn: bool,
    discarder: int | None,
    robbing: bool = False,
    winners: int = 1,
    flower_win: str | None = None,
    flower_loser: int | None = None,
) -> Hand:
    """The full hand ``seat`` would win with on ``win_tile``, its context included."""
    s = w.seats[seat]
    in_hand = self_drawn or flower_win is not None  # the win tile is among the concealed
    concealed = remove_tiles(s.concealed, win_tile) if in_hand else s.concealed
    left = drawable(w.hand, w.params)
    visible = visible_count(w, win_tile) - (0 if self_drawn or robbing else 1)
    ctx = win_context(
        w,
        seat,
        self_drawn=self_drawn,
        discarder=discarder,
        robbing=robbing,
        winners=winners,
        flower_win=flower_win,
        flower_loser=flower_loser,
    )
    flowers = s.flowers
    if flower_loser is not None and w.params.robbed_flowers_in_hand:
        flowers = flowers + w.seats[flower_loser].flowers  # the robbed flower(s): all eight
    return Hand(
        ruleset=w.params.ruleset,
        concealed=concealed,
        melds=s.melds,
        win_tile=win_tile,
        flowers=tuple(sorted(flowers)),
        win=WinInfo(
            self_drawn=self_drawn,
            last_tile=left == 0 and (self_drawn or not robbing),
            kong_replacement=any(x != "flower" for x in (w.hand.chain if self_drawn else ())),
            robbing_kong=robbing,
            fourth_tile=visible >= 3,
        ),
        seat_wind=w.state.seat_wind(seat),
        round_wind=w.state.round_wind,
        context=ctx,
    )


def score_hand(w: WorkingCopy, hand: Hand) -> ScoreResult | None:
    try:
        return w.ruleset.score(hand)
    except ScoringError:
        return None


def score_flower_win(w: WorkingCopy, hand: Hand, kind: str) -> ScoreResult | None:
    """Score a flower win. The scoring rule set is asked (with the ``flower_win`` context
    key); if it cannot value the tiles (a flower win needs no complete hand), the result is
    the rule set's own row for the flower win — its value from the scoring pattern table,
    nothing else counted (不再計牌型番數)."""
    res = score_hand(w, hand)
    if res is not None:
        return res
    pat = w.ruleset.by_id.get(str(hand.context.flower_win)) or w.ruleset.by_id.get(kind)
    if pat is None:
        return None
    item = Item(pat.id, pat.name, pat.en, pat.points, 1)
    return ScoreResult(
        ruleset=w.ruleset.name,
        total=item.total,
        minimum_met=True,
        items=(item,),
        arrangement=Arrangement("flowers", (), None, Wait.SPECIAL),
        waits=(),
        extras={"flower_win": kind},
    )


def flower_win(w: WorkingCopy, seat: int) -> tuple[str, int | None] | None:
    """The flower win open to ``seat`` now, and who pays as the loser (None: all)."""
    kinds = dict(w.params.flower_win_ids)
    fw = flower_win_shape(w, seat)
    if fw is None or fw[0] not in kinds:
        return None
    return fw


def flower_win_shape(w: WorkingCopy, seat: int) -> tuple[str, int | None] | None:
    if not w.params.flower_wins:
        return None
    h = w.hand
    s = w.seats[seat]
    if "flower" not in h.chain:
        return None
    n = len(s.flowers)
    holders = {o: len(w.seats[o].flowers) for o in others(seat)}
    if n == 8:
        return ("eight-flowers", None)
    if n == 7:
        for o, k in holders.items():
            if k == 1:
                return ("seven-robs-one", o)
        return ("seven-flowers", None)
    if n == 1:
        for o, k in holders.items():
            if k == 7:
                return ("one-robs-seven", o)
    return None


def self_win_kind(w: WorkingCopy, seat: int) -> str | None:
    """'self' (a complete hand on the drawn tile), a flower-win id, or None."""
    h = w.hand
    if w.phase is not Phase.TURN or h.turn != seat:
        return None
    if self_win_error(w, seat) is None:
        return "self"
    fw = flower_win(w, seat)
    if fw is not None and flower_win_result(w, seat, fw[0]) is not None:
        return fw[0]
    return None


def flower_win_result(w: WorkingCopy, seat: int, kind: str) -> tuple[Hand, ScoreResult] | None:
    s = w.seats[seat]
    fw = flower_win(w, seat)
    loser = fw[1] if fw else None
    win_tile = s.drawn if s.drawn is not None else s.concealed[-1]
    # 七搶一 / 一搶七 are won on another player's flower(s), like a win on a discard
    hand = build_hand(
        w,
        seat,
        win_tile,
        self_drawn=loser is None,
        discarder=loser,
        flower_win=kind,
        flower_loser=loser,
    )
    res = score_flower_win(w, hand, kind)
    return None if res is None else (hand, res)


def may_self_win(state: GameState, seat: int) -> bool:
    """A cheap necessary condition for ``self_win_kind`` (of the turn seat ``seat``) not
    being None: a drawn tile that completes the hand (memoised), or flower wins in the rule
    set. False: no win, without the working copy or the scoring (the legal actions of a turn)."""
    if state.params.flower_wins:
        return True
    h = state.hand
    if h is None:
        return False
    s = h.seats[seat]
    tile = s.drawn
    return tile is not None and completes(
        state.config.ruleset, without(s.concealed, tile), s.melds, tile
    )


def self_win_error(w: WorkingCopy, seat: int) -> str | None:
    s = w.seats[seat]
    tile = s.drawn
    if tile is None:
        return "no drawn tile to win on (after a claim, discard)"
    if s.ting and w.params.ting_tile_barred and tile == s.ting_tile:
        return f"no win on {tile}, the tile discarded with 叮"
    if not completes(w.state.config.ruleset, without(s.concealed, tile), s.melds, tile):
        return "the hand is not complete"  # (the concealed tiles include the drawn one)
    res = score_hand(w, build_hand(w, seat, tile, self_drawn=True, discarder=None))
    if res is None:
        return "the hand is not complete"
    if not res.minimum_met:
        return f"the hand scores {res.total}, under the minimum of {w.ruleset.minimum}"
    return None


def why_not_self_win(w: WorkingCopy, seat: int) -> str:
    return self_win_error(w, seat) or "not a win"


def discard_win_error(w: WorkingCopy, seat: int) -> str | None:
    """Why ``seat`` may not win on the discard / kong tile under claim (None: it may)."""
    h = w.hand
    tile = h.discard
    if tile is None or h.discarder is None or seat == h.discarder:
        return "nothing to win on"
    s = w.seats[seat]
    if not completes(w.state.config.ruleset, s.concealed, s.melds, tile):
        return "the hand is not complete"
    if w.params.missed_win and s.missed_win:
        return "過水: you passed a win since your last draw"
    if s.ting and w.params.ting_tile_barred and tile == s.ting_tile:
        return f"no win on {tile}, the tile discarded with 叮"
    robbing = w.phase is Phase.ROB
    res = score_hand(
        w, build_hand(w, seat, tile, self_drawn=False, discarder=h.discarder, robbing=robbing)
    )
    if res is None:
        return "the hand is not complete"
    if not res.minimum_met:
        return f"the hand scores {res.total}, under the minimum of {w.ruleset.minimum}"
    return None


def win_check(state: GameState, seat: int) -> bool:
    """Whether ``seat`` may declare a win now (self-draw, discard, robbing or flower win)."""
    if state.hand is None or state.phase in (Phase.BETWEEN_HANDS, Phase.GAME_OVER):
        return False
    w = WorkingCopy(state)
    if state.phase is Phase.TURN:
        return self_win_kind(w, seat) is not None
    return seat in state.hand.pending and discard_win_error(w, seat) is None
