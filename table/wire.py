"""The vocabulary for describing wire shapes as typed, frozen dataclasses.

A wire shape is a frozen dataclass whose fields carry their wire meaning in
:data:`typing.Annotated` markers: :class:`Range` (an int's bounds), :class:`MaxLen` (a
string's length), :class:`Secret` (seen only by the seat that owns the event),
:class:`Omit` (left out of the JSON when None, instead of sent as null), :class:`WireName`
(the key on the wire when it is not a Python name, e.g. ``from``) and :class:`Doc` (one line
for the generated reference). ``Open`` marks a map whose keys are not fixed (room options,
the scoring engine's win context).

The same definitions produce the JSON Schema and the reference tables of docs/protocol.md
(``python -m protocol.schema``), so the document, the schema and the code cannot drift.
Stdlib only.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

__all__ = [
    "TILE_CODES",
    "Doc",
    "MaxLen",
    "Omit",
    "Open",
    "Range",
    "Seat",
    "Secret",
    "Shape",
    "TileCode",
    "Wind",
    "WireName",
    "to_wire",
    "wire_fields",
]


@dataclass(frozen=True, slots=True)
class Range:
    lo: int | None = None
    hi: int | None = None


@dataclass(frozen=True, slots=True)
class MaxLen:
    n: int


@dataclass(frozen=True, slots=True)
class Doc:
    text: str


@dataclass(frozen=True, slots=True)
class WireName:
    name: str


@dataclass(frozen=True, slots=True)
class Shape:
    """A JSON map (``dict``) built elsewhere (e.g. by the scoring engine's ``to_json``) whose
    wire shape is the dataclass ``cls`` (or a union of them, or a base class standing for all
    its definitions): the schema describes it by ``cls``."""

    cls: Any


class _Flag:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


#: the field is sent only to the event's owner (the seat named by its ``seat`` field)
Secret = _Flag("Secret")
#: the field is left out of the JSON when None (otherwise None is sent as null)
Omit = _Flag("Omit")
#: a map with free keys (its values are JSON)
Open = _Flag("Open")


class _TileCode:
    """Marks a string that is a tile code (``1m``…``9m``, ``1p``…, ``1s``…, winds, dragons,
    flowers ``f1``…``f8``)."""

    def __repr__(self) -> str:
        return "TileCode"


TILE_MARK = _TileCode()
TILE_CODES: tuple[str, ...] = tuple(
    [f"{n}{s}" for s in "mps" for n in range(1, 10)]
    + ["we", "ws", "ww", "wn", "dr", "dg", "dw"]
    + [f"f{n}" for n in range(1, 9)]
)

TileCode = Annotated[str, TILE_MARK]
Seat = Annotated[int, Range(0, 3)]
Wind = Literal["we", "ws", "ww", "wn"]


@dataclass(frozen=True, slots=True)
class FieldInfo:
    """One field of a wire shape, as the schema, the docs and :func:`to_wire` see it."""

    name: str  # the Python attribute
    wire: str  # the key on the wire
    tp: Any  # the type without its Annotated markers
    marks: tuple[Any, ...]
    required: bool  # no default

    def has(self, mark: Any) -> bool:
        return any(m is mark for m in self.marks)

    def mark(self, cls: type[Any]) -> Any:
        for m in self.marks:
            if isinstance(m, cls):
                return m
        return None


_FIELDS: dict[type, tuple[FieldInfo, ...]] = {}


def wire_fields(cls: type) -> tuple[FieldInfo, ...]:
    """The fields of a wire shape, in order (cached)."""
    got = _FIELDS.get(cls)
    if got is not None:
        return got
    hints = typing.get_type_hints(cls, include_extras=True)
    out = []
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        marks: tuple[Any, ...] = ()
        if typing.get_origin(tp) is Annotated:
            tp, *rest = typing.get_args(tp)
            marks = tuple(rest)
        wn = next((m for m in marks if isinstance(m, WireName)), None)
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        out.append(FieldInfo(f.name, wn.name if wn else f.name, tp, marks, required))
    _FIELDS[cls] = tuple(out)
    return _FIELDS[cls]


_ENCODERS: dict[type, Callable[[Any], dict[str, Any]]] = {}


def _encoder(cls: type) -> Callable[[Any], dict[str, Any]]:
    """A function building the JSON map of an instance of ``cls`` (generated once per class:
    events are built on every action)."""
    lines = ["def encode(o):", "    out = {}"]
    for f in wire_fields(cls):
        get = f"o.{f.name}"
        val = f"_v({get})" if _nests(f.tp) else get
        if f.has(Omit):
            lines.append(f"    if {get} is not None:")
            lines.append(f"        out[{f.wire!r}] = {val}")
        else:
            lines.append(f"    out[{f.wire!r}] = {val}")
    lines.append("    return out")
    ns: dict[str, Any] = {"_v": _value}
    exec("\n".join(lines), ns)
    fn: Callable[[Any], dict[str, Any]] = ns["encode"]
    return fn


def _nests(tp: Any) -> bool:
    """Whether values of type ``tp`` may hold a nested wire shape (or a tuple to turn into a
    list), so that encoding must walk them."""
    if dataclasses.is_dataclass(tp):
        return True
    origin = typing.get_origin(tp)
    if origin is tuple:
        return True
    if origin is Annotated:
        return _nests(typing.get_args(tp)[0])
    return any(_nests(a) for a in typing.get_args(tp) if a is not Ellipsis)


def _value(v: Any) -> Any:
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return to_wire(v)
    if isinstance(v, (list, tuple)):
        return [_value(x) for x in v]
    return v


def to_wire(obj: Any) -> dict[str, Any]:
    """The JSON map of a wire shape instance (nested shapes included)."""
    cls = type(obj)
    enc = _ENCODERS.get(cls)
    if enc is None:
        enc = _ENCODERS[cls] = _encoder(cls)
    return enc(obj)
