"""The whole game's state: progress, the ledger and the hand in play (an immutable value
with ``to_json()`` / ``from_json()``; the seat and hand states are in :mod:`table.state`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.tiles import Wind
from table.codec import result_json, value_repr
from table.model import GameConfig, Payment, Phase
from table.params import GameParams
from table.state import HandState

__all__ = ["GameState"]


class GameState:
    """The whole table: game progress, the ledger and the hand in play.

    Immutable (never assign to a field). A plain class with a hand-written ``__init__``,
    ``__eq__``, ``__hash__`` and ``__repr__`` (a frozen dataclass's meaning), not a frozen
    dataclass: its generated ``__init__`` is one ``object.__setattr__`` per field,
    interpreted even when compiled (mypyc), and the engine builds new ones on every action.
    """

    __slots__ = (
        "config",
        "dealer",
        "hand",
        "hands_played",
        "last_result",
        "ledger",
        "params",
        "phase",
        "round_index",
        "scores",
        "seq",
        "streak",
    )

    def __init__(
        self,
        config: GameConfig,
        params: GameParams,
        seq: int,
        phase: Phase,
        dealer: int,
        round_index: int,
        hands_played: int,
        streak: int,
        scores: tuple[int, int, int, int],
        ledger: tuple[Payment, ...],
        hand: HandState | None,
        last_result: Mapping[str, Any] | None = None,
    ) -> None:
        self.config = config
        self.params = params
        self.seq = seq
        self.phase = phase
        self.dealer = dealer
        self.round_index = round_index  # 0 = East round …
        self.hands_played = hands_played
        self.streak = streak  # 連莊 count of the current dealer
        self.scores = scores
        self.ledger = ledger
        self.hand = hand
        self.last_result = last_result

    def _fields(self) -> tuple[Any, ...]:
        """The fields that count for ``==`` and ``hash``."""
        return (
            self.config,
            self.seq,
            self.phase,
            self.dealer,
            self.round_index,
            self.hands_played,
            self.streak,
            self.scores,
            self.ledger,
            self.hand,
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not GameState:
            return NotImplemented
        assert isinstance(other, GameState)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return value_repr(self)

    @property
    def round_wind(self) -> Wind:
        return Wind.from_index(self.round_index)

    def seat_wind(self, seat: int) -> Wind:
        return Wind.from_index((seat - self.dealer) % 4)

    def to_json(self, prev: tuple[GameState, Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """The JSON form. With ``prev`` (an earlier state, e.g. the one this state was
        applied to, and its ``to_json()``), the JSON of the unchanged parts (the config, the
        ledger, the wall, unchanged seats) is taken from ``prev``'s instead of being rebuilt:
        equal to ``to_json()``, but sharing those lists and dicts with ``prev``'s JSON, so
        neither may be changed in place. One action changes little of the table, so this is
        most of the cost of serialising the state after each action."""
        if prev is None:
            config: Any = self.config.to_json()
            ledger: Any = [p.to_json() for p in self.ledger]
            hand = self.hand.to_json() if self.hand else None
        else:
            old, old_json = prev
            config = old_json["config"] if old.config is self.config else self.config.to_json()
            if old.ledger is self.ledger:
                ledger = old_json["ledger"]
            elif self.ledger[: len(old.ledger)] == old.ledger:
                ledger = [
                    *old_json["ledger"],
                    *(p.to_json() for p in self.ledger[len(old.ledger) :]),
                ]
            else:
                ledger = [p.to_json() for p in self.ledger]
            if self.hand is None:
                hand = None
            elif old.hand is not None and old_json.get("hand") is not None:
                hand = self.hand.to_json((old.hand, old_json["hand"]))
            else:
                hand = self.hand.to_json()
            # (the same scores, the same last hand's result: the same JSON, shared)
            scores = old_json["scores"] if old.scores is self.scores else list(self.scores)
            last = (
                old_json["last_result"]
                if old.last_result is self.last_result
                else result_json(self.last_result)
            )
            return self._json(config, scores, ledger, hand, last)
        return self._json(config, list(self.scores), ledger, hand, result_json(self.last_result))

    def _json(
        self, config: Any, scores: Any, ledger: Any, hand: Any, last_result: Any
    ) -> dict[str, Any]:
        return {
            "config": config,
            "seq": self.seq,
            "phase": self.phase._value_,
            "dealer": self.dealer,
            "round_index": self.round_index,
            "hands_played": self.hands_played,
            "streak": self.streak,
            "scores": scores,
            "ledger": ledger,
            "hand": hand,
            "last_result": last_result,
        }

    @classmethod
    def from_json(cls, o: Mapping[str, Any]) -> GameState:
        cfg = GameConfig.from_json(o["config"])
        s = o["scores"]
        return cls(
            config=cfg,
            params=cfg.params(),
            seq=int(o["seq"]),
            phase=Phase(o["phase"]),
            dealer=int(o["dealer"]),
            round_index=int(o["round_index"]),
            hands_played=int(o["hands_played"]),
            streak=int(o["streak"]),
            scores=(int(s[0]), int(s[1]), int(s[2]), int(s[3])),
            ledger=tuple(Payment.from_json(p) for p in o["ledger"]),
            hand=HandState.from_json(o["hand"]) if o.get("hand") else None,
            last_result=o.get("last_result"),
        )
