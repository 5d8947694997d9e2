"""Game ids (issue 41): every game gets one when it starts, a rematch's game a new one; the
lobby shows it; a room stored before game ids keeps loading and its game gets the stable id
``<room id>-<game_no>``."""

from __future__ import annotations

from server.flow.entropy import OS_SEEDS
from server.room import game_room, rooms
from server.room.game_room import Seeds
from server.room.lobby import game_id_of, public_lobby
from server.room.options import validate_options

JSON = dict


def _seated() -> JSON:
    opts = validate_options("mcr", {"length": "hands", "hands": 1, "hand_pause_ms": 0})
    s = rooms.new_room("r_1", "ABCDEF", "p0", "P0", "mcr", opts, 0).state
    s = rooms.sit(s, "p0", 0).state
    s = rooms.ready(s, "p0", True).state
    for i in (1, 2, 3):
        s = rooms.add_bot(s, "p0", i).state
    return s


def test_a_lobby_before_the_first_game_has_no_game_id():
    assert "game_id" not in public_lobby(_seated())
    assert game_id_of(_seated()) is None


def test_each_start_gives_a_new_id_and_the_lobby_shows_it():
    ids = iter(["g_first", "g_second"])
    s = game_room.start(_seated(), "p0", 0, Seeds(lambda: "0" * 64, lambda: next(ids))).state
    assert s["game_id"] == "g_first" == public_lobby(s)["game_id"]
    s = dict(s, status="finished")  # (as the last hand's end leaves it)
    s = game_room.rematch(s, "p0").state
    assert public_lobby(s)["game_id"] == "g_first"  # the last game's until the next starts
    s = rooms.ready(s, "p0", True).state
    s = game_room.start(s, "p0", 0, Seeds(lambda: "0" * 64, lambda: next(ids))).state
    assert public_lobby(s)["game_id"] == "g_second" and s["game_no"] == 2


def test_the_default_ids_are_random_and_url_safe():
    a = game_room.start(_seated(), "p0", 0, OS_SEEDS).state["game_id"]
    b = game_room.start(_seated(), "p0", 0, OS_SEEDS).state["game_id"]
    assert a != b and len(a) == 16 and all(c.isalnum() or c in "-_" for c in a)


def test_a_game_stored_before_game_ids_gets_a_stable_id():
    s = game_room.start(_seated(), "p0", 0, OS_SEEDS).state
    del s["game_id"]  # as a server of before game ids stored it
    assert game_id_of(s) == "r_1-1" == public_lobby(s)["game_id"]
