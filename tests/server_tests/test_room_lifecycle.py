"""One lifecycle for both ways of going: a game whose humans have all gone — by
``leave_room`` or by disconnecting — pauses (nothing is committed, no bot plays), stays
joinable by its code, and gives the seat back to the player who comes back (``join_room``
or a resume), after which the game goes on."""

from __future__ import annotations

import asyncio

import pytest

from server_tests.helpers import (
    BUSY_OPTIONS,
    load_room,
    room_stays_still,
    setup_table,
)
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(60)


async def _start(server) -> tuple[Client, str, str]:
    [alice], room = await setup_table(server.port, 1, "mcr", BUSY_OPTIONS, label="life")
    code = next(m for m in alice.inbox if m["type"] == "snapshot")["lobby"]["code"]
    assert (await alice.request({"type": "start_game", "room": room}))["type"] == "ack"
    return alice, room, code


async def test_the_last_member_leaving_a_game_pauses_it_and_join_gives_the_seat_back(
    server, redis_url
):
    alice, room, code = await _start(server)
    left = await alice.request({"type": "leave_room", "room": room})
    assert left["type"] == "left"
    _, state = await room_stays_still(redis_url, room)
    assert state["status"] == "playing" and not state["members"]
    assert state["seats"][0]["auto"] and state["seats"][0]["away"] is not None
    # the code still finds the room; joining gives the seat back
    ack = await alice.request({"type": "join_room", "code": code})
    assert ack["type"] == "ack", ack
    snap = next(m for m in reversed(alice.inbox) if m["type"] == "snapshot")
    assert snap["you"]["seat"] == 0 and snap["lobby"]["status"] == "playing"
    _, state = await load_room(redis_url, room)
    assert not state["seats"][0]["auto"] and state["seats"][0]["away"] is None
    # and the game goes on: the seat is asked again and answers
    await _play_a_little(alice, room)
    await alice.close()


async def test_the_last_player_disconnecting_pauses_the_game_and_a_resume_gives_the_seat_back(
    server, redis_url
):
    alice, room, _ = await _start(server)
    token = alice.token
    await alice.close()
    # after the grace period (1 s here) a bot plays the seat: with nobody left, it pauses
    for _ in range(100):
        await asyncio.sleep(0.05)
        _, state = await load_room(redis_url, room)
        if state["seats"][0]["auto"]:
            break
    else:
        raise AssertionError("the seat was never taken over")
    _, state = await room_stays_still(redis_url, room)
    assert state["status"] == "playing"
    again = await Client.connect(server.port, "life-again")
    w = await again.hello("life0", token=token)
    assert w["resumed"] and room in w["rooms"]
    await again.wait_for(lambda m: m["type"] == "snapshot" and m["room"] == room)
    await again.wait_for(lambda m: m.get("notice", {}).get("type") == "seat_back")
    await _play_a_little(again, room)
    await again.close()


async def test_a_lobby_closes_when_its_last_member_leaves(server, redis_url):
    [alice], room = await setup_table(server.port, 1, "mcr", BUSY_OPTIONS, label="lobby")
    code = next(m for m in alice.inbox if m["type"] == "snapshot")["lobby"]["code"]
    assert (await alice.request({"type": "leave_room", "room": room}))["type"] == "left"
    err = await alice.request({"type": "join_room", "code": code})
    assert err["type"] == "error" and err["code"] == "room_not_found"
    await alice.close()


async def _play_a_little(c: Client, room: str) -> None:
    """Answer the seat's next questions (the last frame's legal actions, then the next
    ones'): the game is live again."""
    answered = 0
    last = next(
        (m for m in reversed(c.inbox) if m["type"] in ("events", "snapshot") and "legal" in m),
        None,
    )
    while answered < 3:
        if last is None or not last.get("legal"):
            last = await c.wait_for(
                lambda m: m["type"] in ("events", "snapshot") and bool(m.get("legal"))
            )
        c.seq += 1
        r = await c.request(
            {"type": "action", "room": room, "seq": c.seq, "action": last["legal"][0]}
        )
        last = None
        if r["type"] == "ack":
            answered += 1
        else:
            assert r["code"] == "illegal_action"  # a question another commit overtook
