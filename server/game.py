"""The one place where the server calls into the pure table engine (``table/``).

Everything the server needs from the game goes through these functions, on plain JSON
values (what ``to_json()`` gives), so the rest of the server never touches engine types:

* ``new_game(ruleset, options)`` -> state JSON (before the first hand);
* ``start_hand_action(state, seed)`` -> the action that deals the next hand with a wall seed
  made by the server (``secrets``), or None when no hand is waiting to be dealt;
* ``apply(state, action)`` -> (state, events), raising :class:`GameError` with the engine's
  stable code and changing nothing;
* ``view(state, seat)`` / ``view_event(event, seat)`` -> what that seat (None: a spectator)
  may see: the ONLY sources of game data sent to clients;
* ``legal(state, seat)``, ``pending(state)`` (who must decide now, "turn" or "claim"),
  ``timeout_action(state, seat)``, ``bot_action(state, seat, rng)``, ``finished(state)``,
  ``summary(state)``.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

JSON = dict[str, Any]


class GameError(Exception):
    """An action the engine rejected; ``code`` is the engine's stable code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class GameUnavailable(GameError):
    def __init__(self, message: str = "the table engine is not installed") -> None:
        super().__init__("engine-unavailable", message)


def _table() -> Any:
    try:
        mod = importlib.import_module("table")
    except ImportError:
        raise GameUnavailable() from None
    if not hasattr(mod, "apply"):
        raise GameUnavailable("the table engine in this build has no apply() yet")
    return mod


def available() -> bool:
    try:
        _table()
    except GameUnavailable:
        return False
    return True


def rulesets() -> list[str]:
    try:
        params = importlib.import_module("table.params")
        return list(params.param_names())
    except ImportError:
        return []


def _wrap(exc: Exception) -> GameError:
    code = getattr(exc, "code", "illegal-action")
    return GameError(str(code), str(exc))


def new_game(ruleset: str, options: JSON) -> JSON:
    t = _table()
    try:
        return dict(t.new_game_json(ruleset, options))
    except t.TableError as exc:
        raise _wrap(exc) from None


def start_hand_action(state: JSON, seed: str) -> JSON | None:
    t = _table()
    a = t.start_hand_action_json(state, seed)
    return None if a is None else dict(a)


def apply(state: JSON, action: JSON) -> tuple[JSON, list[JSON]]:
    t = _table()
    try:
        new, events = t.apply_json(state, action)
    except t.TableError as exc:
        raise _wrap(exc) from None
    return dict(new), [dict(e) for e in events]


def view(state: JSON, seat: int | None) -> JSON:
    return dict(_table().view_json(state, seat))


def view_event(event: JSON, seat: int | None) -> JSON | None:
    v = _table().view_event_json(event, seat)
    return None if v is None else dict(v)


def legal(state: JSON, seat: int) -> list[JSON]:
    return [dict(a) for a in _table().legal_actions_json(state, seat)]


def pending(state: JSON) -> dict[int, str]:
    return {int(k): str(v) for k, v in _table().pending_json(state).items()}


def timeout_action(state: JSON, seat: int) -> JSON:
    return dict(_table().timeout_action_json(state, seat))


def bot_action(state: JSON, seat: int, rng: random.Random) -> JSON:
    return dict(_table().bot_action_json(state, seat, rng))


def finished(state: JSON) -> bool:
    return bool(_table().finished_json(state))


def summary(state: JSON) -> JSON:
    return dict(_table().summary_json(state))
