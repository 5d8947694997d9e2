"""The working copy: a mutable copy of a :class:`~table.game_state.GameState` that one
:func:`~table.engine.apply` changes and freezes into the next state, and the events it
records."""

from __future__ import annotations

from typing import Any

from scoring.engine import RuleSet
from scoring.tiles import Wind as ScoringWind
from table import events as E
from table.errors import (
    WrongPhaseError,
)
from table.game_state import GameState
from table.model import (
    Event,
    Payment,
)
from table.scoring_bridge import get_scoring_ruleset
from table.state import HandState, SeatState, replace_hand
from table.wire import Wind as WindCode
from table.wire import to_wire

__all__ = ["WIND_CODES", "WorkingCopy", "event_has_owner", "make_event", "wind_code"]


#: per event definition: whether it has an owner (``EventData.owner``: secret or private),
#: None when the class defines its own ``owner`` / ``secret`` (then they are called)
_OWNED: dict[type, bool | None] = {}


def make_event(ev: E.EventData) -> Event:
    """The event of a definition: its JSON form, owner and secret fields."""
    cls = type(ev)
    owned = _OWNED[cls] if cls in _OWNED else event_has_owner(cls)
    if owned is None:
        return Event(ev.TYPE, to_wire(ev), ev.owner(), ev.secret())
    owner: int | None = getattr(ev, "seat", None) if owned else None
    return Event(ev.TYPE, to_wire(ev), owner, ev.SECRET)


def event_has_owner(cls: type) -> bool | None:
    base = E.EventData
    if getattr(cls, "owner", None) is not base.owner or getattr(cls, "secret", None) is not (
        base.secret
    ):
        out: bool | None = None
    else:
        out = bool(getattr(cls, "SECRET", ()) or getattr(cls, "PRIVATE", False))
    _OWNED[cls] = out
    return out


class WorkingCopy:
    """Mutable working copy of a GameState used inside one apply()."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.params = state.params
        self._ruleset: RuleSet[Any] | None = None
        self.seq = state.seq
        self.phase = state.phase
        self.dealer = state.dealer
        self.round_index = state.round_index
        self.hands_played = state.hands_played
        self.streak = state.streak
        self.scores = list(state.scores)
        self.ledger = state.ledger
        self.last_result = state.last_result
        self.current_hand: HandState | None = state.hand
        #: fields :meth:`update_hand` gave the hand and not yet built into ``current_hand`` (built when the hand
        #: is read, or once at :meth:`freeze` with the seats: one new hand per action)
        self.hand_changes: dict[str, Any] = {}
        self.seats: list[SeatState] = list(state.hand.seats) if state.hand else []
        self.events: list[Event] = []
        self.advance_seq = True

    @property
    def ruleset(self) -> RuleSet[Any]:
        """The scoring rule set (looked up when first needed: most actions score nothing)."""
        ruleset = self._ruleset
        if ruleset is None:
            cfg = self.state.config
            ruleset = self._ruleset = get_scoring_ruleset(cfg.ruleset, cfg.patterns)
        return ruleset

    # hand helpers
    @property
    def hand(self) -> HandState:
        h = self.current_hand
        if h is None:
            raise WrongPhaseError("no hand in play")
        if self.hand_changes:
            h = self.current_hand = replace_hand(h, self.hand_changes)
            self.hand_changes = {}
        return h

    def update_hand(self, **kw: Any) -> None:
        """Set fields of the hand (as ``dataclasses.replace``; built when next read)."""
        if self.current_hand is None:
            raise WrongPhaseError("no hand in play")
        if self.hand_changes:
            self.hand_changes.update(kw)
        else:
            self.hand_changes = kw

    def emit(self, ev: E.EventData) -> None:
        """Record an event (its JSON form, owner and secret fields from its definition)."""
        self.events.append(make_event(ev))

    def pay(self, payer: int, payee: int, amount: int, reason: str) -> None:
        if amount == 0 or payer == payee:
            return
        p = Payment(self.hands_played, payer, payee, amount, reason)
        self.ledger = (*self.ledger, p)
        self.scores[payer] -= amount
        self.scores[payee] += amount
        self.emit(E.Payment(hand=p.hand, payer=payer, payee=payee, amount=amount, reason=reason))

    def _scores(self) -> tuple[int, int, int, int]:
        """The scores, as the state's own tuple when no payment changed them (so its JSON is
        shared with the state before's: ``GameState.to_json``)."""
        sc, old = self.scores, self.state.scores
        if sc[0] == old[0] and sc[1] == old[1] and sc[2] == old[2] and sc[3] == old[3]:
            return old
        return (sc[0], sc[1], sc[2], sc[3])

    def freeze(self) -> GameState:
        hand = self.current_hand
        if hand is not None:
            kw = self.hand_changes
            ws, hs = self.seats, hand.seats
            if ws[0] is not hs[0] or ws[1] is not hs[1] or ws[2] is not hs[2] or ws[3] is not hs[3]:
                kw = {**kw, "seats": (ws[0], ws[1], ws[2], ws[3])}
            if kw:
                hand = replace_hand(hand, kw)
        return GameState(
            config=self.state.config,
            params=self.params,
            seq=self.seq + (1 if self.advance_seq else 0),
            phase=self.phase,
            dealer=self.dealer,
            round_index=self.round_index,
            hands_played=self.hands_played,
            streak=self.streak,
            scores=self._scores(),
            ledger=self.ledger,
            hand=hand,
            last_result=self.last_result,
        )


WIND_CODES: tuple[WindCode, ...] = ("we", "ws", "ww", "wn")


def wind_code(w: ScoringWind) -> WindCode:
    """A scoring ``Wind`` as its wire code."""
    return WIND_CODES[w.index]
