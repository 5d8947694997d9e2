"""``resync`` with a ``since`` from before the connection joined the room keeps it in the room.

The commits before a connection's snapshot show the room without it; resent as they were,
the fan-out took the connection out of the room (issue 34, item 7): a spectator or a seat
that joined late, asking for ``since: 1``, got its ``ack`` and then ``not_in_room`` for
everything, while the lobby still showed it seated."""

from __future__ import annotations

import pytest

from server.room import game
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(60)

RS = game.rulesets()[0]


async def _table(port: int) -> tuple[Client, Client, Client, str]:
    """Alice hosts and sits at seat 0; bots at 1 and 2; Bob joins late (after a few
    commits) and sits at seat 3; Carol watches; the game starts."""
    alice = await Client.connect(port, "alice")
    await alice.hello("alice")
    ack = await alice.request(
        {"type": "create_room", "ruleset": RS, "options": {"turn_seconds": 0}}
    )
    room = ack["room"]
    snap = await alice.wait_for(lambda m: m["type"] == "snapshot")
    code = snap["lobby"]["code"]
    for msg in (
        {"type": "sit", "room": room, "seat": 0},
        {"type": "ready", "room": room, "ready": True},
        {"type": "add_bot", "room": room, "seat": 1},
        {"type": "add_bot", "room": room, "seat": 2},
    ):
        assert (await alice.request(msg))["type"] == "ack", msg
    bob = await Client.connect(port, "bob")
    await bob.hello("bob")
    joined = await bob.request({"type": "join_room", "code": code})
    assert joined["type"] == "ack" and joined["seq"] >= 4
    assert (await bob.request({"type": "sit", "room": room, "seat": 3}))["type"] == "ack"
    assert (await bob.request({"type": "ready", "room": room, "ready": True}))["type"] == "ack"
    carol = await Client.connect(port, "carol")
    await carol.hello("carol")
    assert (await carol.request({"type": "join_room", "code": code}))["type"] == "ack"
    assert (await alice.request({"type": "start_game", "room": room}))["type"] == "ack"
    return alice, bob, carol, room


@pytest.mark.parametrize("who", ["late seat", "spectator"])
async def test_a_resync_from_before_the_join_keeps_the_connection_in_the_room(server, who):
    alice, bob, carol, room = await _table(server.port)
    c = bob if who == "late seat" else carol
    rid = await c.send({"type": "resync", "room": room, "since": 1})
    reply = await c.wait_for(lambda m: m.get("re") == rid)
    assert reply["type"] in ("snapshot", "ack"), reply
    if reply["type"] == "snapshot":  # the room as of now, with this connection in it
        assert reply["you"]["seat"] == (3 if c is bob else None)
    # still in the room: its requests are served and the room's commits reach it
    r = await c.request({"type": "chat", "room": room, "text": "still here"})
    assert r["type"] == "ack", r
    said = await alice.request({"type": "chat", "room": room, "text": "hello"})
    assert said["type"] == "ack"
    heard = await c.wait_for(
        lambda m: m["type"] == "events" and (m.get("chat") or {}).get("text") == "hello"
    )
    assert heard["seq"] == said["seq"]
    hints = await c.request({"type": "hints", "room": room})
    assert hints["type"] == "hints", hints
    for x in (alice, bob, carol):
        await x.close()
