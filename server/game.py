"""The one place where the server calls into the pure table engine (``table/``).

Everything the server needs from the game goes through these functions, on plain JSON
values (what the engine's ``to_json()`` gives), so the rest of the server never touches
engine types and the room state stored in Redis is plain msgpack-able data:

* ``new_game(ruleset, options)`` -> state JSON (before the first hand);
* ``start_hand_action(state, seed)`` -> the system action that deals the next hand with a
  wall seed made by the server (``secrets``), or None when no hand is waiting to be dealt;
* ``apply(state, action)`` -> (state, events), raising :class:`GameError` with the engine's
  stable code and changing nothing;
* ``view(state, seat)`` / ``view_event(event, seat)`` -> what that seat (None: a spectator)
  may see: the ONLY sources of game data sent to clients;
* ``legal(state, seat)``, ``pending(state)`` (who must decide now: "turn" or "claim"),
  ``timeout_action(state, seat)``, ``bot_action(state, seat, rng)``, ``finished(state)``,
  ``summary(state)``.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

JSON = dict[str, Any]

LENGTH_ROUNDS = {"one_round": 1, "two_rounds": 2, "four_rounds": 4}


class GameError(Exception):
    """An action the engine rejected; ``code`` is the engine's stable code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class GameUnavailable(GameError):
    def __init__(self, message: str = "the table engine is not installed") -> None:
        super().__init__("engine-unavailable", message)


_T: Any = None


def _table() -> Any:
    global _T
    if _T is None:
        try:
            _T = importlib.import_module("table")
        except ImportError:
            raise GameUnavailable() from None
    return _T


def available() -> bool:
    try:
        _table()
    except GameUnavailable:
        return False
    return True


def rulesets() -> list[str]:
    """Rule sets a room can be created with: game parameters and a scoring rule set."""
    try:
        return list(_table().playable_rulesets())
    except GameUnavailable:
        return []


def _wrap(exc: Exception) -> GameError:
    return GameError(str(getattr(exc, "code", "illegal-action")), str(exc))


# The last few (state JSON, parsed GameState) pairs: one action needs the same state parsed
# for apply, legal actions of up to three seats, the bot and the deadlines. Entries are keyed
# by the dict's identity and hold a reference to it, so an id is never reused while cached;
# state JSON is never mutated in place (rooms.py always builds new dicts).
_PARSED: list[tuple[JSON, Any]] = []


def _state(state: JSON) -> Any:
    for js, st in _PARSED:
        if js is state:
            return st
    t = _table()
    try:
        st = t.GameState.from_json(state)
    except t.TableError as exc:
        raise _wrap(exc) from None
    _remember(state, st)
    return st


def _remember(state: JSON, parsed: Any) -> None:
    _PARSED.insert(0, (state, parsed))
    del _PARSED[4:]


def check_config(ruleset: str, house_rules: JSON | None, settlement: JSON | None) -> str | None:
    """Why the table refuses these house rules / settlement options (None: it accepts)."""
    t = _table()
    try:
        t.GameConfig.from_json(
            {"ruleset": ruleset, "house_rules": house_rules, "settlement": settlement}
        )
    except t.TableError as exc:
        return str(exc)
    return None


def new_game(ruleset: str, options: JSON) -> JSON:
    t = _table()
    length = options.get("length")
    rounds = LENGTH_ROUNDS.get(str(length))
    hands = options.get("hands") if length == "hands" else None
    try:
        cfg = t.GameConfig(
            ruleset,
            rounds=rounds,
            max_hands=hands,
            house_rules=tuple(sorted((options.get("house_rules") or {}).items())),
            settlement=tuple(sorted((options.get("settlement") or {}).items())),
        )
        return dict(t.new_game(cfg).to_json())
    except t.TableError as exc:
        raise _wrap(exc) from None
    except (KeyError, ValueError) as exc:
        raise GameError("unknown-ruleset", str(exc)) from None


def start_hand_action(state: JSON, seed_hex: str) -> JSON | None:
    t = _table()
    if state.get("phase") != t.Phase.BETWEEN_HANDS.value:
        return None
    a = t.Action(t.ActionType.START_HAND, None, int(state["seq"]), seed=bytes.fromhex(seed_hex))
    return dict(a.to_json())


def apply(state: JSON, action: JSON) -> tuple[JSON, list[JSON]]:
    t = _table()
    try:
        a = t.Action.from_json(action)
        if a.wall is not None:
            raise t.BadActionError("a preset wall is not accepted from clients")
        new, events = t.apply(_state(state), a)
    except t.TableError as exc:
        raise _wrap(exc) from None
    out = dict(new.to_json())
    _remember(out, new)
    return out, [dict(e.to_json()) for e in events]


def complete_action(state: JSON, action: JSON, seat: int) -> JSON:
    """A client's action with its seat filled in, and the table's seq when it sent none."""
    out = {**action, "seat": seat}
    if "seq" not in out:
        out["seq"] = int(state["seq"])
    return out


def table_seq(state: JSON) -> int:
    return int(state["seq"])


def view(state: JSON, seat: int | None) -> JSON:
    t = _table()
    return dict(t.view(_state(state), seat))


def view_event(event: JSON, seat: int | None) -> JSON | None:
    t = _table()
    return dict(t.view_event(t.Event.from_json(event), seat))


def legal(state: JSON, seat: int) -> list[JSON]:
    t = _table()
    return [dict(a.to_json()) for a in t.legal_actions(_state(state), seat)]


def pending(state: JSON) -> dict[int, str]:
    """Seats the table waits for now: the turn seat, or the seats asked in a claim window."""
    phase = state.get("phase")
    hand = state.get("hand")
    if hand is None or phase in ("between_hands", "game_over"):
        return {}
    if phase == "turn":
        return {int(hand["turn"]): "turn"}
    return {int(s): "claim" for s in hand.get("pending") or []}


def timeout_action(state: JSON, seat: int) -> JSON:
    t = _table()
    return dict(t.Action(t.ActionType.TIMEOUT, seat, int(state["seq"])).to_json())


def bot_action(state: JSON, seat: int, rng: random.Random) -> JSON:
    t = _table()
    a = t.RandomPlayer(rng).choose(_state(state), seat)
    if a is None:
        return timeout_action(state, seat)
    return dict(a.to_json())


def finished(state: JSON) -> bool:
    return state.get("phase") == "game_over"


def between_hands(state: JSON) -> bool:
    return state.get("phase") == "between_hands"


def summary(state: JSON) -> JSON:
    """The end-of-game summary: final scores and the whole ledger (all public)."""
    return {
        "ruleset": state["config"]["ruleset"],
        "hands_played": state.get("hands_played"),
        "scores": state.get("scores"),
        "ledger": state.get("ledger"),
        "last_result": state.get("last_result"),
    }
