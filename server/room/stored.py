"""A room's state as earlier versions stored it, read into the form this version keeps: each change of the stored form is one step here, applied when a room is loaded.

The room logic then never meets an older form (no shim inside it). Each step is pure and
idempotent (a state already in the current form passes unchanged), and only removes or
fills in what an older version wrote, so a process of the version before still reads what
this one stores (a rolling upgrade). The steps, oldest first:

* ``pending_seq`` — before decisions had ids (``pending_ids``), the table's sequence number
  at which each seat's decision started; not read since.
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]


def current(state: JSON) -> JSON:
    """``state`` (as loaded: a new object, changed in place) in the current form."""
    state.pop("pending_seq", None)
    return state
