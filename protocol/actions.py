"""The game actions a client may send (the ``action`` map of an ``action`` message), typed.

Each is the wire form of one of the table's action types (``table.ActionType``) that a player
makes; ``start_hand`` and ``timeout`` are the server's own and never accepted from a client.
The ``legal`` entries the server sends are exactly these maps (with ``seat`` filled in), so
a client sends one back unchanged. :func:`parse_action` validates a map: an unknown type or
field, a missing field, or a value of the wrong type is a :class:`~protocol.messages.
ProtocolError` ``bad_message`` (the table then judges whether the action is legal now).
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from protocol.codes import ErrorCode
from table.wire import TILE_CODES, TILE_MARK, Doc, Omit, Range, TileCode, to_wire, wire_fields

__all__ = ["ACTIONS", "ActionParseError", "ClientAction", "action_to_wire", "parse_action"]

INT_MAX = 2**53


class ActionParseError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.code = ErrorCode.BAD_MESSAGE
        self.message = message


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientAction:
    """Fields every action has."""

    TYPE: ClassVar[str] = ""
    DOC: ClassVar[str] = ""
    #: the rule-set parameter this action needs (``table.params``), if any
    NEEDS: ClassVar[str | None] = None

    seat: Annotated[
        int | None, Range(0, 3), Omit, Doc("your seat; may be left out (the server knows it)")
    ] = None
    seq: Annotated[
        int,
        Range(0, INT_MAX),
        Doc("the decision it answers: the table seq of the legal entry (required)"),
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class Discard(ClientAction):
    TYPE = "discard"
    DOC = "on your turn: discard a tile"
    tile: TileCode


@dataclass(frozen=True, slots=True, kw_only=True)
class Ting(ClientAction):
    TYPE = "ting"
    DOC = (
        "on your turn: discard a tile and declare 叮 (the hand is then fixed); "
        "events: discard, then ting"
    )
    NEEDS = "ting"
    tile: TileCode


@dataclass(frozen=True, slots=True, kw_only=True)
class ConcealedKong(ClientAction):
    TYPE = "concealed_kong"
    DOC = "on your turn: declare four concealed tiles (a replacement draw follows)"
    tile: TileCode


@dataclass(frozen=True, slots=True, kw_only=True)
class AddedKong(ClientAction):
    TYPE = "added_kong"
    DOC = "on your turn: add the tile to your exposed pung (may be robbed)"
    tile: TileCode


@dataclass(frozen=True, slots=True, kw_only=True)
class Win(ClientAction):
    TYPE = "win"
    DOC = "self-draw or flower win on your turn; the discard in a claim window; rob a kong"


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass(ClientAction):
    TYPE = "pass"
    DOC = "in a claim or robbing window: decline"


@dataclass(frozen=True, slots=True, kw_only=True)
class Chow(ClientAction):
    TYPE = "chow"
    DOC = "in a claim window, the next seat only: a chow with the discard"
    NEEDS = "chow"
    tile: Annotated[TileCode, Doc("the lowest tile of the chow")]


@dataclass(frozen=True, slots=True, kw_only=True)
class Pung(ClientAction):
    TYPE = "pung"
    DOC = "in a claim window: a pung with the discard"


@dataclass(frozen=True, slots=True, kw_only=True)
class Kong(ClientAction):
    TYPE = "kong"
    DOC = "in a claim window: an exposed kong with the discard (a replacement draw follows)"


ACTIONS: dict[str, type[ClientAction]] = {
    c.TYPE: c for c in (Discard, Ting, ConcealedKong, AddedKong, Win, Pass, Chow, Pung, Kong)
}

_TILES = frozenset(TILE_CODES)


def _check(name: str, value: Any, tp: Any, marks: tuple[Any, ...]) -> Any:
    where = f"action.{name}"
    if value is None:
        if type(None) in typing.get_args(tp):
            return None
        raise ActionParseError(f"{where} may not be nil")
    if any(m is TILE_MARK for m in marks):
        if not isinstance(value, str) or value not in _TILES:
            raise ActionParseError(f"{where} must be a tile code such as '5p', got {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionParseError(f"{where} must be an integer, got {value!r}")
    rng = next((m for m in marks if isinstance(m, Range)), None)
    if rng is not None and not (
        (rng.lo is None or value >= rng.lo) and (rng.hi is None or value <= rng.hi)
    ):
        raise ActionParseError(f"{where} out of range: {value!r}")
    return value


def parse_action(raw: Any) -> ClientAction:
    """A client's action map as its typed definition; :class:`ActionParseError` when it is
    not one."""
    if not isinstance(raw, dict):
        raise ActionParseError("action must be a map")
    t = raw.get("type")
    cls = ACTIONS.get(t) if isinstance(t, str) else None
    if cls is None:
        known = ", ".join(ACTIONS)
        raise ActionParseError(f"action.type must be one of {known}; got {t!r}")
    fields = {f.wire: f for f in wire_fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "type":
            continue
        f = fields.get(key) if isinstance(key, str) else None
        if f is None:
            raise ActionParseError(f"unknown field {key!r} in a {t} action")
        kwargs[f.name] = _check(key, value, f.tp, f.marks)
    for f in fields.values():
        if f.required and f.name not in kwargs:
            raise ActionParseError(f"missing field {f.wire!r} in a {t} action")
    return cls(**kwargs)


def action_to_wire(action: ClientAction) -> dict[str, Any]:
    """The action's map (``type`` first)."""
    return {"type": action.TYPE, **to_wire(action)}
