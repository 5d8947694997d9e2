"""Hand-built scenarios for the golden game logs in tests/table/golden/.

    .venv/bin/python tests/table/make_golden.py      # rewrite every golden log

Each scenario builds its walls by hand (``build_wall``) and plays scripted actions; the log
holds the config, then every action with the events it produced (normalised: see
:func:`normalise_event`). ``test_table_golden.py`` replays the logs and checks the
hand-checked facts of each scenario.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from table_testlib import Script, tiles  # noqa: E402

from table import ActionType, Event, GameConfig, Phase, new_game, playable_rulesets  # noqa: E402
from table.wall import build_wall  # noqa: E402

A = ActionType
GOLDEN = HERE / "golden"

# The 13-tile scenarios are played under Zung Jung (no flowers, no minimum, several winners,
# 過水, 連莊), with house rules where a scenario needs another parameter.
RS13 = "zung-jung"
# A pure straight in characters with a closed 4p-6p wait.
STRAIGHT_46P = "123456789m 46p 11s"


def normalise_event(e: Event) -> dict[str, Any]:
    """An event as stored in a golden log. The value of a win is the scoring engine's
    business: ``score`` and payment amounts are dropped here and re-derived in the test from
    the logged hand, so the logs pin down what the table does."""
    d = e.to_json()
    if e.type == "hand_won":
        d["winners"] = [
            {
                "seat": w["seat"],
                "hand": w["hand"],
                "payments": [{"payer": p["payer"], "payee": p["payee"]} for p in w["payments"]],
            }
            for w in d["winners"]
        ]
    elif e.type == "payment":
        d.pop("amount")
    elif e.type in ("hand_ended", "game_over"):
        d.pop("scores")
    return d


def robbing_kong() -> Script:
    """Seat 1 pungs 5p from the dealer, later draws the fourth 5p and adds it to the
    pung; seat 2 (waiting on 5p) robs the kong. Seat 1 pays."""
    hands = [
        tiles("5p 19s 19p we ws ww wn dr dg dw 2s 8s"),
        tiles("55p 234s 567s 11m dw dw 7p"),
        tiles(STRAIGHT_46P),
        tiles("99s 88s 77s 66p 3s 4p wn wn dg"),
    ]
    sc = Script(new_game(GameConfig(RS13, max_hands=1)))
    sc.start(wall=build_wall(False, 13, 0, hands, tiles("we ws ww 5p"), tiles("dg")))
    sc.act(0, A.DISCARD, "5p")
    sc.act(2, A.PASS)  # could win here (過水 only bars it until seat 2's next draw)
    sc.act(1, A.PUNG)
    sc.act(3, A.PASS)
    sc.discard_unclaimed(1, "7p")
    sc.discard_unclaimed(2, "we")
    sc.discard_unclaimed(3, "ws")
    sc.discard_unclaimed(0, "ww")
    sc.act(1, A.ADDED_KONG, "5p")
    assert sc.state.phase is Phase.ROB
    sc.act(3, A.PASS)
    sc.act(2, A.WIN)
    sc.act(0, A.PASS)
    return sc


def _two_waiting(max_winners: int) -> Script:
    hands = [
        tiles("5p 99p 88p 77p 33m dr dg dw wn 5m"),
        tiles(STRAIGHT_46P),
        tiles("123456789s 46p 22m"),
        tiles("we we ws ws ww ww wn dr dg dw 9s 1s 5m"),
    ]
    rules = (("max_winners", max_winners),)
    sc = Script(new_game(GameConfig(RS13, max_hands=1, house_rules=rules)))
    sc.start(wall=build_wall(False, 13, 0, hands, tiles("1p 2p 3p"), tiles("dg")))
    sc.act(0, A.DISCARD, "5p")
    sc.act(2, A.WIN)
    sc.act(3, A.PASS)
    sc.act(1, A.WIN)
    return sc


def multiple_winners_head_bump() -> Script:
    """Head bump (house rule max_winners=1): seats 1 and 2 both win on the dealer's 5p; only seat 1, first in
    turn order after the discarder, wins; seat 2's claim is never revealed."""
    return _two_waiting(1)


def multiple_winners_double() -> Script:
    """max_winners=3 (Zung Jung's own): both seats win (雙響); the discarder pays each
    winner."""
    return _two_waiting(3)


def _ting_hand(sc: Script, dealer: int, second_draw_wins: bool) -> None:
    """The seat after the dealer declares 叮 at its first draw (waiting on 5p). With
    ``second_draw_wins`` its next draw is 5p (即食); otherwise its next draw (9s) is
    discarded automatically and the one after wins."""
    t = (dealer + 1) % 4
    others = [(dealer + 2) % 4, (dealer + 3) % 4]
    hands: list[list[Any]] = [[], [], [], []]
    hands[dealer] = tiles("99p 88p 77p 33m dr dg dw wn 5m 1p")
    hands[t] = tiles(STRAIGHT_46P)
    hands[others[0]] = tiles("123s 456s 789s 22m 3p 1p")
    hands[others[1]] = tiles("we we ws ws ww ww wn 1s 2s 3s 3p 66s")
    draws = "dr ws ww we" + (" 5p" if second_draw_wins else " 9s dg dg dg 5p")
    sc.start(wall=build_wall(False, 13, dealer, hands, tiles(draws), tiles("dw")))
    sc.discard_unclaimed(dealer, "wn")
    sc.act(t, A.TING, "dr")
    sc.pass_all()
    for s, tile in ((others[0], "ws"), (others[1], "ww"), (dealer, "we")):
        sc.discard_unclaimed(s, tile)
    if not second_draw_wins:
        # the 9s did not win: discarded automatically, the window opened
        assert sc.state.phase is Phase.CLAIM and sc.hand.discard == tiles("9s")[0]
        sc.pass_all()
        for s in (others[0], others[1], dealer):
            sc.discard_unclaimed(s, "dg")
    sc.act(t, A.WIN)


def ting_instant() -> Script:
    """The house rule ting=True, two hands. Hand 1: seat 1 declares 叮 at its first
    draw (地聽), and self-draws 5p on its next draw: 即食 (instant). Hand 2 (dealer 1): seat
    2 declares 叮; its next draw (9s) cannot win and is discarded automatically; it wins a
    round later, not instant."""
    sc = Script(new_game(GameConfig(RS13, max_hands=2, house_rules=(("ting", True),))))
    _ting_hand(sc, 0, True)
    _ting_hand(sc, 1, False)
    return sc


def missed_win() -> Script:
    """過水 (Zung Jung plays it). Seat 2 waits on a single 9p. It
    passes the dealer's 9p; it may not win on seat 1's 9p before its own next draw (the
    attempt is rejected); after drawing, it wins on seat 3's 9p."""
    hands = [
        tiles("9p 19s 1p we ws ww wn dr dg dw 2s 8s 5m"),
        tiles("55p 234s 567s 11m dw dw 7p"),
        tiles("123456789m 234s 9p"),
        tiles("99s 88s 77s 66p 3s 4p wn wn dg"),
    ]
    sc = Script(new_game(GameConfig(RS13, max_hands=1)))
    sc.start(wall=build_wall(False, 13, 0, hands, tiles("9p we 9p"), tiles("dg")))
    sc.discard_unclaimed(0, "9p")
    assert sc.hand.seats[2].missed_win
    sc.act(1, A.DISCARD, "9p")
    sc.expect_error("not-a-win", 2, A.WIN)
    sc.pass_all()
    sc.discard_unclaimed(2, "we")  # drew we: 過水 is over
    sc.act(3, A.DISCARD, "9p")
    sc.act(2, A.WIN)
    sc.pass_all()
    return sc


def exhaustive_draw_dealer_keeps() -> Script:
    """A shuffled wall played out (every seat discards what it draws, nobody calls); the
    hand is drawn and the dealer keeps the deal (連莊 1)."""
    sc = Script(new_game(GameConfig(RS13, max_hands=2)))
    sc.start(seed=bytes.fromhex("5eed0001" * 8))
    while sc.state.phase in (Phase.TURN, Phase.CLAIM):
        h = sc.hand
        if sc.state.phase is Phase.TURN:
            s = h.seats[h.turn]
            sc.act(h.turn, A.DISCARD, s.drawn if s.drawn is not None else s.concealed[-1])
        else:
            sc.act(h.pending[0], A.PASS)
    return sc


def four_rounds() -> Script:
    """A full four-round game with 連莊 (dealer keeps the deal on a win or a draw). In every round the first dealer
    wins with its dealt hand (天和, keeps the deal); then each hand a non-dealer wins on the
    dealer's first discard (the deal passes). 20 hands: dealers 0 0 1 2 3 | 0 0 1 2 3 …,
    round winds E E E E E | S …, game over after the North round."""
    sc = Script(new_game(GameConfig(RS13)))
    while sc.state.phase is Phase.BETWEEN_HANDS:
        d = sc.state.dealer
        hands: list[list[Any]] = [[], [], [], []]
        w = (d + 1) % 4
        if sc.state.streak == 0 and d == 0:
            hands[d] = tiles("123456789m 456p 11s")  # complete: heaven win
            hands[w] = tiles("99p 88p 77p 33m dr dg dw wn 5m")
        else:
            hands[d] = tiles("5p 99p 88p 77p 33m dr dg dw wn 5m")
            hands[w] = tiles(STRAIGHT_46P)
        hands[(d + 2) % 4] = tiles("123456789s 22m 3p 1p")
        hands[(d + 3) % 4] = tiles("we we ws ws ww ww wn 1s 2s 3s 3p 66s")
        seed = bytes([sc.state.hands_played]) * 16
        sc.start(seed=seed, wall=build_wall(False, 13, d, hands, tiles("1p"), tiles("dg")))
        if sc.state.streak == 0 and d == 0:
            sc.act(0, A.WIN)
        else:
            sc.act(d, A.DISCARD, "5p")
            sc.act(w, A.WIN)
            sc.pass_all()
    return sc


def seven_robs_one(ruleset: str = "tw16-tai") -> Script:
    """The dealer is dealt six flowers (f1-f6), seat 1 one (f7); all are replaced
    automatically at the deal. A go-around later the dealer draws f8: with seven flowers
    while seat 1 holds the other one it may win at once — 七搶一 — and seat 1 pays. Under
    hk-tw16 the 一台花 instant payment for f1-f4 comes at the deal."""
    hands: list[list[Any]] = [[], [], [], []]
    hands[0] = tiles("f1 f2 f3 f4 f5 f6 123m 456m 789m 11s")
    hands[1] = tiles("f7 123p 456p 789p 22s 55s 8s 9s")
    hands[2] = tiles("111m 222p 333s 444s we we ws ws")
    hands[3] = tiles("777s 888p 999m dr dr dg dg dw wn wn")
    draws = tiles("3s dr dg f8")
    repl = tiles("5m 5m 5p 5p 6p 6p 7p 3p 4p")
    sc = Script(new_game(GameConfig(ruleset, max_hands=1)))
    sc.start(seed=b"seven-robs-one-0", wall=build_wall(True, 16, 0, hands, draws, repl))
    sc.discard_unclaimed(0, "6p")
    sc.discard_unclaimed(1, "3s")
    sc.discard_unclaimed(2, "dr")
    sc.discard_unclaimed(3, "dg")
    sc.act(0, A.WIN)
    return sc


SCENARIOS: dict[str, Callable[[], Script]] = {
    "robbing_kong": robbing_kong,
    "multiple_winners_head_bump": multiple_winners_head_bump,
    "multiple_winners_double": multiple_winners_double,
    "ting_instant": ting_instant,
    "missed_win": missed_win,
    "exhaustive_draw_dealer_keeps": exhaustive_draw_dealer_keeps,
    "four_rounds": four_rounds,
    "seven_robs_one": seven_robs_one,
}
if "hk-tw16" in playable_rulesets():
    SCENARIOS["seven_robs_one_hk"] = lambda: seven_robs_one("hk-tw16")


def write(name: str, sc: Script) -> Path:
    path = GOLDEN / f"{name}.jsonl"
    lines = [json.dumps({"config": sc.initial.config.to_json()}, ensure_ascii=False)]
    # re-run the actions one by one to group events per action
    from table import apply

    state = sc.initial
    for a in sc.actions:
        state, ev = apply(state, a)
        lines.append(
            json.dumps(
                {"action": a.to_json(), "events": [normalise_event(e) for e in ev]},
                ensure_ascii=False,
            )
        )
    path.write_text("\n".join(lines) + "\n")
    return path


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, fn in SCENARIOS.items():
        p = write(name, fn())
        print(p.relative_to(HERE.parent.parent), sum(1 for _ in p.open()) - 1, "actions")


if __name__ == "__main__":
    main()
