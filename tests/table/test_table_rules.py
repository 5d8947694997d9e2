"""Hand-built situations: turn order, claims and their priority, the claim window's
sequence numbers and privacy, timeouts, kongs, exhaustive draws, dealer rotation, errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_testlib import PLAYABLE, Script, tiles

import scoring
from scoring.tiles import Tile
from table import (
    Action,
    ActionType,
    BadActionError,
    GameConfig,
    Phase,
    apply,
    legal_actions,
    new_game,
    view,
    view_event,
)
from table.scoring_bridge import ready_discards
from table.wall import build_wall

A = ActionType

# dealer 0. Seat 0 discards 5s: seat 1 may chow it (4s 6s), seat 2 may pung it (5s 5s).
HANDS = [
    tiles("19m 19p 19s we ws ww wn dr dg dw 5s"),
    tiles("46s 2345678m 11p 22p"),
    tiles("55s 2345678p 99m 34m"),
    tiles("123s 789s dr dr dg dg dw dw wn"),
]
DRAWS = tiles("1s 2s 3s 4s 5s 6s 7s 8s")
REPL = tiles("7m 8m 9m 6p 7p 8p")


# Zung Jung: 13 tiles, no flowers, no minimum; house rules where a test needs other rules.
RS = "zung-jung"


def zj_script() -> Script:
    sc = Script(new_game(GameConfig(RS, max_hands=2)))
    sc.start(wall=build_wall(False, 13, 0, HANDS, DRAWS, REPL))
    return sc


def test_deal() -> None:
    sc = zj_script()
    h = sc.hand
    assert [len(s.concealed) for s in h.seats] == [14, 13, 13, 13]
    assert sc.state.phase is Phase.TURN and h.turn == 0
    assert h.seats[0].drawn == HANDS[0][-1]
    assert sc.types(sc.events)[:5] == ["hand_started", "dealt", "dealt", "dealt", "dealt"]
    started = sc.events[0].data
    assert started["commitment"] == h.commitment and len(started["commitment"]) == 64
    # each seat sees its own deal only
    dealt = sc.events[1]
    assert view_event(dealt, 0)["tiles"] == [str(t) for t in HANDS[0]]
    assert "tiles" not in view_event(dealt, 1) and "tiles" not in view_event(dealt, None)


def test_claim_priority_privacy_and_sequence_numbers() -> None:
    sc = zj_script()
    sc.expect_error("not-your-turn", 1, A.DISCARD, "4s")
    sc.expect_error("tile-not-in-hand", 0, A.DISCARD, "5p")
    sc.expect_error("wrong-phase", 0, A.PASS)
    sc.act(0, A.DISCARD, "5s")
    assert sc.state.phase is Phase.CLAIM
    seq = sc.state.seq
    assert sc.hand.pending == (1, 2, 3)
    # every other seat is prompted, whether or not it can claim
    for s in (1, 2, 3):
        assert A.PASS in {a.type for a in legal_actions(sc.state, s)}
    assert legal_actions(sc.state, 0) == []
    sc.expect_error("claim-not-allowed", 2, A.CHOW, "4s")
    sc.expect_error("not-your-turn", 0, A.PASS)
    sc.expect_error("wrong-phase", 1, A.DISCARD, "4s")
    ev = sc.act(1, A.CHOW, "4s")
    assert sc.state.seq == seq  # the window stays open at the same seq
    answered = ev[0]
    assert view_event(answered, 1) == {"type": "answered", "seat": 1, "answer": "chow"}
    for other in (0, 2, 3, None):
        assert view_event(answered, other) is None  # not even that seat 1 answered
        assert view(sc.state, other)["hand"]["pending"] == [1, 2, 3]
    assert view(sc.state, 1)["hand"]["pending"] == [2, 3]
    sc.expect_error("not-waiting-for-seat", 1, A.PASS)
    sc.act(2, A.PUNG)
    assert sc.state.seq == seq
    stale = Action(A.PASS, 3, seq - 1)
    with pytest.raises(Exception) as e:
        apply(sc.state, stale)
    assert getattr(e.value, "code", None) == "stale-seq"
    ev = sc.act(3, A.PASS)
    assert sc.state.seq == seq + 1
    claimed = [e for e in ev if e.type == "claimed"]
    assert len(claimed) == 1 and claimed[0].data["seat"] == 2  # pung beats chow
    assert claimed[0].data["meld"] == {
        "kind": "pung",
        "tiles": ["5s", "5s", "5s"],
        "claimed": "5s",
        "from": "opposite",
    }
    assert sc.state.phase is Phase.TURN and sc.hand.turn == 2
    assert sc.hand.seats[0].discards == ()  # the claimed tile left the river
    assert sc.hand.seats[2].drawn is None
    sc.discard_unclaimed(2, "9m")
    assert sc.hand.turn == 3 and sc.hand.seats[3].drawn == DRAWS[0]


def test_chow_is_executed_when_nobody_pungs() -> None:
    sc = zj_script()
    sc.act(0, A.DISCARD, "5s")
    sc.act(1, A.CHOW, "4s")
    sc.pass_all()
    s1 = sc.hand.seats[1]
    assert s1.melds[0].to_json() == {
        "kind": "chow",
        "tiles": ["4s", "5s", "6s"],
        "claimed": "5s",
        "from": "left",
    }
    assert sc.hand.turn == 1 and len(s1.concealed) == 11


def test_timeouts_have_defaults() -> None:
    sc = zj_script()
    ev = sc.act(0, A.TIMEOUT)
    assert sc.types(ev)[:2] == ["timeout", "discard"]
    assert ev[1].data["tile"] == str(HANDS[0][-1])  # the drawn tile goes
    ev = sc.act(2, A.TIMEOUT)  # a claim window: timeout = pass
    assert ev[0].data == {"seat": 2, "default": "pass"}
    sc.act(1, A.TIMEOUT)
    sc.act(3, A.TIMEOUT)
    assert sc.state.phase is Phase.TURN and sc.hand.turn == 1


def test_concealed_kong_replacement_and_hidden_tiles() -> None:
    hands = [tiles("7777p 19m 19s we ws ww wn dr dg"), *HANDS[1:]]
    hands[2] = tiles("55s 234568p 99m 34m 5p")
    hands[3] = tiles("123s 789s dr dr dg dg dw dw dw")
    repl = tiles("7m 8m 9m 3s 4s")
    sc = Script(new_game(GameConfig(RS, max_hands=1)))
    sc.start(wall=build_wall(False, 13, 0, hands, DRAWS, repl))
    kinds = {(a.type, a.tile) for a in legal_actions(sc.state, 0)}
    assert (A.CONCEALED_KONG, tiles("7p")[0]) in kinds
    ev = sc.act(0, A.CONCEALED_KONG, "7p")
    kong = next(e for e in ev if e.type == "kong")
    assert "tile" not in view_event(kong, 1) and view_event(kong, 0)["tile"] == "7p"
    draw = next(e for e in ev if e.type == "draw")
    assert draw.data["replacement"] is True and draw.data["tile"] == str(repl[0])
    assert sc.hand.back == 1 and sc.hand.turn == 0 and sc.state.phase is Phase.TURN
    v1 = view(sc.state, 1)["hand"]["seats"][0]["melds"][0]
    assert v1 == {"kind": "kong", "concealed": True, "tiles": None}
    sc.expect_error("tile-not-in-hand", 0, A.CONCEALED_KONG, "9m")


def _play_out(sc: Script) -> None:
    """Discard the drawn tile, pass every window, never win: an exhaustive draw."""
    while sc.state.phase in (Phase.TURN, Phase.CLAIM, Phase.ROB):
        h = sc.hand
        if sc.state.phase is Phase.TURN:
            s = h.seats[h.turn]
            sc.act(h.turn, A.DISCARD, s.drawn if s.drawn is not None else s.concealed[-1])
        else:
            sc.act(h.pending[0], A.PASS)


@pytest.mark.parametrize("keep", [False, True])
def test_exhaustive_draw_and_the_deal(keep: bool) -> None:
    rules = (("dealer_keeps_on_draw", keep),)
    sc = Script(new_game(GameConfig(RS, max_hands=3, house_rules=rules)))
    sc.start(seed=b"exhaustive-draw-1")
    _play_out(sc)
    assert [e.type for e in sc.last][-3:] == ["hand_drawn", "hand_ended", "next_hand"] or [
        e.type for e in sc.last
    ][-4:-1] == ["hand_drawn", "hand_ended", "next_hand"]
    assert sc.hand.remaining == 0  # no dead wall: the wall is played out
    assert sc.state.phase is Phase.BETWEEN_HANDS
    assert sc.state.dealer == (0 if keep else 1)
    assert sc.state.streak == (1 if keep else 0)
    sc.expect_error("wrong-phase", 0, A.DISCARD, "1m")
    with pytest.raises(Exception) as e:
        apply(sc.state, Action(A.START_HAND, 0, sc.state.seq, seed=b"x" * 16))
    assert getattr(e.value, "code", None) == "not-your-turn"
    with pytest.raises(BadActionError):
        apply(sc.state, Action(A.START_HAND, None, sc.state.seq, seed=b"short"))


def test_game_over_and_bad_actions() -> None:
    sc = Script(new_game(GameConfig(RS, max_hands=1)))
    sc.start(seed=b"game-over-seed-1")
    sc.expect_error("wrong-phase", None, A.START_HAND)
    sc.expect_error("illegal-action", 0, A.TING, str(sc.hand.seats[0].concealed[0]))
    with pytest.raises(BadActionError):
        apply(sc.state, Action(A.DISCARD, 7, sc.state.seq, tiles("1m")[0]))
    with pytest.raises(BadActionError):
        Action.from_json({"type": "fly", "seat": 0, "seq": 1})
    with pytest.raises(BadActionError):
        Action.from_json({"type": "discard", "seat": 0, "seq": "1"})
    with pytest.raises(BadActionError):
        Action.from_json({"type": "discard", "seat": 0, "seq": 1, "tile": "0m"})
    _play_out(sc)
    assert sc.state.phase is Phase.GAME_OVER
    assert sc.last[-1].type == "game_over"
    sc.expect_error("game-over", 0, A.DISCARD, "1m")
    assert legal_actions(sc.state, 0) == []
    # the hand is over: the wall and all hands are revealed in the views
    v = view(sc.state, 2)["hand"]
    assert "wall" in v and all(s["concealed"] is not None for s in v["seats"])


@pytest.mark.parametrize("ruleset", PLAYABLE)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_ready_discards_equal_the_rule_sets_waits(ruleset: str, data: st.DataObject) -> None:
    """The fast 叮 search agrees with the scoring engine's own waits after each discard."""
    rs = scoring.get_ruleset(ruleset)
    n_melds = data.draw(st.integers(0, 2))
    size = rs.hand_size + 1 - 3 * n_melds
    # near-ready hands are the interesting ones: a complete hand with some tiles swapped
    pool = [Tile(i) for i in range(34) for _ in range(4)]
    hand = data.draw(st.permutations(pool))[:size]
    c = [0] * 34
    for t in hand:
        c[t] += 1
    if data.draw(st.booleans()):
        # make it ready-ish: a run of sets
        c = [0] * 34
        base = data.draw(st.integers(0, 6))
        suit = data.draw(st.integers(0, 2)) * 9
        left = size
        k = 0
        while left >= 3:
            for d in range(3):
                c[suit + (base + d + k) % 9] += 1
            left -= 3
            k += 1
        for _ in range(left):
            c[data.draw(st.integers(0, 33))] += 1
        if max(c) > 4:
            return
    got = set(ready_discards(ruleset, tuple(c), n_melds))
    want = set()
    for d in range(34):
        if c[d]:
            c[d] -= 1
            if rs.waits(c, n_melds):
                want.add(Tile(d))
            c[d] += 1
    assert got == want


def test_added_kong_nobody_robs() -> None:
    """An added kong opens a robbing window for the three others; when all pass (or time
    out) the kong is completed and its owner draws a replacement from the tail."""
    sc = Script(new_game(GameConfig(RS, max_hands=1)))
    sc.start(wall=build_wall(False, 13, 0, HANDS, tiles("1s 2s 3s 5s 6s"), REPL))
    sc.act(0, A.DISCARD, "5s")
    sc.pass_all(2)
    sc.act(2, A.PUNG)  # seat 2 pungs 5s
    sc.discard_unclaimed(2, "9m")
    # seats 3, 0, 1 draw and discard what they drew; seat 2 then draws
    for s in (3, 0, 1):
        sc.discard_unclaimed(s, sc.hand.seats[s].drawn)
    assert sc.hand.turn == 2
    drawn = sc.hand.seats[2].drawn
    assert drawn == tiles("5s")[0]  # the fourth
    ev = sc.act(2, A.ADDED_KONG, "5s")
    assert [e.type for e in ev] == ["kong_declared"]
    assert sc.state.phase is Phase.ROB and sc.hand.pending == (3, 0, 1)
    sc.expect_error("claim-not-allowed", 3, A.PUNG)
    sc.act(3, A.PASS)
    sc.act(0, A.TIMEOUT)
    ev = sc.act(1, A.PASS)
    types = [e.type for e in ev]
    assert types[:3] == ["answered", "kong", "draw"]
    s2 = sc.hand.seats[2]
    assert [m.to_json() for m in s2.melds] == [
        {"kind": "kong", "tiles": ["5s"] * 4, "added": True, "claimed": "5s", "from": "opposite"}
    ]
    assert sc.state.phase is Phase.TURN and sc.hand.turn == 2 and sc.hand.back == 1
    assert sc.hand.seats[2].drawn == REPL[0]
