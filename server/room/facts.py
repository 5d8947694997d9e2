"""Game facts a room's state implies, computed by pure functions: deadlines, each seat's legal actions, and the log entry of a change.

These sit beside :mod:`server.room.rooms` (which changes a room's state) and are used by the commit
path (:mod:`server.flow.commits`), the snapshot (:mod:`server.room.frames`) and the timers; none of them
does any I/O.
"""

from __future__ import annotations

from server.room import game, game_room, rooms, schedule
from server.room.lobby import public_lobby
from server.room.rooms import Change, game_of
from server.room.state import Clock, Entry, GameJSON, RoomState

Deadline = schedule.Deadline


def room_deadlines(
    state: RoomState, grace_ms: int, bot_delay_ms: int, answers: game_room.Answers | None = None
) -> list[Deadline]:
    """Everything due by itself in the room (``schedule.deadlines``), computed once per commit
    and shared by the log entry's per-seat deadlines, the room's next one and the timer's
    tick of this state (``schedule.committed_deadlines``: ``state`` is not changed in place
    afterwards; the list is shared, not to be changed). ``answers``: those held for the
    open claim window (``game_room.held_answers``)."""
    try:
        return schedule.committed_deadlines(state, grace_ms, bot_delay_ms, answers)
    except game.GameError:
        return []


def next_deadline(deadlines: list[Deadline]) -> int | None:
    """The earliest of ``deadlines`` (None: nothing is due)."""
    return min(at for at, _, _ in deadlines) if deadlines else None


def seat_timeouts(deadlines: list[Deadline]) -> dict[int, int]:
    """Each seat's earliest "timeout" deadline among a room's ``deadlines``
    (:func:`room_deadlines`): the deadline a seat is shown for its pending decision."""
    timeouts: dict[int, int] = {}
    for at, kind, seat in deadlines:
        if kind == "timeout" and (seat not in timeouts or at < timeouts[seat]):
            timeouts[seat] = at
    return timeouts


def seat_deadline(
    state: RoomState,
    seat: int | None,
    grace_ms: int,
    bot_delay_ms: int,
    answers: game_room.Answers | None = None,
) -> int | None:
    """The deadline ``seat`` (None: a spectator, who has none) is shown in a snapshot: none
    once it has answered the open claim window (its answer held: ``answers``)."""
    if seat is None:
        return None
    own = _own(answers, seat)
    return seat_timeouts(room_deadlines(state, grace_ms, bot_delay_ms, own)).get(seat)


def public_clocks(state: RoomState, deadlines: list[Deadline]) -> list[Clock]:
    """The countdowns everyone may see (``clocks`` on the wire): the turn deadline of the
    seat in turn (its ``timeout``; a bot's or an automatic move has none) and each away
    seat's grace until a bot plays it. Never a claim window's: who may claim is no one
    else's business (docs/table.md), so no seat's window clock is public."""
    pending = state["pending"]
    out: list[Clock] = []
    for at, what, seat in deadlines:
        p = pending.get(str(seat)) if what == "timeout" else None
        if what == "grace" or (p is not None and p["kind"] == "turn"):
            out.append({"seat": seat, "kind": "turn" if what == "timeout" else what, "at": at})
    out.sort(key=lambda c: (c["seat"], c["kind"]))
    return out


def _own(answers: game_room.Answers | None, seat: int) -> game_room.Answers | None:
    """Of the held ``answers``, ``seat``'s own only: what a seat is shown depends on no
    other seat's answer (docs/protocol.md "Simultaneous claims")."""
    if not answers or seat not in answers:
        return None
    return {seat: answers[seat]}


def seat_legal(
    state: RoomState, seat: int | None, answers: game_room.Answers | None = None
) -> list[GameJSON]:
    """``seat``'s legal actions in the room's game: none unless it has a pending decision
    it has not answered yet (``answers``: those held for the open claim window)."""
    p = None if seat is None else state["pending"].get(str(seat))
    if seat is None or (p is not None and p["auto"]):
        return []  # not asked: no choice, the server passes for it (server/room/windows.py)
    if seat in game_room.held_answers(state, _own(answers, seat)):
        return []  # answered: its answer is held until the window closes
    if rooms.held(state) is not None:
        return []  # the host paused the game: nobody may act until it resumes
    if p is not None:
        return game.legal(game_of(state), seat, state["id"])
    return []


def build_entry(
    change: Change,
    now: int,
    grace_ms: int,
    bot_delay_ms: int,
    deadlines: list[Deadline] | None = None,
    answers: game_room.Answers | None = None,
) -> Entry:
    """The log entry of ``change`` committed at ``now``: its actions, events, lobby, chat and
    notice, and while a game is played each pending seat's legal actions and deadline
    (``deadlines``: the room's :func:`room_deadlines` when the caller has them). A seat
    whose answer to the open claim window is held (``answers``) has no legal actions and no
    deadline (each seat is sent only its own: server/room/frames.py)."""
    state = change.state
    entry: Entry = {"t": now, "kind": change.kind, "actor": change.actor}
    if change.actions:
        entry["actions"] = change.actions
    if change.events:
        entry["events"] = change.events
    if change.lobby_changed:
        entry["lobby"] = public_lobby(state)
    if change.chat is not None:
        entry["chat"] = change.chat
    if change.notice is not None:
        entry["notice"] = change.notice
    if state["status"] == "playing" and state.get("game") is not None:
        entry["playing"] = True
        if deadlines is None:
            deadlines = room_deadlines(state, grace_ms, bot_delay_ms)
        timeouts = seat_timeouts(deadlines) if deadlines else {}
        answered = game_room.held_answers(state, answers) if answers else {}
        legal: dict[str, list[GameJSON]] = {}
        seat_deadlines: dict[str, int] = {}
        held = rooms.held(state) is not None  # paused: nobody may act until it resumes
        for k, p in state["pending"].items():
            i = int(k)
            done = i in answered
            legal[k] = (
                [] if p["auto"] or held or done else game.legal(game_of(state), i, state["id"])
            )
            d = None if done else timeouts.get(i)
            if d is not None:
                seat_deadlines[k] = d
        entry["legal"] = legal
        entry["deadlines"] = seat_deadlines
        entry["clocks"] = public_clocks(state, deadlines)
    return entry


def changes_anything(change: Change) -> bool:
    """Whether committing ``change`` would tell anyone anything (else nothing is committed)."""
    return bool(
        change.persist
        or change.lobby_changed
        or change.events
        or change.actions
        or change.chat is not None
        or change.notice is not None
    )
