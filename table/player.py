"""A simple legal-random player for tests and ``mahjong-sim``.

It always takes a win, sometimes claims, sometimes declares 叮 (only looking for it when its
hand has at most two isolated tiles), and otherwise discards a
tile chosen at random among its least useful ones (isolated tiles first), so games produce
wins as well as draws. Randomness comes only from the :class:`random.Random` instance
passed in (never the global generator), so a seeded player replays exactly.
"""

from __future__ import annotations

import random

from scoring.tiles import Tile
from table.game_state import GameState
from table.model import Action, ActionType, Phase
from table.tile_math import isolated_count, tile_counts
from table.views import legal_actions

__all__ = ["RandomPlayer", "tile_usefulness"]


def tile_usefulness(concealed: tuple[Tile, ...], t: Tile) -> int:
    """A crude usefulness score: copies held, plus neighbours within two in the suit."""
    v = int(t)
    n = concealed.count(t) * 3
    if v < 27:
        pos = v % 9
        for d, wgt in ((-2, 1), (-1, 2), (1, 2), (2, 1)):
            if 0 <= pos + d <= 8 and Tile(v + d) in concealed:
                n += wgt
    return n


class RandomPlayer:
    def __init__(
        self,
        rng: random.Random,
        claim_rate: float = 0.5,
        ting_rate: float = 0.7,
        kong_rate: float = 0.8,
    ) -> None:
        self.rng = rng
        self.claim_rate = claim_rate
        self.ting_rate = ting_rate
        self.kong_rate = kong_rate

    def choose(self, state: GameState, seat: int) -> Action | None:
        """An action for ``seat`` now, or None when the table is not waiting for it."""
        acts = legal_actions(state, seat, ting=False)
        if not acts:
            return None
        rng = self.rng
        by: dict[ActionType, list[Action]] = {}
        for a in acts:
            by.setdefault(a.type, []).append(a)
        if ActionType.WIN in by:
            return by[ActionType.WIN][0]
        if state.phase is not Phase.TURN:
            claims = [
                a
                for t in (ActionType.KONG, ActionType.PUNG, ActionType.CHOW)
                for a in by.get(t, [])
            ]
            if claims and rng.random() < self.claim_rate:
                return rng.choice(claims)
            return by[ActionType.PASS][0]
        kongs = by.get(ActionType.CONCEALED_KONG, []) + by.get(ActionType.ADDED_KONG, [])
        if kongs and rng.random() < self.kong_rate:
            return rng.choice(kongs)
        discards = by.get(ActionType.DISCARD, [])
        hand = state.hand
        assert hand is not None
        concealed = hand.seats[seat].concealed
        if (
            ActionType.DISCARD in by
            and state.params.ting
            and rng.random() < self.ting_rate
            and isolated_count(tile_counts(concealed)) <= 2
        ):
            # 叮 when the hand allows it; asked only for hands with at most two isolated
            # tiles (the readiness search is the costly part; special shapes are skipped)
            tings = [a for a in legal_actions(state, seat) if a.type is ActionType.TING]
            if tings:
                return rng.choice(tings)
        scored = [(tile_usefulness(concealed, a.tile), a) for a in discards if a.tile is not None]
        low = min(s for s, _ in scored)
        return rng.choice([a for s, a in scored if s <= low + 1])
