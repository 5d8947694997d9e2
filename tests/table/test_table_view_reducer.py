"""Every change of a seat's view is told by an event: a reference reducer folds each seat's
events onto its previous view, and after every action the result must be the engine's view
for that seat (the four seats and a spectator; 20 seeded games per playable rule set, to
game over). The legal actions are the engine's (sent with every frame), not folded."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_table_golden import GOLDEN, load
from view_reducer import fold

import table
from table import Action, Event, GameConfig, GameState, view, view_event
from table.sim import play_game

VIEWERS: tuple[int | None, ...] = (0, 1, 2, 3, None)
GAMES = 20


def _without_legal(v: dict[str, Any]) -> dict[str, Any]:
    return {k: x for k, x in v.items() if k != "legal_actions"}


class _Views:
    """Each viewer's folded view, checked against the engine's after every action."""

    def __init__(self, state: GameState) -> None:
        self.views = {s: view(state, s) for s in VIEWERS}
        self.actions = 0

    def __call__(self, old: GameState, action: Action, new: GameState, ev: list[Event]) -> None:
        self.actions += 1
        for s in VIEWERS:
            seen = [x for x in (view_event(e, s) for e in ev) if x is not None]
            folded = fold(self.views[s], seen, new.seq, new.params)
            want = view(new, s)
            if _without_legal(folded) != _without_legal(want):
                diff = _first_difference(_without_legal(folded), _without_legal(want))
                raise AssertionError(
                    f"seat {s}, seq {new.seq}, after {action.type.value} "
                    f"({[e.type for e in ev]}): the view changed with no event saying so: {diff}"
                )
            folded["legal_actions"] = want["legal_actions"]
            self.views[s] = folded


def _first_difference(a: Any, b: Any, path: str = "view") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in [*a, *(k for k in b if k not in a)]:
            if k not in a or k not in b or a[k] != b[k]:
                if k in a and k in b:
                    return _first_difference(a[k], b[k], f"{path}.{k}")
                return (
                    f"{path}.{k}: folded {a.get(k, '<absent>')!r}, engine {b.get(k, '<absent>')!r}"
                )
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: folded {a!r}, engine {b!r}"


@pytest.mark.parametrize("ruleset", table.playable_rulesets())
def test_folded_events_equal_the_engine_view_after_every_action(ruleset: str) -> None:
    ends = 0
    for g in range(GAMES):
        rng = random.Random(f"views-{ruleset}-{g}")
        cfg = GameConfig(ruleset, max_hands=rng.choice((1, 2)))
        views = _Views(table.new_game(cfg))
        rec = play_game(cfg, rng, timeout_rate=0.05, check=views)
        assert rec.final.phase is table.Phase.GAME_OVER and views.actions == len(rec.actions)
        ends += 1
    assert ends == GAMES


@pytest.mark.parametrize("name", sorted(p.stem for p in GOLDEN.glob("*.jsonl")))
def test_folded_events_equal_the_engine_view_in_the_golden_games(name: str) -> None:
    """The rare paths the random games seldom take: a robbed kong, two winners on one
    discard, 叮, flower wins, four whole rounds."""
    cfg, steps = load(name)
    state = table.new_game(cfg)
    views = _Views(state)
    for action, _ in steps:
        new, ev = table.apply(state, action)
        views(state, action, new, ev)
        state = new
    assert views.actions == len(steps)
