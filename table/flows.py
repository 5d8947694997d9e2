"""The rule flows of a game: each flow with the game parameter (:class:`~table.params.GameParams`
field) that switches it on. A new rule set's flow is one more line here and its module."""

from __future__ import annotations

from table.instant_payments import InstantPayments
from table.params import GameParams
from table.rule_flow import RuleFlow

__all__ = ["FLOWS", "flows_of"]

#: every flow, with the boolean game parameter that switches it on (called in this order)
FLOWS: tuple[tuple[str, RuleFlow], ...] = (("instant", InstantPayments()),)


def flows_of(params: GameParams) -> tuple[RuleFlow, ...]:
    """The flows of a game with ``params``."""
    return tuple([flow for name, flow in FLOWS if getattr(params, name)])
