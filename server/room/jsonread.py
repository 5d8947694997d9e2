"""Reading one value out of the JSON the room keeps without a declared shape (the table's state, actions and events): narrowed to the type the reader needs, or a TypeError.

The table makes that JSON and is the one to read it (``server/room/game.py``); the room
reads a handful of its fields (the hand's number, the discarder, a state's ``seq``). Each
helper here does what the untyped read did — ``x or {}``, ``int(x)`` — and fails the same
way on a value of another type, so the reads are typed without changing what they do.
"""

from __future__ import annotations

from collections.abc import Mapping

from server.room.state import Json


def obj(v: Json) -> Mapping[str, Json]:
    """``v`` as a JSON object: ``v or {}`` (an absent or empty value reads as ``{}``)."""
    if isinstance(v, dict):
        return v
    if not v:
        return {}
    raise TypeError(f"not a JSON object: {type(v).__name__}")


def num(v: Json) -> int:
    """``int(v)``: a number (or its text) as an int."""
    if isinstance(v, int | float | str):
        return int(v)
    raise TypeError(f"not a number: {type(v).__name__}")
