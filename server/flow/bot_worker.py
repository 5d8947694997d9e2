"""A room's timer tick run in a bot worker process (``--bot-processes``): the engine steps and the bots' decisions of :func:`server.room.commands.tick`, off the server process and its interpreter lock.

The server sends the room's state and gets back the :class:`~server.commands.Outcome` (or
None), which it commits as if it had computed it (``server/flow/loops.py``); the tick is a pure function
of its arguments, so where it runs changes nothing but which process pays for it. Errors
come back as values (the exceptions' own constructors do not survive pickling) and are
raised again in the server by :func:`result`. The worker keeps nothing of a tick's states
once it has answered (:func:`tick`; docs/memory.md).
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

from server.flow import bot_pool, entropy
from server.room import commands, game, game_room, memos
from server.room.rooms import RoomError
from server.room.state import RoomState

JSON = dict[str, Any]


def tick(
    state: RoomState,
    now: int,
    timing: commands.Timing,
    seed: int,
    budget_s: float,
    answers: game_room.Answers | None = None,
) -> tuple[Any, ...]:
    """``commands.tick`` in the worker: ("ok", its outcome or None, the legal actions of the
    seats asked to decide in the new state) or the error it raised. Then forgets what the
    engine and room caches remembered of the tick's states (keyed by identity: this
    process is sent each state anew, as a new object, so no later task could find them)."""
    try:
        return _tick(state, now, timing, seed, budget_s, answers)
    finally:
        memos.forget_all()


def remembered() -> dict[str, int]:
    """What this process's identity-keyed caches hold now (a test asks a worker)."""
    return memos.sizes()


def _tick(
    state: RoomState,
    now: int,
    timing: commands.Timing,
    seed: int,
    budget_s: float,
    answers: game_room.Answers | None,
) -> tuple[Any, ...]:
    try:
        tick = commands.Tick(
            random.Random(seed), bot_pool.chooser(budget_s), wall_seed=entropy.secret_wall_seed
        )
        out = commands.tick(state, tick, now, timing, answers)
    except RoomError as exc:
        return ("room_error", exc.code, exc.message, exc.detail)
    except game.GameError as exc:
        return ("game_error", exc.code, exc.message)
    legal: dict[int, list[JSON]] = {}
    g = None if out is None else out.state.get("game")
    if out is not None and g is not None:
        for k, p in out.state["pending"].items():
            if not p["auto"]:
                with contextlib.suppress(game.GameError):
                    legal[int(k)] = game.legal(g, int(k), out.state["id"])
    return ("ok", out, legal)


def result(reply: tuple[Any, ...]) -> commands.Outcome | None:
    """The outcome :func:`tick` sent back, or its error raised again."""
    if reply[0] == "room_error":
        raise RoomError(reply[1], reply[2], reply[3])
    if reply[0] == "game_error":
        raise game.GameError(reply[1], reply[2])
    out: commands.Outcome | None = reply[1]
    g = None if out is None else out.state.get("game")
    if out is not None and g is not None and reply[2]:
        game.known_legal(g, reply[2], out.state.get("id"))
    return out
