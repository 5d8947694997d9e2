"""Handlers: one small function per client message, each given the request's :class:`Context`, connection and typed message.

A handler raises :class:`~server.rooms.RoomError` for what the client did wrong; the session
(:mod:`server.api.session`) maps that, storage errors and crashes to ``error`` messages.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from protocol import messages as m
from protocol.actions import action_to_wire
from protocol.codes import ErrorCode
from server.flow import entropy
from server.flow.commits import Commits
from server.flow.fanout import Feeds
from server.flow.runtime import Runtime
from server.net.transport import Conn
from server.room import commands, game, rooms
from server.room.lobby import game_id_of, room_summary
from server.room.options import validate_options
from server.room.rooms import RoomError
from server.room.state import Entry
from server.storage.store import CommitResult

log = logging.getLogger("mahjong.server")
JSON = dict[str, Any]


@dataclass(frozen=True, eq=False)
class Context:
    """What a handler may use: the process's shared state, its commits and its feeds."""

    rt: Runtime
    commits: Commits
    feeds: Feeds


def _ack(
    conn: Conn,
    room: str,
    res: CommitResult | None,
    version: int,
    re: int | None,
    client_seq: int | None = None,
) -> None:
    held = res is not None and res.status == "held"
    ack = m.Ack(
        room=room,
        seq=res.version if res is not None else version,
        client_seq=client_seq,
        duplicate=res is not None and res.status == "dup",
        held=held,
        re=re,
    )
    # a held answer's ack goes before the window's close if that came during the request
    (conn.send_ahead if held else conn.send)(ack)


def _in_room(conn: Conn, room: str) -> None:
    if room not in conn.rooms:
        raise RoomError(ErrorCode.NOT_IN_ROOM, "you are not in this room")


async def _simple(
    cx: Context, conn: Conn, room: str, re: int | None, command: commands.Command
) -> None:
    """A command to a room the connection is in, acknowledged with the room's seq."""
    _in_room(conn, room)
    res, _ = await cx.commits.apply(room, command)
    _ack(conn, room, res, conn.rooms.get(room, 0), re)


async def on_ping(cx: Context, conn: Conn, msg: m.Ping) -> None:
    conn.send(m.Pong(t=msg.t, server_ms=cx.rt.clock.now_ms(), re=msg.id))


async def on_list_rooms(cx: Context, conn: Conn, msg: m.ListRooms) -> None:
    """The public rooms, or with ``code`` the room of that code (public or not: knowing the
    code is the invitation; an unknown or closed one is an empty list)."""
    store = cx.rt.store
    out = []
    if msg.code is not None:
        found = await store.room_by_code(rooms.normalize_code(msg.code))
        wanted = [found] if found is not None else []
    else:
        wanted = (await store.public_rooms())[:200]
    for room in wanted:
        loaded = await store.load(room)
        if loaded is not None and loaded[1]["status"] != "closed":
            out.append(room_summary(loaded[1]))
    conn.send(m.RoomList(rooms=out, re=msg.id))


async def on_create_room(cx: Context, conn: Conn, msg: m.CreateRoom) -> None:
    assert conn.player is not None
    store, cfg = cx.rt.store, cx.rt.cfg
    if len(await store.player_rooms(conn.player)) >= cfg.max_rooms_per_player:
        raise RoomError(ErrorCode.TOO_MANY_ROOMS, "leave a room first")
    options = validate_options(msg.ruleset, msg.options)
    room_id = "r_" + secrets.token_hex(8)
    for _ in range(20):
        code = rooms.new_code(entropy.SYSTEM)
        if await store.reserve_code(code, room_id):
            break
    else:
        raise RoomError(ErrorCode.BUSY, "could not allocate a room code")
    change = rooms.new_room(
        room_id, code, conn.player, conn.name, msg.ruleset, options, cx.rt.clock.now_ms()
    )
    res = await cx.commits.create(room_id, change)
    await store.register_room(room_id, bool(options["public"]))
    await store.add_player_room(conn.player, room_id)
    log.info("room created", extra={"room": room_id, "code": code, "player": conn.player})
    await cx.feeds.attach(conn, room_id)
    _ack(conn, room_id, res, res.version, msg.id)


async def on_join_room(cx: Context, conn: Conn, msg: m.JoinRoom) -> None:
    assert conn.player is not None
    pid = conn.player
    store = cx.rt.store
    room = await store.room_by_code(rooms.normalize_code(msg.code))
    if room is None:
        raise RoomError(ErrorCode.ROOM_NOT_FOUND, "no room with that code")
    if room not in await store.player_rooms(pid) and (
        len(await store.player_rooms(pid)) >= cx.rt.cfg.max_rooms_per_player
    ):
        raise RoomError(ErrorCode.TOO_MANY_ROOMS, "leave a room first")
    res, _state = await cx.commits.apply(room, commands.Join(pid, conn.name))
    await store.add_player_room(pid, room)
    if room not in conn.rooms:
        await cx.feeds.attach(conn, room)  # the snapshot goes out before the ack
    _ack(conn, room, res, conn.rooms.get(room, 0), msg.id)


async def on_leave_room(cx: Context, conn: Conn, msg: m.LeaveRoom) -> None:
    assert conn.player is not None
    pid = conn.player
    _in_room(conn, msg.room)
    await cx.commits.apply(msg.room, commands.Leave(pid))
    await cx.rt.store.remove_player_room(pid, msg.room)
    cx.feeds.drop(conn, msg.room)
    conn.send(m.Left(room=msg.room, re=msg.id))


async def on_sit(cx: Context, conn: Conn, msg: m.Sit) -> None:
    pid = conn.player or ""
    await _simple(cx, conn, msg.room, msg.id, commands.Sit(pid, msg.seat))


async def on_stand(cx: Context, conn: Conn, msg: m.Stand) -> None:
    pid = conn.player or ""
    await _simple(cx, conn, msg.room, msg.id, commands.Stand(pid))


async def on_ready(cx: Context, conn: Conn, msg: m.Ready) -> None:
    pid = conn.player or ""
    await _simple(cx, conn, msg.room, msg.id, commands.Ready(pid, msg.ready))


async def on_add_bot(cx: Context, conn: Conn, msg: m.AddBot) -> None:
    pid = conn.player or ""
    await _simple(cx, conn, msg.room, msg.id, commands.AddBot(pid, msg.seat))


async def on_remove_bot(cx: Context, conn: Conn, msg: m.RemoveBot) -> None:
    pid = conn.player or ""
    await _simple(cx, conn, msg.room, msg.id, commands.RemoveBot(pid, msg.seat))


async def on_swap_seats(cx: Context, conn: Conn, msg: m.SwapSeats) -> None:
    pid = conn.player or ""
    await _simple(cx, conn, msg.room, msg.id, commands.SwapSeats(pid, msg.a, msg.b))


async def on_kick(cx: Context, conn: Conn, msg: m.Kick) -> None:
    """The kicked player's connections, on whichever process, are detached by the fan-out
    when the commit reaches them (``Feeds.deliver``: a ``left`` with reason ``kicked``)."""
    pid = conn.player or ""
    await _simple(cx, conn, msg.room, msg.id, commands.Kick(pid, msg.player))
    await cx.rt.store.remove_player_room(msg.player, msg.room)


async def on_make_host(cx: Context, conn: Conn, msg: m.MakeHost) -> None:
    pid = conn.player or ""
    await _simple(cx, conn, msg.room, msg.id, commands.MakeHost(pid, msg.player))


async def on_pause_game(cx: Context, conn: Conn, msg: m.PauseGame) -> None:
    pid = conn.player or ""
    await _simple(cx, conn, msg.room, msg.id, commands.PauseGame(pid))


async def on_resume_game(cx: Context, conn: Conn, msg: m.ResumeGame) -> None:
    pid = conn.player or ""
    await _simple(cx, conn, msg.room, msg.id, commands.ResumeGame(pid))


async def on_start_game(cx: Context, conn: Conn, msg: m.StartGame) -> None:
    pid = conn.player or ""
    await _simple(cx, conn, msg.room, msg.id, commands.StartGame(pid, entropy.OS_SEEDS))


async def on_rematch(cx: Context, conn: Conn, msg: m.Rematch) -> None:
    pid = conn.player or ""
    await _simple(cx, conn, msg.room, msg.id, commands.Rematch(pid))


async def on_chat(cx: Context, conn: Conn, msg: m.Chat) -> None:
    pid = conn.player or ""
    cfg = cx.rt.cfg
    _in_room(conn, msg.room)
    t = cx.rt.clock.monotonic()
    while conn.chats and conn.chats[0] < t - 60:
        conn.chats.popleft()
    if len(conn.chats) >= cfg.chat_per_minute:
        raise RoomError(ErrorCode.CHAT_RATE_LIMITED, "too many chat messages; wait a bit")
    conn.chats.append(t)
    await _simple(cx, conn, msg.room, msg.id, commands.Chat(pid, msg.text, cfg.chat_max_len))


async def on_action(cx: Context, conn: Conn, msg: m.Action) -> None:
    pid = conn.player or ""
    _in_room(conn, msg.room)
    if msg.action.seat is not None and msg.action.seat != conn.seats.get(msg.room):
        raise RoomError(
            ErrorCode.ILLEGAL_ACTION,
            "you can only act for your own seat",
            {"table_code": "not-your-seat"},
        )
    action = {k: v for k, v in action_to_wire(msg.action).items() if k != "seat"}
    # an answer to a claim window is held until the window closes (the ack says so and has
    # no new seq), unless it closes the window now -- or a live process of before held
    # answers (a rolling upgrade) would not see it: then it is committed
    hold = not cx.rt.store.peers.unheld
    play = commands.Play(pid, action, hold)
    res, _ = await cx.commits.apply(msg.room, play, pid, msg.seq)
    _ack(conn, msg.room, res, conn.rooms.get(msg.room, 0), msg.id, msg.seq)


async def on_resync(cx: Context, conn: Conn, msg: m.Resync) -> None:
    """``since`` 0, beyond what this connection was sent, or before its first snapshot of
    the room (the commits before it show the room without this connection: resent, they
    would take it out of the room): a snapshot (with ``re``). Otherwise every commit after
    ``since`` again, in order, then an ``ack`` (with ``re``) whose ``seq`` is the last one
    resent: the resend is complete."""
    _in_room(conn, msg.room)
    f = cx.feeds.feed(msg.room)
    sent = conn.rooms.get(msg.room, 0)
    if msg.since == 0 or msg.since > sent or msg.since < conn.base.get(msg.room, 0):
        async with f.lock:
            await cx.feeds.snapshot(conn, msg.room, msg.id)
        f.kick()
        return
    async with f.lock:
        if msg.since < conn.rooms.get(msg.room, 0):
            # replay from the client's position
            conn.rooms[msg.room] = conn.sent[msg.room] = msg.since
    f.kick()
    await f.catch_up()
    conn.send(m.Ack(room=msg.room, seq=conn.rooms.get(msg.room, 0), re=msg.id))


async def on_get_log(cx: Context, conn: Conn, msg: m.GetLog) -> None:
    _in_room(conn, msg.room)
    store = cx.rt.store
    loaded = await store.load(msg.room)
    if loaded is None:
        raise RoomError(ErrorCode.ROOM_NOT_FOUND, "no such room")
    _, state = loaded
    if state["status"] != "finished":
        raise RoomError(ErrorCode.GAME_NOT_FINISHED, "the log is available after the game")
    actions: list[JSON] = []
    entries: list[Entry] = []
    start = 1
    game_started = False
    while True:
        rows = await store.read_log(msg.room, start, count=1000)
        for _, entry in rows:
            if entry.get("kind") == "start":
                actions, entries = [], []  # only the last game of the room
                game_started = True
            if game_started:
                actions.extend(entry.get("actions") or [])
                entries.append(entry)
        if len(rows) < 1000:
            break
        start = rows[-1][0] + 1
    log_doc = {
        "ruleset": state["ruleset"],
        "options": state["options"],
        "game_no": state["game_no"],
        **({"game_id": gid} if (gid := game_id_of(state)) is not None else {}),
        "seats": [s["name"] if s else None for s in state["seats"]],
        "actions": actions,
        "summary": state["history"][-1] if state["history"] else None,
        "events": game.open_events(entries),
    }
    conn.send(m.GameLog(room=msg.room, log=log_doc, re=msg.id))


async def on_hints(cx: Context, conn: Conn, msg: m.GetHints) -> None:
    """Hints for the player's seat, computed from its own view in a worker thread (a few
    shanten and scoring calls: milliseconds, kept off the event loop)."""
    _in_room(conn, msg.room)
    loaded = await cx.commits.load_shared(msg.room)
    if loaded is None:
        raise RoomError(ErrorCode.ROOM_NOT_FOUND, "no such room")
    version, state = loaded
    seat = rooms.seat_of(state, conn.player or "")
    h: JSON = {"shanten": None, "discards": [], "waits": [], "minimum": 0, "note": None}
    g = state.get("game")
    if g is not None and seat is not None:
        h = await asyncio.to_thread(game.hints, g, seat, state["id"])
    conn.send(m.HintsReply(room=msg.room, seq=version, re=msg.id, **h))


async def on_toggles(cx: Context, conn: Conn, msg: m.SetToggles) -> None:
    pid = conn.player or ""
    changes = {
        k: v
        for k, v in (
            ("auto_win", msg.auto_win),
            ("no_claims", msg.no_claims),
            ("auto_discard", msg.auto_discard),
        )
        if v is not None
    }
    await _simple(cx, conn, msg.room, msg.id, commands.SetToggles(pid, changes))


Handler = Callable[[Context, Conn, Any], Awaitable[None]]

#: every client message but ``hello`` (answered by :mod:`server.api.presence`), by type
HANDLERS: dict[type[m.ClientMessage], Handler] = {
    m.Ping: on_ping,
    m.ListRooms: on_list_rooms,
    m.CreateRoom: on_create_room,
    m.JoinRoom: on_join_room,
    m.LeaveRoom: on_leave_room,
    m.Sit: on_sit,
    m.Stand: on_stand,
    m.Ready: on_ready,
    m.AddBot: on_add_bot,
    m.RemoveBot: on_remove_bot,
    m.SwapSeats: on_swap_seats,
    m.Kick: on_kick,
    m.MakeHost: on_make_host,
    m.PauseGame: on_pause_game,
    m.ResumeGame: on_resume_game,
    m.StartGame: on_start_game,
    m.Rematch: on_rematch,
    m.Action: on_action,
    m.Chat: on_chat,
    m.Resync: on_resync,
    m.GetLog: on_get_log,
    m.GetHints: on_hints,
    m.SetToggles: on_toggles,
}


async def dispatch(cx: Context, conn: Conn, msg: m.ClientMessage) -> None:
    handler = HANDLERS.get(type(msg))
    if handler is None:  # pragma: no cover - every client message has a handler
        raise RoomError(ErrorCode.UNKNOWN_TYPE, "no handler")
    await handler(cx, conn, msg)
