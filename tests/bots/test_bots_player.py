"""The bot's decisions on hand-built seat views (the JSON shape of ``table.view``)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bots.player import Bot, choose, situation, ukeire
from scoring.tiles import Tile, parse_tiles


def make_view(
    concealed: str,
    phase: str = "turn",
    legal: list[dict[str, Any]] | None = None,
    discard: str | None = None,
    discarder: int = 3,
    melds: list[dict[str, Any]] | None = None,
    river: str = "",
    ruleset: str = "test-13",
) -> dict[str, Any]:
    tiles = [str(t) for t in parse_tiles(concealed)]
    seats = []
    for i in range(4):
        seats.append(
            {
                "seat": i,
                "wind": ("we", "ws", "ww", "wn")[i],
                "melds": melds if (i == 0 and melds) else [],
                "flowers": [],
                "discards": [str(t) for t in parse_tiles(river)] if i == discarder else [],
                "concealed_count": len(tiles) if i == 0 else 13,
                "ting": False,
                "ting_tile": None,
                "concealed": tiles if i == 0 else None,
            }
        )
    if discard is not None:
        seats[discarder]["discards"].append(discard)
    if legal is None:
        legal = [{"type": "discard", "seat": 0, "seq": 7, "tile": t} for t in sorted(set(tiles))]
    return {
        "seq": 7,
        "ruleset": ruleset,
        "phase": phase,
        "you": 0,
        "dealer": 0,
        "round_wind": "we",
        "hand": {
            "turn": 0 if phase == "turn" else discarder,
            "discarder": discarder if phase != "turn" else None,
            "discard": discard,
            "pending": [0],
            "wall_left": 60,
            "seats": seats,
        },
        "legal_actions": legal,
    }


def act(typ: str, tile: str | None = None) -> dict[str, Any]:
    a: dict[str, Any] = {"type": typ, "seat": 0, "seq": 7}
    if tile is not None:
        a["tile"] = tile
    return a


def test_discards_the_isolated_tile() -> None:
    v = make_view("123m 456m 789m 12p 55s wn")
    assert choose(v)["tile"] == "wn"


def test_keeps_the_wider_wait() -> None:
    # discarding 9p keeps 23p (1p/4p: 8 outs); discarding 2p or 3p leaves fewer outs
    v = make_view("123m 456m 789m 23p 9p 55s")
    assert choose(v)["tile"] == "9p"


def test_always_wins_when_offered() -> None:
    v = make_view("123m 456m 789m 123p 55s", legal=[act("win"), act("discard", "5s")])
    assert choose(v)["type"] == "win"
    c = make_view("123m 456m 789m 12p 55s", "claim", [act("pass"), act("win")], discard="3p")
    assert choose(c)["type"] == "win"


def test_claims_only_when_it_helps() -> None:
    # a pung of 5s that completes a set and leaves a ready hand: take it
    helpful = make_view(
        "123m 456m 789m 1p 4p 55s", "claim", [act("pass"), act("pung")], discard="5s"
    )
    assert choose(helpful)["type"] == "pung"
    # a pung that breaks a ready hand's pair and does not lower the shanten number: pass
    useless = make_view("123m 456m 789m 23p 55s", "claim", [act("pass"), act("pung")], discard="5s")
    assert choose(useless)["type"] == "pass"
    # a chow that turns 1-shanten into ready
    chow = make_view(
        "123m 456m 78m 1p 9p 55s wn", "claim", [act("pass"), act("chow", "7m")], discard="9m",
        discarder=3,
    )  # fmt: skip
    assert choose(chow)["type"] == "chow"


def test_valued_pung_is_claimed_when_it_does_not_hurt() -> None:
    v = make_view("123m 456m 18p 5s 7s dr dr wn", "claim", [act("pass"), act("pung")], discard="dr")
    assert choose(v)["type"] == "pung"


def test_folds_against_a_declared_ting_when_far_from_ready() -> None:
    hand = "1m 4m 7m 2p 5p 9p 3s 6s 9s we ws dr dg wn"
    calm = make_view(hand, river="5p 2s")
    assert choose(calm)["tile"] != "5p"  # 5p is not the most useless tile
    v = make_view(hand, river="5p 2s")
    v["hand"]["seats"][3]["ting"] = True  # seat 3 declared ting and passed 5p: safe
    assert choose(v)["tile"] == "5p"


def test_pushes_against_ting_when_close() -> None:
    # one tile from ready: keep going even if the discard is not known safe
    v = make_view("123m 456m 789m 12p 55s wn", river="9s")
    v["hand"]["seats"][3]["ting"] = True
    assert choose(v)["tile"] == "wn"


def test_ukeire_counts_unseen_copies() -> None:
    v = make_view("123m 456m 789m 23p 55s", river="1p 1p 4p")
    sit = situation(v)
    outs, useful = ukeire(list(sit.concealed), 0, sit)
    assert sorted(useful) == [int(Tile.P1), int(Tile.P4)]
    assert outs == (4 - 2) + (4 - 1)


def test_sees_only_its_view() -> None:
    """Other seats' concealed tiles are None in a view; the bot never needs them."""
    v = make_view("123m 456m 789m 12p 55s wn")
    assert all(s["concealed"] is None for s in v["hand"]["seats"][1:])
    assert choose(v)["type"] == "discard"


@st.composite
def random_views(draw: st.DrawFn) -> dict[str, Any]:
    size = draw(st.sampled_from([13, 16]))  # 13- and 16-tile hands
    idx = draw(st.lists(st.integers(0, 135), min_size=size + 1, max_size=size + 1, unique=True))
    tiles = sorted(Tile(i // 4) for i in idx)
    text = " ".join(str(t) for t in tiles)
    if draw(st.booleans()):
        return make_view(text)
    hand13 = " ".join(str(t) for t in tiles[:size])
    d = str(Tile(draw(st.integers(0, 33))))
    legal = [act("pass")]
    held = [str(t) for t in tiles[:size]]
    if held.count(d) >= 2:
        legal.append(act("pung"))
    if held.count(d) >= 3:
        legal.append(act("kong"))
    t = Tile.parse(d)
    for k in (-2, -1, 0):
        first = t.shifted(k)
        if first is None or first.shifted(2) is None:
            continue
        need = [x for x in (first, first.shifted(1), first.shifted(2)) if x != t]
        if all(str(x) in held for x in need):
            legal.append(act("chow", str(first)))
    return make_view(hand13, "claim", legal, discard=d)


@settings(max_examples=40, deadline=None)
@given(random_views(), st.integers(0, 2**32 - 1))
def test_always_returns_a_legal_action(v: dict[str, Any], seed: int) -> None:
    a = Bot(random.Random(seed)).choose(v, v["legal_actions"])
    assert a in v["legal_actions"]


def test_mcr_claims_when_the_ready_hand_scores_the_minimum() -> None:
    """MCR (8-point minimum): a pung that makes the hand ready with big three dragons is
    claimed; the value check scores the hand with the new meld (scoring engine)."""
    v = make_view(
        "dg dg dg dw dw dw dr dr 1m 1m 5p 6p wn",
        "claim",
        [act("pass"), act("pung")],
        discard="dr",
        discarder=2,
        ruleset="mcr",
    )
    assert choose(v)["type"] == "pung"


def test_mcr_passes_when_the_claim_cannot_reach_the_minimum() -> None:
    """A chow to a ready hand worth only a few points (no honours, mixed suits, melded)."""
    v = make_view(
        "23m 567m 234p 67s 99s wn",
        "claim",
        [act("pass"), act("chow", "1m")],
        discard="1m",
        discarder=3,
        ruleset="mcr",
    )
    assert choose(v)["type"] == "pass"


def test_ting_where_it_pays() -> None:
    """hk-tw16: 叮 on a concealed ready hand is worth 門清叮 (15): declared; with an exposed
    chow it is only 叮牌 (5), less than the flexibility it costs: a plain discard."""
    legal = [act("discard", t) for t in ("1m", "9s", "wn")] + [act("ting", "wn")]
    concealed = make_view("123m 456m 789m 123p 78s 99s wn", legal=legal, ruleset="hk-tw16")
    assert choose(concealed) == act("ting", "wn")
    chow = {"kind": "chow", "tiles": ["1p", "2p", "3p"], "claimed": "1p", "from": "left"}
    exposed = make_view("123m 456m 789m 78s 99s wn", legal=legal, ruleset="hk-tw16", melds=[chow])
    assert choose(exposed) == act("discard", "wn")
