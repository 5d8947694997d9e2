"""A room's commands: every request that changes a room, and the timer's tick, as typed values, and :func:`step`, the one entry point that applies any of them to a room's state.

The shell (handlers, presence, retention, the timer loop) builds a command and has
:meth:`server.commits.Commits.apply` commit it; the commit calls :func:`step` with the room's
latest state, the time of that attempt and the answers held for its claim window. Nothing
here reads a clock, draws randomness of its own or does I/O: the time is ``now``, and the
tick's randomness and its bots' decisions come in the command (docs/server.md, "Layers").
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from server import game, game_room, host, rooms
from server.held_answers import Held
from server.rooms import Change

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Join:
    player: str
    name: str


@dataclass(frozen=True, slots=True)
class Leave:
    player: str


@dataclass(frozen=True, slots=True)
class Sit:
    player: str
    seat: int


@dataclass(frozen=True, slots=True)
class Stand:
    player: str


@dataclass(frozen=True, slots=True)
class Ready:
    player: str
    ready: bool


@dataclass(frozen=True, slots=True)
class AddBot:
    player: str
    seat: int


@dataclass(frozen=True, slots=True)
class RemoveBot:
    player: str
    seat: int


@dataclass(frozen=True, slots=True)
class Rename:
    player: str
    name: str


@dataclass(frozen=True, slots=True)
class SetAway:
    player: str
    away: bool


@dataclass(frozen=True, slots=True)
class Chat:
    player: str
    text: str
    max_len: int


@dataclass(frozen=True, slots=True)
class SwapSeats:
    player: str
    a: int
    b: int


@dataclass(frozen=True, slots=True)
class Kick:
    player: str
    target: str


@dataclass(frozen=True, slots=True)
class MakeHost:
    player: str
    target: str


@dataclass(frozen=True, slots=True)
class PauseGame:
    player: str


@dataclass(frozen=True, slots=True)
class ResumeGame:
    player: str


@dataclass(frozen=True, slots=True)
class StartGame:
    player: str


@dataclass(frozen=True, slots=True)
class Rematch:
    player: str


@dataclass(frozen=True, slots=True)
class SetToggles:
    player: str
    changes: JSON


@dataclass(frozen=True, slots=True)
class Play:
    """A table action of the player's seat. ``hold``: an answer to a claim window may be
    held until the window closes (``game_room.answer``); without, it is committed at once
    (``game_room.play``: while a process of before held answers is live)."""

    player: str
    action: JSON
    hold: bool
    grace_ms: int
    bot_delay_ms: int


@dataclass(frozen=True, slots=True)
class CloseIdle:
    """The retention sweeper's close of an abandoned room: only if the room is still
    ``judged`` (the state it was found idle in; any change since calls the close off)."""

    judged: JSON


@dataclass(frozen=True, slots=True)
class Tick:
    """What falls due by itself: timeouts, bots' moves, a grace's end, the next deal, a
    claim window's close. ``rng``: the randomness of the bots' choices (recorded by the
    caller); ``choose``: how the bots decide within their time budget (None: here)."""

    grace_ms: int
    bot_delay_ms: int
    rng: random.Random
    choose: game.Chooser | None = None
    max_steps: int = 32


Command = (
    Join | Leave | Sit | Stand | Ready | AddBot | RemoveBot | Rename | SetAway | Chat
    | SwapSeats | Kick | MakeHost | PauseGame | ResumeGame | StartGame | Rematch
    | SetToggles | Play | CloseIdle | Tick
)  # fmt: skip


def step(
    state: JSON, command: Command, now: int, answers: game_room.Answers | None = None
) -> Change | Held | None:
    """Apply ``command`` to the room ``state`` at ``now`` (ms), with the ``answers`` held
    for its open claim window: the change (its new state, log entry parts and notice), an
    answer to hold (:class:`Held`: no commit), or None when nothing changes. Raises
    :class:`~server.rooms.RoomError` or :class:`~server.game.GameError` and changes nothing
    for a command the room refuses."""
    match command:
        case Play():
            return _play(state, command, now, answers)
        case Tick():
            return tick(state, command, now, answers)
        case _:
            return _lobby(state, command, now)


def tick(
    state: JSON, command: Tick, now: int, answers: game_room.Answers | None = None
) -> Change | None:
    """:func:`step` of a :class:`Tick` (which never holds an answer): what the timer loop
    and the bot worker process run."""
    return game_room.tick(
        state, now, command.grace_ms, command.bot_delay_ms, command.rng,
        max_steps=command.max_steps, bot_choose=command.choose, answers=answers,
    )  # fmt: skip


def _play(
    state: JSON, c: Play, now: int, answers: game_room.Answers | None
) -> Change | Held | None:
    if not c.hold:
        return game_room.play(state, c.player, c.action, now)
    return game_room.answer(
        state, c.player, c.action, now, answers or {}, c.grace_ms, c.bot_delay_ms
    )


def _lobby(state: JSON, c: Command, now: int) -> Change | None:
    """The commands of the room around the table: members, seats, host controls, chat."""
    match c:
        case Join():
            return rooms.join(state, c.player, c.name, now)
        case Leave():
            return rooms.leave(state, c.player, now)
        case Sit():
            return rooms.sit(state, c.player, c.seat)
        case Stand():
            return rooms.stand(state, c.player)
        case Ready():
            return rooms.ready(state, c.player, c.ready)
        case AddBot():
            return rooms.add_bot(state, c.player, c.seat)
        case RemoveBot():
            return rooms.remove_bot(state, c.player, c.seat)
        case Rename():
            return rooms.rename(state, c.player, c.name)
        case SetAway():
            return rooms.set_away(state, c.player, c.away, now)
        case Chat():
            return rooms.chat(state, c.player, c.text, now, c.max_len)
        case SwapSeats():
            return host.swap_seats(state, c.player, c.a, c.b)
        case Kick():
            return host.kick(state, c.player, c.target)
        case MakeHost():
            return host.make_host(state, c.player, c.target)
        case PauseGame():
            return host.pause_game(state, c.player, now)
        case ResumeGame():
            return host.resume_game(state, c.player, now)
        case StartGame():
            return game_room.start(state, c.player, now)
        case Rematch():
            return game_room.rematch(state, c.player)
        case SetToggles():
            return game_room.set_toggles(state, c.player, c.changes, now)
        case CloseIdle():
            return rooms.close_idle(state) if state == c.judged else None
    raise TypeError(f"not a lobby command: {c!r}")
