"""Value types of the table: actions, events, payments, seat and game states.

Everything here is an immutable value with a ``to_json()`` / ``from_json()`` pair producing
plain dicts of str/int/bool/list/None (msgpack-ready). Tiles are :class:`scoring.Tile`,
melds :class:`scoring.Meld` (``from`` is relative to the meld's owner).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.engine import get_ruleset
from scoring.errors import ScoringError
from scoring.hand import Meld
from scoring.tiles import Tile, Wind
from table.errors import BadActionError, BadConfigError
from table.params import GameParams, get_params

__all__ = [
    "EVENT_META_KEYS",
    "HOUSE_RULES",
    "Action",
    "ActionType",
    "Claim",
    "Event",
    "GameConfig",
    "GameState",
    "HandState",
    "Payment",
    "Phase",
    "SeatState",
]


def _tile_json(t: Tile | None) -> str | None:
    return None if t is None else _CODE[t]


def _parse_tile(v: Any, what: str) -> Tile:
    if not isinstance(v, str):
        raise BadActionError(f"{what}: expected a tile code, got {v!r}")
    try:
        return Tile.parse(v)
    except ScoringError as e:
        raise BadActionError(f"{what}: {e}") from None


def _opt_tile(v: Any, what: str) -> Tile | None:
    return None if v is None else _parse_tile(v, what)


_BY_CODE: dict[str, Tile] = {str(t): t for t in Tile}
#: tile -> its code (``str(t)``, without a Python-level ``__str__`` call per tile)
_CODE: dict[Tile, str] = {t: str(t) for t in Tile}


def _tiles(v: Any, what: str) -> tuple[Tile, ...]:
    if not isinstance(v, list | tuple):
        raise BadActionError(f"{what}: expected a list of tile codes")
    try:
        return tuple([_BY_CODE[x] for x in v])
    except (KeyError, TypeError):
        return tuple(_parse_tile(x, what) for x in v)  # raises with the exact complaint


def _wall_json(wall: tuple[Tile, ...]) -> str:
    """The wall in a state's JSON: its tile codes joined by single spaces (one string
    instead of a list of 136-144: the bulk of a stored state, cheap to write this way)."""
    return " ".join([_CODE[t] for t in wall])


def _wall_tiles(v: Any) -> tuple[Tile, ...]:
    if isinstance(v, str):
        return _tiles(v.split(), "wall")
    return _tiles(v, "wall")  # a list of codes (states stored before the string form)


# -- actions -----------------------------------------------------------------------------


class ActionType(enum.Enum):
    START_HAND = "start_hand"  # system action (seat None): carries the wall seed
    DISCARD = "discard"
    TING = "ting"  # discard + declare 叮
    CHOW = "chow"  # tile = the lowest tile of the chow
    PUNG = "pung"
    KONG = "kong"  # exposed kong on a discard
    CONCEALED_KONG = "concealed_kong"
    ADDED_KONG = "added_kong"
    WIN = "win"  # self-draw, on a discard, robbing a kong or a flower win (by phase)
    PASS = "pass"
    TIMEOUT = "timeout"  # sent by the server when the seat's deadline passed


def _codes(tiles: tuple[Tile, ...]) -> list[str]:
    return [_CODE[t] for t in tiles]


def _result_json(result: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return dict(result) if result is not None else None


#: each action type by its JSON name (a dict lookup: calling the Enum costs more)
_ACTION_TYPES: dict[str, ActionType] = {t.value: t for t in ActionType}


def _repr(obj: object, names: tuple[str, ...], values: tuple[Any, ...]) -> str:
    """A dataclass's ``repr`` of the hand-written value types below."""
    pairs = ", ".join(f"{k}={v!r}" for k, v in zip(names, values, strict=True))
    return f"{type(obj).__name__}({pairs})"


class Action:
    """One action: who (``seat``; None for the system's start_hand), against which state
    (``seq``), and the tile / seed it needs.

    Immutable (never assign to a field). A plain class with a hand-written ``__init__``,
    ``__eq__``, ``__hash__`` and ``__repr__`` (a frozen dataclass's meaning), as the states
    below: the server makes or parses one or more on every action."""

    __slots__ = ("seat", "seed", "seq", "tile", "type", "wall")

    def __init__(
        self,
        type: ActionType,
        seat: int | None,
        seq: int,
        tile: Tile | None = None,
        seed: bytes | None = None,
        wall: tuple[Tile, ...] | None = None,
    ) -> None:
        self.type = type
        self.seat = seat
        self.seq = seq
        self.tile = tile
        self.seed = seed
        #: start_hand only: a preset wall (tests, replaying a recorded physical deal); the
        #: seed still provides the salt and the dice. The server never sends one.
        self.wall = wall

    def _fields(self) -> tuple[Any, ...]:
        return (self.type, self.seat, self.seq, self.tile, self.seed, self.wall)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Action:
            return NotImplemented
        assert isinstance(other, Action)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return _repr(self, ("type", "seat", "seq", "tile", "seed", "wall"), self._fields())

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type._value_, "seat": self.seat, "seq": self.seq}
        if self.tile is not None:
            out["tile"] = str(self.tile)
        if self.seed is not None:
            out["seed"] = self.seed.hex()
        if self.wall is not None:
            out["wall"] = [str(t) for t in self.wall]
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Action:
        if not isinstance(obj, Mapping):
            raise BadActionError("an action must be an object")
        raw = obj.get("type")
        typ = _ACTION_TYPES.get(raw) if isinstance(raw, str) else None
        if typ is None and isinstance(raw, ActionType):
            typ = raw  # (as calling the Enum with a member would)
        if typ is None:
            raise BadActionError(f"unknown action type {raw!r}")
        seat = obj.get("seat")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise BadActionError(f"seat must be 0-3 or null, got {seat!r}")
        seq = obj.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise BadActionError(f"seq must be an integer, got {seq!r}")
        seed_hex = obj.get("seed")
        seed: bytes | None = None
        if seed_hex is not None:
            if not isinstance(seed_hex, str):
                raise BadActionError("seed must be a hex string")
            try:
                seed = bytes.fromhex(seed_hex)
            except ValueError:
                raise BadActionError("seed must be a hex string") from None
        wall_raw = obj.get("wall")
        wall = _tiles(wall_raw, "wall") if wall_raw is not None else None
        return cls(typ, seat, seq, _opt_tile(obj.get("tile"), "tile"), seed, wall)

    def __str__(self) -> str:
        bits = [self.type.value, f"seat={self.seat}", f"seq={self.seq}"]
        if self.tile is not None:
            bits.append(str(self.tile))
        return " ".join(bits)


# -- events ------------------------------------------------------------------------------

#: The keys of an event's JSON form (``Event.to_json``) that are not its data: the type, the
#: owning seat and the owner-only keys. ``table.views`` drops them from what a seat sees.
EVENT_META_KEYS = frozenset(("type", "_owner", "_secret"))


class Event:
    """Something that happened. ``data`` is JSON; the keys in ``secret`` are seen only by
    ``owner`` (e.g. the tile of a draw) — :func:`table.view_event` removes them for
    everyone else.

    Immutable (never assign to a field, nor change ``data``). A plain class with a
    hand-written ``__init__``, ``__eq__``, ``__hash__`` and ``__repr__`` (a frozen
    dataclass's meaning), not a frozen dataclass: its generated ``__init__`` is one
    ``object.__setattr__`` per field, interpreted even when compiled (mypyc), and the engine
    builds one or more events on every action (docs/architecture.md, compiled hot paths)."""

    __slots__ = ("data", "owner", "secret", "type")

    def __init__(
        self,
        type: str,
        data: Mapping[str, Any],
        owner: int | None = None,
        secret: tuple[str, ...] = (),
    ) -> None:
        if not EVENT_META_KEYS.isdisjoint(data):
            # an engine bug, never client input: the JSON form would lose the type
            reserved = sorted(EVENT_META_KEYS & set(data))
            raise ValueError(f"event data may not use the reserved keys {reserved}")
        self.type = type
        self.data = data
        self.owner = owner
        self.secret = secret

    def _fields(self) -> tuple[Any, ...]:
        return (self.type, self.data, self.owner, self.secret)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Event:
            return NotImplemented
        assert isinstance(other, Event)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return _repr(self, ("type", "data", "owner", "secret"), self._fields())

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, **self.data}
        if self.owner is not None:
            out["_owner"] = self.owner
        if self.secret:
            out["_secret"] = list(self.secret)
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Event:
        data = {k: v for k, v in obj.items() if k not in EVENT_META_KEYS}
        return cls(str(obj["type"]), data, obj.get("_owner"), tuple(obj.get("_secret", ())))


@dataclass(frozen=True, slots=True)
class Payment:
    """One ledger line: ``payer`` pays ``payee`` ``amount`` for ``reason`` in hand ``hand``."""

    hand: int
    payer: int
    payee: int
    amount: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, o: Mapping[str, Any]) -> Payment:
        return cls(
            int(o["hand"]), int(o["payer"]), int(o["payee"]), int(o["amount"]), str(o["reason"])
        )


# -- state -------------------------------------------------------------------------------


class Phase(enum.Enum):
    BETWEEN_HANDS = "between_hands"  # waiting for start_hand
    TURN = "turn"  # the turn seat holds hand_size+1 tiles and must act
    CLAIM = "claim"  # after a discard: waiting for the three other seats
    ROB = "rob"  # after an added kong: waiting for the three other seats
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Claim:
    seat: int
    type: ActionType  # WIN, PUNG, KONG or CHOW
    tile: Tile | None = None  # chow: lowest tile

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type._value_, "tile": _tile_json(self.tile)}

    @classmethod
    def from_json(cls, o: Mapping[str, Any]) -> Claim:
        return cls(int(o["seat"]), ActionType(o["type"]), _opt_tile(o.get("tile"), "tile"))


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
        return _repr(
            self,
            (
                "concealed",
                "melds",
                "flowers",
                "discards",
                "drawn",
                "draws",
                "ting",
                "ting_tile",
                "ting_kind",
                "ting_at",
                "ting_concealed",
                "missed_win",
                "tsumogiri",
                "sets_paid",
            ),
            (
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
            ),
        )

    def to_json(self, prev: tuple[SeatState, Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """The JSON form; with ``prev`` (an earlier state of the seat and its ``to_json()``)
        the lists of the tuples it shares with it are shared too (as ``HandState.to_json``
        shares unchanged seats)."""
        if prev is not None:
            old, o = prev
            melds = o["melds"] if old.melds is self.melds else [m.to_json() for m in self.melds]
            flowers = o["flowers"] if old.flowers is self.flowers else _codes(self.flowers)
            discards = o["discards"] if old.discards is self.discards else _codes(self.discards)
            tsumogiri = (
                o["tsumogiri"] if old.tsumogiri is self.tsumogiri else _codes(self.tsumogiri)
            )
            sets_paid = o["sets_paid"] if old.sets_paid is self.sets_paid else list(self.sets_paid)
            return self._json(melds, flowers, discards, tsumogiri, sets_paid)
        return self._json(
            [m.to_json() for m in self.melds],
            _codes(self.flowers),
            _codes(self.discards),
            _codes(self.tsumogiri),
            list(self.sets_paid),
        )

    def _json(
        self, melds: Any, flowers: Any, discards: Any, tsumogiri: Any, sets_paid: Any
    ) -> dict[str, Any]:
        return {
            "concealed": [_CODE[t] for t in self.concealed],
            "melds": melds,
            "flowers": flowers,
            "discards": discards,
            "drawn": _tile_json(self.drawn),
            "draws": self.draws,
            "ting": self.ting,
            "ting_tile": _tile_json(self.ting_tile),
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
            concealed=_tiles(o["concealed"], "concealed"),
            melds=tuple(Meld.from_json(m) for m in o["melds"]),
            flowers=_tiles(o["flowers"], "flowers"),
            discards=_tiles(o["discards"], "discards"),
            drawn=_opt_tile(o.get("drawn"), "drawn"),
            draws=int(o["draws"]),
            ting=bool(o["ting"]),
            ting_tile=_opt_tile(o.get("ting_tile"), "ting_tile"),
            ting_kind=o.get("ting_kind"),
            ting_at=int(o["ting_at"]),
            ting_concealed=bool(o["ting_concealed"]),
            missed_win=bool(o["missed_win"]),
            tsumogiri=_tiles(o["tsumogiri"], "tsumogiri"),
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
        self.chain = chain  # replacement draws of this turn: "flower" / "kong"
        self.chain_kong_from = chain_kong_from  # discarder of the tile of an exposed kong in chain
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
        return _repr(
            self,
            (
                "number",
                "wall",
                "front",
                "back",
                "salt",
                "commitment",
                "dice",
                "seats",
                "turn",
                "discarder",
                "discard",
                "pending",
                "claims",
                "chain",
                "chain_kong_from",
                "interrupted",
                "discards_made",
                "chase",
            ),
            (
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
            ),
        )

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
            wall = old_json["wall"] if old.wall is self.wall else _wall_json(self.wall)
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
            wall = _wall_json(self.wall)
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
            "discard": _tile_json(self.discard),
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
            wall=_wall_tiles(o["wall"]),
            front=int(o["front"]),
            back=int(o["back"]),
            salt=bytes.fromhex(o["salt"]),
            commitment=str(o["commitment"]),
            dice=(int(d[0]), int(d[1]), int(d[2])),
            seats=(seats[0], seats[1], seats[2], seats[3]),
            turn=int(o["turn"]),
            discarder=o.get("discarder"),
            discard=_opt_tile(o.get("discard"), "discard"),
            pending=tuple(int(x) for x in o["pending"]),
            claims=tuple(Claim.from_json(x) for x in o["claims"]),
            chain=tuple(str(x) for x in o["chain"]),
            chain_kong_from=o.get("chain_kong_from"),
            interrupted=bool(o["interrupted"]),
            discards_made=int(o["discards_made"]),
            chase=(int(c[0]), int(c[1]), int(c[2])),
        )


#: House rules a room may change, with their allowed values.
HOUSE_RULES: dict[str, tuple[Any, ...]] = {
    "max_winners": (1, 2, 3),
    "robbing_kong": (True, False),
    "missed_win": (True, False),
    "ting": (True, False),
    "ting_tile_barred": (True, False),
    "dealer_keeps_on_win": (True, False),
    "dealer_keeps_on_draw": (True, False),
    "chow": (True, False),
    "kong_discarder_pays": (True, False),
    "dead_wall": tuple(range(0, 33)),
}


@dataclass(frozen=True, slots=True)
class GameConfig:
    """What a room chooses: the rule set, the game length and house rules.

    ``house_rules`` are ``(name, value)`` pairs overriding the rule set's game parameters
    (see :data:`HOUSE_RULES` for what may change), and ``patterns``: the scoring rule set's
    pattern values changed or switched off (``(id, value | False)`` pairs; the JSON form
    is a map, ``{"patterns": {"id": 8, "other": false}}``)."""

    ruleset: str
    rounds: int | None = None  # 1, 2 or 4 round winds (default: the rule set's)
    max_hands: int | None = None  # play exactly N hands instead
    first_dealer: int = 0
    house_rules: tuple[tuple[str, Any], ...] = ()
    #: the rule set's settlement options for this room (stakes: 底, value per fan, schemes…),
    #: validated by the rule set (``RuleSet.validate_settlement``)
    settlement: tuple[tuple[str, Any], ...] = ()

    def params(self) -> GameParams:
        p = get_params(self.ruleset)
        if self.rounds is not None:
            p = p.with_overrides(rounds=self.rounds, max_hands=None)
        if self.max_hands is not None:
            p = p.with_overrides(max_hands=self.max_hands)
        for k, v in self.house_rules:
            if k == "patterns":
                continue  # the scoring rule set's (see ``patterns``)
            allowed = HOUSE_RULES.get(k)
            if allowed is None:
                raise BadConfigError(f"unknown house rule {k!r}")
            if v not in allowed or isinstance(v, bool) != isinstance(allowed[0], bool):
                raise BadConfigError(f"house rule {k}: {v!r} not allowed")
            p = p.with_overrides(**{k: v})
        return p

    def __post_init__(self) -> None:
        # ``patterns`` given as a map (the JSON form): kept as sorted pairs (hashable)
        if any(k == "patterns" and isinstance(v, Mapping) for k, v in self.house_rules):
            hr = tuple(
                (k, tuple(sorted(v.items())) if k == "patterns" and isinstance(v, Mapping) else v)
                for k, v in self.house_rules
            )
            object.__setattr__(self, "house_rules", hr)

    @property
    def patterns(self) -> tuple[tuple[str, Any], ...]:
        """The room's pattern house rules: ``(id, value | False)`` pairs (none: ())."""
        for k, v in self.house_rules:
            if k == "patterns":
                return tuple(v)
        return ()

    def settlement_options(self) -> dict[str, Any]:
        """The room's settlement options, completed with the rule set's defaults; raise
        BadConfigError for an unknown option or a bad value."""
        try:
            return get_ruleset(self.ruleset).validate_settlement(dict(self.settlement))
        except ScoringError as e:
            raise BadConfigError(str(e)) from None

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "rounds": self.rounds,
            "max_hands": self.max_hands,
            "first_dealer": self.first_dealer,
            "house_rules": {k: dict(v) if k == "patterns" else v for k, v in self.house_rules},
            "settlement": {k: v for k, v in self.settlement},
        }

    @classmethod
    def from_json(cls, o: Mapping[str, Any]) -> GameConfig:
        r = o.get("rounds")
        m = o.get("max_hands")
        if r is not None and r not in (1, 2, 3, 4):
            raise BadConfigError("rounds must be 1-4")
        if m is not None and (not isinstance(m, int) or m < 1):
            raise BadConfigError("max_hands must be a positive integer")
        fd = o.get("first_dealer", 0)
        if fd not in (0, 1, 2, 3):
            raise BadConfigError("first_dealer must be 0-3")
        hr = o.get("house_rules") or {}
        if not isinstance(hr, Mapping):
            raise BadConfigError("house_rules must be an object")
        if "patterns" in hr:
            pats = hr["patterns"]
            if not isinstance(pats, Mapping):
                raise BadConfigError("house_rules.patterns must be an object {id: value | false}")
            hr = {**hr, "patterns": tuple(sorted(pats.items()))}
        st = o.get("settlement") or {}
        if not isinstance(st, Mapping):
            raise BadConfigError("settlement must be an object")
        cfg = cls(
            str(o["ruleset"]), r, m, int(fd), tuple(sorted(hr.items())), tuple(sorted(st.items()))
        )
        cfg.params()  # validate
        cfg.settlement_options()
        if cfg.patterns:
            try:
                get_ruleset(cfg.ruleset).with_patterns(dict(cfg.patterns))
            except ScoringError as e:
                raise BadConfigError(str(e)) from None
        return cfg


class GameState:
    """The whole table: game progress, the ledger and the hand in play.

    Immutable (never assign to a field). A plain class with a hand-written ``__init__``,
    ``__eq__``, ``__hash__`` and ``__repr__`` (a frozen dataclass's meaning), not a frozen
    dataclass: its generated ``__init__`` is one ``object.__setattr__`` per field,
    interpreted even when compiled (mypyc), and the engine builds new ones on every action.
    """

    __slots__ = (
        "config",
        "dealer",
        "hand",
        "hands_played",
        "last_result",
        "ledger",
        "params",
        "phase",
        "round_index",
        "scores",
        "seq",
        "streak",
    )

    def __init__(
        self,
        config: GameConfig,
        params: GameParams,
        seq: int,
        phase: Phase,
        dealer: int,
        round_index: int,
        hands_played: int,
        streak: int,
        scores: tuple[int, int, int, int],
        ledger: tuple[Payment, ...],
        hand: HandState | None,
        last_result: Mapping[str, Any] | None = None,
    ) -> None:
        self.config = config
        self.params = params
        self.seq = seq
        self.phase = phase
        self.dealer = dealer
        self.round_index = round_index  # 0 = East round …
        self.hands_played = hands_played
        self.streak = streak  # 連莊 count of the current dealer
        self.scores = scores
        self.ledger = ledger
        self.hand = hand
        self.last_result = last_result

    def _fields(self) -> tuple[Any, ...]:
        """The fields that count for ``==`` and ``hash``."""
        return (
            self.config,
            self.seq,
            self.phase,
            self.dealer,
            self.round_index,
            self.hands_played,
            self.streak,
            self.scores,
            self.ledger,
            self.hand,
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not GameState:
            return NotImplemented
        assert isinstance(other, GameState)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return _repr(
            self,
            (
                "config",
                "params",
                "seq",
                "phase",
                "dealer",
                "round_index",
                "hands_played",
                "streak",
                "scores",
                "ledger",
                "hand",
                "last_result",
            ),
            (
                self.config,
                self.params,
                self.seq,
                self.phase,
                self.dealer,
                self.round_index,
                self.hands_played,
                self.streak,
                self.scores,
                self.ledger,
                self.hand,
                self.last_result,
            ),
        )

    @property
    def round_wind(self) -> Wind:
        return Wind.from_index(self.round_index)

    def seat_wind(self, seat: int) -> Wind:
        return Wind.from_index((seat - self.dealer) % 4)

    def to_json(self, prev: tuple[GameState, Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """The JSON form. With ``prev`` (an earlier state, e.g. the one this state was
        applied to, and its ``to_json()``), the JSON of the unchanged parts (the config, the
        ledger, the wall, unchanged seats) is taken from ``prev``'s instead of being rebuilt:
        equal to ``to_json()``, but sharing those lists and dicts with ``prev``'s JSON, so
        neither may be changed in place. One action changes little of the table, so this is
        most of the cost of serialising the state after each action."""
        if prev is None:
            config: Any = self.config.to_json()
            ledger: Any = [p.to_json() for p in self.ledger]
            hand = self.hand.to_json() if self.hand else None
        else:
            old, old_json = prev
            config = old_json["config"] if old.config is self.config else self.config.to_json()
            if old.ledger is self.ledger:
                ledger = old_json["ledger"]
            elif self.ledger[: len(old.ledger)] == old.ledger:
                ledger = [
                    *old_json["ledger"],
                    *(p.to_json() for p in self.ledger[len(old.ledger) :]),
                ]
            else:
                ledger = [p.to_json() for p in self.ledger]
            if self.hand is None:
                hand = None
            elif old.hand is not None and old_json.get("hand") is not None:
                hand = self.hand.to_json((old.hand, old_json["hand"]))
            else:
                hand = self.hand.to_json()
            # (the same scores, the same last hand's result: the same JSON, shared)
            scores = old_json["scores"] if old.scores is self.scores else list(self.scores)
            last = (
                old_json["last_result"]
                if old.last_result is self.last_result
                else _result_json(self.last_result)
            )
            return self._json(config, scores, ledger, hand, last)
        return self._json(config, list(self.scores), ledger, hand, _result_json(self.last_result))

    def _json(
        self, config: Any, scores: Any, ledger: Any, hand: Any, last_result: Any
    ) -> dict[str, Any]:
        return {
            "config": config,
            "seq": self.seq,
            "phase": self.phase._value_,
            "dealer": self.dealer,
            "round_index": self.round_index,
            "hands_played": self.hands_played,
            "streak": self.streak,
            "scores": scores,
            "ledger": ledger,
            "hand": hand,
            "last_result": last_result,
        }

    @classmethod
    def from_json(cls, o: Mapping[str, Any]) -> GameState:
        cfg = GameConfig.from_json(o["config"])
        s = o["scores"]
        return cls(
            config=cfg,
            params=cfg.params(),
            seq=int(o["seq"]),
            phase=Phase(o["phase"]),
            dealer=int(o["dealer"]),
            round_index=int(o["round_index"]),
            hands_played=int(o["hands_played"]),
            streak=int(o["streak"]),
            scores=(int(s[0]), int(s[1]), int(s[2]), int(s[3])),
            ledger=tuple(Payment.from_json(p) for p in o["ledger"]),
            hand=HandState.from_json(o["hand"]) if o.get("hand") else None,
            last_result=o.get("last_result"),
        )
