"""A room's commands: every request that changes a room, and the timer's tick, as typed values, and :func:`step`, the one entry point that applies any of them to a room's state.

The shell (handlers, presence, retention, the timer loop) builds a command and has
:meth:`server.flow.commits.Commits.apply` commit it; the commit calls :func:`step` with the room's
latest state, the time of that attempt, the server's :class:`Timing` and the answers held
for its claim window, and gets back an :class:`Outcome`: everything the commit writes (the
new state, its log entry, the room's next deadline) and the two facts it decides how to
write it by. Nothing here reads a clock, draws randomness of its own or does I/O: the time
is ``now``, and the tick's randomness and its bots' decisions come in the command
(docs/server.md, "Layers").
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from server.room import facts, game, game_room, host, rooms
from server.room.held_answers import Held, holds_answers, window_key
from server.room.jsonread import obj
from server.room.rooms import Change
from server.room.state import Entry, GameJSON, RoomState


@dataclass(frozen=True, slots=True)
class Timing:
    """The server's settings a room's deadlines are computed with: how long an away
    player's seat waits before a bot plays it, and how long a bot waits before it moves."""

    grace_ms: int
    bot_delay_ms: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """A command's effect on a room, ready to commit: the :class:`~server.rooms.Change`
    (its new state, events, notice), the log entry committed at the step's ``now`` (with
    each pending seat's legal actions and deadline: ``facts.build_entry``), the room's next
    deadline (None: nothing is due by itself), whether the claim window open before is no
    longer the one open (the answers held for it are deleted with the commit), whether
    the change crosses a hand boundary (the commit writes the whole state, not a patch), and
    whether a player may have an answer held for the claim window open in the new state
    (``held_answers.holds_answers``: the next commit from this state reads them only then)."""

    change: Change
    entry: Entry
    next_deadline: int | None
    window_changed: bool
    boundary: bool
    holds_answers: bool

    @property
    def state(self) -> RoomState:
        return self.change.state


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
    """The host starts the game, dealt and named from ``seeds`` (the server's: the OS's
    randomness, ``server.flow.entropy.OS_SEEDS``)."""

    player: str
    seeds: game_room.Seeds


@dataclass(frozen=True, slots=True)
class Rematch:
    player: str


@dataclass(frozen=True, slots=True)
class SetToggles:
    player: str
    changes: dict[str, bool]


@dataclass(frozen=True, slots=True)
class Play:
    """A table action of the player's seat. ``hold``: an answer to a claim window may be
    held until the window closes (``game_room.answer``); without, it is committed at once
    (``game_room.play``: while a process of before held answers is live)."""

    player: str
    action: GameJSON
    hold: bool


@dataclass(frozen=True, slots=True)
class CloseIdle:
    """The retention sweeper's close of an abandoned room: only if the room is still
    ``judged`` (the state it was found idle in; any change since calls the close off)."""

    judged: RoomState


@dataclass(frozen=True, slots=True)
class Tick:
    """What falls due by itself: timeouts, bots' moves, a grace's end, the next deal, a
    claim window's close. ``rng``: the randomness of the bots' choices (recorded by the
    caller); ``choose``: how the bots decide within their time budget (None: here);
    ``wall_seed``: where a deal's wall comes from (the server's: the OS's randomness; None:
    drawn from ``rng``)."""

    rng: random.Random
    choose: game.Chooser | None = None
    max_steps: int = 32
    wall_seed: game_room.WallSeed | None = None


Command = (
    Join | Leave | Sit | Stand | Ready | AddBot | RemoveBot | Rename | SetAway | Chat
    | SwapSeats | Kick | MakeHost | PauseGame | ResumeGame | StartGame | Rematch
    | SetToggles | Play | CloseIdle | Tick
)  # fmt: skip


def step(
    state: RoomState,
    command: Command,
    now: int,
    timing: Timing,
    answers: game_room.Answers | None = None,
) -> Outcome | Held | None:
    """Apply ``command`` to the room ``state`` at ``now`` (ms), with the server's ``timing``
    and the ``answers`` held for its open claim window: the outcome to commit, an answer to
    hold (:class:`Held`: no commit), or None when nothing changes (or nothing anyone would
    be told of). Raises :class:`~server.rooms.RoomError` or :class:`~server.game.GameError`
    and changes nothing for a command the room refuses."""
    match command:
        case Play():
            out = _play(state, command, now, timing, answers)
        case Tick():
            return tick(state, command, now, timing, answers)
        case _:
            out = _lobby(state, command, now)
    if isinstance(out, Held):
        return out
    return _settled(state, out, now, timing, answers)


def tick(
    state: RoomState,
    command: Tick,
    now: int,
    timing: Timing,
    answers: game_room.Answers | None = None,
) -> Outcome | None:
    """:func:`step` of a :class:`Tick` (which never holds an answer): what the timer loop
    and the bot worker process run."""
    change = game_room.tick(
        state, now, timing.grace_ms, timing.bot_delay_ms, command.rng,
        max_steps=command.max_steps, bot_choose=command.choose,
        wall_seed=command.wall_seed, answers=answers,
    )  # fmt: skip
    return _settled(state, change, now, timing, answers)


def _settled(
    state: RoomState,
    change: Change | None,
    now: int,
    timing: Timing,
    answers: game_room.Answers | None,
) -> Outcome | None:
    """The outcome of ``change``, None when there is none or it tells nobody anything."""
    if change is None or not facts.changes_anything(change):
        return None
    return outcome(state, change, now, timing, answers)


def outcome(
    base: RoomState | None,
    change: Change,
    now: int,
    timing: Timing,
    answers: game_room.Answers | None = None,
) -> Outcome:
    """The :class:`Outcome` of ``change`` from the room state ``base`` (None: a new room's
    first state) at ``now``: its deadlines computed once, with the held ``answers``, and
    shared by the entry and the room's next deadline."""
    g, b = timing.grace_ms, timing.bot_delay_ms
    deadlines = facts.room_deadlines(change.state, g, b, answers)
    return Outcome(
        change,
        facts.build_entry(change, now, g, b, deadlines, answers),
        facts.next_deadline(deadlines),
        base is not None and window_key(base) != window_key(change.state),
        base is None or boundary(base, change.state),
        holds_answers(change.state),
    )


def boundary(before: RoomState, after: RoomState) -> bool:
    """Whether a change from ``before`` to ``after`` crosses a hand boundary (a hand or a
    game starts or ends, the room's status changes): a commit writing a snapshot there
    starts each hand's patches afresh."""
    if before.get("status") != after.get("status") or before.get("game_no") != after.get("game_no"):
        return True
    g0, g1 = obj(before.get("game")), obj(after.get("game"))
    if g0.get("hands_played") != g1.get("hands_played"):
        return True
    return bool(obj(g0.get("hand")).get("number") != obj(g1.get("hand")).get("number"))


def _play(
    state: RoomState, c: Play, now: int, timing: Timing, answers: game_room.Answers | None
) -> Change | Held | None:
    if not c.hold:
        return game_room.play(state, c.player, c.action, now)
    return game_room.answer(
        state, c.player, c.action, now, answers or {}, timing.grace_ms, timing.bot_delay_ms
    )


def _lobby(state: RoomState, c: Command, now: int) -> Change | None:
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
            return game_room.start(state, c.player, now, c.seeds)
        case Rematch():
            return game_room.rematch(state, c.player)
        case SetToggles():
            return game_room.set_toggles(state, c.player, c.changes, now)
        case CloseIdle():
            return rooms.close_idle(state) if state == c.judged else None
    raise TypeError(f"not a lobby command: {c!r}")
