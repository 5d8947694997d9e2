"""A room's state as earlier versions stored it, read into the form this version keeps: each change of the stored form is one step here, applied when a room is loaded.

The room logic then never meets an older form (no shim inside it). Each step is pure and
idempotent (a state already in the current form passes unchanged). The steps, oldest first:

* ``pending_seq`` — before decisions had ids (``pending_ids``), the table's sequence number
  at which each seat's decision started; not read since.
* ``pending`` — up to 0.9.3 each open decision was spread over five maps keyed by seat
  (:data:`FIVE`: its kind, start, id, whether the server passes for it, its automatic
  action); since, one map of seat -> :class:`~server.room.state.Pending`.

A process of the version before reads only the five maps. While one is live (a rolling
upgrade: it is not marked in ``mj:procs:pending``, server/storage/store_players.py), the
store writes each room whole in that form (:func:`older`), which this version reads back
unchanged (``current(older(s)) == s``: tests/server_tests/test_stored_forms.py).
"""

from __future__ import annotations

from typing import cast

from server.room.jsonread import num, obj
from server.room.state import DecisionKind, Json, JsonObject, Pending, RoomState

#: the five maps of an open decision up to 0.9.3
FIVE = ("pending_kinds", "pending_since", "pending_ids", "pending_auto", "pending_act")


def current(state: JsonObject) -> RoomState:
    """``state`` (as loaded: a new object, changed in place) in the current form: the one
    place a stored room becomes a :class:`~server.room.state.RoomState` (what this module's
    steps make of a stored room is that form: tests/server_tests/test_stored_forms.py)."""
    state.pop("pending_seq", None)
    if any(key in state for key in FIVE):
        if "pending" not in state:
            state["pending"] = _pending_of(state)
        for key in FIVE:
            state.pop(key, None)
    return cast(RoomState, state)


def _pending_of(state: JsonObject) -> dict[str, Json]:
    """The open decisions of a state of up to 0.9.3, from its five maps."""
    kinds = obj(state.get("pending_kinds"))
    since = obj(state.get("pending_since"))
    ids = obj(state.get("pending_ids"))
    auto = state.get("pending_auto") or ()
    acts = obj(state.get("pending_act"))
    out: dict[str, Json] = {}
    for k, kind in kinds.items():
        p: dict[str, Json] = {
            "kind": "turn" if kind == "turn" else "claim",
            "since": num(since.get(k) or 0),
            "id": num(ids.get(k) or 0),
            "auto": isinstance(auto, list) and k in auto,
        }
        act = acts.get(k)
        if isinstance(act, dict):
            p["act"] = act
        out[k] = p
    return out


def older(state: RoomState) -> dict[str, object]:
    """``state`` in the form of 0.9.3 (the five maps instead of ``pending``): what the store
    writes while a process of that version is live."""
    out: dict[str, object] = dict(state)
    pending: dict[str, Pending] = state["pending"]
    del out["pending"]
    kinds: dict[str, DecisionKind] = {}
    since: dict[str, int] = {}
    ids: dict[str, int] = {}
    acts: dict[str, object] = {}
    for k, p in pending.items():
        kinds[k] = p["kind"]
        since[k] = p["since"]
        ids[k] = p["id"]
        if "act" in p:
            acts[k] = p["act"]
    out["pending_kinds"] = kinds
    out["pending_since"] = since
    out["pending_ids"] = ids
    out["pending_auto"] = sorted(k for k, p in pending.items() if p["auto"])
    out["pending_act"] = acts
    return out
