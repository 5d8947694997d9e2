"""What the other live server processes read, from the marks each leaves in Redis: whether one of an older version is live, so this one writes what that one reads (a rolling upgrade).

Each process is in ``mj:procs`` while it lives and marks itself in one sorted set per stored
form or behaviour a version added (:data:`MARKS`, oldest first): a live process missing
from a mark's set is of a version before it. The store acts on :class:`Peers`: while a
process of before snapshots is live it writes the format of before them, while one of
before held answers is live a player's answer is committed instead of held, and while one
of 0.9.3 or earlier is live a room's open decisions are written as the five maps it reads
(``server/room/stored.py``). A new stored form adds a mark here and the branch that writes
the older form.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: the live processes: id -> live-until (ms; see commit.lua, KEYS[6])
PROCS = "mj:procs"
#: the same, for the processes that read the snapshot format (server/storage/store.py)
PROCS_SNAP = "mj:procs:snap"
#: ... that hold players' answers to a claim window (server/storage/answer.lua)
PROCS_HELD = "mj:procs:held"
#: ... that read a room's open decisions as one map, ``pending`` (0.9.4)
PROCS_PENDING = "mj:procs:pending"
#: the marks, in the order of :class:`Peers`'s fields
MARKS = (PROCS_SNAP, PROCS_HELD, PROCS_PENDING)


@dataclass(frozen=True, slots=True)
class Peers:
    """Which older versions are live among the other processes."""

    #: one reads only the format of before snapshots (``d1dd70d`` and earlier)
    old_snap: bool = False
    #: one does not know held answers (``34d6e1a`` and earlier)
    unheld: bool = False
    #: one reads a room's open decisions only as the five maps of 0.9.3 and earlier
    old_pending: bool = False


def peers_of(live: Iterable[bytes], marked: Sequence[Iterable[bytes]], me: bytes = b"") -> Peers:
    """:class:`Peers` from the live processes' ids and the ids in each of :data:`MARKS`'s
    sets (in that order), this process (``me``) left out."""
    others = set(live) - {me}
    old_snap, unheld, old_pending = (bool(others - set(m)) for m in marked)
    return Peers(old_snap, unheld, old_pending)
