"""Snapshots: a room's latest state, as one member may see it, sent to their connection when it joins or resumes the room, or falls behind its feed.

The one read of a room's whole state for a connection (:meth:`server.flow.commits.Commits.load_shared`:
this process's copy when it is current, else one load shared by the room's members); what
the member may see is :func:`server.room.frames.snapshot`'s.
"""

from __future__ import annotations

from server.flow.commits import Commits
from server.flow.runtime import Runtime
from server.net.transport import Conn
from server.room import frames as framing
from server.room import game_room, rooms
from server.room.state import Entry


class Snapshots:
    """Sends snapshots; reads a room's log for its feed (:class:`server.flow.fanout.Feeds`)."""

    def __init__(self, rt: Runtime, commits: Commits) -> None:
        self.rt = rt
        self.commits = commits

    async def read_log(self, room: str, start: int, count: int) -> list[tuple[int, Entry]]:
        return await self.rt.store.read_log(room, start, count=count)

    async def send(self, conn: Conn, room: str, re: int | None = None) -> bool:
        """Send ``conn`` the snapshot of ``room`` (False: not a member, or no such room)."""
        loaded = await self.commits.load_shared(room)
        if loaded is None or conn.player is None:
            return False
        version, state = loaded
        if conn.player not in state["members"]:
            return False
        answers: game_room.Answers = {}
        if game_room.holds_answers(state):
            # a seat that answered the open claim window is shown so (its own answer only)
            seat = rooms.seat_of(state, conn.player)
            _n, held = await self.rt.store.answers(room)
            if seat is not None and seat in held:
                answers = {seat: held[seat]}
        msg, seat = framing.snapshot(
            room,
            version,
            state,
            conn.player,
            re,
            self.rt.grace_ms,
            self.rt.cfg.bot_delay_ms,
            answers,
        )
        conn.rooms[room] = conn.sent[room] = version
        conn.base.setdefault(room, version)
        conn.seats[room] = seat
        conn.send(msg)
        return True
