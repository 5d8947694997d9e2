"""The states of a hand: a seat's and the hand in play's (value types, each with
``to_json()`` / ``from_json()``; the whole game's is :mod:`table.game_state`).

They are plain classes with hand-written ``__init__``, ``__eq__``, ``__hash__`` and
``__repr__`` (a frozen dataclass's meaning), immutable by convention: compiled (mypyc) their
constructors are native, where a frozen dataclass's generated ``__init__`` stays interpreted,
and the engine builds new ones on every action.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.hand import Meld
from scoring.tiles import Tile
from table.codec import (
    TILE_CODE,
    opt_tile,
    tile_codes,
    tile_json,
    tiles_from_json,
    value_repr,
    wall_from_json,
    wall_json,
)
from table.errors import BadActionError
from table.model import Claim
from table.params import GameParams

__all__ = [
    "HandState",
    "SeatState",
    "drawable",
    "replace_hand",
    "replace_seat",
    "replace_seat_fields",
    "tile_total",
]


class SeatState:
    """One seat during a hand. ``concealed`` is sorted and includes ``drawn``.

    Immutable (never assign to a field). A plain class with a hand-written ``__init__``,
    ``__eq__``, ``__hash__`` and ``__repr__`` (a frozen dataclass's meaning), not a frozen
    dataclass: its generated ``__init__`` is one ``object.__setattr__`` per field,
    interpreted even when compiled (mypyc), and the engine builds new ones on every action.
    """

    __slots__ = (
        "concealed",
        "discards",
        "drawn",
        "draws",
        "flowers",
        "melds",
        "missed_win",
        "sets_paid",
        "ting",
        "ting_at",
        "ting_concealed",
        "ting_kind",
        "ting_tile",
        "tsumogiri",
    )

    def __init__(
        self,
        concealed: tuple[Tile, ...] = (),
        melds: tuple[Meld, ...] = (),
        flowers: tuple[Tile, ...] = (),
        discards: tuple[Tile, ...] = (),
        drawn: Tile | None = None,
        draws: int = 0,
        ting: bool = False,
        ting_tile: Tile | None = None,
        ting_kind: str | None = None,
        ting_at: int = -1,
        ting_concealed: bool = False,
        missed_win: bool = False,
        tsumogiri: tuple[Tile, ...] = (),
        sets_paid: tuple[str, ...] = (),
    ) -> None:
        self.concealed = concealed
        self.melds = melds
        self.flowers = flowers
        self.discards = discards  # the river (claimed tiles leave it)
        self.drawn = drawn  # the tile drawn this turn (None after a claim)
        self.draws = draws  # normal draws this hand (0 = first turn not yet drawn)
        self.ting = ting
        self.ting_tile = ting_tile
        self.ting_kind = ting_kind  # "heaven" / "earth" / "normal"
        self.ting_at = ting_at  # table discard count when 叮 was declared
        self.ting_concealed = ting_concealed
        self.missed_win = missed_win  # 過水 in force until the next draw
        self.tsumogiri = tsumogiri  # tiles discarded right after drawing them (自追)
        self.sets_paid = sets_paid  # instant flower-set payments already collected

    def _fields(self) -> tuple[Any, ...]:
        """The fields that count for ``==`` and ``hash``."""
        return (
            self.concealed,
            self.melds,
            self.flowers,
            self.discards,
            self.drawn,
            self.draws,
            self.ting,
            self.ting_tile,
            self.ting_kind,
            self.ting_at,
            self.ting_concealed,
            self.missed_win,
            self.tsumogiri,
            self.sets_paid,
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not SeatState:
            return NotImplemented
        assert isinstance(other, SeatState)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return value_repr(self)

    def to_json(self, prev: tuple[SeatState, Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """The JSON form; with ``prev`` (an earlier state of the seat and its ``to_json()``)
        the lists of the tuples it shares with it are shared too (as ``HandState.to_json``
        shares unchanged seats)."""
        if prev is not None:
            old, o = prev
            melds = o["melds"] if old.melds is self.melds else [m.to_json() for m in self.melds]
            flowers = o["flowers"] if old.flowers is self.flowers else tile_codes(self.flowers)
            discards = o["discards"] if old.discards is self.discards else tile_codes(self.discards)
            tsumogiri = (
                o["tsumogiri"] if old.tsumogiri is self.tsumogiri else tile_codes(self.tsumogiri)
            )
            sets_paid = o["sets_paid"] if old.sets_paid is self.sets_paid else list(self.sets_paid)
            return self._json(melds, flowers, discards, tsumogiri, sets_paid)
        return self._json(
            [m.to_json() for m in self.melds],
            tile_codes(self.flowers),
            tile_codes(self.discards),
            tile_codes(self.tsumogiri),
            list(self.sets_paid),
        )

    def _json(
        self, melds: Any, flowers: Any, discards: Any, tsumogiri: Any, sets_paid: Any
    ) -> dict[str, Any]:
        return {
            "concealed": [TILE_CODE[t] for t in self.concealed],
            "melds": melds,
            "flowers": flowers,
            "discards": discards,
            "drawn": tile_json(self.drawn),
            "draws": self.draws,
            "ting": self.ting,
            "ting_tile": tile_json(self.ting_tile),
            "ting_kind": self.ting_kind,
            "ting_at": self.ting_at,
            "ting_concealed": self.ting_concealed,
            "missed_win": self.missed_win,
            "tsumogiri": tsumogiri,
            "sets_paid": sets_paid,
        }

    @classmethod
    def from_json(cls, o: Mapping[str, Any]) -> SeatState:
        return cls(
            concealed=tiles_from_json(o["concealed"], "concealed"),
            melds=tuple(Meld.from_json(m) for m in o["melds"]),
            flowers=tiles_from_json(o["flowers"], "flowers"),
            discards=tiles_from_json(o["discards"], "discards"),
            drawn=opt_tile(o.get("drawn"), "drawn"),
            draws=int(o["draws"]),
            ting=bool(o["ting"]),
            ting_tile=opt_tile(o.get("ting_tile"), "ting_tile"),
            ting_kind=o.get("ting_kind"),
            ting_at=int(o["ting_at"]),
            ting_concealed=bool(o["ting_concealed"]),
            missed_win=bool(o["missed_win"]),
            tsumogiri=tiles_from_json(o["tsumogiri"], "tsumogiri"),
            sets_paid=tuple(o["sets_paid"]),
        )


class HandState:
    """The hand in play. The wall is the whole shuffled wall; ``front`` tiles were drawn
    from its head, ``back`` replacement tiles from its tail. In the JSON form the wall is
    one string, the tile codes joined by single spaces (``from_json`` also reads a list).

    Immutable (never assign to a field). A plain class with a hand-written ``__init__``,
    ``__eq__``, ``__hash__`` and ``__repr__`` (a frozen dataclass's meaning), not a frozen
    dataclass: its generated ``__init__`` is one ``object.__setattr__`` per field,
    interpreted even when compiled (mypyc), and the engine builds new ones on every action.
    """

    __slots__ = (
        "back",
        "chain",
        "chain_kong_from",
        "chase",
        "claims",
        "commitment",
        "dice",
        "discard",
        "discarder",
        "discards_made",
        "front",
        "interrupted",
        "number",
        "pending",
        "salt",
        "seats",
        "turn",
        "wall",
    )

    def __init__(
        self,
        number: int,
        wall: tuple[Tile, ...],
        front: int,
        back: int,
        salt: bytes,
        commitment: str,
        dice: tuple[int, int, int],
        seats: tuple[SeatState, SeatState, SeatState, SeatState],
        turn: int,
        discarder: int | None = None,
        discard: Tile | None = None,
        pending: tuple[int, ...] = (),
        claims: tuple[Claim, ...] = (),
        chain: tuple[str, ...] = (),
        chain_kong_from: int | None = None,
        interrupted: bool = False,
        discards_made: int = 0,
        chase: tuple[int, int, int] = (-1, -1, 0),
    ) -> None:
        self.number = number
        self.wall = wall
        self.front = front
        self.back = back
        self.salt = salt
        self.commitment = commitment
        self.dice = dice
        self.seats = seats
        self.turn = turn
        self.discarder = discarder
        self.discard = discard  # the discard under claim / the kong tile under robbing
        self.pending = pending
        self.claims = claims
        # replacement draws of this turn, by cause (scoring.context.CHAIN_KINDS: "flower",
        # "kong-discard", "added-kong", "concealed-kong"; "kong" in a state saved before)
        self.chain = chain
        self.chain_kong_from = chain_kong_from  # who discarded the tile of a "kong-discard"
        self.interrupted = interrupted  # a claim or kong happened (ends the first go-around)
        self.discards_made = discards_made
        self.chase = chase  # (tile, first seat, run length) for 追

    def _fields(self) -> tuple[Any, ...]:
        """The fields that count for ``==`` and ``hash``."""
        return (
            self.number,
            self.wall,
            self.front,
            self.back,
            self.salt,
            self.commitment,
            self.dice,
            self.seats,
            self.turn,
            self.discarder,
            self.discard,
            self.pending,
            self.claims,
            self.chain,
            self.chain_kong_from,
            self.interrupted,
            self.discards_made,
            self.chase,
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not HandState:
            return NotImplemented
        assert isinstance(other, HandState)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return value_repr(self)

    @property
    def remaining(self) -> int:
        return len(self.wall) - self.front - self.back

    def to_json(self, prev: tuple[HandState, Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """The JSON form. With ``prev`` (an earlier hand state and its ``to_json()``), the
        JSON of the parts this state shares with it (the same wall, the same seat objects —
        values are immutable) is reused instead of being rebuilt: the result is equal to
        ``to_json()`` but shares those lists and dicts with ``prev``'s JSON, so neither may
        be changed in place."""
        if prev is not None:
            old, old_json = prev
            wall = old_json["wall"] if old.wall is self.wall else wall_json(self.wall)
            seats = [
                old_json["seats"][i]
                if old.seats[i] is s
                else s.to_json((old.seats[i], old_json["seats"][i]))
                for i, s in enumerate(self.seats)
            ]
            # (the same object: the same JSON, shared like the seats')
            salt = old_json["salt"] if old.salt is self.salt else self.salt.hex()
            dice = old_json["dice"] if old.dice is self.dice else list(self.dice)
            pending = old_json["pending"] if old.pending is self.pending else list(self.pending)
            claims = (
                old_json["claims"]
                if old.claims is self.claims
                else [c.to_json() for c in self.claims]
            )
            chain = old_json["chain"] if old.chain is self.chain else list(self.chain)
            chase = old_json["chase"] if old.chase is self.chase else list(self.chase)
        else:
            wall = wall_json(self.wall)
            seats = [s.to_json() for s in self.seats]
            salt = self.salt.hex()
            dice = list(self.dice)
            pending = list(self.pending)
            claims = [c.to_json() for c in self.claims]
            chain = list(self.chain)
            chase = list(self.chase)
        return {
            "number": self.number,
            "wall": wall,
            "front": self.front,
            "back": self.back,
            "salt": salt,
            "commitment": self.commitment,
            "dice": dice,
            "seats": seats,
            "turn": self.turn,
            "discarder": self.discarder,
            "discard": tile_json(self.discard),
            "pending": pending,
            "claims": claims,
            "chain": chain,
            "chain_kong_from": self.chain_kong_from,
            "interrupted": self.interrupted,
            "discards_made": self.discards_made,
            "chase": chase,
        }

    @classmethod
    def from_json(cls, o: Mapping[str, Any]) -> HandState:
        seats = tuple(SeatState.from_json(s) for s in o["seats"])
        if len(seats) != 4:
            raise BadActionError("a hand has four seats")
        d = o["dice"]
        c = o["chase"]
        return cls(
            number=int(o["number"]),
            wall=wall_from_json(o["wall"]),
            front=int(o["front"]),
            back=int(o["back"]),
            salt=bytes.fromhex(o["salt"]),
            commitment=str(o["commitment"]),
            dice=(int(d[0]), int(d[1]), int(d[2])),
            seats=(seats[0], seats[1], seats[2], seats[3]),
            turn=int(o["turn"]),
            discarder=o.get("discarder"),
            discard=opt_tile(o.get("discard"), "discard"),
            pending=tuple(int(x) for x in o["pending"]),
            claims=tuple(Claim.from_json(x) for x in o["claims"]),
            chain=tuple(str(x) for x in o["chain"]),
            chain_kong_from=o.get("chain_kong_from"),
            interrupted=bool(o["interrupted"]),
            discards_made=int(o["discards_made"]),
            chase=(int(c[0]), int(c[1]), int(c[2])),
        )


def drawable(hand: HandState, params: GameParams) -> int:
    """Tiles that can still be drawn normally (the exhaustive-draw point is 0)."""
    return max(0, hand.remaining - params.dead_wall)


def tile_total(hand: HandState) -> int:
    """Every tile accounted for: hands, melds, flowers, rivers and the wall (conservation)."""
    n = hand.remaining
    for s in hand.seats:
        n += len(s.concealed) + len(s.flowers) + len(s.discards)
        n += sum(len(m.tiles) for m in s.melds)
    return n


# ``dataclasses.replace`` for the two value types the engine rebuilds on every action:
# generated from their one list of fields (their constructors' parameters) by
# ``table.codec.replacer_source``; tests/table/test_table_caches.py checks that the text
# below is what it generates today (a field added to a type fails there until regenerated).
# --- generated: begin ---
def replace_hand(obj: HandState, kw: dict[str, Any]) -> HandState:
    """``obj`` with the fields named in ``kw`` replaced (``dataclasses.replace``;
    generated by ``table.codec.replacer_source``: do not edit)."""
    return HandState(
        kw.get("number", obj.number),
        kw.get("wall", obj.wall),
        kw.get("front", obj.front),
        kw.get("back", obj.back),
        kw.get("salt", obj.salt),
        kw.get("commitment", obj.commitment),
        kw.get("dice", obj.dice),
        kw.get("seats", obj.seats),
        kw.get("turn", obj.turn),
        kw.get("discarder", obj.discarder),
        kw.get("discard", obj.discard),
        kw.get("pending", obj.pending),
        kw.get("claims", obj.claims),
        kw.get("chain", obj.chain),
        kw.get("chain_kong_from", obj.chain_kong_from),
        kw.get("interrupted", obj.interrupted),
        kw.get("discards_made", obj.discards_made),
        kw.get("chase", obj.chase),
    )


def replace_seat_fields(obj: SeatState, kw: dict[str, Any]) -> SeatState:
    """``obj`` with the fields named in ``kw`` replaced (``dataclasses.replace``;
    generated by ``table.codec.replacer_source``: do not edit)."""
    return SeatState(
        kw.get("concealed", obj.concealed),
        kw.get("melds", obj.melds),
        kw.get("flowers", obj.flowers),
        kw.get("discards", obj.discards),
        kw.get("drawn", obj.drawn),
        kw.get("draws", obj.draws),
        kw.get("ting", obj.ting),
        kw.get("ting_tile", obj.ting_tile),
        kw.get("ting_kind", obj.ting_kind),
        kw.get("ting_at", obj.ting_at),
        kw.get("ting_concealed", obj.ting_concealed),
        kw.get("missed_win", obj.missed_win),
        kw.get("tsumogiri", obj.tsumogiri),
        kw.get("sets_paid", obj.sets_paid),
    )


# --- generated: end ---


def replace_seat(seat: SeatState, **kw: Any) -> SeatState:
    """``seat`` with the fields given replaced (``dataclasses.replace``; the names are not
    checked: the engine only sets fields to values of the right types)."""
    return replace_seat_fields(seat, kw)
