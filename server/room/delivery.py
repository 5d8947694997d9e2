"""What each connection of a room is sent of one committed log entry, decided for all of them at once, purely: its frame (or nothing, when the entry is quiet for a sparse connection), its seat after the entry, and whether it is still in the room.

The fan-out (:mod:`server.flow.fanout`) describes its connections as :class:`Reader` values, calls
:func:`deliveries` once per entry, and then does what the :class:`Delivery` values say: the
frames to :mod:`server.net.transport` in one call, the seat and position updates on each
connection, and the drop of a connection the entry took out of the room. The frames are
built by :mod:`server.room.frames`, once per seat view (an ``EntryFrames``, given by the
caller so that a test can count what it builds).
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from server.room.frames import quiet
from server.room.rooms import seat_in
from server.room.state import Entry, GameJSON


class Framer(Protocol):
    """The frames of one entry, built once per seat view (``frames.EntryFrames``)."""

    quiet: dict[int | None, bool]

    def visible(self, entry: Entry, seat: int | None) -> list[GameJSON]: ...

    def frame(
        self, room: str, v: int, entry: Entry, seat: int | None, prev: int | None = None
    ) -> bytes: ...


class Reader(NamedTuple):
    """What a connection's frame of an entry depends on: its player (None: not identified),
    its seat in the room before the entry (None: a spectator), whether it asked for sparse
    delivery (``hello.sparse``), and then the seq of the last frame it was sent of the room
    (None: none since its snapshot)."""

    player: str | None
    seat: int | None
    sparse: bool
    last_sent: int | None


class Delivery(NamedTuple):
    """What one connection gets of an entry: ``frame`` (None: nothing, the entry is quiet
    for it), its ``seat`` after the entry, whether it is still a ``member`` of the room,
    and whether the entry ``kicked`` it out (it is then told so: ``left``)."""

    frame: bytes | None
    seat: int | None
    member: bool
    kicked: bool


def deliveries(
    room: str,
    v: int,
    entry: Entry,
    before: Entry | None,
    readers: list[Reader],
    frames: Framer,
) -> list[Delivery]:
    """Entry ``v`` of ``room`` for each of ``readers``, in order. ``before``: entry
    ``v - 1`` (None: not at hand; a sparse connection is then sent the entry).

    A sparse connection is not sent an entry quiet for its seat once it has had a frame of
    the room; each frame it is sent carries ``prev``, the seq of the one before (or of its
    snapshot). A connection whose player is in the entry's lobby takes the seat the lobby
    gives it; one whose player is not is no longer in the room."""
    lobby = entry.get("lobby")
    members: set[str | None] | None = None
    kicked_player = None
    if lobby is not None:
        members = {s["player"] for s in lobby["spectators"]}
        members.update(s.get("player") for s in lobby["seats"] if s)
        notice = entry.get("notice") or {}
        if notice.get("type") == "kicked":
            kicked_player = notice.get("player")
    out = []
    for r in readers:
        seat = r.seat
        if lobby is not None and r.player is not None:
            seat = seat_in(lobby["seats"], r.player)
        frame: bytes | None
        if r.sparse and r.last_sent is not None and before is not None:
            q = frames.quiet.get(seat)
            if q is None:
                q = frames.quiet[seat] = quiet(entry, before, seat, frames.visible(entry, seat))
            frame = None if q else frames.frame(room, v, entry, seat, r.last_sent)
        else:
            prev = (v - 1 if r.last_sent is None else r.last_sent) if r.sparse else None
            frame = frames.frame(room, v, entry, seat, prev)
        member = members is None or r.player in members
        kicked = not member and kicked_player is not None and r.player == kicked_player
        out.append(Delivery(frame, seat, member, kicked))
    return out
