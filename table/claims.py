"""Claim and robbing windows: the answers, the claim chosen when a window closes, the claimed meld."""

from __future__ import annotations

from typing import cast

from scoring.hand import Meld, Relative
from scoring.tiles import Tile
from table import events as E
from table.errors import (
    BadActionError,
    ClaimNotAllowedError,
    NotAWinningHandError,
    NotWaitingForSeatError,
    NotYourTurnError,
    TileNotInHandError,
    WrongPhaseError,
)
from table.flows import flows_of
from table.game_state import GameState
from table.hand_end import finish_discard_win
from table.model import (
    Action,
    ActionType,
    Claim,
    Event,
    Phase,
)
from table.scoring_bridge import completes
from table.state import replace_hand, replace_seat
from table.tile_math import chow_tiles, others, remove_tiles
from table.turn import after_draw, complete_added_kong, draw
from table.wins import discard_win_error
from table.working import WorkingCopy, make_event

__all__ = [
    "answer",
    "check_claim",
    "execute_claim",
    "pass_leaving_window_open",
    "resolve_claims",
    "resolve_rob",
]


def pass_leaving_window_open(state: GameState, a: Action) -> tuple[GameState, list[Event]] | None:
    """A pass (or a claim window's timeout) that leaves its window open, without the working
    copy: only the window's ``pending`` changes and ``seq`` stays. None when the answer is
    anything else -- the window closes, the seat is not asked, or the seat could win on the
    tile (then its pass sets 過水: the 過水 check is the scoring's) --: :func:`apply`'s
    general path then answers it (the same result as here, tests/table/test_table_caches.py)."""
    h = state.hand
    seat = a.seat
    if h is None or seat is None or seat not in h.pending:
        return None
    pending = tuple([x for x in h.pending if x != seat])
    if not pending:
        return None  # the window closes
    if state.params.missed_win:
        tile = h.discard
        if (
            tile is not None
            and h.discarder is not None
            and seat != h.discarder
            and completes(state.config.ruleset, h.seats[seat].concealed, h.seats[seat].melds, tile)
        ):
            return None  # it may be a win passed: 過水 (the general path's scoring decides)
    events: list[Event] = []
    if a.type is ActionType.TIMEOUT:
        events.append(make_event(E.Timeout(seat=seat, default="pass")))
    events.append(make_event(E.Answered(seat=seat, answer="pass")))
    hand = replace_hand(h, {"pending": pending})
    new = GameState(
        config=state.config,
        params=state.params,
        seq=state.seq,
        phase=state.phase,
        dealer=state.dealer,
        round_index=state.round_index,
        hands_played=state.hands_played,
        streak=state.streak,
        scores=state.scores,
        ledger=state.ledger,
        hand=hand,
        last_result=state.last_result,
    )
    return new, events


def answer(w: WorkingCopy, a: Action) -> None:
    h = w.hand
    seat = a.seat
    if seat is None or seat not in h.pending:
        if seat is not None and seat == h.discarder:
            raise NotYourTurnError("the claim window is for the other seats")
        raise NotWaitingForSeatError(f"no answer pending from seat {seat}")
    t = a.type
    robbing = w.phase is Phase.ROB
    claim: Claim | None = None
    if t is ActionType.TIMEOUT or t is ActionType.PASS:
        if w.params.missed_win and discard_win_error(w, seat) is None:
            w.seats[seat] = replace_seat(w.seats[seat], missed_win=True)
        if t is ActionType.TIMEOUT:
            w.emit(E.Timeout(seat=seat, default="pass"))
    elif t is ActionType.WIN:
        err = discard_win_error(w, seat)
        if err is not None:
            raise NotAWinningHandError(err)
        claim = Claim(seat, t)
    elif robbing:
        raise ClaimNotAllowedError(f"{t.value}: only win or pass while a kong may be robbed")
    elif t in (ActionType.PUNG, ActionType.KONG, ActionType.CHOW):
        check_claim(w, seat, t, a.tile)
        claim = Claim(seat, t, a.tile if t is ActionType.CHOW else None)
    else:
        raise WrongPhaseError(f"{t.value}: answer the claim window with a claim, win or pass")
    pending = tuple([x for x in h.pending if x != seat])
    claims = (*h.claims, claim) if claim else h.claims
    w.emit(E.Answered(seat=seat, answer=cast(E.AnswerKind, claim.type.value if claim else "pass")))
    if pending:
        w.update_hand(pending=pending, claims=claims)
        w.advance_seq = False
        return
    # the window closes: every way of closing it sets the hand's pending and claims to ()
    for flow in flows_of(w.params):
        flow.claim_window(w, claims)
    if robbing:
        resolve_rob(w, claims)
    else:
        resolve_claims(w, claims)


def check_claim(w: WorkingCopy, seat: int, t: ActionType, first: Tile | None) -> None:
    h = w.hand
    s = w.seats[seat]
    tile = h.discard
    assert tile is not None and h.discarder is not None  # a claim window has a discard
    if s.ting:
        raise ClaimNotAllowedError("after 叮 only a win may be claimed")
    if t is ActionType.PUNG:
        if s.concealed.count(tile) < 2:
            raise TileNotInHandError(f"pung needs two {tile} in hand")
    elif t is ActionType.KONG:
        if s.concealed.count(tile) < 3:
            raise TileNotInHandError(f"kong needs three {tile} in hand")
        if h.remaining <= 0:
            raise ClaimNotAllowedError("no tile left for the replacement draw")
    else:
        if not w.params.chow:
            raise ClaimNotAllowedError(f"{w.params.ruleset} has no chow")
        if seat != (h.discarder + 1) % 4:
            raise ClaimNotAllowedError("a chow may only be claimed from the previous player")
        if first is None:
            raise BadActionError("chow needs the lowest tile of the chow")
        tiles = chow_tiles(first)
        if tiles is None or tile not in tiles:
            raise ClaimNotAllowedError(f"no chow from {first} uses {tile}")
        need = list(tiles)
        need.remove(tile)
        for x in need:
            if x not in s.concealed:
                raise TileNotInHandError(f"chow needs {x} in hand")


def resolve_claims(w: WorkingCopy, claims: tuple[Claim, ...]) -> None:
    """Close a claim window with its ``claims``."""
    h = w.hand
    assert h.discarder is not None and h.discard is not None
    order = others(h.discarder)
    by_seat = {c.seat: c for c in claims}
    wins = [s for s in order if s in by_seat and by_seat[s].type is ActionType.WIN]
    if wins:
        finish_discard_win(w, wins[: w.params.max_winners], robbing=False)
        return
    chosen: Claim | None = None
    for s in order:
        c = by_seat.get(s)
        if c is not None and c.type in (ActionType.PUNG, ActionType.KONG):
            chosen = c
            break
    if chosen is None:
        for s in order:
            c = by_seat.get(s)
            if c is not None and c.type is ActionType.CHOW:
                chosen = c
                break
    if chosen is None:
        nxt = (h.discarder + 1) % 4
        if draw(w, nxt, replacement=False):
            after_draw(w, nxt)
        return
    execute_claim(w, chosen)


def execute_claim(w: WorkingCopy, c: Claim) -> None:
    h = w.hand
    tile, discarder = h.discard, h.discarder
    assert tile is not None and discarder is not None
    ds = w.seats[discarder]
    w.seats[discarder] = replace_seat(ds, discards=ds.discards[:-1])
    s = w.seats[c.seat]
    src = Relative.between(c.seat, discarder)
    if c.type is ActionType.CHOW:
        assert c.tile is not None
        tiles = chow_tiles(c.tile)
        assert tiles is not None
        concealed = s.concealed
        for x in tiles:
            if x != tile:
                concealed = remove_tiles(concealed, x)
        meld = Meld.chow(c.tile, claimed=tile, source=src)
    elif c.type is ActionType.PUNG:
        concealed = remove_tiles(s.concealed, tile, 2)
        meld = Meld.pung(tile, claimed=tile, source=src)
    else:
        concealed = remove_tiles(s.concealed, tile, 3)
        meld = Meld.kong(tile, claimed=tile, source=src)
    w.seats[c.seat] = replace_seat(s, concealed=concealed, melds=(*s.melds, meld), drawn=None)
    w.emit(
        E.Claimed(
            seat=c.seat,
            claim=cast(E.ClaimKind, c.type.value),
            from_=discarder,
            meld=meld.to_json(),
        )
    )
    w.phase = Phase.TURN
    w.update_hand(
        turn=c.seat,
        discard=None,
        discarder=None,
        pending=(),
        claims=(),
        interrupted=True,
        chase=(-1, -1, 0),
        chain=(),
        chain_kong_from=None,
    )
    if c.type is ActionType.KONG:
        w.update_hand(chain=("kong-discard",), chain_kong_from=discarder)
        if draw(w, c.seat, replacement=True):
            after_draw(w, c.seat)


def resolve_rob(w: WorkingCopy, claims: tuple[Claim, ...]) -> None:
    """Close a robbing window with its ``claims`` (wins)."""
    h = w.hand
    assert h.discarder is not None and h.discard is not None
    wins = [s for s in others(h.discarder) if any(c.seat == s for c in claims)]
    if wins:
        finish_discard_win(w, wins[: w.params.max_winners], robbing=True)
        return
    complete_added_kong(w, h.discarder, h.discard)
