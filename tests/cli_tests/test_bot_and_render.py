"""``--bot`` plays a whole game at a real server with no key pressed; the prompt and the
countdown render what the server allows."""

from __future__ import annotations

from rich.console import Console

from cli_tests.helpers import running_app, screen_text, wait_for
from clients.cli import render
from clients.cli.model import RoomState
from clients.cli.tiles import TileStyle


async def test_bot_flag_plays_a_game_without_keys(mahjong_server):
    options = {"length": "hands", "hands": 1, "turn_seconds": 0, "claim_seconds": 0}
    # like `mahjong-cli --bot --create RULESET --length hands --hands 1`
    async with running_app(
        mahjong_server.url, "Robo", bot=True, create="zung-jung", create_options=options
    ) as (pilot, app):
        await wait_for(pilot, lambda: app.model.room is not None, what="the room")
        await pilot.press("s", "a", "r")
        room = app.model.room
        await wait_for(pilot, lambda: all(room.seats()) and room.seats()[room.seat or 0]["ready"])
        await pilot.press("g")
        await wait_for(pilot, lambda: room.status == "finished", timeout=40, what="the end")
        assert room.summary is not None and room.summary["hands_played"] == 1
        assert any(line.startswith("Robo discards") for line in room.log)
        await pilot.pause(0.1)
        assert "Game summary" in screen_text(app.screen.query_one("#result"))


def text_of(renderable) -> str:  # type: ignore[no-untyped-def]
    console = Console(width=140, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def claim_room() -> RoomState:
    r = RoomState(id="r")
    r.lobby = {
        "code": "X",
        "ruleset": "zung-jung",
        "status": "playing",
        "seats": [{"name": n, "bot": False, "ready": True} for n in "ABCD"],
    }
    r.seat = 1
    seats = [
        {
            "seat": i,
            "wind": w,
            "melds": [],
            "flowers": [],
            "discards": [],
            "concealed_count": 13,
            "ting": False,
            "ting_tile": None,
            "concealed": None,
        }
        for i, w in enumerate(("we", "ws", "ww", "wn"))
    ]
    seats[0]["discards"] = ["9m", "4p"]
    seats[1]["concealed"] = [
        "2p",
        "3p",
        "5p",
        "6p",
        "4p",
        "4p",
        "1m",
        "2m",
        "3m",
        "we",
        "we",
        "dr",
        "dr",
    ]
    r.game = {
        "phase": "claim",
        "ruleset": "zung-jung",
        "dealer": 0,
        "scores": [0] * 4,
        "round_wind": "we",
        "hands_played": 0,
        "hand": {
            "number": 0,
            "turn": 0,
            "discard": "4p",
            "discarder": 0,
            "wall_left": 50,
            "seats": seats,
        },
    }
    r.last_discard_seat = 0
    r.legal = [
        {"type": "pass", "seat": 1, "seq": 9},
        {"type": "pung", "seat": 1, "seq": 9},
        {"type": "chow", "seat": 1, "seq": 9, "tile": "2p"},
        {"type": "chow", "seat": 1, "seq": 9, "tile": "3p"},
        {"type": "chow", "seat": 1, "seq": 9, "tile": "4p"},
    ]
    r.deadline = 100_000
    return r


def test_claim_prompt_lists_each_choice_with_the_countdown():
    r = claim_room()
    text = text_of(render.prompt(r, now_ms=92_500))
    assert "7.5s" in text
    assert "[1] pung" in text and "[0/x] pass" in text
    assert "chow 2p-3p-4p" in text and "chow 3p-4p-5p" in text and "chow 4p-5p-6p" in text
    assert [a["type"] for a in render.options(r)] == ["pung", "chow", "chow", "chow"]
    head = text_of(render.header(r, now_ms=92_500))
    assert "claims on A's 4p" in head and "Tiles left 50" in head and "7.5s" in head
    seats = text_of(render.seats_table(r, TileStyle(plain=True)))
    assert "dealer" in seats and "B (you)" in seats and "9m 4p" in seats
    # past the deadline the countdown stops at zero; without a decision there is none
    assert "0.0s" in text_of(render.prompt(r, now_ms=200_000))
    r.legal = []
    assert "⏱" not in text_of(render.header(r, now_ms=92_500))


def test_replay_command_refuses_what_is_not_a_game_log(tmp_path, capsys):
    from clients.cli.main import main

    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    assert main(["replay", str(bad)]) == 2
    assert "is not a game log" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
