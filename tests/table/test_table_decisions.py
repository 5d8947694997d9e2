"""The identity of an open decision (``table.decisions``), above all when a claim window
closes and the next one opens in the same action (a 叮 seat's automatic discard).

Table-driven over every rule set with 叮 (hk-tw16 and tw16-tai by default, the others with
the ``ting`` house rule): seeded games of the engine's random player, which declares 叮
whenever it can. For every step, the decisions before and after are compared with what the
step's events say happened, independently of ``seq``."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table import (
    Action,
    ActionType,
    DecisionKind,
    Event,
    GameConfig,
    GameState,
    Phase,
    RandomPlayer,
    TableError,
    apply,
    asked_in_window,
    decisions,
    decisions_json,
    legal_actions,
    new_game,
)

# (rule set, house rules, seed): the seed picks the walls and the players' choices
CASES = [
    ("hk-tw16", (), 1),
    ("hk-tw16", (), 3),
    ("tw16-tai", (), 4),
    ("tw16-tai", (), 9),
    ("mcr", (("ting", True),), 1),
    ("zung-jung", (("ting", True),), 1),
    ("zung-jung-v3.3", (("ting", True),), 2),
]

#: events that mean a new question was put (a discard or an added kong opens a window, a
#: draw or a claim starts a turn, a deal starts a hand)
NEW_QUESTION = {"discard", "kong_declared", "draw", "claimed", "hand_started"}


@dataclass
class Step:
    before: GameState
    action: Action
    after: GameState
    events: list[Event]


def play(ruleset: str, house: tuple[tuple[str, object], ...], seed: int, claim_rate: float = 0.0):
    """Every step of a seeded one-hand game; the lowest pending seat acts first."""
    rng = random.Random(seed)
    player = RandomPlayer(rng, claim_rate=claim_rate, ting_rate=1.0)
    state = new_game(GameConfig(ruleset, max_hands=1, house_rules=house))
    state, _ = apply(state, Action(ActionType.START_HAND, None, 0, seed=rng.randbytes(16)))
    steps: list[Step] = []
    while state.phase not in (Phase.GAME_OVER, Phase.BETWEEN_HANDS):
        seat = min(decisions(state))
        action = player.choose(state, seat)
        assert action is not None
        after, events = apply(state, action)
        steps.append(Step(state, action, after, events))
        state = after
    return steps


def reopenings(steps: list[Step]) -> list[Step]:
    """Steps in which the acting seat's answer closed a claim window and it was asked again
    at once in the next one."""
    out = []
    for s in steps:
        seat = s.action.seat
        b, a = decisions(s.before), decisions(s.after)
        if seat in b and seat in a and DecisionKind.CLAIM == b[seat].kind == a[seat].kind:
            out.append(s)
    return out


def check_identities(step: Step) -> None:
    b, a = decisions(step.before), decisions(step.after)
    new_question = any(e.type in NEW_QUESTION for e in step.events)
    for seat in b.keys() & a.keys():
        same = b[seat].id == a[seat].id
        assert same == (not new_question), (seat, b[seat], a[seat], [e.type for e in step.events])
    for d in a.values():
        assert d.id == step.after.seq
    # the JSON reading gives the same decisions
    for st_ in (step.before, step.after):
        assert decisions_json(st_.to_json()) == {
            seat: (d.kind, d.id) for seat, d in decisions(st_).items()
        }
    # the cheap window check agrees with the decisions
    for st_ in (step.before, step.after):
        ds = decisions(st_)
        for seat in range(4):
            for id_ in (st_.seq, st_.seq - 1):
                d = ds.get(seat)
                want = d is not None and d.kind is not DecisionKind.TURN and d.id == id_
                assert asked_in_window(st_, seat, id_) is want
    # every action a seat is offered names its own decision
    for seat, d in a.items():
        for act in legal_actions(step.after, seat):
            assert act.seq == d.id


def refused_as_stale(state: GameState, action: Action) -> None:
    before = state.to_json()
    with pytest.raises(TableError) as exc:
        apply(state, action)
    assert exc.value.code == "stale-seq"
    assert state.to_json() == before


@pytest.mark.parametrize(("ruleset", "house", "seed"), CASES)
def test_a_reopened_window_is_a_new_decision(ruleset, house, seed):
    steps = play(ruleset, house, seed)
    for s in steps:
        check_identities(s)
    found = reopenings(steps)
    assert found, "the case must reach a window that closes and reopens in one action"
    for s in found:
        seat = s.action.seat
        old, new = decisions(s.before)[seat], decisions(s.after)[seat]
        assert new.id != old.id and new.id == s.after.seq
        # the discard that opened the new window was automatic (after 叮)
        discards = [e for e in s.events if e.type == "discard"]
        assert discards and discards[-1].data["auto"] is True
        # the same answer, sent again for the window it was meant for, is refused
        refused_as_stale(s.after, Action(ActionType.PASS, seat, old.id))
        # every seat asked in the new window answers it with the new id
        for other, d in decisions(s.after).items():
            refused_as_stale(s.after, Action(ActionType.PASS, other, old.id))
            apply(s.after, Action(ActionType.PASS, other, d.id))


@pytest.mark.parametrize("ruleset", ["hk-tw16", "mcr"])
def test_answers_inside_one_window_keep_its_identity(ruleset):
    """Seats answering one by one leave the others' decision (and its id) unchanged; the
    last answer ends it."""
    house = () if ruleset == "hk-tw16" else (("ting", True),)
    windows = 0
    for s in play(ruleset, house, 5, claim_rate=0.3):
        b, a = decisions(s.before), decisions(s.after)
        if s.before.phase is Phase.CLAIM and s.after.phase is Phase.CLAIM and len(b) > len(a):
            windows += 1
            assert set(a) == set(b) - {s.action.seat}
            assert all(a[x].id == b[x].id for x in a)
    assert windows > 10


def test_turn_claim_and_robbing_decisions_have_their_kinds():
    steps = play("hk-tw16", (), 3, claim_rate=0.9)  # seed 3: a pung later added to (robbable)
    kinds = {d.kind for s in steps for d in decisions(s.before).values()}
    assert kinds == {DecisionKind.TURN, DecisionKind.CLAIM, DecisionKind.ROB}
    for s in steps:
        ds = decisions(s.before)
        if s.before.phase is Phase.TURN:
            assert list(ds) == [s.before.hand.turn]
        elif s.before.phase is Phase.ROB:
            assert {d.kind for d in ds.values()} == {DecisionKind.ROB}
            assert s.before.hand.discarder not in ds
        check_identities(s)


@settings(max_examples=8, deadline=None)
@given(
    ruleset=st.sampled_from(["hk-tw16", "tw16-tai", "mcr", "zung-jung"]),
    seed=st.integers(0, 2**32),
    claim_rate=st.sampled_from([0.0, 0.4]),
)
def test_decision_ids_follow_the_questions(ruleset, seed, claim_rate):
    house = () if ruleset in ("hk-tw16", "tw16-tai") else (("ting", True),)
    for s in play(ruleset, house, seed, claim_rate):
        check_identities(s)
