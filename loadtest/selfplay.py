"""One room played in-process through the server's room functions (:mod:`server.room.rooms`), no
sockets and no Redis: four seated players ``p0``..``p3`` answer with the load test's policy
(:func:`loadtest.rooms.pick_action`). Used by ``benchmarks/bench_hotpath.py`` (CPU per
action) and by the events-frame test (the entries of a played game)."""

from __future__ import annotations

import random
from collections.abc import Callable, Container
from typing import Any

from loadtest.rooms import pick_action
from server.flow import entropy
from server.room import game_room, rooms
from server.room.options import validate_options
from server.room.state import RoomState

__all__ = ["ROOM", "StuckTableError", "next_change", "next_step", "started_room"]

JSON = dict[str, Any]

#: The room's id.
ROOM = "r_1"


class StuckTableError(RuntimeError):
    """No seat has a legal action and running the room's timers changes nothing."""


def started_room(
    ruleset: str,
    now: int,
    *,
    hands: int,
    turn_seconds: int,
    claim_seconds: int = 0,
    wall_seed: game_room.WallSeed = entropy.secret_wall_seed,
) -> tuple[list[rooms.Change], rooms.Change]:
    """Room :data:`ROOM` opened by ``p0``, joined by ``p1``..``p3``, each player sitting at
    the seat of its number and ready, and the game of ``hands`` hands started (no pause
    between hands; claim windows without a time limit unless ``claim_seconds``): (the three
    joins' changes, the start's change). ``wall_seed``: the deal's randomness (a fixed one
    replays the same deals)."""
    opts = validate_options(
        ruleset,
        {
            "length": "hands",
            "hands": hands,
            "hand_pause_ms": 0,
            "turn_seconds": turn_seconds,
            "claim_seconds": claim_seconds,
        },
    )
    s = rooms.new_room(ROOM, "ABCDEF", "p0", "A", ruleset, opts, now).state
    joins: list[rooms.Change] = []
    for i in range(4):
        if i:
            ch = rooms.join(s, f"p{i}", f"P{i}")
            joins.append(ch)
            s = ch.state
        s = rooms.sit(s, f"p{i}", i).state
        s = rooms.ready(s, f"p{i}", True).state
    return joins, game_room.start(s, "p0", now, game_room.Seeds(wall_seed, entropy.new_game_id))


def _first_move(
    entry: JSON, rng: random.Random, answered: Container[int] = ()
) -> tuple[str, JSON] | None:
    """The first seat by number with a legal action (and no answer in ``answered``) and
    ``pick_action``'s choice for it, without the seat (the server fills it in): (player,
    action), or None when no seat has anything to do."""
    for k, legal in sorted((entry.get("legal") or {}).items()):
        if int(k) in answered:
            continue
        a = pick_action(legal, rng)
        if a is not None:
            return f"p{k}", {key: v for key, v in a.items() if key != "seat"}
    return None


def _ran(change: rooms.Change | None) -> rooms.Change:
    if change is None:
        raise StuckTableError("no seat can act and the room's timers change nothing")
    return change


def next_change(
    state: RoomState,
    entry: JSON,
    rng: random.Random,
    now: int,
    play: Callable[[RoomState, str, JSON, int], rooms.Change] = game_room.play,
    tick: Callable[[RoomState, int], rooms.Change | None] | None = None,
    wall_seed: game_room.WallSeed = entropy.secret_wall_seed,
) -> tuple[rooms.Change, bool]:
    """The playing room's next change after ``entry`` (its latest ``facts.build_entry``): the
    first seat by number with a legal action plays ``pick_action``'s choice through ``play``
    (``game_room.play``, or a wrapper that times it) -- (the change, True); when no seat has
    anything to do (a deal is due: pauses are 0, or the server answers a claim window for a
    seat without a choice), the room's timers run through ``tick`` (``game_room.tick`` at a
    time when everything is due, or a wrapper that times it) -- (their change, False)."""
    move = _first_move(entry, rng)
    if move is not None:
        return play(state, move[0], move[1], now), True
    if tick is None:
        return _ran(game_room.tick(state, now + 10**7, 1000, 0, rng, wall_seed=wall_seed)), False
    return _ran(tick(state, now)), False


def next_step(
    state: RoomState,
    entry: JSON,
    answers: game_room.Answers,
    rng: random.Random,
    now: int,
    answer: Callable[[RoomState, str, JSON, int, game_room.Answers], rooms.Change | game_room.Held],
    tick: Callable[[RoomState, int, game_room.Answers], rooms.Change | None],
) -> tuple[rooms.Change | game_room.Held, bool]:
    """As :func:`next_change`, the way the server takes a player's answer to a claim window
    since held answers (``server/api/handlers.py``): the first seat by number with a legal action
    and no answer in ``answers`` (those held for the window open now) plays through
    ``answer`` (``game_room.answer`` with ``answers``, or a wrapper): a
    :class:`game_room.Held` to hold (the state is unchanged; the caller adds it to
    ``answers``) or the change to commit -- (it, True); else the room's timers run through
    ``tick`` (with ``answers``: the close of the window applies them) -- (their change,
    False)."""
    move = _first_move(entry, rng, game_room.held_answers(state, answers))
    if move is not None:
        return answer(state, move[0], move[1], now, answers), True
    return _ran(tick(state, now, answers)), False
