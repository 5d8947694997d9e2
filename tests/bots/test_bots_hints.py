"""Hints (bots/hints.py): computed from a seat's view only, they agree with the table (a
win the table offers is a wait the hints show as reaching the minimum) and with the scoring
engine (each wait's flags are what scoring the win says)."""

from __future__ import annotations

import random

import pytest

import table
from bots.hints import hints
from protocol.codes import HintNote
from scoring import score
from table import Action, ActionType, GameConfig, Phase, RandomPlayer, apply, decisions, new_game


def _view(ruleset: str, concealed: str, phase: str = "claim") -> dict:
    """A minimal view of seat 0 (East, dealer) in the East round, nothing else in sight."""
    tiles = concealed.split()
    seats = [
        {
            "seat": i,
            "wind": w,
            "melds": [],
            "flowers": [],
            "discards": [],
            "concealed_count": len(tiles) if i == 0 else 13,
            "ting": False,
            "ting_tile": None,
            "concealed": tiles if i == 0 else None,
        }
        for i, w in enumerate(["we", "ws", "ww", "wn"])
    ]
    return {
        "seq": 5,
        "ruleset": ruleset,
        "phase": phase,
        "you": 0,
        "dealer": 0,
        "round_wind": "we",
        "hands_played": 0,
        "streak": 0,
        "scores": [0, 0, 0, 0],
        "hand": {
            "number": 0,
            "commitment": "",
            "dice": [1, 2, 3],
            "wall_left": 50,
            "turn": 1,
            "discarder": 1,
            "discard": "9p",
            "pending": [0],
            "seats": seats,
        },
    }


def _scores(ruleset: str, concealed: str, tile: str, self_drawn: bool) -> bool:
    res = score(
        {
            "ruleset": ruleset,
            "concealed": concealed.split(),
            "melds": [],
            "win_tile": tile,
            "win": {"self_drawn": self_drawn},
            "seat_wind": "we",
            "round_wind": "we",
        }
    )
    return res["error"] is None and bool(res["minimum_met"])


# (rule set, a ready hand, its waits)
READY = [
    ("mcr", "1m 2m 3m 5m 6m 7m 2p 3p 4p 7s 7s 5s 6s", ["4s", "7s"]),
    ("mcr", "2m 3m 4m 6p 7p 8p 3s 4s 5s we we 6m 6m", ["6m", "we"]),
    ("mcr", "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 2s 4m 5m", ["3m", "6m"]),
    ("zung-jung", "1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m", [f"{n}m" for n in range(1, 10)]),
    ("hk-tw16", "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 2s 4m 5m 7p 8p 9p", ["3m", "6m"]),
]


@pytest.mark.parametrize(("ruleset", "concealed", "waits"), READY)
def test_the_waits_of_a_ready_hand_and_whether_they_reach_the_minimum(ruleset, concealed, waits):
    h = hints(_view(ruleset, concealed))
    assert h.shanten == 0
    assert [w.tile for w in h.waits] == waits
    for w in h.waits:
        assert w.by_discard == _scores(ruleset, concealed, w.tile, False)
        assert w.by_self_draw == _scores(ruleset, concealed, w.tile, True)
        assert w.unseen == 4 - concealed.split().count(w.tile)
    reaching = any(w.by_discard or w.by_self_draw for w in h.waits)
    if h.minimum and not reaching:
        assert h.note == f"ready, but no wait reaches {h.minimum}"
        assert h.note_code == HintNote.BELOW_MINIMUM
    else:
        assert h.note is None and h.note_code is None


def test_the_mcr_minimum_is_told():
    h = hints(_view("mcr", READY[0][1]))
    assert h.minimum == 8 and not any(w.by_discard or w.by_self_draw for w in h.waits)
    assert h.note == "ready, but no wait reaches 8"
    assert h.to_json()["note_code"] == "below_minimum" == HintNote.BELOW_MINIMUM
    only_self = hints(_view("mcr", READY[1][1]))
    assert [(w.tile, w.by_discard, w.by_self_draw) for w in only_self.waits][1][1:] == (
        False,
        True,
    )


def test_on_your_turn_the_discards_that_keep_the_best():
    h = hints(_view("mcr", READY[2][1] + " 9m", phase="turn"))
    assert h.shanten == 0
    assert [d.tile for d in h.discards] == ["9m"]
    assert [w.tile for w in h.discards[0].waits] == ["3m", "6m"]
    assert h.discards[0].useful == sum(w.unseen for w in h.discards[0].waits)


def test_no_hand_no_hints():
    v = _view("mcr", READY[0][1])
    assert hints({**v, "phase": "between_hands"}).shanten is None
    assert hints({**v, "you": None}).shanten is None


@pytest.mark.parametrize("ruleset", table.playable_rulesets())
def test_every_discard_win_the_table_offers_is_a_wait_of_the_hints(ruleset):
    offered = 0
    for seed in range(6):
        rng = random.Random(seed)
        player = RandomPlayer(rng, claim_rate=0.3)
        st = new_game(GameConfig(ruleset, max_hands=1))
        st, _ = apply(st, Action(ActionType.START_HAND, None, 0, seed=rng.randbytes(16)))
        while st.phase is not Phase.GAME_OVER:
            if st.phase is Phase.CLAIM:
                for seat in decisions(st):
                    legal = table.legal_actions(st, seat)
                    if any(a.type is ActionType.WIN for a in legal):
                        offered += 1
                        h = hints(table.view(st, seat))
                        assert st.hand is not None
                        tile = str(st.hand.discard)
                        assert h.shanten == 0
                        assert [w.by_discard for w in h.waits if w.tile == tile] == [True]
            seat = min(decisions(st))
            chosen = player.choose(st, seat)
            assert chosen is not None
            st, _ = apply(st, chosen)
    assert offered > 0
