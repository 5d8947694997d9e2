"""Host controls over real WebSockets and Redis: kick (also of a player connected to another
server process than the host's), make_host, swap_seats, pause_game / resume_game. A member
who is not the host gets ``not_host`` and nothing is committed; while a game is paused
nothing is committed by itself and actions are refused with ``paused``."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from server_tests.conftest import running_server
from server_tests.helpers import (
    BUSY_OPTIONS,
    load_room,
    room_stays_still,
    setup_table,
)
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(90)


def _code(c: Client) -> str:
    code: str = next(m for m in c.inbox if m["type"] == "snapshot")["lobby"]["code"]
    return code


async def _answer(c: Client, room: str, n: int) -> None:
    """Answer the seat's next ``n`` questions with their first legal action."""
    answered = 0
    last = next(
        (m for m in reversed(c.inbox) if m["type"] in ("events", "snapshot") and "legal" in m),
        None,
    )
    while answered < n:
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


async def test_a_kicked_player_on_another_process_is_detached_and_cannot_come_back(redis_url):
    async with running_server(redis_url) as a, running_server(redis_url) as b:
        alice = await Client.connect(a.port, "alice")
        await alice.hello("Alice")
        room = (
            await alice.request({"type": "create_room", "ruleset": "mcr", "options": BUSY_OPTIONS})
        )["room"]
        code = _code(alice)
        bob = await Client.connect(b.port, "bob")  # on the other process
        await bob.hello("Bob")
        assert (await bob.request({"type": "join_room", "code": code}))["type"] == "ack"
        for c, seat in ((alice, 0), (bob, 1)):
            assert (await c.request({"type": "sit", "room": room, "seat": seat}))["type"] == "ack"
            assert (await c.request({"type": "ready", "room": room}))["type"] == "ack"
        for seat in (2, 3):
            r = await alice.request({"type": "add_bot", "room": room, "seat": seat})
            assert r["type"] == "ack"
        assert (await alice.request({"type": "start_game", "room": room}))["type"] == "ack"
        assert bob.player_id is not None
        ack = await alice.request({"type": "kick", "room": room, "player": bob.player_id})
        assert ack["type"] == "ack", ack
        # bob's process delivers the commit (its lobby without bob, the notice) and detaches
        # him with a left naming the reason
        note = await bob.wait_for(lambda m: m.get("notice", {}).get("type") == "kicked")
        assert note["notice"]["player"] == bob.player_id and note["notice"]["name"] == "Bob"
        left = await bob.wait_for(lambda m: m["type"] == "left")
        assert left == {"type": "left", "room": room, "reason": "kicked"}
        _, state = await load_room(redis_url, room)
        assert bob.player_id not in state["members"] and state["kicked"] == [bob.player_id]
        assert state["seats"][1]["bot"] and state["seats"][1]["player"] is None
        # nothing of the room reaches bob any more; his requests for it are refused
        bob.drain()
        err = await bob.request({"type": "chat", "room": room, "text": "hi"})
        assert err["type"] == "error" and err["code"] == "not_in_room"
        await asyncio.sleep(0.3)
        assert not any(m.get("room") == room and m["type"] == "events" for m in bob.pending)
        # and he cannot join it again, nor find it on resuming
        err = await bob.request({"type": "join_room", "code": code})
        assert err["type"] == "error" and err["code"] == "kicked", err
        token = bob.token
        await bob.close()
        again = await Client.connect(b.port, "bob-again")
        w = await again.hello("Bob", token=token)
        assert room not in w["rooms"]
        # the game goes on with a bot in the seat: alice is asked again and again
        v0, _ = await load_room(redis_url, room)
        await _answer(alice, room, 3)
        v1, _ = await load_room(redis_url, room)
        assert v1 > v0
        await again.close()
        await alice.close()


async def test_non_hosts_are_refused_and_nothing_changes(server, redis_url):
    [alice, bob], room = await setup_table(server.port, 2, "mcr", BUSY_OPTIONS, label="nh")
    assert alice.player_id is not None
    v0, before = await load_room(redis_url, room)
    for msg in (
        {"type": "kick", "room": room, "player": alice.player_id},
        {"type": "make_host", "room": room, "player": bob.player_id},
        {"type": "swap_seats", "room": room, "a": 0, "b": 1},
        {"type": "pause_game", "room": room},
        {"type": "resume_game", "room": room},
    ):
        err = await bob.request(msg)
        assert err["type"] == "error" and err["code"] == "not_host", (msg, err)
    err = await alice.request({"type": "kick", "room": room, "player": alice.player_id})
    assert err["type"] == "error" and err["code"] == "no_such_member"
    v1, after = await load_room(redis_url, room)
    assert (v1, after) == (v0, before)
    await alice.close()
    await bob.close()


async def test_make_host_and_swap_seats(server, redis_url):
    [alice, bob], room = await setup_table(server.port, 2, "mcr", BUSY_OPTIONS, label="mh")
    # host / bot and human / human swaps, seen by everyone in the lobby
    r = await alice.request({"type": "swap_seats", "room": room, "a": 0, "b": 3})
    assert r["type"] == "ack", r
    ev = await bob.wait_for(lambda m: m["type"] == "events" and m["seq"] == r["seq"])
    seats = ev["lobby"]["seats"]
    assert seats[3]["player"] == alice.player_id and seats[0]["name"] == "Bot 1"
    r = await alice.request({"type": "swap_seats", "room": room, "a": 3, "b": 1})
    assert r["type"] == "ack", r
    _, state = await load_room(redis_url, room)
    assert [s["player"] for s in state["seats"]] == [None, alice.player_id, None, bob.player_id]
    r = await alice.request({"type": "make_host", "room": room, "player": bob.player_id})
    assert r["type"] == "ack", r
    ev = await alice.wait_for(lambda m: m.get("notice", {}).get("type") == "host_changed")
    assert ev["lobby"]["host"] == bob.player_id and ev["notice"]["by"] == alice.player_id
    err = await alice.request({"type": "swap_seats", "room": room, "a": 0, "b": 1})
    assert err["type"] == "error" and err["code"] == "not_host"
    r = await bob.request({"type": "kick", "room": room, "player": alice.player_id})
    assert r["type"] == "ack"
    assert (await alice.wait_for(lambda m: m["type"] == "left"))["reason"] == "kicked"
    await alice.close()
    await bob.close()


async def _first_asked(*clients: Client) -> tuple[Client, list[dict]]:
    """The first of ``clients`` whose seat is asked something, and its legal actions."""
    for _ in range(200):
        for c in clients:
            for m in [*c.pending, *c.inbox]:
                if m["type"] == "events" and m.get("legal"):
                    return c, m["legal"]
            with contextlib.suppress(TimeoutError):
                await c.wait_for(lambda m: m["type"] == "events" and bool(m.get("legal")), 0.05)
    raise AssertionError("nobody was asked")


async def test_a_paused_game_stands_still_refuses_actions_and_goes_on_when_resumed(
    server, redis_url
):
    [alice, bob], room = await setup_table(server.port, 2, "mcr", BUSY_OPTIONS, label="pz")
    assert (await alice.request({"type": "start_game", "room": room}))["type"] == "ack"
    # no timers: the game waits for the first human asked
    asked = await _first_asked(alice, bob)
    r = await alice.request({"type": "pause_game", "room": room})
    assert r["type"] == "ack", r
    ev = await bob.wait_for(lambda m: m.get("notice", {}).get("type") == "paused")
    assert ev["lobby"]["paused"]["player"] == alice.player_id
    assert ev["lobby"]["paused"]["name"] == "pz0"
    assert ev["legal"] == [] and "deadline" not in ev
    await room_stays_still(redis_url, room)
    # a late joiner's snapshot shows the pause too
    carol = await Client.connect(server.port, "carol")
    await carol.hello("Carol")
    assert (await carol.request({"type": "join_room", "code": _code(alice)}))["type"] == "ack"
    snap = next(m for m in carol.inbox if m["type"] == "snapshot")
    assert snap["lobby"]["paused"]["player"] == alice.player_id
    # every action is refused and changes nothing; a second pause too
    who, legal = asked
    who.seq += 1
    err = await who.request({"type": "action", "room": room, "seq": who.seq, "action": legal[0]})
    assert err["type"] == "error" and err["code"] == "paused", err
    err = await alice.request({"type": "pause_game", "room": room})
    assert err["type"] == "error" and err["code"] == "paused"
    await room_stays_still(redis_url, room, 0.3)
    r = await alice.request({"type": "resume_game", "room": room})
    assert r["type"] == "ack", r
    ev = await carol.wait_for(lambda m: m.get("notice", {}).get("type") == "resumed")
    assert ev["lobby"]["paused"] is None and ev["notice"]["paused_ms"] >= 1000
    err = await alice.request({"type": "resume_game", "room": room})
    assert err["type"] == "error" and err["code"] == "not_paused"
    # the seat asked is asked again, and its answer is taken
    ev = await who.wait_for(lambda m: m.get("notice", {}).get("type") == "resumed")
    assert ev["legal"] == legal
    who.seq += 1
    r = await who.request({"type": "action", "room": room, "seq": who.seq, "action": legal[0]})
    assert r["type"] == "ack", r
    for c in (alice, bob, carol):
        await c.close()
