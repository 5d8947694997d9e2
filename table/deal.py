"""The start of a hand: the wall, the deal, the flowers replaced, the instant payments of the deal."""

from __future__ import annotations

from scoring.tiles import Tile
from table import events as E
from table.errors import (
    BadActionError,
    NotYourTurnError,
)
from table.flows import flows_of
from table.model import (
    Action,
    Phase,
)
from table.state import HandState, SeatState, drawable, replace_seat
from table.tile_math import insert_tile, remove_tiles
from table.turn import take_back
from table.wall import Deal
from table.working import WorkingCopy, wind_code

__all__ = ["MIN_SEED_BYTES", "start_hand"]


MIN_SEED_BYTES = 16


def start_hand(w: WorkingCopy, a: Action) -> None:
    if a.seat is not None:
        raise NotYourTurnError("start_hand is a system action (seat must be null)")
    if a.seed is None or len(a.seed) < MIN_SEED_BYTES:
        raise BadActionError(f"start_hand needs a seed of at least {MIN_SEED_BYTES} bytes")
    p = w.params
    try:
        deal = Deal(a.seed, p.flowers, a.wall)
    except ValueError as e:
        raise BadActionError(str(e)) from None
    wall = deal.wall
    front = 0
    order = [(w.dealer + i) % 4 for i in range(4)]
    seats = [SeatState() for _ in range(4)]
    w.hand_changes = {}
    w.current_hand = HandState(
        number=w.hands_played,
        wall=wall,
        front=0,
        back=0,
        salt=deal.salt,
        commitment=deal.commitment,
        dice=deal.dice,
        seats=(seats[0], seats[1], seats[2], seats[3]),
        turn=w.dealer,
    )
    w.emit(
        E.HandStarted(
            hand=w.hands_played,
            round_wind=wind_code(w.state.round_wind),
            dealer=w.dealer,
            streak=w.streak,
            seat_winds=[wind_code(w.state.seat_wind(s)) for s in range(4)],
            commitment=deal.commitment,
            dice=list(deal.dice),
            tiles=len(wall),
        )
    )
    for s in order:
        n = p.hand_size + (1 if s == w.dealer else 0)
        tiles = wall[front : front + n]
        front += n
        seats[s] = SeatState(concealed=tuple(sorted(tiles)), drawn=tiles[-1])
        w.emit(E.Dealt(seat=s, count=n, tiles=[str(t) for t in tiles]))
    w.seats = seats
    w.update_hand(front=front)
    if p.flowers:
        for s in order:
            flowers = [t for t in w.seats[s].concealed if t.is_flower]
            while flowers:
                for f in flowers:
                    w.seats[s] = replace_seat(
                        w.seats[s],
                        concealed=remove_tiles(w.seats[s].concealed, f),
                        flowers=(*w.seats[s].flowers, f),
                    )
                    w.emit(E.Flower(seat=s, tile=str(f)))
                new: list[Tile] = []
                for _ in flowers:
                    t = take_back(w)
                    new.append(t)
                    w.seats[s] = replace_seat(
                        w.seats[s], concealed=insert_tile(w.seats[s].concealed, t)
                    )
                    w.emit(
                        E.Draw(
                            seat=s,
                            replacement=True,
                            wall_left=drawable(w.hand, w.params),
                            tile=str(t),
                        )
                    )
                if s == w.dealer:
                    w.seats[s] = replace_seat(w.seats[s], drawn=new[-1])
                flowers = [t for t in new if t.is_flower]
    flows = flows_of(p)
    if p.flowers:
        for s in order:
            for flow in flows:
                flow.flower(w, s, True)
    for flow in flows:
        flow.deal(w, deal.dice)
    for s in range(4):
        if s != w.dealer:
            w.seats[s] = replace_seat(w.seats[s], drawn=None)
    w.phase = Phase.TURN
    w.update_hand(turn=w.dealer)
