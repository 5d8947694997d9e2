"""The table: a pure, replayable mahjong game engine (stdlib only).

* :func:`new_game` / :func:`apply` — the state machine (``apply(state, action) ->
  (state, events)``), raising typed :class:`TableError` s and changing nothing on illegal
  actions;
* :func:`view` / :func:`view_event` — the one place that decides what a seat may see;
  :func:`legal_actions` for clients and bots;
* :func:`decisions` — who the table waits for, each open decision with its identity;
* :func:`replay` — rebuild any state from its initial state and action log;
* :mod:`table.params` — the game parameters of every rule set;
* :mod:`table.wall` — the seeded shuffle and the wall commitment;
* :class:`RandomPlayer` and ``mahjong-sim`` (:mod:`table.sim`).

See docs/table.md.
"""

import mahjong_native  # noqa: F401  (first: selects the compiled or the pure modules)
from table.decisions import Decision, DecisionKind, asked_in_window, decisions, decisions_json
from table.engine import apply, new_game
from table.errors import (
    BadActionError,
    BadConfigError,
    ClaimNotAllowedError,
    GameOverError,
    IllegalActionError,
    NotAWinningHandError,
    NotWaitingForSeatError,
    NotYourTurnError,
    StaleSequenceError,
    TableError,
    TileNotInHandError,
    UnknownRulesetError,
    WrongPhaseError,
)
from table.game_state import GameState
from table.model import (
    HOUSE_RULES,
    Action,
    ActionType,
    Claim,
    Event,
    GameConfig,
    Payment,
    Phase,
)
from table.params import PARAMS, GameParams, get_params, param_names
from table.player import RandomPlayer
from table.replay import replay
from table.state import HandState, SeatState, drawable, tile_total
from table.views import legal_actions, legal_actions_json, view, view_event, view_event_json
from table.wall import build_wall, commitment, verify_commitment
from table.wins import win_check

__all__ = [
    "HOUSE_RULES",
    "PARAMS",
    "Action",
    "ActionType",
    "BadActionError",
    "BadConfigError",
    "Claim",
    "ClaimNotAllowedError",
    "Decision",
    "DecisionKind",
    "Event",
    "GameConfig",
    "GameOverError",
    "GameParams",
    "GameState",
    "HandState",
    "IllegalActionError",
    "NotAWinningHandError",
    "NotWaitingForSeatError",
    "NotYourTurnError",
    "Payment",
    "Phase",
    "RandomPlayer",
    "SeatState",
    "StaleSequenceError",
    "TableError",
    "TileNotInHandError",
    "UnknownRulesetError",
    "WrongPhaseError",
    "apply",
    "asked_in_window",
    "build_wall",
    "commitment",
    "decisions",
    "decisions_json",
    "drawable",
    "get_params",
    "legal_actions",
    "legal_actions_json",
    "new_game",
    "param_names",
    "playable_rulesets",
    "replay",
    "tile_total",
    "verify_commitment",
    "view",
    "view_event",
    "view_event_json",
    "win_check",
]


def playable_rulesets() -> list[str]:
    """Rule sets with both game parameters here and a registered scoring rule set."""
    import scoring

    have = set(scoring.ruleset_names())
    return [n for n in param_names() if n in have]
