"""A room's state as earlier versions stored it, read into the form this version keeps: each change of the stored form is one step here, applied when a room is loaded.

The room logic then never meets an older form (no shim inside it). Each step is pure and
idempotent (a state already in the current form passes unchanged), and only removes or
fills in what an older version wrote, so a process of the version before still reads what
this one stores (a rolling upgrade). The steps, oldest first:

* ``pending_seq`` — before decisions had ids (``pending_ids``), the table's sequence number
  at which each seat's decision started; not read since.
"""

from __future__ import annotations

from typing import cast

from server.room.state import JsonObject, RoomState


def current(state: JsonObject) -> RoomState:
    """``state`` (as loaded: a new object, changed in place) in the current form: the one
    place a stored room becomes a :class:`~server.room.state.RoomState` (what this module's
    steps make of a stored room is that form: tests/server_tests/test_stored_forms.py)."""
    state.pop("pending_seq", None)
    return cast(RoomState, state)
