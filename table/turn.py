"""The turn: draws (flowers replaced), discards (叮 included) and the turn seat's kongs."""

from __future__ import annotations

from typing import Any

from scoring.hand import Meld, MeldKind
from scoring.tiles import Tile
from table import events as E
from table.errors import (
    BadActionError,
    IllegalActionError,
    NotAWinningHandError,
    NotYourTurnError,
    TileNotInHandError,
    WrongPhaseError,
)
from table.flows import flows_of
from table.hand_end import exhaustive_draw, finish_self_win
from table.model import (
    Action,
    ActionType,
    Phase,
)
from table.scoring_bridge import ruleset_waits
from table.state import replace_seat
from table.tile_math import insert_tile, others, remove_tiles, tile_counts
from table.wins import self_win_kind, why_not_self_win
from table.working import WorkingCopy

__all__ = [
    "added_kong",
    "after_draw",
    "complete_added_kong",
    "concealed_kong",
    "discard",
    "draw",
    "take_back",
    "turn_action",
]


def take_back(w: WorkingCopy) -> Tile:
    h = w.hand
    t = h.wall[len(h.wall) - 1 - h.back]
    w.update_hand(back=h.back + 1)
    return t


def draw(w: WorkingCopy, seat: int, replacement: bool) -> bool:
    """Draw for ``seat`` (flowers replaced automatically). False if the hand ended drawn."""
    h = w.hand
    turn = {"turn": seat, "discard": None, "discarder": None, "pending": (), "claims": ()}
    if replacement:
        if h.remaining <= 0:
            exhaustive_draw(w)
            return False
        tile = h.wall[len(h.wall) - 1 - h.back]
        w.update_hand(back=h.back + 1, **turn)
    else:
        if h.remaining <= w.params.dead_wall:
            exhaustive_draw(w)
            return False
        tile = h.wall[h.front]
        w.update_hand(front=h.front + 1, chain=(), chain_kong_from=None, **turn)
        s0 = w.seats[seat]
        w.seats[seat] = replace_seat(s0, draws=s0.draws + 1, missed_win=False)
    w.phase = Phase.TURN
    left = h.remaining - 1  # (the tiles left after this draw: the hand is built at the end)
    while True:
        s = w.seats[seat]
        w.seats[seat] = replace_seat(s, concealed=insert_tile(s.concealed, tile), drawn=tile)
        w.emit(
            E.Draw(
                seat=seat,
                replacement=replacement,
                wall_left=max(0, left - w.params.dead_wall),
                tile=str(tile),
            )
        )
        if not tile.is_flower:
            for flow in flows_of(w.params):
                flow.draw(w, seat, replacement)
            return True
        s = w.seats[seat]
        w.seats[seat] = replace_seat(
            s, concealed=remove_tiles(s.concealed, tile), flowers=(*s.flowers, tile), drawn=None
        )
        w.emit(E.Flower(seat=seat, tile=str(tile)))
        w.update_hand(chain=(*w.hand.chain, "flower"))
        for flow in flows_of(w.params):
            flow.flower(w, seat, False)
        if w.hand.remaining <= 0:
            exhaustive_draw(w)
            return False
        tile = take_back(w)
        left = w.hand.remaining
        replacement = True


def after_draw(w: WorkingCopy, seat: int) -> None:
    """After 叮 the hand is fixed: a drawn tile that cannot win is discarded at once."""
    s = w.seats[seat]
    if w.phase is Phase.TURN and s.ting and s.drawn is not None and self_win_kind(w, seat) is None:
        discard(w, seat, s.drawn, ting=False, auto=True)


def turn_action(w: WorkingCopy, a: Action) -> None:
    h = w.hand
    t = a.type
    if a.seat != h.turn:
        if t in (ActionType.PASS, ActionType.PUNG, ActionType.CHOW, ActionType.KONG):
            raise WrongPhaseError(f"{t.value}: there is no discard to claim")
        raise NotYourTurnError(f"it is seat {h.turn}'s turn")
    seat = h.turn
    s = w.seats[seat]
    if t is ActionType.TIMEOUT:
        tile = s.drawn if s.drawn is not None else s.concealed[-1]
        w.emit(E.Timeout(seat=seat, default="discard"))
        discard(w, seat, tile, ting=False, auto=True)
    elif t in (ActionType.DISCARD, ActionType.TING):
        if a.tile is None:
            raise BadActionError(f"{t.value} needs a tile")
        discard(w, seat, a.tile, ting=t is ActionType.TING, auto=False)
    elif t is ActionType.CONCEALED_KONG:
        concealed_kong(w, seat, a.tile)
    elif t is ActionType.ADDED_KONG:
        added_kong(w, seat, a.tile)
    elif t is ActionType.WIN:
        kind = self_win_kind(w, seat)
        if kind is None:
            raise NotAWinningHandError(why_not_self_win(w, seat))
        finish_self_win(w, seat, kind)
    else:
        raise WrongPhaseError(f"{t.value}: there is no discard to claim")


def discard(w: WorkingCopy, seat: int, tile: Tile, ting: bool, auto: bool) -> None:
    s = w.seats[seat]
    if tile.is_flower or tile not in s.concealed:
        raise TileNotInHandError(f"seat {seat} holds no {tile}")
    if s.ting and tile != s.drawn:
        raise IllegalActionError("after 叮 the hand is fixed: only the drawn tile may go")
    concealed = remove_tiles(s.concealed, tile)
    p = w.params
    h = w.hand
    ting_fields: dict[str, Any] = {}
    if ting:
        if not p.ting:
            raise IllegalActionError(f"{p.ruleset} has no 叮")
        if s.ting:
            raise IllegalActionError("叮 already declared")
        if not ruleset_waits(p.ruleset, tuple(tile_counts(concealed)), len(s.melds)):
            raise IllegalActionError(f"discarding {tile} does not leave a ready hand")
        if seat == w.dealer and s.draws == 0 and not h.interrupted:
            kind = "heaven"
        elif seat != w.dealer and s.draws == 1 and not h.interrupted and not s.melds:
            kind = "earth"
        else:
            kind = "normal"
        ting_fields = {
            "ting": True,
            "ting_tile": tile,
            "ting_kind": kind,
            "ting_at": s.draws,
            "ting_concealed": all(m.concealed or m.is_kong for m in s.melds),
        }
    tsumogiri = s.tsumogiri
    if s.drawn is not None and tile == s.drawn:
        tsumogiri = (*tsumogiri, tile)
    w.seats[seat] = replace_seat(
        s,
        concealed=concealed,
        discards=(*s.discards, tile),
        drawn=None,
        tsumogiri=tsumogiri,
        **ting_fields,
    )
    w.emit(E.Discard(seat=seat, tile=str(tile), auto=auto))
    if ting:
        w.emit(E.Ting(seat=seat, tile=str(tile), kind=ting_fields["ting_kind"]))
    # the same tile discarded by seats in turn (追: the instant-payments flow reads it)
    ct, cfirst, cn = h.chase
    if cn > 0 and ct == tile and seat == (cfirst + cn) % 4:
        chase = (int(tile), cfirst, cn + 1)
    else:
        chase = (int(tile), seat, 1)
    w.update_hand(
        chase=chase,
        discards_made=h.discards_made + 1,
        discarder=seat,
        discard=tile,
        pending=tuple(others(seat)),
        claims=(),
    )
    for flow in flows_of(p):
        flow.discard(w, seat, tile == s.drawn)
    w.phase = Phase.CLAIM


def concealed_kong(w: WorkingCopy, seat: int, tile: Tile | None) -> None:
    s = w.seats[seat]
    if tile is None:
        raise BadActionError("concealed_kong needs a tile")
    if s.ting:
        raise IllegalActionError("no kong after 叮")
    if s.concealed.count(tile) < 4:
        raise TileNotInHandError(f"seat {seat} does not hold four {tile}")
    if w.hand.remaining <= 0:
        raise IllegalActionError("no tile left for the replacement draw")
    first_turn = s.draws == 0 and not w.hand.interrupted
    w.seats[seat] = replace_seat(
        s,
        concealed=remove_tiles(s.concealed, tile, 4),
        melds=(*s.melds, Meld.kong(tile, concealed=True)),
        drawn=None,
    )
    w.emit(E.Kong(seat=seat, concealed=True, tile=str(tile)))
    for flow in flows_of(w.params):
        flow.kong(w, seat, True, first_turn)
    w.update_hand(interrupted=True, chain=(*w.hand.chain, "concealed-kong"))
    if draw(w, seat, replacement=True):
        after_draw(w, seat)


def added_kong(w: WorkingCopy, seat: int, tile: Tile | None) -> None:
    s = w.seats[seat]
    if tile is None:
        raise BadActionError("added_kong needs a tile")
    if s.ting:
        raise IllegalActionError("no kong after 叮")
    if tile not in s.concealed:
        raise TileNotInHandError(f"seat {seat} holds no {tile}")
    if not any(m.kind is MeldKind.PUNG and m.first == tile and not m.concealed for m in s.melds):
        raise IllegalActionError(f"seat {seat} has no exposed pung of {tile}")
    if w.hand.remaining <= 0:
        raise IllegalActionError("no tile left for the replacement draw")
    if w.params.robbing_kong:
        w.emit(E.KongDeclared(seat=seat, tile=str(tile), added=True))
        w.update_hand(discarder=seat, discard=tile, pending=tuple(others(seat)), claims=())
        w.phase = Phase.ROB
        return
    complete_added_kong(w, seat, tile)


def complete_added_kong(w: WorkingCopy, seat: int, tile: Tile) -> None:
    s = w.seats[seat]
    melds = list(s.melds)
    for i, m in enumerate(melds):
        if m.kind is MeldKind.PUNG and m.first == tile and not m.concealed:
            melds[i] = Meld.kong(tile, added=True, claimed=m.claimed, source=m.source)
            break
    w.seats[seat] = replace_seat(
        s, concealed=remove_tiles(s.concealed, tile), melds=tuple(melds), drawn=None
    )
    w.emit(E.Kong(seat=seat, tile=str(tile), added=True))
    for flow in flows_of(w.params):
        flow.kong(w, seat, False, False)
    w.update_hand(
        interrupted=True,
        chain=(*w.hand.chain, "added-kong"),
        discard=None,
        discarder=None,
        pending=(),
        claims=(),
    )
    if draw(w, seat, replacement=True):
        after_draw(w, seat)
