"""State patches: the difference between two room states, and its replay onto the older one.

A commit stores the room's full state only every ``snapshot_every`` versions (and at hand
boundaries); the commits in between store a patch (:func:`diff`) of the state they changed,
and a process without the state in memory rebuilds it from the last snapshot and the patches
after it (:func:`replay`). A patch is plain msgpack-able data:

* a container's patch is a dict ``{key: op}`` (a list's keys are its indexes);
* ``op`` is ``[0, value]`` (set the key to ``value``), ``[1, patch]`` (change the container
  under the key by ``patch``) or ``[2]`` (delete the key).

Dicts are compared key by key, and lists of dicts of equal length (the seats) index by
index; anything else that differs (a list of tiles, a string) is set whole. Equal values, shared or not, cost nothing in the patch. The room logic
never changes a stored state in place (``server/room/rooms.py``, ``copy_state``), and :func:`replay`
copies the containers it changes, so a state it is given is never changed either.
"""

from __future__ import annotations

from typing import Any, Final

Patch = dict[Any, list[Any]]

SET, SUB, DEL = 0, 1, 2
_MISSING: Final = object()


def diff(old: Any, new: Any) -> Patch:
    """The patch that turns ``old`` into ``new`` (both dicts, or both lists of one length)."""
    if isinstance(new, dict):
        return _diff(old, new)
    # lists of one length (the seats): compared index by index
    return _diff(dict(enumerate(old)), dict(enumerate(new)))


def _diff(old: dict[Any, Any], new: dict[Any, Any]) -> Patch:
    """:func:`diff` of two dicts (typed: compiled, the loop reads the dicts directly)."""
    out: Patch = {}
    missing = _MISSING
    added = 0
    # (one loop, the comparison inline: most values are shared between versions, and a call
    # per key cost more than the rest of the diff; most that are not are numbers, strings or
    # None)
    for key, after in new.items():
        before = old.get(key, missing)
        if before is after:
            continue
        if before is missing:
            out[key] = [SET, after]
            added += 1
            continue
        kind = type(after)
        if kind is type(before):
            if kind is dict:
                sub = _diff(before, after)
                if sub:
                    out[key] = [SUB, sub]
                continue
            if kind is list and len(before) == len(after) and after and type(after[0]) is dict:
                sub = _diff(dict(enumerate(before)), dict(enumerate(after)))
                if sub:
                    out[key] = [SUB, sub]
                continue
            if before == after:
                continue
        out[key] = [SET, after]
    if len(old) > len(new) - added:  # some key of old is not in new
        for key in old:
            if key not in new:
                out[key] = [DEL]
    return out


def apply(state: Any, patch: Patch) -> Any:
    """``state`` changed by ``patch`` (a new container; ``state`` itself is left as it was)."""
    out = dict(state) if isinstance(state, dict) else list(state)
    for key, op in patch.items():
        if op[0] == SET:
            out[key] = op[1]
        elif op[0] == SUB:
            out[key] = apply(out[key], op[1])
        else:
            del out[key]
    return out


def replay(state: Any, patches: list[Patch]) -> Any:
    """``state`` after every patch of ``patches``, in order."""
    for patch in patches:
        state = apply(state, patch)
    return state
