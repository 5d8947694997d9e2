"""Host controls: what only a room's host may do to it — swap seats, kick a member, hand the host role over, pause and resume the game.

Pure functions over a room's state, like :mod:`server.room.rooms` (adding and removing bots and
starting the game are there and in :mod:`server.room.game_room`): each returns a
:class:`~server.rooms.Change` or raises :class:`~server.rooms.RoomError` with a wire error
code. Time (``now`` in ms) is an argument.

* A kicked member leaves the room at once; in a game a bot plays their seat for the rest of
  it. The room remembers them (``kicked``) for its whole life and refuses their
  ``join_room`` with ``kicked``. The host cannot kick themselves.
* The host role goes to another member (``make_host``); every member is a person.
* A paused game (``pause``: who and since when) does nothing by itself — no bot moves,
  timeouts, automatic answers, deals or grace periods — and refuses every action
  (``paused``); on resume every clock is moved on by the time it was paused, so each
  decision keeps the time it had left. Only the host pauses and resumes (a host who leaves
  passes the role, and a paused game, to the next host).
"""

from __future__ import annotations

from protocol.codes import ErrorCode
from server.room.rooms import (
    SEATS,
    Change,
    RoomError,
    copy_state,
    held,
    require_host,
    require_lobby,
    require_member,
    restarted,
    seat_index,
    seat_of,
)
from server.room.state import RoomState


def _target(state: RoomState, host: str, player: str, what: str) -> str:
    """The member ``player`` the host does ``what`` to: not the host themselves."""
    if player == host:
        raise RoomError(ErrorCode.NO_SUCH_MEMBER, f"you cannot {what} yourself")
    if player not in state["members"]:
        raise RoomError(ErrorCode.NO_SUCH_MEMBER, "no such member in this room")
    name: str = state["members"][player]
    return name


def swap_seats(state: RoomState, player: str, a: int, b: int) -> Change:
    """Swap what is in seats ``a`` and ``b`` — a player, a bot or nobody — in the lobby.
    Bots are named after their seat ("Bot 3"), so a moved bot takes its new seat's name."""
    require_member(state, player)
    require_host(state, player)
    require_lobby(state)
    a, b = seat_index(a), seat_index(b)
    if a == b:
        raise RoomError(ErrorCode.BAD_SEAT, "two different seats are needed")
    if state["seats"][a] is None and state["seats"][b] is None:
        raise RoomError(ErrorCode.BAD_SEAT, "both seats are free")
    s = copy_state(state)
    s["seats"][a], s["seats"][b] = s["seats"][b], s["seats"][a]
    for i in (a, b):
        seat = s["seats"][i]
        if seat is not None and seat["bot"]:
            seat["name"] = f"Bot {i + 1}"
    return Change(s, "swap_seats", player, lobby_changed=True)


def kick(state: RoomState, player: str, target: str) -> Change:
    """The host removes ``target`` from the room for good (module docstring). In a game
    their seat becomes a bot's (\"Bot 2\", as bots are named) until the game ends; otherwise it is
    free. The change's notice (``kicked``) is what each server process's fan-out acts on
    to detach the kicked player's connections (server/flow/fanout.py)."""
    require_member(state, player)
    require_host(state, player)
    name = _target(state, player, target, "kick")
    s = copy_state(state)
    del s["members"][target]
    s["kicked"] = sorted({*(state.get("kicked") or ()), target})
    gone = s.get("spectators_away") or {}
    if target in gone:
        s["spectators_away"] = {p: t for p, t in gone.items() if p != target}
    cur = seat_of(s, target)
    if cur is not None:
        if s["status"] == "playing":
            s["seats"][cur] = {
                "player": None,
                "name": f"Bot {cur + 1}",
                "bot": True,
                "ready": True,
                "away": None,
                "auto": True,
            }
        else:
            s["seats"][cur] = None
    return Change(
        s,
        "kick",
        player,
        lobby_changed=True,
        notice={"type": "kicked", "player": target, "name": name, "by": player},
    )


def make_host(state: RoomState, player: str, target: str) -> Change:
    """The host hands the host role to another member."""
    require_member(state, player)
    require_host(state, player)
    name = _target(state, player, target, "hand the host role to")
    s = copy_state(state)
    s["host"] = target
    return Change(
        s,
        "make_host",
        player,
        lobby_changed=True,
        notice={"type": "host_changed", "player": target, "name": name, "by": player},
    )


def _playing(state: RoomState) -> None:
    if state["status"] != "playing" or state.get("game") is None:
        raise RoomError(ErrorCode.GAME_NOT_STARTED, "no game is being played")


def pause_game(state: RoomState, player: str, now: int) -> Change:
    """The host pauses the game at ``now``: nothing happens in it until :func:`resume_game`."""
    require_member(state, player)
    require_host(state, player)
    _playing(state)
    pause = held(state)
    if pause is not None:
        raise RoomError(ErrorCode.PAUSED, f"{pause['name']} paused the game already")
    s = copy_state(state)
    name = s["members"][player]
    s["pause"] = {"player": player, "name": name, "since": now}
    return Change(
        s,
        "pause",
        player,
        lobby_changed=True,
        notice={"type": "paused", "player": player, "name": name},
    )


def resume_game(state: RoomState, player: str, now: int) -> Change:
    """The host resumes the paused game at ``now``: every clock (each open decision's, the
    next deal's, each away seat's grace period) moves on by the time the game was paused,
    so nothing that was due later is due any sooner."""
    require_member(state, player)
    require_host(state, player)
    _playing(state)
    pause = held(state)
    if pause is None:
        raise RoomError(ErrorCode.NOT_PAUSED, "the game is not paused")
    gap = max(0, now - int(pause["since"]))
    s = copy_state(state)
    s["pause"] = None
    s["pending"] = restarted(s["pending"], lambda t: t + gap)
    deal = s.get("next_hand_at")
    if deal is not None:
        s["next_hand_at"] = int(deal) + gap
    for i in range(SEATS):
        seat = s["seats"][i]
        away = None if seat is None else seat.get("away")
        if seat is not None and away is not None:
            seat["away"] = int(away) + gap
    name = s["members"][player]
    return Change(
        s,
        "resume",
        player,
        lobby_changed=True,
        notice={"type": "resumed", "player": player, "name": name, "paused_ms": gap},
    )
