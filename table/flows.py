"""The rule flows of a game: each flow with the game parameter (:class:`~table.params.GameParams`
field) that switches it on. A new rule set's flow is one more line here and its module."""

from __future__ import annotations

from table.instant_payments import InstantPayments
from table.params import GameParams
from table.rule_flow import RuleFlow

__all__ = ["FLOWS", "flows_of"]

#: every flow, with the boolean game parameter that switches it on (called in this order)
FLOWS: tuple[tuple[str, RuleFlow], ...] = (("instant", InstantPayments()),)


#: the last parameters asked about, the :data:`FLOWS` then and the flows (one game's
#: parameters are one object from action to action, and the engine asks several times per
#: action)
_last: tuple[GameParams | None, object, tuple[RuleFlow, ...]] = (None, None, ())


def flows_of(params: GameParams) -> tuple[RuleFlow, ...]:
    """The flows of a game with ``params``."""
    global _last
    last = _last
    if last[0] is params and last[1] is FLOWS:
        return last[2]
    flows = tuple([flow for name, flow in FLOWS if getattr(params, name)])
    _last = (params, FLOWS, flows)
    return flows
