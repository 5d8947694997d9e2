"""Fan-out: each room's feed delivers its committed entries, in order, to this process's connections in the room; given a log reader and delivery callbacks, never the App.

:class:`Feeds` keeps the feeds (one per room with a connection here) and delivers each
entry to the connections at the version before it (:meth:`Feeds.deliver`: what each is sent
is decided purely, for all of them at once, by :func:`server.room.delivery.deliveries`);
:class:`Feed` runs one room's catch-up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import redis.exceptions

from protocol import messages as m
from server.net.transport import Conn, send_frames
from server.room import delivery
from server.room import frames as framing
from server.room.state import Entry

log = logging.getLogger("mahjong.server")
#: committed entries a room's feed keeps in memory (see Feed.remember)
RECENT_ENTRIES = 4
#: entries one log read returns at most
LOG_PAGE = 256

#: read_log(room, start, count) -> [(version, entry), ...] from version ``start`` on
LogReader = Callable[[str, int, int], Awaitable[list[tuple[int, Entry]]]]
#: deliver(the connections at the version before, room, version, entry, entry before it or None)
Deliver = Callable[[list[Conn], str, int, Entry, Entry | None], None]
#: resnapshot(conn, room) -> whether the connection was sent a snapshot
Resnapshot = Callable[[Conn, str], Awaitable[bool]]


class Feed:
    """Delivers a room's committed entries, in order, to this process's connections."""

    def __init__(
        self,
        room: str,
        read_log: LogReader,
        deliver: Deliver,
        resnapshot: Resnapshot,
        on_redis_error: Callable[[], None] = lambda: None,
    ) -> None:
        self.room = room
        self.read_log = read_log
        self.deliver = deliver
        self.resnapshot = resnapshot
        self.on_redis_error = on_redis_error
        self.conns: set[Conn] = set()
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        # entries this process committed, by version (the last few): delivered from memory
        # instead of being read back from the stream
        self.recent: dict[int, Entry] = {}
        # the newest version known to exist (commits here, notifications), and whether a
        # wake-up came without one (then the log is read to find out)
        self.latest = 0
        self.unknown = False
        self.closed = False
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"feed:{room}")

    def close(self) -> None:
        """Stop the feed's task: told to stop, it returns at its next turn (at once when
        waiting, the usual case; after the log read in progress otherwise). Not cancelled
        here: a cancelled task keeps its CancelledError, whose traceback holds the feed,
        which holds the task -- a reference cycle per room left, garbage only the cycle
        collector frees (and never, once frozen: ``freeze_loop``). :meth:`App.stop_tasks`
        cancels as well, on shutdown."""
        self.closed = True
        self.wake.set()

    def kick(self, version: int | None = None) -> None:
        """Wake the feed: ``version`` exists (None: something may have been committed)."""
        if version is None:
            self.unknown = True
        elif version > self.latest:
            self.latest = version
        self.wake.set()

    def kick_if_behind(self, version: int | None) -> None:
        """A pub/sub notification of ``version``: wake up unless every connection here has
        it already (the notification of this process's own commit, delivered from memory).
        The version is remembered either way: a connection being attached (its snapshot
        loaded, not yet in ``conns``) may still need it (:meth:`attached`)."""
        if version is None or any(c.rooms.get(self.room, 0) < version for c in self.conns):
            self.kick(version)
        elif version > self.latest:
            self.latest = version

    def attached(self, version: int) -> None:
        """A connection joined the feed with a snapshot at ``version``: wake up only if a
        newer version is known, or a notification came without one (a commit between the
        snapshot's load and the join). After a restart each resumed room used to read its
        log here for nothing (500 reads for 2,000 resuming connections)."""
        if self.unknown or self.latest > version:
            self.kick()

    def remember(self, version: int, entry: Entry) -> None:
        """Keep committed entry ``version`` for delivery from memory: the newest
        ``RECENT_ENTRIES`` versions this process committed (one trim, whether or not the
        versions are consecutive)."""
        if version > self.latest:
            self.latest = version
        recent = self.recent
        recent[version] = entry
        while len(recent) > RECENT_ENTRIES:
            del recent[min(recent)]

    def deliver_now(self, version: int) -> bool:
        """Deliver this process's own commit ``version`` (remembered) at once, when no
        catch-up is running and every connection has exactly the version before it: the
        usual case, without waking the feed task. False: the feed task must do it."""
        if self.lock.locked():
            return False
        entry = self.recent.get(version)
        if entry is None:
            return False
        room = self.room
        conns = list(self.conns)
        for c in conns:
            if c.rooms.get(room, 0) != version - 1:
                return False
        self.deliver(conns, room, version, entry, self.recent.get(version - 1))
        return True

    def _from_memory(self, start: int) -> list[tuple[int, Entry]]:
        out = []
        v = start
        while v in self.recent:
            out.append((v, self.recent[v]))
            v += 1
        return out

    async def _run(self) -> None:
        while not self.closed:
            await self.wake.wait()
            self.wake.clear()
            if self.closed:
                return
            try:
                await self.catch_up()
            except redis.exceptions.RedisError:
                self.on_redis_error()
                log.warning("feed catch-up failed", extra={"room": self.room}, exc_info=True)
                await asyncio.sleep(0.5)
                self.kick()  # read the log again
            except Exception:
                log.exception("feed catch-up crashed", extra={"room": self.room})
                await asyncio.sleep(0.5)

    def _deliver_entries(self, entries: list[tuple[int, Entry]]) -> None:
        """Deliver each entry, in order, to the connections at the version before it (each
        entry's frames encoded once per seat view)."""
        before = self.recent.get(entries[0][0] - 1) if entries else None
        for v, entry in entries:
            conns = [c for c in self.conns if c.rooms.get(self.room, 0) == v - 1]
            if conns:
                self.deliver(conns, self.room, v, entry, before)
            before = entry

    async def catch_up(self) -> None:
        async with self.lock:
            while self.conns:
                start = min(c.rooms.get(self.room, 0) for c in self.conns) + 1
                entries = self._from_memory(start)
                if entries:
                    self._deliver_entries(entries)
                    # commits by other processes arrive with their pub/sub notification,
                    # which wakes this feed again (see kick_if_behind)
                    return
                if not self.unknown and start > self.latest:
                    # every connection has every version known to exist: nothing to read (the
                    # notification of this process's own commit, delivered meanwhile)
                    return
                self.unknown = False  # a wake-up without a version during the read sets it
                entries = await self.read_log(self.room, start, LOG_PAGE)
                if not entries:
                    return
                if entries[0][0] != start:
                    # entries missing from the log (trimmed): resend full snapshots
                    for c in list(self.conns):
                        if c.rooms.get(self.room, 0) < entries[0][0] - 1:
                            await self.resnapshot(c, self.room)
                self._deliver_entries(entries)
                if len(entries) < LOG_PAGE:
                    return


class Feeds:
    """This process's feeds, one per room with a connection here, and what each connection
    is sent of a committed entry.

    ``snapshot(conn, room, re)`` sends a connection the room's snapshot (False: it is not a
    member); ``opened`` / ``closed`` hear of a room's first and last connection here (the
    cluster's sharded subscriptions follow them)."""

    def __init__(
        self,
        read_log: LogReader,
        snapshot: Callable[[Conn, str, int | None], Awaitable[bool]],
        on_redis_error: Callable[[], None] = lambda: None,
    ) -> None:
        self.read_log = read_log
        self.snapshot = snapshot
        self.on_redis_error = on_redis_error
        self.feeds: dict[str, Feed] = {}
        self.opened: list[Callable[[str], None]] = []
        self.closed: list[Callable[[str], None]] = []

    def get(self, room: str) -> Feed | None:
        return self.feeds.get(room)

    def __contains__(self, room: object) -> bool:
        return room in self.feeds

    def __len__(self) -> int:
        return len(self.feeds)

    def rooms(self) -> list[str]:
        return list(self.feeds)

    def all(self) -> list[Feed]:
        return list(self.feeds.values())

    def _resnapshot(self, conn: Conn, room: str) -> Awaitable[bool]:
        return self.snapshot(conn, room, None)

    def feed(self, room: str) -> Feed:
        f = self.feeds.get(room)
        if f is None:
            f = self.feeds[room] = Feed(
                room, self.read_log, self.deliver, self._resnapshot, self.on_redis_error
            )
            for hear in self.opened:
                hear(room)
        return f

    def drop(self, conn: Conn, room: str) -> None:
        """``conn`` is no longer in ``room`` (left, removed, or disconnected)."""
        conn.rooms.pop(room, None)
        conn.sent.pop(room, None)
        conn.base.pop(room, None)
        conn.seats.pop(room, None)
        f = self.feeds.get(room)
        if f is None:
            return
        f.conns.discard(conn)
        if not f.conns:
            f.close()
            del self.feeds[room]
            for hear in self.closed:
                hear(room)

    def close_all(self) -> list[Feed]:
        """Stop every feed (a stopping process): returns them, for their tasks."""
        feeds = list(self.feeds.values())
        self.feeds.clear()
        for f in feeds:
            f.close()
        return feeds

    async def attach(self, conn: Conn, room: str, re: int | None = None) -> bool:
        """Send ``conn`` the room's snapshot and add it to the room's feed (False: it is not
        a member)."""
        f = self.feed(room)
        async with f.lock:
            ok = await self.snapshot(conn, room, re)
            if ok:
                f.conns.add(conn)
        if not ok:
            self.drop(conn, room)
            return False
        f.attached(conn.rooms.get(room, 0))
        return True

    def committed(self, room: str, version: int, entry: Entry, deadline: int | None) -> None:
        """This process committed ``entry`` as ``version`` of ``room`` (an after-commit
        hook; the room's next ``deadline`` is the timers' business): delivered from memory at once when possible, else by the feed's task."""
        f = self.feeds.get(room)
        if f is not None:
            f.remember(version, entry)
            if not f.deliver_now(version):
                f.kick(version)

    def notified(self, room: str, version: int | None) -> None:
        """A notification that ``room`` has ``version`` (None: something may be new)."""
        f = self.feeds.get(room)
        if f is not None:
            f.kick_if_behind(version)

    def kick_all(self) -> None:
        """Notifications may have been missed: every feed reads its log."""
        for f in self.feeds.values():
            f.kick()

    def deliver(
        self, conns: list[Conn], room: str, v: int, entry: Entry, before: Entry | None = None
    ) -> None:
        """Send log entry ``v`` to ``conns`` (each at version ``v - 1``) as each one's seat
        may see it (``before``: entry ``v - 1``, None when this process does not have it).
        What each gets is decided at once (:func:`~server.room.delivery.deliveries`: every
        connection with the same view gets the same bytes, built and encoded once; a sparse
        connection is not sent an entry quiet for its seat, and each frame it is sent
        carries ``prev``: by induction a client that applied only the frames it was sent
        knows what one that applied every entry knows); then the frames are written in one
        call, and a connection the entry took out of the room leaves its feed (told
        ``left`` when it was kicked)."""
        readers = [
            delivery.Reader(c.player, c.seats.get(room), c.sparse, c.sent.get(room)) for c in conns
        ]
        got = delivery.deliveries(room, v, entry, before, readers, framing.EntryFrames())
        named = entry.get("lobby") is not None
        sends = []
        for c, d in zip(conns, got, strict=True):
            if named and c.player is not None:
                c.seats[room] = d.seat
            c.rooms[room] = v
            if d.frame is not None:
                if c.sparse:
                    c.sent[room] = v
                sends.append((c, d.frame))
        send_frames(sends)
        for c, d in zip(conns, got, strict=True):
            if not d.member:
                self.drop(c, room)  # we left (or were removed)
                if d.kicked:
                    c.send(m.Left(room=room, reason="kicked"))
