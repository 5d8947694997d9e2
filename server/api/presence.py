"""Presence: who is here — hello and resume, one live connection per player, seats marked away and back, and the players a graceful stop disconnected (leavers)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from protocol import messages as m
from protocol.codec import Limits
from protocol.codes import CloseCode, ErrorCode
from protocol.messages import PROTOCOL_VERSION, SUPPORTED_VERSIONS
from server.flow.commits import Commits
from server.flow.fanout import Feeds
from server.flow.runtime import Runtime
from server.net.transport import Conn, flush_all
from server.room import commands, game, rooms
from server.room.rooms import RoomError

log = logging.getLogger("mahjong.server")


def send_error(
    rt: Runtime,
    conn: Conn,
    code: ErrorCode,
    message: str,
    re: int | None = None,
    detail: dict[str, object] | None = None,
) -> None:
    """Send ``conn`` an ``error`` (counted by code)."""
    rt.metrics.errors[code.value] += 1
    conn.send(m.Error(code=code.value, message=message, detail=detail, re=re))


class Presence:
    """Players' connections on this process and their seats' presence (module docstring)."""

    def __init__(self, rt: Runtime, commits: Commits, feeds: Feeds, limits: Limits) -> None:
        self.rt = rt
        self.commits = commits
        self.feeds = feeds
        self.limits = limits
        self.by_player: dict[str, set[Conn]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.hello_slots = asyncio.Semaphore(max(1, rt.cfg.hello_concurrency))
        self.leavers: set[str] = set()  # players whose connection a graceful stop closed
        #: the build id of the web client served (``welcome.build``); set by the app
        self.web_build: Callable[[], str | None] = lambda: None

    def members_here(self, room: str) -> set[str]:
        """The players with a connection to ``room`` on this process."""
        f = self.feeds.get(room)
        return {c.player for c in f.conns if c.player is not None} if f is not None else set()

    async def hello(self, conn: Conn, msg: m.Hello) -> bool:
        """Answer a ``hello``: False when the connection was closed."""
        if conn.player is not None:
            send_error(self.rt, conn, ErrorCode.ALREADY_HELLO, "hello was already sent", msg.id)
            return True
        if msg.v not in SUPPORTED_VERSIONS:
            send_error(
                self.rt,
                conn,
                ErrorCode.UNSUPPORTED_VERSION,
                f"protocol version {msg.v} not supported",
                msg.id,
                {"supported": sorted(SUPPORTED_VERSIONS)},
            )
            await flush_all([conn], 2.0)  # the error goes out before the close frame
            await conn.close(CloseCode.UNSUPPORTED_VERSION, "unsupported protocol version")
            return False
        # At most --hello-concurrency hellos at a time, the others wait their turn (FIFO):
        # in a reconnect storm of thousands, each hello then finishes in a few milliseconds
        # instead of all of them competing for the Redis pool until some time out.
        async with self.hello_slots:
            ok = await self._hello(conn, msg)
        if ok:
            self.rt.hellos_done += 1
        return ok

    async def _hello(self, conn: Conn, msg: m.Hello) -> bool:
        rt, store = self.rt, self.rt.store
        who = await self._identify(conn, msg)
        if who is None:
            return False
        pid, token, name, room_ids, resumed, renamed = who
        await self._supersede(pid)
        conn.player, conn.name = pid, name
        conn.sparse = bool(msg.sparse)
        rt.greeted(conn)
        first_here = not self.by_player.get(pid)
        self.by_player.setdefault(pid, set()).add(conn)
        if first_here:  # other processes deciding the player's presence see this one
            # the hello goes on if this fails: only another process's presence check for
            # this player could miss this connection (its seat then marked away until it
            # says hello again)
            with rt.redis_guard():
                await store.note_online(pid, rt.proc_key)
        self._welcome(conn, msg, pid, token, name, resumed, room_ids)
        log.info("hello", extra={"player": pid, "resumed": resumed, "conn": conn.cid})
        attached = []
        for room in room_ids:
            if await self.feeds.attach(conn, room):
                attached.append(room)
            else:
                await store.remove_player_room(pid, room)
        if renamed:
            for room in attached:
                with contextlib.suppress(RoomError):
                    await self.commits.apply(room, commands.Rename(pid, name))
        await self.sync(pid, attached)
        return True

    async def _identify(
        self, conn: Conn, msg: m.Hello
    ) -> tuple[str, str, str, list[str], bool, bool] | None:
        """Who says hello: (player id, token, name, their rooms, resumed, renamed) — a new
        player, or the one the token names (None, the connection closed: an unknown token)."""
        store = self.rt.store
        name = rooms.clean_text(msg.name or "")[: m.NAME_MAX]
        if not msg.token:
            pid, token = await store.new_player(name or "player")
            return pid, token, name or "player", [], False, False
        found = await store.resume_player(msg.token)
        if found is None:
            send_error(self.rt, conn, ErrorCode.BAD_TOKEN, "unknown token", msg.id)
            await flush_all([conn], 2.0)
            await conn.close(CloseCode.BAD_TOKEN, "unknown token")
            return None
        pid, old_name, room_ids = found
        if name and name != old_name:
            await store.set_player_name(pid, name)
            return pid, msg.token, name, room_ids, True, True
        return pid, msg.token, old_name, room_ids, True, False

    async def _supersede(self, pid: str) -> None:
        """One live connection per player on this process: the newest wins."""
        for other in list(self.by_player.get(pid, ())):
            other.closed = True
            self.by_player[pid].discard(other)
            for room in list(other.rooms):
                self.feeds.drop(other, room)
            await other.close(CloseCode.SUPERSEDED, "resumed on another connection")

    def _welcome(
        self,
        conn: Conn,
        msg: m.Hello,
        pid: str,
        token: str,
        name: str,
        resumed: bool,
        room_ids: list[str],
    ) -> None:
        cfg, lim = self.rt.cfg, self.limits
        conn.send(
            m.Welcome(
                v=PROTOCOL_VERSION,
                player_id=pid,
                token=token,
                name=name,
                resumed=resumed,
                rooms=room_ids,
                server=self.rt.server_id,
                limits={
                    "max_frame_bytes": cfg.max_frame_bytes,
                    "hard_frame_bytes": cfg.hard_frame_bytes,
                    "max_depth": lim.max_depth,
                    "max_str_len": lim.max_str_len,
                    "max_bin_len": lim.max_bin_len,
                    "max_array_len": lim.max_array_len,
                    "max_map_len": lim.max_map_len,
                    "rate_per_second": cfg.rate_per_second,
                    "rate_burst": cfg.rate_burst,
                    "max_errors_per_minute": cfg.max_errors,
                    "hello_timeout_seconds": cfg.hello_timeout,
                    "chat_max_len": cfg.chat_max_len,
                    "chat_per_minute": cfg.chat_per_minute,
                    "grace_seconds": cfg.grace_seconds,
                    "max_conns_per_address": cfg.max_conns_per_address,
                },
                rulesets=game.rulesets(),
                re=msg.id,
                sparse=True if msg.sparse else None,
                build=self.web_build() if msg.client_build is not None else None,
            )
        )

    async def sync(self, pid: str, room_list: list[str] | None = None) -> None:
        """Mark the player's seats away or back: back while any live process (this one or
        another on the same Redis) holds a connection of the player, away when none does
        (:meth:`Store.online_elsewhere`). Serialized per player on this process, so a resume
        racing with the close of the previous connection always ends in the right state;
        across processes, a seat marked away is checked again after the commit: a connection
        that came back on another process meanwhile may have committed "back" before this
        "away", and the seat is then marked back."""
        lock = self.locks.setdefault(pid, asyncio.Lock())
        store = self.rt.store

        async def absent() -> bool:
            return not self.by_player.get(pid) and not await store.online_elsewhere(
                pid, self.rt.proc_key
            )

        async def mark(room_ids: list[str], away: bool) -> None:
            for room in room_ids:
                # (nothing is committed for a seat whose presence is already right: see the
                # version check in Commits._mutate)
                with contextlib.suppress(RoomError):
                    await self.commits.apply(room, commands.SetAway(pid, away))

        async with lock:
            room_ids = await store.player_rooms(pid) if room_list is None else room_list
            away = await absent()
            await mark(room_ids, away)
            if away and room_ids and not await absent():
                await mark(room_ids, False)  # back on another process meanwhile
        if not lock.locked() and not self.by_player.get(pid):
            self.locks.pop(pid, None)

    async def disconnect(self, conn: Conn) -> None:
        """``conn`` is gone: out of its rooms' feeds; its player's seats marked away unless
        the player has another connection here or elsewhere."""
        pid = conn.player
        for room in list(conn.rooms):
            self.feeds.drop(conn, room)
        if pid is None:
            return
        peers = self.by_player.get(pid)
        if peers is not None:
            peers.discard(conn)
            if peers:
                return
            del self.by_player[pid]
        if self.rt.shutting_down:
            # a graceful stop: the client was told to reconnect and usually comes back within
            # seconds, so its seats are not marked away now (one commit per seat, and another
            # one when it is back); a player that has not said hello again anywhere after
            # --restart-resume-seconds is marked away then (see sweep_leavers). This
            # process stays in the player's online set: it is not live once it has stopped
            self.leavers.add(pid)
            return
        with self.rt.redis_guard():
            await self.rt.store.note_offline(pid, self.rt.proc_key)
            await self.sync(pid)
        self.rt.metrics.inc("presence_checks")

    async def record_leavers(self) -> None:
        """Remember (in Redis, for whichever process runs next) the players a graceful stop
        disconnected, each with the time after which it is marked away unless it is back."""
        if not self.leavers:
            return
        at = self.rt.clock.now_ms() + int(self.rt.cfg.restart_resume_seconds * 1000)
        with self.rt.redis_guard("could not record the players of a graceful stop"):
            await self.rt.store.add_leavers(sorted(self.leavers), at)
        self.leavers.clear()

    async def sweep_leavers(self) -> None:
        """Players disconnected by a graceful stop (of any process) that did not come back in
        time: mark their seats away now, as a disconnect would have."""
        for pid in await self.rt.store.due_leavers(self.rt.clock.now_ms()):
            if not self.by_player.get(pid):
                await self.sync(pid)
