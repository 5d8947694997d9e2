"""Rooms: create, join by code, seats, ready, bots, chat, leave, listing, spectators."""

from __future__ import annotations

import pytest

from protocol.codes import ErrorCode
from server.flow.entropy import OS_SEEDS
from server.room import game, game_room, rooms
from server.room.options import validate_options
from server_tests.helpers import check_view_message
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(60)

RS = game.rulesets()[0]


async def two(server):
    a = await Client.connect(server.port, "a", check_view_message)
    b = await Client.connect(server.port, "b", check_view_message)
    wa = await a.hello("alice")
    await b.hello("bob")
    assert wa["v"] == 1 and wa["resumed"] is False and len(wa["token"]) >= 40
    assert RS in wa["rulesets"]
    ack = await a.request(
        {"type": "create_room", "ruleset": RS, "options": {"public": True, "turn_seconds": 20}}
    )
    assert ack["type"] == "ack" and ack["seq"] == 1
    snap = await a.wait_for(lambda m: m["type"] == "snapshot")
    assert snap["lobby"]["host"] == wa["player_id"] and snap["you"]["spectator"] is True
    return a, b, ack["room"], snap["lobby"]["code"]


async def test_join_by_code_seats_ready_bots(server):
    a, b, room, code = await two(server)
    # codes are case-insensitive and may be typed with a dash
    r = await b.request({"type": "join_room", "code": f"{code[:3].lower()}-{code[3:]}"})
    assert r["type"] == "ack"
    snap = await b.wait_for(lambda m: m["type"] == "snapshot")
    assert [s["name"] for s in snap["lobby"]["spectators"]] == ["alice", "bob"] or len(
        snap["lobby"]["spectators"]
    ) == 2
    assert (await a.request({"type": "sit", "room": room, "seat": 0}))["type"] == "ack"
    r = await b.request({"type": "sit", "room": room, "seat": 0})
    assert r["code"] == ErrorCode.SEAT_TAKEN
    assert (await b.request({"type": "sit", "room": room, "seat": 1}))["type"] == "ack"
    r = await b.request({"type": "add_bot", "room": room, "seat": 2})
    assert r["code"] == ErrorCode.NOT_HOST
    assert (await a.request({"type": "add_bot", "room": room, "seat": 2}))["type"] == "ack"
    assert (await a.request({"type": "add_bot", "room": room, "seat": 3}))["type"] == "ack"
    r = await a.request({"type": "start_game", "room": room})
    assert r["code"] == ErrorCode.NOT_READY
    assert (await a.request({"type": "remove_bot", "room": room, "seat": 3}))["type"] == "ack"
    r = await a.request({"type": "remove_bot", "room": room, "seat": 3})
    assert r["code"] == ErrorCode.BAD_SEAT
    assert (await b.request({"type": "ready", "room": room}))["type"] == "ack"
    ev = await a.wait_for(
        lambda m: (
            m["type"] == "events"
            and m.get("lobby")
            and m["lobby"]["seats"][1]
            and m["lobby"]["seats"][1]["ready"]
        )
    )
    seats = ev["lobby"]["seats"]
    assert seats[0]["name"] == "alice" and seats[2]["bot"] is True and seats[3] is None
    assert (await b.request({"type": "stand", "room": room}))["type"] == "ack"
    r = await b.request({"type": "stand", "room": room})
    assert r["code"] == ErrorCode.NOT_SEATED
    r = await a.request({"type": "rematch", "room": room})
    assert r["code"] == ErrorCode.GAME_NOT_FINISHED
    r = await a.request({"type": "get_log", "room": room})
    assert r["code"] == ErrorCode.GAME_NOT_FINISHED
    # public rooms are listed
    lst = await b.request({"type": "list_rooms"})
    assert any(x["id"] == room for x in lst["rooms"])


async def test_chat_is_broadcast_and_limited(server):
    a, b, room, code = await two(server)
    await b.request({"type": "join_room", "code": code})
    r = await a.request({"type": "chat", "room": room, "text": "  hi bob  "})
    assert r["type"] == "ack"
    ev = await b.wait_for(lambda m: m["type"] == "events" and m.get("chat"))
    assert ev["chat"]["text"] == "hi bob" and ev["chat"]["name"] == "alice"
    r = await a.request({"type": "chat", "room": room, "text": "x" * 301})
    assert r["code"] == ErrorCode.CHAT_TOO_LONG
    codes = []
    for i in range(40):
        codes.append((await a.request({"type": "chat", "room": room, "text": f"m{i}"}))["type"])
    assert "error" in codes  # 30 per minute
    r = await a.request({"type": "chat", "room": room, "text": "again"})
    assert r["code"] == ErrorCode.CHAT_RATE_LIMITED
    await a.close()
    await b.close()


async def test_leave_passes_host_and_last_leave_closes(server):
    a, b, room, code = await two(server)
    await b.request({"type": "join_room", "code": code})
    r = await a.request({"type": "leave_room", "room": room})
    assert r["type"] == "left"
    ev = await b.wait_for(
        lambda m: m["type"] == "events" and m.get("notice", {}) and m["notice"]["type"] == "left"
    )
    assert ev["lobby"]["host"] == b.player_id
    r = await a.request({"type": "sit", "room": room, "seat": 0})
    assert r["code"] == ErrorCode.NOT_IN_ROOM
    assert (await b.request({"type": "leave_room", "room": room}))["type"] == "left"
    r = await a.request({"type": "join_room", "code": code})
    assert r["code"] == ErrorCode.ROOM_NOT_FOUND


async def test_resume_gets_snapshot_of_every_room(server):
    a, _b, room, _code = await two(server)
    await a.request({"type": "sit", "room": room, "seat": 3})
    await a.close()
    a2 = await Client.connect(server.port, "a2", check_view_message)
    w = await a2.hello("alice", token=a.token)
    assert w["resumed"] and w["name"] == "alice" and w["rooms"] == [room]
    snap = await a2.wait_for(lambda m: m["type"] == "snapshot")
    assert snap["you"]["seat"] == 3 and snap["seq"] >= 2


async def test_a_resume_under_a_new_name_renames_the_member_in_their_rooms(server):
    a, b, room, code = await two(server)
    assert (await b.request({"type": "join_room", "code": code}))["type"] == "ack"
    await a.request({"type": "sit", "room": room, "seat": 1})
    await a.close()
    a2 = await Client.connect(server.port, "a2", check_view_message)
    w = await a2.hello("Alicia", token=a.token)
    assert w["resumed"] and w["name"] == "Alicia"
    snap = await a2.wait_for(lambda m: m["type"] == "snapshot")
    ev = await b.wait_for(
        lambda m: (
            m["type"] == "events"
            and (m.get("lobby") or {}).get("seats", [0, 0])[1]
            and m["lobby"]["seats"][1]["name"] == "Alicia"
        )
    )
    assert ev["lobby"]["seats"][1]["player"] == a.player_id
    names = {p["player"]: p["name"] for p in ev["lobby"]["spectators"]}
    assert a.player_id not in names and names[b.player_id] == "bob"
    assert snap["you"]["seat"] == 1


async def test_bad_options(server):
    a = await Client.connect(server.port)
    await a.hello()
    for opts in (
        {"turn_seconds": 1},
        {"length": "forever"},
        {"hands": 3},
        {"colour": 1},
        {"stakes": -1},
        {"public": "yes"},
        {"house_rules": {"max_winners": 7}},
        {"house_rules": ["max_winners"]},
        {"settlement": {"no-such-option": 1}},
    ):
        r = await a.request({"type": "create_room", "ruleset": RS, "options": opts})
        assert r["code"] == ErrorCode.BAD_OPTIONS, opts


async def test_house_rules_and_stakes_reach_the_table(server):
    """Room options `house_rules` / `settlement` are validated by the table and the rule set
    (the reason comes back in the error) and reach the game."""
    a = await Client.connect(server.port)
    await a.hello()
    r = await a.request(
        {"type": "create_room", "ruleset": "hk-tw16", "options": {"settlement": {"per_fan": "2"}}}
    )
    assert r["code"] == ErrorCode.BAD_OPTIONS and "per_fan" in r["message"]
    opts = {"settlement": {"per_fan": 3, "base": 2}, "house_rules": {"max_winners": 1}}
    r = await a.request({"type": "create_room", "ruleset": "hk-tw16", "options": opts})
    assert r["type"] == "ack", r


def test_room_options_become_the_game_config():
    """The room's `house_rules` and `settlement` are in the table's config once it starts."""
    opts = validate_options(
        "hk-tw16", {"settlement": {"per_fan": 3, "base": 2}, "house_rules": {"max_winners": 1}}
    )
    state = rooms.new_room("r_1", "ABCDEF", "p_a", "A", "hk-tw16", opts, 0).state
    state = rooms.sit(state, "p_a", 0).state
    for seat in (1, 2, 3):
        state = rooms.add_bot(state, "p_a", seat).state
    state = rooms.ready(state, "p_a", True).state
    cfg = game_room.start(state, "p_a", 0, OS_SEEDS).state["game"]["config"]
    assert cfg["settlement"] == {"base": 2, "per_fan": 3}
    assert cfg["house_rules"] == {"max_winners": 1}


async def test_names_and_chat_are_cleaned_of_control_characters(server):
    a = await Client.connect(server.port)
    w = await a.hello("\x1b[31mEve\u202e\x00")
    assert w["name"] == "[31mEve"
    ack = await a.request({"type": "create_room", "ruleset": RS})
    ev_room = ack["room"]
    r = await a.request({"type": "chat", "room": ev_room, "text": "hi\x1b[2J\x07 there"})
    assert r["type"] == "ack"
    ev = await a.wait_for(lambda m: m["type"] == "events" and m.get("chat"))
    assert ev["chat"]["text"] == "hi[2J there"
    r = await a.request({"type": "chat", "room": ev_room, "text": "\x00\x1b"})
    assert r["code"] == ErrorCode.BAD_MESSAGE
    await a.close()


async def test_resync_resends_missed_events_and_snapshot(server):
    a, b, room, code = await two(server)
    await b.request({"type": "join_room", "code": code})
    for i in range(3):
        await a.request({"type": "chat", "room": room, "text": f"line {i}"})
    last = await b.wait_for(
        lambda m: m["type"] == "events" and (m.get("chat") or {}).get("text") == "line 2"
    )
    b.drain()
    # a client that noticed a gap after seq 2 asks for everything after it
    r = await b.send({"type": "resync", "room": room, "since": 2})
    del r
    again = [await b.wait_for(lambda m: m["type"] == "events") for _ in range(last["seq"] - 2)]
    assert [m["seq"] for m in again] == list(range(3, last["seq"] + 1))
    assert again[-1]["chat"]["text"] == "line 2"
    snap = await b.request({"type": "resync", "room": room, "since": 0})
    assert snap["type"] == "snapshot" and snap["seq"] == last["seq"]
    await a.close()
    await b.close()
