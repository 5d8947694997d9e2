"""The JSON forms of tiles and the value types' shared helpers: tile codes, tile lists, the
wall string, and the ``repr`` of the hand-written value types (:mod:`table.model`,
:mod:`table.state`, :mod:`table.game_state`)."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

from scoring.errors import ScoringError
from scoring.tiles import Tile
from table.errors import BadActionError

__all__ = [
    "TILE_CODE",
    "field_names",
    "opt_tile",
    "parse_tile",
    "result_json",
    "tile_codes",
    "tile_json",
    "tiles_from_json",
    "value_repr",
    "wall_from_json",
    "wall_json",
]


def tile_json(t: Tile | None) -> str | None:
    return None if t is None else TILE_CODE[t]


def parse_tile(v: Any, what: str) -> Tile:
    if not isinstance(v, str):
        raise BadActionError(f"{what}: expected a tile code, got {v!r}")
    try:
        return Tile.parse(v)
    except ScoringError as e:
        raise BadActionError(f"{what}: {e}") from None


def opt_tile(v: Any, what: str) -> Tile | None:
    return None if v is None else parse_tile(v, what)


TILE_BY_CODE: dict[str, Tile] = {str(t): t for t in Tile}
#: tile -> its code (``str(t)``, without a Python-level ``__str__`` call per tile)
TILE_CODE: dict[Tile, str] = {t: str(t) for t in Tile}


def tiles_from_json(v: Any, what: str) -> tuple[Tile, ...]:
    if not isinstance(v, list | tuple):
        raise BadActionError(f"{what}: expected a list of tile codes")
    try:
        return tuple([TILE_BY_CODE[x] for x in v])
    except (KeyError, TypeError):
        return tuple(parse_tile(x, what) for x in v)  # raises with the exact complaint


def wall_json(wall: tuple[Tile, ...]) -> str:
    """The wall in a state's JSON: its tile codes joined by single spaces (one string
    instead of a list of 136-144: the bulk of a stored state, cheap to write this way)."""
    return " ".join([TILE_CODE[t] for t in wall])


def wall_from_json(v: Any) -> tuple[Tile, ...]:
    if isinstance(v, str):
        return tiles_from_json(v.split(), "wall")
    return tiles_from_json(v, "wall")  # a list of codes (states stored before the string form)


def tile_codes(tiles: tuple[Tile, ...]) -> list[str]:
    return [TILE_CODE[t] for t in tiles]


def result_json(result: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return dict(result) if result is not None else None


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def field_names(cls: type) -> tuple[str, ...]:
    """The fields of a hand-written value type: its constructor's parameters, in order."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(inspect.signature(cls).parameters)
    return names


def value_repr(obj: object) -> str:
    """A dataclass's ``repr`` of the hand-written value types (table/model.py, table/state.py, table/game_state.py):
    every constructor parameter, in order, with the field of that name."""
    pairs = ", ".join(f"{k}={getattr(obj, k)!r}" for k in field_names(type(obj)))
    return f"{type(obj).__name__}({pairs})"
