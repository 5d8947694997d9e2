"""Property tests: seeded random play under every playable rule set.

For each rule set with both table parameters and a registered scoring rule set: complete
games with legal-random players end properly; at every step tiles are conserved, no view
leaks, the ledger sums to zero, illegal actions are rejected without change and every win
meets the minimum and is scored; replaying the action log gives an identical state.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_testlib import (
    PLAYABLE,
    check_answers_private,
    check_conservation,
    check_events,
    check_ledger,
    check_views,
    probe_illegal,
)

from table import Action, Event, GameConfig, GameState, Phase, apply, replay
from table.game_state import GameState as StateModel
from table.model import Action as ActionModel
from table.sim import play_game


def test_rule_sets_are_playable() -> None:
    # every scoring rule set the table has parameters for is played by these tests
    import scoring
    from table import PARAMS

    assert PLAYABLE
    assert set(PLAYABLE) == set(scoring.ruleset_names()) & set(PARAMS)


def _full_checker(rng: random.Random, probe_rate: float):
    stats = {"steps": 0, "rejected": 0}

    def check(old: GameState, action: Action, new: GameState, events: list[Event]) -> None:
        stats["steps"] += 1
        check_conservation(new)
        check_ledger(new)
        check_views(new)
        check_events(events, new)
        check_answers_private(old, action, new, events)
        if rng.random() < probe_rate:
            stats["rejected"] += probe_illegal(new, rng)

    return check, stats


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_seeded_random_hands_keep_every_invariant(ruleset: str) -> None:
    rng = random.Random(f"invariants-{ruleset}")
    hands = 0
    rejected = 0
    outcomes: set[str] = set()
    for g in range(5):
        check, stats = _full_checker(rng, probe_rate=0.15)
        rec = play_game(
            GameConfig(ruleset, max_hands=2),
            random.Random(f"{ruleset}-{g}"),
            timeout_rate=0.03,
            check=check,
        )
        assert rec.final.phase is Phase.GAME_OVER
        assert rec.final.hands_played == 2
        hands += 2
        rejected += stats["rejected"]
        outcomes |= {str(e.data["result"]) for e in rec.events if e.type == "hand_ended"}
        # replay gives the identical state, also from the JSON forms of the actions
        final, events = replay(rec.initial, rec.actions)
        assert final == rec.final
        assert final.to_json() == rec.final.to_json()
        assert [e.to_json() for e in events] == [e.to_json() for e in rec.events]
        again, _ = replay(rec.initial, [ActionModel.from_json(a.to_json()) for a in rec.actions])
        assert again.to_json() == rec.final.to_json()
        assert StateModel.from_json(final.to_json()) == final
    assert rejected > 10  # the probes did hit illegal actions


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_complete_games_end_properly(ruleset: str) -> None:
    """Whole games (all round winds) end, with the dealer rotating through the rounds."""
    for g in range(1):
        rec = play_game(ruleset, random.Random(f"full-{ruleset}-{g}"))
        st_ = rec.final
        assert st_.phase is Phase.GAME_OVER
        # after the last hand nothing moves: the last round's wind and its last dealer stay
        assert st_.round_index == st_.params.rounds - 1
        assert st_.dealer == (st_.config.first_dealer + 3) % 4
        assert st_.hands_played >= 4 * st_.params.rounds
        check_ledger(st_)
        assert sum(st_.scores) == 0
        starts = [e for e in rec.events if e.type == "hand_started"]
        assert len(starts) == st_.hands_played
        # without 連莊 the deal passes every hand: 16 hands, each seat deals 4 times
        if not (st_.params.dealer_keeps_on_win or st_.params.dealer_keeps_on_draw):
            assert [e.data["dealer"] for e in starts] == [i % 4 for i in range(16)]
            assert [e.data["round_wind"] for e in starts] == [
                w for w in ("we", "ws", "ww", "wn") for _ in range(4)
            ]
        final, _ = replay(rec.initial, rec.actions)
        assert final == st_


@pytest.mark.parametrize("ruleset", PLAYABLE)
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.binary(min_size=16, max_size=32),
    timeouts=st.sampled_from([0.0, 0.05, 0.3]),
    dealer=st.integers(0, 3),
)
def test_hypothesis_hands(ruleset: str, seed: bytes, timeouts: float, dealer: int) -> None:
    rng = random.Random(seed)
    check, stats = _full_checker(rng, probe_rate=0.1)
    rec = play_game(
        GameConfig(ruleset, max_hands=1, first_dealer=dealer),
        rng,
        timeout_rate=timeouts,
        check=check,
    )
    assert rec.final.phase is Phase.GAME_OVER
    final, _ = replay(rec.initial, rec.actions)
    assert final == rec.final
    assert stats["steps"] == len(rec.actions)


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_resume_from_stored_state(ruleset: str) -> None:
    """A server restarting from a stored state JSON continues exactly as without restart."""
    rec = play_game(GameConfig(ruleset, max_hands=2), random.Random(f"resume-{ruleset}"))
    rng = random.Random(1)
    for _ in range(5):
        cut = rng.randrange(len(rec.actions))
        mid, _ = replay(rec.initial, rec.actions[:cut])
        restored = StateModel.from_json(json.loads(json.dumps(mid.to_json())))
        assert restored == mid
        final, _ = replay(restored, rec.actions[cut:])
        assert final.to_json() == rec.final.to_json()


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_incremental_json_equals_full_json(ruleset: str) -> None:
    """``to_json(prev)`` (the server serialises each new state reusing the JSON of the
    parts the action left unchanged) equals a full ``to_json()`` at every step of whole
    games, and leaves the previous state's JSON as it was."""
    for g in range(2):
        rec = play_game(GameConfig(ruleset, max_hands=3), random.Random(f"json-{ruleset}-{g}"))
        state = rec.initial
        js = state.to_json()
        reused = 0
        for action in rec.actions:
            new, _ = apply(state, action)
            before = json.dumps(js, sort_keys=True)
            new_js = new.to_json((state, js))
            assert new_js == new.to_json()
            assert json.dumps(js, sort_keys=True) == before  # the old JSON is untouched
            if new_js.get("hand") is not None and js.get("hand") is not None:
                reused += new_js["hand"]["seats"][0] is js["hand"]["seats"][0]
            state, js = new, new_js
        assert StateModel.from_json(js) == rec.final
        assert reused > len(rec.actions) // 2  # unchanged seats JSON was shared, not rebuilt


def test_wall_json_is_one_string_and_old_list_form_still_loads() -> None:
    rec = play_game(GameConfig("zung-jung", max_hands=1), random.Random("wall-json"))
    mid, _ = replay(rec.initial, rec.actions[:10])
    js = mid.to_json()
    assert isinstance(js["hand"]["wall"], str)
    assert js["hand"]["wall"].split() == [str(t) for t in mid.hand.wall]  # type: ignore[union-attr]
    old_form = {**js, "hand": {**js["hand"], "wall": js["hand"]["wall"].split()}}
    assert StateModel.from_json(old_form) == mid
    assert StateModel.from_json(js) == mid
