"""Value types of the table: actions, events, payments, claims, the game configuration (the
seat and hand states are in :mod:`table.state`, the game state in :mod:`table.game_state`).

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
from scoring.tiles import Tile
from table.codec import opt_tile, tile_json, tiles_from_json, value_repr
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
    "Payment",
    "Phase",
]


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


#: each action type by its JSON name (a dict lookup: calling the Enum costs more)
_ACTION_TYPES: dict[str, ActionType] = {t.value: t for t in ActionType}


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
        return value_repr(self)

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
        wall = tiles_from_json(wall_raw, "wall") if wall_raw is not None else None
        return cls(typ, seat, seq, opt_tile(obj.get("tile"), "tile"), seed, wall)

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
        return value_repr(self)

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
        return {"seat": self.seat, "type": self.type._value_, "tile": tile_json(self.tile)}

    @classmethod
    def from_json(cls, o: Mapping[str, Any]) -> Claim:
        return cls(int(o["seat"]), ActionType(o["type"]), opt_tile(o.get("tile"), "tile"))


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
