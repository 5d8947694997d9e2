"""Replay: rebuild the exact state from the initial state and the action log."""

from __future__ import annotations

from collections.abc import Iterable

from table.engine import apply
from table.game_state import GameState
from table.model import Action, Event

__all__ = ["replay"]


def replay(initial: GameState, actions: Iterable[Action]) -> tuple[GameState, list[Event]]:
    """Apply ``actions`` in order to ``initial``; return the final state and all events.

    Raises the first :class:`~table.errors.TableError` met (a log of accepted actions never
    raises)."""
    state = initial
    events: list[Event] = []
    for a in actions:
        state, ev = apply(state, a)
        events.extend(ev)
    return state, events
