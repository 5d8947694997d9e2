"""The state machine: ``apply(state, action) -> (new_state, events)``.

Pure: no clocks, no randomness (the wall seed and timeouts are inputs carried by actions), no
I/O. States are immutable; :func:`apply` works on a private mutable copy (the working copy,
:mod:`table.working`) and returns a new state, so an action that raises a
:class:`~table.errors.TableError` changes nothing.

Sequence numbers: ``state.seq`` names the current decision point. Every action carries the
``seq`` it was made against; any other value is rejected as stale. ``seq`` advances after
every accepted action except the answers inside a claim / robbing window that leave the window
open, so the three seats prompted after a discard all answer against the same ``seq``.

The engine is split by concern: :mod:`table.deal` (the start of a hand), :mod:`table.turn`
(draws, discards, the turn seat's kongs), :mod:`table.claims` (claim and robbing windows),
:mod:`table.wins` (whether a seat may win and the hand it wins with), :mod:`table.hand_end`
(settlement, the end of a hand and of the game), :mod:`table.scoring_bridge` (the questions
to the scoring engine) and the rule flows called at named points (:mod:`table.flows`).
Winning hands are judged and valued only by the shared scoring engine (``scoring``): the
table builds the full :class:`scoring.Hand` with its context and asks the rule set.
"""

from __future__ import annotations

from table.claims import answer, pass_leaving_window_open
from table.deal import start_hand
from table.errors import (
    BadActionError,
    GameOverError,
    StaleSequenceError,
    UnknownRulesetError,
    WrongPhaseError,
)
from table.game_state import GameState
from table.model import Action, ActionType, Event, GameConfig, Phase
from table.scoring_bridge import get_scoring_ruleset
from table.turn import turn_action
from table.working import WorkingCopy

__all__ = ["apply", "new_game"]


def new_game(config: GameConfig | str) -> GameState:
    """A new game waiting for its first ``start_hand``."""
    cfg = GameConfig(config) if isinstance(config, str) else config
    params = cfg.params()
    cfg.settlement_options()  # validate (BadConfigError)
    rs = get_scoring_ruleset(cfg.ruleset, cfg.patterns)
    if rs.hand_size != params.hand_size:
        raise UnknownRulesetError(
            f"rule set {cfg.ruleset!r}: scoring hand size {rs.hand_size} != table "
            f"parameters {params.hand_size}"
        )
    return GameState(
        config=cfg,
        params=params,
        seq=0,
        phase=Phase.BETWEEN_HANDS,
        dealer=cfg.first_dealer,
        round_index=0,
        hands_played=0,
        streak=0,
        scores=(0, 0, 0, 0),
        ledger=(),
        hand=None,
    )


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply one action; return the new state and the events it caused.

    Raises a :class:`~table.errors.TableError` (and changes nothing) when the action is
    illegal.
    """
    if not isinstance(action, Action):
        raise BadActionError("not an Action")
    if state.phase is Phase.GAME_OVER:
        raise GameOverError("the game is over")
    if action.seq != state.seq:
        raise StaleSequenceError(
            f"action made against seq {action.seq}; the table is at seq {state.seq}"
        )
    if action.seat is not None and (
        isinstance(action.seat, bool) or action.seat not in (0, 1, 2, 3)
    ):
        raise BadActionError(f"seat must be 0-3, got {action.seat!r}")
    phase = state.phase
    t = action.type
    if (phase is Phase.CLAIM or phase is Phase.ROB) and (
        t is ActionType.PASS or t is ActionType.TIMEOUT
    ):
        quick = pass_leaving_window_open(state, action)
        if quick is not None:
            return quick
    w = WorkingCopy(state)
    if phase is Phase.BETWEEN_HANDS:
        if t is not ActionType.START_HAND:
            raise WrongPhaseError(f"{t.value}: no hand in play (waiting for start_hand)")
        start_hand(w, action)
    elif t is ActionType.START_HAND:
        raise WrongPhaseError("start_hand: a hand is in play")
    elif phase is Phase.TURN:
        turn_action(w, action)
    else:
        answer(w, action)
    return w.freeze(), w.events
