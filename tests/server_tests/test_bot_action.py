"""The server's bot (server/room/game.py): the real bot decides from the seat's view and legal
actions only; its answer, and the fast fallback used over the time budget, are always legal,
through whole games of every playable rule set."""

from __future__ import annotations

import random

import pytest

from server.flow import bot_pool
from server.room import game


@pytest.mark.parametrize("ruleset", game.rulesets())
def test_bot_and_fallback_actions_are_legal_through_a_game(ruleset: str) -> None:
    rng = random.Random(11)
    st = game.new_game(ruleset, {"length": "hands", "hands": 1, "names": ["a", "b", "c", "d"]})
    decisions = fallbacks = 0
    for n in range(3000):
        if game.finished(st):
            break
        start = game.start_hand_action(st, f"{rng.getrandbits(256):064x}")
        if start is not None:
            st, _ = game.apply(st, start)
            continue
        seat = sorted(game.pending(st))[0]
        legal = game.legal(st, seat)
        fast = game.fast_action(legal)
        assert fast in legal
        # alternate: the real bot with a generous budget, and the fallback itself
        action = game.bot_action(st, seat, rng, bot_pool.chooser(5.0)) if n % 3 else fast
        assert action in legal, (action, legal)
        decisions += 1
        fallbacks += action is fast
        st, _ = game.apply(st, action)
    assert game.finished(st), "the game did not finish"
    assert decisions > 20 and 0 < fallbacks < decisions
