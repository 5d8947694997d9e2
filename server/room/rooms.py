"""Room logic: pure functions over a room's state (a plain dict stored in Redis, typed as ``RoomState`` in ``server/room/state.py``).

Each operation takes the current room state and returns a :class:`Change` (the new state
and what to log/broadcast) or raises :class:`RoomError` with a wire error code. No I/O here:
``server/storage/store.py`` commits changes atomically (through ``server/flow/commits.py``), the other ``server/`` modules do the networking.
Time (``now`` in ms) and randomness (wall seeds, bot choices) are arguments. A room's
options are checked in ``options.py``, what its lobby shows is built in ``lobby.py``.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from protocol.codes import ErrorCode
from server.room.state import (
    GameJSON,
    JsonObject,
    LobbySeat,
    Options,
    Pause,
    Pending,
    RoomState,
    Seat,
)

SEATS = 4
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no I/O/0/1
CODE_LEN = 6


class RoomError(Exception):
    def __init__(
        self, code: ErrorCode, message: str, detail: dict[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail


@dataclass
class Change:
    state: RoomState
    kind: str
    actor: str | None = None
    events: list[GameJSON] = field(default_factory=list)  # table events (unredacted)
    actions: list[GameJSON] = field(default_factory=list)  # table actions applied (the replay log)
    lobby_changed: bool = False
    chat: JsonObject | None = None
    notice: JsonObject | None = (
        None  # a public lobby event (joined, left, seat_away, bot_took_over)
    )
    #: committed although it tells nobody anything (a player's own settings)
    persist: bool = False


def clean_text(text: str) -> str:
    """Drop control and format characters (terminal escapes, bidi overrides, NULs) and
    surrounding whitespace from user text (names, chat)."""
    return "".join(
        ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co")
    ).strip()


def new_code(rng: random.Random) -> str:
    """A room code drawn with ``rng`` (the server's: ``server.flow.entropy.SYSTEM``)."""
    return "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LEN))


def normalize_code(code: str) -> str:
    return code.strip().upper().replace("-", "").replace(" ", "")


def new_room(
    room_id: str, code: str, host: str, name: str, ruleset: str, options: Options, now: int
) -> Change:
    state: RoomState = {
        "id": room_id,
        "code": code,
        "ruleset": ruleset,
        "options": options,
        "host": host,
        "status": "lobby",
        "created": now,
        "seats": [None] * SEATS,
        "members": {host: name},
        "game": None,
        "game_no": 0,
        "pending": {},  # seat -> its open decision (server/room/state.py, Pending)
        "next_hand_at": None,
        "history": [],  # the summary of the room's last finished game (one at most)
    }
    return Change(
        state,
        "create",
        host,
        lobby_changed=True,
        notice={"type": "room_created", "player": host, "name": name},
    )


# ------------------------------------------------------------------------------ helpers


def seat_of(state: RoomState, player: str) -> int | None:
    return seat_in(state["seats"], player)


def seat_in(seats: Sequence[Seat | LobbySeat | None], player: str) -> int | None:
    """The seat ``player`` sits in among ``seats`` (a room's, or its lobby's: the lobby of a
    log entry, server/room/delivery.py); None: none."""
    for i, s in enumerate(seats):
        if s and s.get("player") == player:
            return i
    return None


def held(state: RoomState) -> Pause | None:
    """Who paused the room's game with ``pause_game`` (server/room/host.py) and when:
    ``{player, name, since}``; None: not paused by anyone. While it is held the game does
    nothing by itself and refuses every action."""
    return state.get("pause")


def seat_at(state: RoomState, i: int) -> Seat:
    """The seat ``i`` (0..3) of a room, taken: ``bad_seat`` when nobody sits there. (The
    callers know it is taken: the seat of a member found by :func:`seat_of`, or a seat with
    an open decision in a game, where every seat is.)"""
    seat = state["seats"][i]
    if seat is None:
        raise RoomError(ErrorCode.BAD_SEAT, f"nobody sits in seat {i}")
    return seat


def game_of(state: RoomState) -> GameJSON:
    """The room's game state: ``game_not_started`` when it has none (a room whose status is
    "playing" or "finished" always has one)."""
    g = state["game"]
    if g is None:
        raise RoomError(ErrorCode.GAME_NOT_STARTED, "no game is being played")
    return g


def restarted(pending: dict[str, Pending], since: Callable[[int], int]) -> dict[str, Pending]:
    """``pending`` with each decision's start moved to ``since(its start)`` (a new map of
    new records: a state's records are never changed in place)."""
    out: dict[str, Pending] = {}
    for k, p in pending.items():
        q = p.copy()
        q["since"] = since(p["since"])
        out[k] = q
    return out


def copy_state(state: RoomState) -> RoomState:
    """A copy of the room state that the room operations may change.

    Structural sharing instead of a deep copy: the operations here only ever change the
    top-level keys, ``members`` and the seat dicts in place, so only those are copied; the
    rest (the game JSON, options, history, pending maps) is shared with the old state and is
    only ever *replaced*, never changed in place (``game.apply`` returns new dicts). Neither
    state may be mutated in place by anyone else (see tests/server_tests/test_rooms_copy.py).
    """
    s = state.copy()
    s["members"] = dict(state["members"])
    s["seats"] = [None if seat is None else seat.copy() for seat in state["seats"]]
    return s


def require_member(state: RoomState, player: str) -> None:
    """``player`` is a member of the room, or ``not_in_room``."""
    if player not in state["members"]:
        raise RoomError(ErrorCode.NOT_IN_ROOM, "you are not in this room")


def require_lobby(state: RoomState) -> None:
    """The room is in its lobby (no game under way, not closed), or the error that says why not."""
    if state["status"] == "playing":
        raise RoomError(ErrorCode.GAME_IN_PROGRESS, "not while a game is being played")
    if state["status"] == "closed":
        raise RoomError(ErrorCode.ROOM_NOT_FOUND, "the room is closed")


def require_host(state: RoomState, player: str) -> None:
    """``player`` hosts the room, or ``not_host``."""
    if state["host"] != player:
        raise RoomError(ErrorCode.NOT_HOST, "only the host can do this")


def seat_index(seat: int) -> int:
    """A seat number from a client: 0..3, or ``bad_seat``."""
    if not 0 <= seat < SEATS:
        raise RoomError(ErrorCode.BAD_SEAT, f"seat must be 0..{SEATS - 1}")
    return seat


# ------------------------------------------------------------------------------- lobby ops


def join(state: RoomState, player: str, name: str, now: int | None = None) -> Change:
    if state["status"] == "closed":
        raise RoomError(ErrorCode.ROOM_NOT_FOUND, "the room is closed")
    if player in (state.get("kicked") or ()):
        raise RoomError(ErrorCode.KICKED, "the host removed you from this room")
    s = copy_state(state)
    if player in s["members"]:
        return Change(s, "join", player)  # already in: nothing changes (idempotent)
    if len(s["members"]) >= 64:
        raise RoomError(ErrorCode.ROOM_FULL, "the room is full")
    s["members"][player] = name
    if s["host"] not in s["members"]:
        # the room's members had all gone (a paused game keeps its room): the first to come
        # back hosts it, so someone can resume a game the host paused (server/room/host.py)
        s["host"] = player
    # a player who left mid-game and comes back gets their seat back
    for seat in s["seats"]:
        if seat and seat.get("player") == player:
            seat["auto"] = False
            seat["away"] = None
    if now is not None:
        _unpause(state, s, now)
    return Change(
        s,
        "join",
        player,
        lobby_changed=True,
        notice={"type": "joined", "player": player, "name": name},
    )


def sit(state: RoomState, player: str, seat: int) -> Change:
    require_member(state, player)
    require_lobby(state)
    seat = seat_index(seat)
    s = copy_state(state)
    cur = seat_of(s, player)
    if cur == seat:
        return Change(s, "sit", player)
    if s["seats"][seat] is not None:
        raise RoomError(ErrorCode.SEAT_TAKEN, "that seat is taken")
    if cur is not None:
        s["seats"][cur] = None
    s["seats"][seat] = {
        "player": player,
        "name": s["members"][player],
        "bot": False,
        "ready": False,
        "away": None,
        "auto": False,
    }
    return Change(s, "sit", player, lobby_changed=True)


def stand(state: RoomState, player: str) -> Change:
    require_member(state, player)
    require_lobby(state)
    s = copy_state(state)
    cur = seat_of(s, player)
    if cur is None:
        raise RoomError(ErrorCode.NOT_SEATED, "you are not seated")
    s["seats"][cur] = None
    return Change(s, "stand", player, lobby_changed=True)


def ready(state: RoomState, player: str, value: bool) -> Change:
    require_member(state, player)
    require_lobby(state)
    s = copy_state(state)
    cur = seat_of(s, player)
    if cur is None:
        raise RoomError(ErrorCode.NOT_SEATED, "you are not seated")
    seat_at(s, cur)["ready"] = value
    return Change(s, "ready", player, lobby_changed=True)


def add_bot(state: RoomState, player: str, seat: int) -> Change:
    require_member(state, player)
    require_host(state, player)
    require_lobby(state)
    seat = seat_index(seat)
    s = copy_state(state)
    if s["seats"][seat] is not None:
        raise RoomError(ErrorCode.SEAT_TAKEN, "that seat is taken")
    s["seats"][seat] = {
        "player": None,
        "name": f"Bot {seat + 1}",
        "bot": True,
        "ready": True,
        "away": None,
        "auto": True,
    }
    return Change(s, "add_bot", player, lobby_changed=True)


def remove_bot(state: RoomState, player: str, seat: int) -> Change:
    require_member(state, player)
    require_host(state, player)
    require_lobby(state)
    seat = seat_index(seat)
    s = copy_state(state)
    cur = s["seats"][seat]
    if cur is None or not cur["bot"]:
        raise RoomError(ErrorCode.BAD_SEAT, "no bot in that seat")
    s["seats"][seat] = None
    return Change(s, "remove_bot", player, lobby_changed=True)


def leave(state: RoomState, player: str, now: int) -> Change:
    require_member(state, player)
    s = copy_state(state)
    name = s["members"].pop(player)
    if player in (s.get("spectators_away") or {}):
        s["spectators_away"] = {p: t for p, t in s["spectators_away"].items() if p != player}
    cur = seat_of(s, player)
    if cur is not None:
        if s["status"] == "playing":
            # the seat stays in the game; a bot plays it until the player comes back
            seat = seat_at(s, cur)
            seat["auto"] = True
            seat["away"] = now
        else:
            s["seats"][cur] = None
    if s["host"] == player and s["members"]:
        s["host"] = sorted(s["members"])[0]
    if not s["members"] and not _pauses_when_empty(s):
        s["status"] = "closed"
    return Change(
        s,
        "leave",
        player,
        lobby_changed=True,
        notice={"type": "left", "player": player, "name": name},
    )


def _pauses_when_empty(state: RoomState) -> bool:
    """A room its last member has left stays open only for a game in play with human seats:
    it pauses (:func:`paused`) and keeps its code, so a player who comes back with
    ``join_room`` (or a resume) gets the seat back, until the retention sweeper closes it as
    abandoned. Every other room closes when its last member leaves."""
    return state["status"] == "playing" and any(seat and not seat["bot"] for seat in state["seats"])


def abandoned(state: RoomState) -> bool:
    """An open room none of whose seated humans is present (all away, or no human seats)
    and, during a game, none of whose spectators is connected. The retention sweeper closes
    such a room once nothing has changed in it for ``--idle-room-seconds``. (A spectator's
    presence is only tracked during a game; in a lobby, only the sweeping process's own
    connections show it, see server/flow/retention.py.)"""
    if state["status"] == "closed":
        return False
    humans = [seat for seat in state["seats"] if seat and not seat["bot"]]
    if any(seat.get("away") is None for seat in humans):
        return False
    if state["status"] == "playing":
        return _nobody_else_present(state, humans)
    return True


def close_idle(state: RoomState) -> Change | None:
    """Close an abandoned room (the sweeper decided it was idle long enough): every member
    leaves with it, a game in progress ends without settlement. None: not abandoned (any
    more)."""
    if not abandoned(state):
        return None
    s = copy_state(state)
    s["status"] = "closed"
    s["members"] = {}
    s["spectators_away"] = {}
    s["pending"] = {}
    s["next_hand_at"] = None
    s["pause"] = None
    return Change(
        s, "close", None, lobby_changed=True, notice={"type": "room_closed", "reason": "idle"}
    )


def set_away(state: RoomState, player: str, away: bool, now: int) -> Change | None:
    """A seated player's last connection closed (away=True) or came back (away=False)."""
    cur = seat_of(state, player)
    if player not in state["members"]:
        return None
    if cur is None:
        return _spectator_away(state, player, away, now)
    seat = seat_at(state, cur)
    if away == (seat.get("away") is not None) and (away or not seat.get("auto")):
        return None
    s = copy_state(state)
    seat = seat_at(s, cur)
    notice: JsonObject
    if away:
        seat["away"] = now
        notice = {"type": "seat_away", "seat": cur}
    else:
        seat["away"] = None
        seat["auto"] = False
        notice = {"type": "seat_back", "seat": cur}
        _unpause(state, s, now)
    return Change(s, "away" if away else "back", player, lobby_changed=True, notice=notice)


def rename(state: RoomState, player: str, name: str) -> Change | None:
    """A member resumed under a new name (``hello`` with a token and a ``name``): the room's
    member list and their seat show it; None when it shows it already. A game under way
    keeps the names it was dealt with (its records and summary)."""
    if state["members"].get(player, name) == name:
        return None
    s = copy_state(state)
    s["members"][player] = name
    cur = seat_of(s, player)
    if cur is not None:
        seat_at(s, cur)["name"] = name
    return Change(s, "rename", player, lobby_changed=True)


def _spectator_away(state: RoomState, player: str, away: bool, now: int) -> Change | None:
    """A spectator's presence during a game: it keeps a game of bots going (see paused)."""
    gone = state.get("spectators_away") or {}
    if state["status"] != "playing" or away == (player in gone):
        return None
    s = copy_state(state)
    new = dict(gone)
    if away:
        new[player] = now
    else:
        new.pop(player, None)
    s["spectators_away"] = new
    _unpause(state, s, now)
    # lobby_changed: the change must be committed (a spectator's presence is in the state)
    return Change(s, "away" if away else "back", player, lobby_changed=True)


def chat(state: RoomState, player: str, text: str, now: int, max_len: int) -> Change:
    require_member(state, player)
    text = clean_text(text)
    if not text:
        raise RoomError(ErrorCode.BAD_MESSAGE, "empty chat message")
    if len(text) > max_len:
        raise RoomError(ErrorCode.CHAT_TOO_LONG, f"chat messages are at most {max_len} characters")
    s = copy_state(state)
    return Change(
        s,
        "chat",
        player,
        chat={"player": player, "name": s["members"][player], "text": text, "t": now},
    )


# -------------------------------------------------------------------------------- game ops


# ---------------------------------------------------------------------------------- timers


def paused(state: RoomState) -> bool:
    """A game no human is connected to any more: it has human seats, every one of them is
    played by a bot because its player is away (disconnected past the grace period, or
    left), and no spectator is connected either.

    Such a room does nothing by itself (no bot moves, timeouts or deals), so abandoned rooms
    cost no CPU; it resumes, with fresh clocks, when one of its players comes back (or a
    spectator connects). A game of bots only is not paused (it is finite, and someone chose
    to start it).
    """
    if state["status"] != "playing":
        return False
    humans = [seat for seat in state["seats"] if seat and not seat["bot"]]
    if not humans or not all(seat.get("auto") and seat.get("away") is not None for seat in humans):
        return False
    return _nobody_else_present(state, humans)


def _nobody_else_present(state: RoomState, humans: list[Seat]) -> bool:
    """Every member of the room is one of these seated ``humans`` or a spectator who is away."""
    seated = {seat.get("player") for seat in humans}
    gone = state.get("spectators_away") or {}
    return all(p in seated or p in gone for p in state["members"])


def _unpause(before: RoomState, s: RoomState, now: int) -> None:
    """The step after a change ``before`` -> ``s`` that can end a pause (a player joins or
    comes back, a spectator connects): if the game was paused and no longer is, its clocks
    start again now. A game the host holds (:func:`held`) keeps its clocks stopped: they go
    on when the host resumes it (server/room/host.py)."""
    if paused(before) and not paused(s) and held(s) is None:
        _resume_clocks(s, now)


def _resume_clocks(s: RoomState, now: int) -> None:
    """A paused game resumes: every open decision (and the next deal) starts again now."""
    s["pending"] = restarted(s["pending"], lambda _: now)
    if s.get("next_hand_at") is not None:
        s["next_hand_at"] = now + int(s["options"]["hand_pause_ms"])
