"""The replay viewer (a game played by the engine, saved as a log, stepped through with keys)
and the help panel's waits, checked against the rule set's own scorer."""

from __future__ import annotations

import json
import random

import pytest

import table
from cli_tests.helpers import screen_text
from clients.cli.advice import advise
from clients.cli.model import RoomState
from clients.cli.replay import Replay, ReplayApp, ReplayError, load
from clients.cli.tiles import TileStyle, glyph

RULESET = "zung-jung"


def finished_game_log(
    seed: int,
    ruleset: str = RULESET,
    hands: int = 1,
    house: dict | None = None,
    settlement: dict | None = None,
) -> dict:
    rng = random.Random(seed)
    cfg = table.GameConfig(
        ruleset,
        max_hands=hands,
        house_rules=tuple(sorted((house or {}).items())),
        settlement=tuple(sorted((settlement or {}).items())),
    )
    state = table.new_game(cfg)
    player = table.RandomPlayer(rng)
    actions = []
    while state.phase is not table.Phase.GAME_OVER:
        if state.phase is table.Phase.BETWEEN_HANDS:
            a = table.Action(table.ActionType.START_HAND, None, state.seq, seed=rng.randbytes(32))
        else:
            h = state.hand
            seat = h.turn if state.phase is table.Phase.TURN else h.pending[0]
            a = player.choose(state, seat) or table.Action(
                table.ActionType.TIMEOUT, seat, state.seq
            )
        state, _ = table.apply(state, a)
        actions.append(a.to_json())
    options = {"length": "hands", "hands": hands, "house_rules": house, "settlement": settlement}
    return {
        "ruleset": ruleset,
        "options": options,
        "game_no": 1,
        "seats": ["Ann", "Ben", "Cy", "Di"],
        "actions": actions,
        "summary": {"scores": list(state.scores)},
    }


def test_replay_rebuilds_the_game_and_opens_every_hand():
    log = finished_game_log(3)
    rp = Replay(log)
    assert len(rp) == len(log["actions"]) + 1
    assert list(rp.states[-1].scores) == log["summary"]["scores"]
    mid = rp.room_at(len(rp) // 2)
    assert mid.hand is not None
    for i in range(4):  # all hands open in a replay
        assert mid.seat_view(i)["concealed"] is not None
    assert rp.narrate(1)[0].startswith("#1: the table: start_hand")


def test_replay_plays_the_rooms_house_rules_and_settlement():
    """A room's settlement options (the stakes: base and value per fan) and house rules set
    the replayed table too: its wins are paid as they were in the game."""
    settlement = {"base": 3, "per_fan": 5}
    log = finished_game_log(0, "hk-tw16", 2, {"max_winners": 1}, settlement)
    plain = finished_game_log(0, "hk-tw16", 2)
    assert log["summary"]["scores"] != plain["summary"]["scores"]  # the stakes changed them
    rp = Replay(log)
    assert list(rp.states[-1].scores) == log["summary"]["scores"]
    assert rp.states[0].config.house_rules == (("max_winners", 1),)


def test_replay_rejects_a_tampered_log(tmp_path):
    log = finished_game_log(4)
    log["actions"][5]["seat"] = (log["actions"][5]["seat"] + 1) % 4
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(log))
    with pytest.raises(ReplayError):
        load(path)
    (tmp_path / "junk.json").write_text("[1, 2]")
    with pytest.raises(ReplayError):
        load(tmp_path / "junk.json")


async def test_replay_viewer_steps_with_keys(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"log": finished_game_log(5)}))  # a saved game_log message
    rp = load(path)
    app = ReplayApp(rp, plain=True)
    async with app.run_test(size=(160, 50)) as pilot:
        assert "step 0/" in screen_text(app.query_one("#header"))
        await pilot.press("right", "right", "right")
        assert app.i == 3
        await pilot.press("left")
        assert app.i == 2
        await pilot.press("end")
        assert app.i == len(rp) - 1
        await pilot.pause(0.1)
        result = screen_text(app.query_one("#result"))
        last = [e for ev in rp.events for e in ev if e["type"] in ("hand_won", "hand_drawn")][-1]
        if last["type"] == "hand_won":
            assert "Win breakdown" in result
            for item in last["winners"][0]["score"]["items"]:
                assert item["en"] in result
        else:
            assert "drawn" in result
        await pilot.press("home")
        assert app.i == 0


def room_with_hand(concealed: list[str], discards: list[str]) -> RoomState:
    r = RoomState(id="r")
    r.lobby = {"code": "X", "ruleset": RULESET, "status": "playing", "seats": [None] * 4}
    r.seat = 0
    seats = [
        {
            "seat": i,
            "wind": "we",
            "melds": [],
            "flowers": [],
            "discards": [],
            "concealed_count": 13,
            "ting": False,
            "ting_tile": None,
            "concealed": None,
        }
        for i in range(4)
    ]
    seats[0]["concealed"] = concealed
    seats[1]["discards"] = discards
    r.game = {
        "phase": "claim",
        "ruleset": RULESET,
        "dealer": 0,
        "scores": [0] * 4,
        "hand": {"number": 0, "turn": 1, "discard": None, "discarder": 1, "seats": seats},
    }
    return r


def test_help_lists_the_waits_with_unseen_counts():
    hand = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "2p", "3p", "5s", "5s"]
    r = room_with_hand(hand, discards=["1p", "1p", "4p"])
    adv = advise(r)
    assert adv.shanten == 0
    assert dict(adv.waits) == {"1p": 2, "4p": 3}
    # the rule set's scorer agrees that both waits complete the hand
    import scoring

    rs = scoring.get_ruleset(RULESET)
    counts = [0] * 34
    for t in hand:
        counts[int(scoring.Tile.parse(t))] += 1
    assert [str(t) for t in scoring.waits(counts)] == ["1p", "4p"]
    assert rs.hand_size == 13


def test_tiles_render_as_glyphs_or_plain_codes():
    assert (
        glyph("1m") == "\U0001f007" and glyph("9p") == "\U0001f021" and glyph("dr") == "\U0001f004"
    )
    assert TileStyle(plain=True).text("5p").plain == "5p "
    assert TileStyle().text("we").plain == "\U0001f000 "
