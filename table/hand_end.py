"""The end of a hand: the winners paid by the rule set's settlement, an exhaustive draw, the next
dealer, the end of the game."""

from __future__ import annotations

from typing import Any

from scoring.engine import Payment as ScorePayment
from scoring.engine import ScoreResult
from scoring.hand import Hand
from scoring.settlement import (
    fanxue_record,
    multi_win_bonus,
    settle_hand,
)
from table import events as E
from table.flows import flows_of
from table.model import (
    Payment,
    Phase,
)
from table.state import replace_seat
from table.tile_math import insert_tile, remove_tiles
from table.wins import build_hand, flower_win, flower_win_result, score_hand
from table.working import WIND_CODES, WorkingCopy

__all__ = [
    "end_hand",
    "exhaustive_draw",
    "finish_discard_win",
    "finish_self_win",
    "make_payments",
    "settle_winners",
    "winner_json",
]


def winner_json(
    seat: int, hand: Hand, res: ScoreResult, pays: list[Payment], found: list[ScorePayment]
) -> E.WinnerJSON:
    """A winner of ``hand_won``: each payment with the settlement's arithmetic (``parts``)."""
    return E.WinnerJSON(
        seat=seat,
        hand=hand.to_json(),
        score=res.to_json(),
        payments=[{**p.to_json(), **f.explained()} for p, f in zip(pays, found, strict=True)],
    )


def make_payments(w: WorkingCopy, pays: list[ScorePayment]) -> list[Payment]:
    """Make the payments :func:`scoring.settlement.settle_hand` found for one winner."""
    out = []
    for p in pays:
        w.pay(p.payer, p.payee, p.amount, p.reason)
        out.append(Payment(w.hands_played, p.payer, p.payee, p.amount, p.reason))
    return out


def settle_winners(
    w: WorkingCopy, wins: list[tuple[int, ScoreResult]], payer: int | None
) -> list[list[ScorePayment]]:
    """The rule set's settlement of the winners with the room's settlement options (the
    pure :func:`scoring.settlement.settle_hand`, which ``mahjong-score`` calls too);
    ``payer`` is the discarder / the robbed kong's owner / the flower win's loser, None on
    a self-draw."""
    return settle_hand(
        w.ruleset,
        wins,
        payer=payer,
        dealer=w.dealer,
        streak=w.streak,
        options=dict(w.state.config.settlement),
    )


def finish_self_win(w: WorkingCopy, seat: int, kind: str) -> None:
    s = w.seats[seat]
    payer: int | None = None
    if kind == "self":
        assert s.drawn is not None
        hand = build_hand(w, seat, s.drawn, self_drawn=True, discarder=None)
        res = score_hand(w, hand)
    else:
        fw = flower_win(w, seat)
        assert fw is not None
        payer = fw[1]
        fr = flower_win_result(w, seat, kind)
        assert fr is not None  # checked by self_win_kind
        hand, res = fr
    assert res is not None  # checked by self_win_kind
    (found,) = settle_winners(w, [(seat, res)], payer)
    pays = make_payments(w, found)
    for flow in flows_of(w.params):
        flow.win(w, seat, None)
    w.emit(
        E.HandWon(
            hand=w.hands_played,
            how="self_drawn" if kind == "self" else "flowers",
            tile=str(hand.win_tile),
            discarder=payer,
            winners=[winner_json(seat, hand, res, pays, found)],
        )
    )
    end_hand(w, [seat])


def finish_discard_win(w: WorkingCopy, winners: list[int], robbing: bool) -> None:
    h = w.hand
    tile, discarder = h.discard, h.discarder
    assert tile is not None and discarder is not None
    scored = []
    for seat in winners:
        hand = build_hand(
            w,
            seat,
            tile,
            self_drawn=False,
            discarder=discarder,
            robbing=robbing,
            winners=len(winners),
        )
        res = score_hand(w, hand)
        assert res is not None  # checked when the claim was made
        scored.append((seat, hand, res))
    settled = settle_winners(w, [(seat, res) for seat, _, res in scored], discarder)
    out = []
    for (seat, hand, res), found in zip(scored, settled, strict=True):
        pays = make_payments(w, found)
        for flow in flows_of(w.params):
            flow.win(w, seat, discarder)
        out.append(winner_json(seat, hand, res, pays, found))
    # the won tile joins the (head) winner's hand, from the discarder's river (as a claimed
    # tile does) or from the hand of the seat whose added kong was robbed
    ds = w.seats[discarder]
    if robbing:
        w.seats[discarder] = replace_seat(ds, concealed=remove_tiles(ds.concealed, tile))
    else:
        w.seats[discarder] = replace_seat(ds, discards=ds.discards[:-1])
    head = w.seats[winners[0]]
    w.seats[winners[0]] = replace_seat(head, concealed=insert_tile(head.concealed, tile))
    w.emit(
        E.HandWon(
            hand=w.hands_played,
            how="robbing_kong" if robbing else "discard",
            tile=str(tile),
            discarder=discarder,
            winners=out,
        )
    )
    record = None
    multi_bonus = multi_win_bonus([res for _, _, res in scored])
    if w.params.fanxue and len(winners) > 1 and multi_bonus > 0:
        record = fanxue_record(w.last_result, discarder, winners, multi_bonus)
    end_hand(w, winners, record)


def end_hand(w: WorkingCopy, winners: list[int], fanxue: dict[str, Any] | None = None) -> None:
    """``fanxue``: the 反雪 record this hand leaves for the next one (:func:`fanxue_record`);
    a record not renewed by this hand expires with it."""
    h = w.hand
    p = w.params
    w.emit(
        E.HandEnded(
            hand=w.hands_played,
            result="win" if winners else "draw",
            winners=winners,
            commitment=h.commitment,
            salt=h.salt.hex(),
            wall=[str(t) for t in h.wall],
            hands=[[str(t) for t in s.concealed] for s in w.seats],
            scores=list(w.scores),
            concealed_kongs=[[str(m.first) for m in s.melds if m.concealed] for s in w.seats],
        )
    )
    keep = (winners and w.dealer in winners and p.dealer_keeps_on_win) or (
        not winners and p.dealer_keeps_on_draw
    )
    w.hands_played += 1
    dealer, streak, round_index = w.dealer, w.streak + 1, w.round_index
    if not keep:
        dealer, streak = (w.dealer + 1) % 4, 0
        if dealer == w.state.config.first_dealer:
            round_index += 1
    result: dict[str, Any] = {"hand": h.number, "winners": winners}
    if fanxue:
        result["fanxue"] = fanxue
    w.last_result = result
    w.update_hand(pending=(), claims=())
    over = w.hands_played >= p.max_hands if p.max_hands is not None else round_index >= p.rounds
    if over:  # nothing moves after the last hand: the table stays as that hand left it
        w.phase = Phase.GAME_OVER
        w.emit(E.GameOver(hands=w.hands_played, scores=list(w.scores)))
    else:
        w.dealer, w.streak, w.round_index = dealer, streak, round_index
        w.phase = Phase.BETWEEN_HANDS
        w.emit(
            E.NextHand(
                hand=w.hands_played,
                dealer=dealer,
                streak=streak,
                round_wind=WIND_CODES[round_index % 4],
                seat_winds=[WIND_CODES[(s - dealer) % 4] for s in range(4)],
            )
        )


def exhaustive_draw(w: WorkingCopy) -> None:
    """The wall ran out: the hand ends drawn."""
    w.emit(E.HandDrawn(hand=w.hands_played, reason="wall"))
    for flow in flows_of(w.params):
        flow.exhaustive_draw(w)
    end_hand(w, winners=[])
