"""The hints request over a real WebSocket: the seat's hints are what ``bots.hints`` makes
of the seat's own view (the snapshot's ``game``); a spectator gets none."""

from __future__ import annotations

import pytest

from bots.hints import hints
from server_tests.helpers import setup_table
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(60)

OPTIONS = {
    "turn_seconds": 0,
    "claim_seconds": 0,
    "hand_pause_ms": 0,
    "bot_delay_ms": 5000,  # the bots wait: the table stays where it is while we ask
    "length": "hands",
    "hands": 1,
}


@pytest.mark.parametrize("ruleset", ["mcr", "hk-tw16"])
async def test_hints_are_the_seats_own_view_made_into_hints(server, ruleset):
    [alice], room = await setup_table(server.port, 1, ruleset, OPTIONS, label="hint")
    assert (await alice.request({"type": "start_game", "room": room}))["type"] == "ack"
    snap = await alice.request({"type": "resync", "room": room, "since": 0})
    reply = await alice.request({"type": "hints", "room": room})
    assert reply["type"] == "hints" and reply["seq"] == snap["seq"]
    want = hints(snap["game"]).to_json()
    assert {k: reply.get(k) for k in want} == want
    assert isinstance(reply["shanten"], int)
    if snap["game"]["hand"]["turn"] == 0:  # seat 0 deals: on its turn, discards are advised
        assert reply["discards"]
    assert reply["minimum"] == (8 if ruleset == "mcr" else 0)
    # a spectator has no hand to advise on
    code = snap["lobby"]["code"]
    bob = await Client.connect(server.port, "hint-bob")
    await bob.hello("bob")
    assert (await bob.request({"type": "join_room", "code": code}))["type"] == "ack"
    spectator = await bob.request({"type": "hints", "room": room})
    assert spectator["type"] == "hints" and spectator.get("shanten") is None
    for c in (alice, bob):
        await c.close()


async def test_hints_need_the_room(server):
    c = await Client.connect(server.port, "hint-c")
    await c.hello("c")
    err = await c.request({"type": "hints", "room": "r_0000000000000000"})
    assert err["type"] == "error" and err["code"] == "not_in_room"
    await c.close()
