"""The bot at the real table: every action it picks is legal, games finish, and it only ever
looks at the seat's view."""

from __future__ import annotations

import random

import pytest

import scoring
from bots import choose
from bots.strength import play_match
from table import (
    Action,
    ActionType,
    GameConfig,
    Phase,
    apply,
    legal_actions,
    new_game,
    playable_rulesets,
    view,
)
from table.params import param_names

PLAYABLE = [n for n in param_names() if n in scoring.ruleset_names()]


#: the rule sets this repository ships, each with table parameters and a scoring rule set
SHIPPED = {"hk-tw16", "mcr", "tw16-tai", "zung-jung", "zung-jung-v3.3"}


def test_some_rule_set_is_playable() -> None:
    assert PLAYABLE, "no rule set is known to both the table and the scoring engine"
    # every shipped rule set is playable (one missing from either side fails here, not only
    # an empty list), and the table's own list agrees
    assert set(PLAYABLE) == SHIPPED
    assert sorted(playable_rulesets()) == sorted(PLAYABLE)
    for name in PLAYABLE:
        assert new_game(GameConfig(name, max_hands=1)).phase is Phase.BETWEEN_HANDS, name


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_four_bots_play_legal_hands(ruleset: str) -> None:
    rng = random.Random(7)
    state = new_game(GameConfig(ruleset, max_hands=2))
    bot_rngs = [random.Random(i) for i in range(4)]
    wins = 0
    for _ in range(20_000):
        if state.phase is Phase.GAME_OVER:
            break
        if state.phase is Phase.BETWEEN_HANDS:
            act = Action(ActionType.START_HAND, None, state.seq, seed=rng.randbytes(32))
        else:
            hand = state.hand
            assert hand is not None
            seat = hand.turn if state.phase is Phase.TURN else rng.choice(hand.pending)
            v = view(state, seat)
            # the view hides every other seat's concealed tiles and the wall
            assert all(s["concealed"] is None for s in v["hand"]["seats"] if s["seat"] != seat)
            assert "wall" not in v["hand"]
            legal = [a.to_json() for a in legal_actions(state, seat)]
            chosen = choose(v, legal, bot_rngs[seat])
            assert chosen in legal
            act = Action.from_json(dict(chosen))
        state, events = apply(state, act)  # raises on an illegal action
        wins += sum(1 for e in events if e.type == "hand_won")
    assert state.phase is Phase.GAME_OVER


def test_strength_harness_counts_hands() -> None:
    r = play_match(PLAYABLE[0], "bot-vs-random", games=1, seed=1, hands_per_game=2)
    j = r.to_json()
    assert j["hands"] == 2 and j["illegal_actions"] == 0
    assert sum(j["wins_by_role"]) + j["draws"] >= j["hands"]
