"""Who the table waits for now, and the identity of each open decision.

A *decision* is one question the table has put to one seat: "your turn" (draw done, discard
or declare), "claim" (another seat discarded: claim, win or pass) or "rob" (another seat
added a kong: rob it or pass). Each open decision has an ``id`` that stays the same for as
long as that question is open and is never given to another question of the same game.

The id is the table's ``seq`` at which the question was asked. That is sound because of how
:func:`table.apply` moves ``seq`` (see the module docstring of :mod:`table.engine`): it
stays put only while a claim or robbing window is open and seats answer it one by one, and
it advances with every other accepted action. So:

* while a window is open, every seat still asked keeps the same id, however many of the
  others answer;
* a window that closes and, in the same action, opens the next one (a 叮 seat's automatic
  discard after the next draw, a kong's replacement draw, a claim followed by a discard are
  separate actions) gives every seat asked in the new window a new id, even a seat that was
  asked in both;
* an action names the decision it answers by carrying that ``seq``; an action whose ``seq``
  is not the id of an open decision is refused as stale (``stale-seq``).

The server keeps a decision's start time and deadline exactly as long as its id is
unchanged (``server/room/rooms.py``); it never guesses whether two windows are "the same".
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from table.game_state import GameState
from table.model import Phase

__all__ = ["Decision", "DecisionKind", "asked_in_window", "decisions", "decisions_json"]


class DecisionKind(enum.Enum):
    TURN = "turn"  # the seat's own turn: discard, 叮, kong or win
    CLAIM = "claim"  # another seat's discard: claim, win or pass
    ROB = "rob"  # another seat's added kong: rob it (win) or pass

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Decision:
    """One open question to one seat."""

    seat: int
    kind: DecisionKind
    id: int  # the table seq at which it was asked; an answer carries it as its ``seq``

    def to_json(self) -> dict[str, object]:
        return {"seat": self.seat, "kind": self.kind.value, "id": self.id}


_KIND = {Phase.CLAIM: DecisionKind.CLAIM, Phase.ROB: DecisionKind.ROB}


def decisions(state: GameState) -> dict[int, Decision]:
    """The open decisions, by seat (empty between hands and after the game)."""
    h = state.hand
    if h is None or state.phase in (Phase.BETWEEN_HANDS, Phase.GAME_OVER):
        return {}
    if state.phase is Phase.TURN:
        return {h.turn: Decision(h.turn, DecisionKind.TURN, state.seq)}
    kind = _KIND[state.phase]
    return {seat: Decision(seat, kind, state.seq) for seat in h.pending}


def asked_in_window(state: GameState, seat: int, id: int) -> bool:
    """Whether :func:`decisions` holds a claim or robbing decision ``id`` for ``seat``,
    without building them (the server asks it before each answer a window's close
    applies)."""
    h = state.hand
    return h is not None and state.phase in _KIND and state.seq == id and seat in h.pending


_KIND_JSON = {"claim": DecisionKind.CLAIM, "rob": DecisionKind.ROB}


def decisions_json(state: Mapping[str, Any]) -> dict[int, tuple[DecisionKind, int]]:
    """:func:`decisions` read from the state's JSON form (``GameState.to_json()``) without
    parsing it: seat -> (kind, id). The same answer (tests/table/test_decisions.py); the
    server asks it after every action."""
    phase = state["phase"]
    h = state.get("hand")
    if h is None or phase == "between_hands" or phase == "game_over":
        return {}
    seq = int(state["seq"])
    if phase == "turn":
        return {int(h["turn"]): (DecisionKind.TURN, seq)}
    kind = _KIND_JSON[phase]
    return {int(seat): (kind, seq) for seat in h["pending"]}
