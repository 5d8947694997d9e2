"""What the screen says, from the model alone: the hand-over's winds and dealer (the finished
hand's, checked against the engine), the replay's open hands, flowers by name, one script for
every rule set's pattern names, and the options of ``--create``."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

import scoring
import table
from cli_tests.test_model_vs_engine import lobby
from cli_tests.test_replay_and_help import finished_game_log
from clients.cli import render
from clients.cli.i18n import pattern_name
from clients.cli.main import build_parser, create_options
from clients.cli.model import ClientModel
from clients.cli.replay import Replay
from clients.cli.tiles import TileStyle, flower_name
from protocol import messages as m


def text_of(renderable, width: int = 160) -> str:  # type: ignore[no-untyped-def]
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def play_until_a_hand_ends(ruleset: str, seed: int, me: int = 0):  # type: ignore[no-untyped-def]
    """A model fed one seat's events of an engine game, up to the end of its first hand
    (and the next_hand that follows it in the same commit); the engine's view of the hand
    just before it ended."""
    rng = random.Random(seed)
    state = table.new_game(table.GameConfig(ruleset, max_hands=3))
    model = ClientModel()
    model.player_id = f"p{me}"
    model.apply(
        m.Snapshot(
            room="r1",
            seq=1,
            lobby=lobby(ruleset, "playing"),
            you={"player": f"p{me}", "seat": me, "spectator": False},
            game=table.view(state, me),
            legal=[],
        )
    )
    player = table.RandomPlayer(rng)
    seq, before = 1, None
    while True:
        if state.phase is table.Phase.BETWEEN_HANDS:
            action = table.Action(
                table.ActionType.START_HAND, None, state.seq, seed=rng.randbytes(32)
            )
        else:
            h = state.hand
            seat = h.turn if state.phase is table.Phase.TURN else h.pending[0]
            action = player.choose(state, seat) or table.Action(
                table.ActionType.TIMEOUT, seat, state.seq
            )
        playing = state.hand is not None and state.phase not in (
            table.Phase.BETWEEN_HANDS,
            table.Phase.GAME_OVER,
        )
        if playing:
            before = table.view(state, None)
        state, events = table.apply(state, action)
        seq += 1
        seen = [v for v in (table.view_event(e, me) for e in events) if v is not None]
        model.apply(m.Events(room="r1", seq=seq, events=seen, legal=[]))
        if playing and state.phase in (table.Phase.BETWEEN_HANDS, table.Phase.GAME_OVER):
            return model.room, before, table.view(state, None)


@pytest.mark.parametrize("seed", range(6))
def test_the_hand_over_shows_the_finished_hands_winds_and_dealer(seed: int) -> None:
    r, before, after = play_until_a_hand_ends("zung-jung", seed)
    ctx = r.hand_context()
    assert ctx is not None
    winds = [s["wind"] for s in before["hand"]["seats"]]
    assert ctx["winds"] == winds and ctx["dealer"] == before["dealer"]
    res = text_of(render.breakdown(r, TileStyle(plain=True)))
    assert f"dealer (莊) {r.name_of(before['dealer'])}" in res
    names = {"we": "East", "ws": "South", "ww": "West", "wn": "North"}
    for i, w in enumerate(winds):
        assert f"{r.name_of(i)} {render.WIND_CHARS[w]} {names[w]}" in res
    seats = text_of(render.seats_table(r, TileStyle(plain=True)))
    dealer_line = next(line for line in seats.splitlines() if "莊 dealer" in line)
    assert seats.count("莊 dealer") == 1
    if after["dealer"] != before["dealer"]:  # the deal passed: still the old dealer shown
        assert r.game["dealer"] == after["dealer"]  # (the model has the next one already)
    # the dealer mark sits in the finished hand's dealer's row: their wind is East
    assert "東 East" in dealer_line


def test_the_replay_shows_every_hand_open_at_every_step() -> None:
    rp = Replay(finished_game_log(3))
    style = TileStyle(plain=True)
    shown = 0
    for i in range(1, len(rp)):
        r = rp.room_at(i)
        if r.hand is None or r.phase not in ("turn", "claim", "rob"):
            continue
        text = text_of(render.seats_table(r, style))
        assert text.count("hand ") == 4, (i, text)  # every seat's concealed tiles
        shown += 1
    assert shown > 20


def test_flowers_are_shown_by_name() -> None:
    assert flower_name("f1") == "春 Spring" and flower_name("f7") == "菊 Chrysanthemum"
    r, _, _ = play_until_a_hand_ends("mcr", 1)
    h = r.hand
    h["seats"][2]["flowers"] = ["f1", "f5"]
    for style in (TileStyle(plain=True), TileStyle()):
        text = text_of(render.seats_table(r, style))
        assert "春 Spring" in text and "梅 Plum" in text


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "zh-Hans"])
def test_every_rule_sets_pattern_names_come_out_in_one_script(lang: str) -> None:
    """The names come from the generated file (clients/names.py: OpenCC at build time), in
    Traditional characters in English and 繁體中文, in Simplified ones in 简体中文."""
    simplified_only = set(
        "这为们个来说时会对开关门问间风龙东车马鸟鱼发听杠将双无连过边数张顺庄抢断鸡齐"
    )
    traditional_only = set(
        "這為們個來說時會對開關門問間風龍東車馬鳥魚發聽槓將雙無連過邊數張順莊搶斷雞齊"
    )
    converted = 0
    for rn in scoring.ruleset_names():
        rs = scoring.get_ruleset(rn)
        for p in rs.patterns:
            name = pattern_name(rn, p.id, "?", lang)  # type: ignore[arg-type]
            assert name != "?", (rn, p.id)
            bad = (simplified_only if lang != "zh-Hans" else traditional_only) & set(name)
            assert not bad, (rn, p.name, name, bad)
            converted += name != p.name
    assert converted > 20  # tw16-tai's simplified names, MCR's 杠; or the other way round
    assert pattern_name("mcr", "four-kongs", "?", "zh-Hant") == "四槓"  # type: ignore[arg-type]
    assert pattern_name("mcr", "four-kongs", "?", "zh-Hans") == "四杠"  # type: ignore[arg-type]
    assert pattern_name("tw16-tai", "two-concealed-kongs", "?", "zh-Hant") == "雙暗槓"


def test_create_takes_the_timers_and_public_from_the_command_line() -> None:
    args = build_parser().parse_args(
        [
            "--create",
            "mcr",
            "--length",
            "hands",
            "--hands",
            "2",
            "--turn-seconds",
            "0",
            "--claim-seconds",
            "5",
            "--pause-seconds",
            "2",
            "--public",
        ]
    )
    assert create_options(args) == {
        "length": "hands",
        "hands": 2,
        "turn_seconds": 0,
        "claim_seconds": 5,
        "hand_pause_ms": 2000,
        "public": True,
    }
    assert create_options(build_parser().parse_args(["--create", "mcr"])) == {
        "length": "four_rounds"
    }
