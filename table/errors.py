"""Typed errors of the table engine.

Every illegal action raises a :class:`TableError`; its ``code`` is a stable string the server
puts on the wire and ``str(error)`` says what is wrong. A failed :func:`table.apply` changes
nothing (states are immutable values).
"""

from __future__ import annotations

__all__ = [
    "BadActionError",
    "BadConfigError",
    "ClaimNotAllowedError",
    "GameOverError",
    "IllegalActionError",
    "NotAWinningHandError",
    "NotWaitingForSeatError",
    "NotYourTurnError",
    "StaleSequenceError",
    "TableError",
    "TileNotInHandError",
    "UnknownRulesetError",
    "WrongPhaseError",
]


class TableError(ValueError):
    """Base class: an action the table cannot accept."""

    code = "illegal-action"


class BadActionError(TableError):
    """A malformed action (bad JSON, unknown type, missing field, bad seat number…)."""

    code = "bad-action"


class BadConfigError(TableError):
    """A game configuration the table cannot play (unknown house rule, bad value…)."""

    code = "bad-config"


class UnknownRulesetError(TableError):
    """No game parameters / scoring rule set under that name."""

    code = "unknown-ruleset"


class StaleSequenceError(TableError):
    """The action was made against an older state (its ``seq`` is not the current one)."""

    code = "stale-seq"


class WrongPhaseError(TableError):
    """The action does not fit the table's phase (a discard during a claim window…)."""

    code = "wrong-phase"


class NotYourTurnError(TableError):
    """Another seat is to act."""

    code = "not-your-turn"


class NotWaitingForSeatError(TableError):
    """The claim window has no pending answer from this seat (already answered…)."""

    code = "not-waiting-for-seat"


class TileNotInHandError(TableError):
    """The seat does not hold the tile(s) the action needs."""

    code = "tile-not-in-hand"


class ClaimNotAllowedError(TableError):
    """The claim is not allowed (chow from a non-left seat, after ting, rule set forbids…)."""

    code = "claim-not-allowed"


class NotAWinningHandError(TableError):
    """A win declared on a hand that is not complete, under the minimum, or barred (過水…)."""

    code = "not-a-win"


class IllegalActionError(TableError):
    """Any other rule violation (kong with an empty wall, ting on a hand that is not ready…)."""

    code = "illegal-action"


class GameOverError(TableError):
    """The game is over; nothing more can be played."""

    code = "game-over"
