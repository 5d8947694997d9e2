"""The answers players gave to a claim window that the server holds outside the room's commits, and the window's close in one step that applies every answer.

Pure functions over a room's state (``server/room/game_room.py`` decides when a window closes and
holds a player's answer; ``server/storage/answer.lua`` stores it). Time and randomness are arguments.
"""

from __future__ import annotations

import random
from typing import NamedTuple, TypedDict

from server.room import game
from server.room.jsonread import num, obj
from server.room.rooms import SEATS, Change, game_of
from server.room.state import GameJSON, RoomState

__all__ = [
    "Answers",
    "Held",
    "close_window",
    "held_answers",
    "holds_answers",
    "turn_order",
    "window_key",
    "window_needs_bot",
]

#: the answers players gave to the open claim window and the server holds outside the
#: room's commits (server/storage/store.py ``{room:<id>}:answers``): seat -> ``{"g": game_no, "a":
#: the action}``. Only those to the window open now count (:func:`held_answers`)
Answers = dict[int, "HeldAnswer"]


class HeldAnswer(TypedDict):
    """One held answer as stored: the game it was given in and the action."""

    #: the room's ``game_no`` when it was given
    g: int
    #: the table action (its ``seq``: the window's decision id)
    a: GameJSON


class Held(NamedTuple):
    """An answer to a claim window to hold, not commit (``game_room.answer``): ``record`` for seat
    ``seat``; the room's next deadline is then ``deadline`` (the window's close, unless
    something else is due first; None: nothing is due until a player without a claim
    timeout answers)."""

    seat: int
    record: HeldAnswer
    deadline: int | None


def window_key(state: RoomState) -> tuple[int, int] | None:
    """The claim (or robbing) window open in the room's game: (game number, decision id),
    None when none is."""
    for p in state["pending"].values():
        if p["kind"] == "claim":
            return int(state.get("game_no") or 0), p["id"]
    return None


def holds_answers(state: RoomState) -> bool:
    """Whether a player of the room may have an answer held for the window open now (a
    claim window with a seat a player answers): only then are held answers read."""
    if window_key(state) is None:
        return False
    seats = state["seats"]
    for k, p in state["pending"].items():
        seat = seats[int(k)]
        if p["kind"] == "claim" and seat is not None and not seat["bot"]:
            return True
    return False


def held_answers(state: RoomState, answers: Answers | None) -> dict[int, GameJSON]:
    """The held ``answers`` that answer the window open now: seat -> action (a record of an
    older window, or of a seat no longer asked, does not count)."""
    if not answers:
        return {}
    key = window_key(state)
    if key is None:
        return {}
    pending = state["pending"]
    out: dict[int, GameJSON] = {}
    for seat, rec in answers.items():
        action = rec.get("a") or {}
        p = pending.get(str(seat))
        if (
            p is not None
            and p["kind"] == "claim"
            and int(rec.get("g", -1)) == key[0]
            and action.get("seq") == key[1]
        ):
            out[int(seat)] = action
    return out


def turn_order(s: RoomState, seats: list[int]) -> list[int]:
    """``seats`` in turn order from the seat after the one whose tile the window is about."""
    d = obj(obj(s.get("game"))["hand"] if s.get("game") else None).get("discarder")
    if d is None:
        return sorted(seats)
    after = num(d)
    return sorted(seats, key=lambda i: (i - after - 1) % SEATS)


def close_window(
    s: RoomState,
    change: Change,
    now: int,
    answers: Answers | None,
    rng: random.Random | None,
    bot_choose: game.Chooser | None,
) -> None:
    """Close the claim window open in ``s`` (changed in place): every seat's answer applied
    in turn order, in one step — the held answer of a player who gave one, a bot's, a
    player's own setting, the server's pass for a seat without a choice, the timeout of a
    player who did not answer. The log entry lists them all (the replay is exact). An
    answer the window no longer waits for (it closed early) is left out. The caller then
    refreshes the room's open decisions (``game_room``'s step after every game change)."""
    key = window_key(s)
    pending = s["pending"]
    seats = turn_order(s, [int(k) for k, p in pending.items() if p["kind"] == "claim"])
    answered = held_answers(s, answers)
    # the answers are applied to the parsed state one after another; its JSON is made once,
    # at the end (or before a bot decides: the bot reads it)
    base = game_of(s)
    base_st = st = game.parsed_state(base, s["id"])
    for i in seats:
        if key is None or not game.claim_open_in(st, i, key[1]):
            continue  # the window closed before this seat's turn (or it had answered)
        seat = s["seats"][i]
        p = pending[str(i)]
        act = p.get("act")
        parsed = None
        if i in answered:
            action = dict(answered[i])
        elif seat is not None and (seat["bot"] or seat.get("auto")):
            base = game.state_json(base, base_st, st, s["id"])
            base_st = st
            action = game.bot_action(base, i, rng or random.Random(now), bot_choose, s["id"])
        elif act is not None:
            action = dict(act)
        else:  # the server's own pass (a seat with no choice) or timeout: not parsed again
            action, parsed = game.server_action_at(st.seq, i, timeout=not p["auto"])
        try:
            st, events = game.step(st, action, parsed)
        except game.GameError:
            if i not in answered:
                raise
            # (never: a held answer was checked when it was given, and the answers before
            # it in the window do not change it) the seat times out instead
            action, parsed = game.server_action_at(st.seq, i, timeout=True)
            st, events = game.step(st, action, parsed)
        change.actions.append(action)
        change.events.extend(events)
    s["game"] = game.state_json(base, base_st, st, s["id"])


def window_needs_bot(state: RoomState, answers: Answers | None) -> bool:
    """Whether closing the window open in ``state`` asks a bot for an answer (a bot seat, or
    a seat a bot plays, that has no held answer)."""
    answered = held_answers(state, answers)
    for k, p in state["pending"].items():
        seat = state["seats"][int(k)]
        if (
            p["kind"] == "claim"
            and int(k) not in answered
            and seat
            and (seat["bot"] or seat.get("auto"))
        ):
            return True
    return False
