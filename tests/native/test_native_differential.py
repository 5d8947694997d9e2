"""The compiled and the pure implementation cannot disagree.

This process runs one implementation (the compiled one unless ``MAHJONG_PURE`` is set); a
worker process (``native_worker.py``) runs the other. Hypothesis plays random games step by
step through both (half of them with a room's pattern house rules: a copied rule set) —
every action, legal or not, goes to each — and compares the states
(their JSON), the events, each seat's view and legal actions and the open decisions after
every step; random complete hands are scored by both and random tile counts go through the
bots' shanten on both.

Where no compiled build exists (no C compiler) both sides are pure and the comparison still
runs; ``scripts/test`` requires the compiled build wherever there is a compiler
(``tests/conftest.py`` checks which implementation was imported).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_worker import snapshot

import mahjong_native
import scoring
import table
from scoring.random_hands import random_complete
from table import Action, ActionType, GameConfig, Phase, TableError, apply, new_game
from table.player import RandomPlayer

PLAYABLE = table.playable_rulesets()
WORKER = Path(__file__).with_name("native_worker.py")


class Other:
    """The other implementation, one JSON line per request."""

    def __init__(self) -> None:
        env = dict(os.environ)
        if mahjong_native.active():
            env["MAHJONG_PURE"] = "1"
        else:
            env.pop("MAHJONG_PURE", None)
        env.pop("MAHJONG_REQUIRE_COMPILED", None)
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )

    def ask(self, **cmd: Any) -> Any:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, "the worker died"
        return json.loads(line)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


@pytest.fixture(scope="module")
def other() -> Iterator[Other]:
    o = Other()
    yield o
    o.close()


def _same(x: Any) -> Any:
    """The JSON the worker sends back (tuples become lists, keys strings)."""
    return json.loads(json.dumps(x, sort_keys=True, default=str))


def test_the_two_sides_run_different_implementations(other: Other) -> None:
    here = mahjong_native.implementation()
    there = other.ask(op="impl")["impl"]
    assert here in ("compiled", "pure") and there in ("compiled", "pure")
    if mahjong_native.active():
        assert (here, there) == ("compiled", "pure")
    elif mahjong_native.status(switch=False).usable:  # MAHJONG_PURE here: compiled there
        assert (here, there) == ("pure", "compiled")
    else:  # no build (no compiler): pure against pure, still a real run of the comparison
        assert there == here == "pure"


def _wrong_action(state: table.GameState, rng: random.Random) -> Action:
    """Something probably illegal: a random type for a random seat (or a stale seq)."""
    t = rng.choice([a for a in ActionType if a is not ActionType.START_HAND])
    tile = rng.choice([None, *scoring.Tile.__members__.values()])
    seq = state.seq if rng.random() < 0.8 else state.seq - 1
    return Action(t, rng.randrange(4), seq, tile=tile)


@settings(
    max_examples=int(os.environ.get("MAHJONG_DIFF_GAMES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    ruleset=st.sampled_from(PLAYABLE),
    seed=st.integers(0, 2**32 - 1),
    wrong_rate=st.sampled_from([0.0, 0.1]),
    timeout_rate=st.sampled_from([0.0, 0.05]),
    house=st.booleans(),
)
def test_random_games_step_by_step(
    other: Other, ruleset: str, seed: int, wrong_rate: float, timeout_rate: float, house: bool
) -> None:
    rng = random.Random(seed)
    config = GameConfig.from_json(
        {"ruleset": ruleset, "max_hands": 2, "house_rules": {"patterns": _house(ruleset, rng)}}
        if house
        else {"ruleset": ruleset, "max_hands": 2}
    )
    state = new_game(config)
    assert other.ask(op="new", config=config.to_json()) == _same(snapshot(state, []))
    player = RandomPlayer(rng)
    for _ in range(5000):
        if state.phase is Phase.GAME_OVER:
            return
        if state.phase is Phase.BETWEEN_HANDS:
            action: Action | None = Action(
                ActionType.START_HAND, None, state.seq, seed=rng.randbytes(32)
            )
        else:
            hand = state.hand
            assert hand is not None
            seat = hand.turn if state.phase is Phase.TURN else rng.choice(hand.pending)
            if rng.random() < wrong_rate:
                action = _wrong_action(state, rng)
            elif rng.random() < timeout_rate:
                action = Action(ActionType.TIMEOUT, seat, state.seq)
            else:
                action = player.choose(state, seat)
        assert action is not None
        theirs = other.ask(op="apply", action=action.to_json())
        try:
            state, events = apply(state, action)
        except TableError as e:
            assert theirs["error"] == e.code, (action, theirs)
            continue
        assert "error" not in theirs, (action, theirs)
        assert theirs == _same(snapshot(state, events)), action
    raise AssertionError("the game did not finish")


def _house(ruleset: str, rng: random.Random) -> dict[str, int | bool]:
    """A room's pattern house rules: three rows of fixed value given another, one switched
    off (the rule set's variant is a copy of it: ``RuleSet.with_patterns``)."""
    rows = scoring.get_ruleset(ruleset).patterns
    fixed = [p.id for p in rows if p.value is None]
    out: dict[str, int | bool] = {pid: rng.randint(0, 20) for pid in rng.sample(fixed, 3)}
    out[rng.choice([p.id for p in rows if p.id not in out])] = False
    return out


def _hand(ruleset: str, rng: random.Random) -> dict[str, Any]:
    rs = scoring.get_ruleset(ruleset)
    concealed, melds, win = random_complete(rng, (rs.hand_size - 1) // 3)
    winds = ["we", "ws", "ww", "wn"]
    return {
        "ruleset": ruleset,
        "concealed": concealed,
        "melds": melds,
        "win_tile": win,
        "flowers": [f"f{rng.randint(1, 8)}"] if rs.uses_flowers and rng.random() < 0.5 else [],
        "win": {"self_drawn": rng.random() < 0.4},
        "seat_wind": rng.choice(winds),
        "round_wind": rng.choice(winds),
    }


@settings(max_examples=40, deadline=None)
@given(ruleset=st.sampled_from(scoring.ruleset_names()), seed=st.integers(0, 2**32 - 1))
def test_random_hands_score_the_same(other: Other, ruleset: str, seed: int) -> None:
    hand = _hand(ruleset, random.Random(seed))
    try:
        mine: Any = scoring.score(hand)
    except scoring.ScoringError as e:
        mine = {"error": type(e).__name__, "message": str(e)}
    assert other.ask(op="score", hand=hand) == _same(mine)


@settings(max_examples=60, deadline=None)
@given(
    ruleset=st.sampled_from(PLAYABLE),
    melds=st.integers(0, 4),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_tiles_have_the_same_shanten(
    other: Other, ruleset: str, melds: int, seed: int
) -> None:
    import bots

    rng = random.Random(seed)
    size = scoring.get_ruleset(ruleset).hand_size + 1 - 3 * melds
    pool = [t for t in range(34) for _ in range(4)]
    counts = [0] * 34
    for t in rng.sample(pool, size):
        counts[t] += 1
    mine = bots.shanten(counts, melds, bots.bot_rules(ruleset).shapes)
    assert other.ask(op="shanten", ruleset=ruleset, counts=counts, melds=melds) == {"shanten": mine}
