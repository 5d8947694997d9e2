"""Whole games over real WebSockets against a real redis-server (needs the table engine)."""

from __future__ import annotations

import asyncio
import random

import msgpack
import pytest

from server.room import game
from server_tests.helpers import (
    Player,
    check_against_log,
    check_view_message,
    read_log,
    setup_table,
)
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(120)

FAST = {"turn_seconds": 0, "claim_seconds": 0, "hand_pause_ms": 0, "bot_delay_ms": 0}


def playable() -> list[str]:
    rs = game.rulesets() if game.available() else []
    assert rs, "the table engine and at least one scoring rule set are required"
    return rs


async def play_all(players: list[Player], timeout: float = 15.0) -> None:
    try:
        await asyncio.wait_for(asyncio.gather(*(p.run(timeout=timeout) for p in players)), timeout)
    except (TimeoutError, Exception):
        for p in players:
            print(
                p.c.label, p.seq_seen, p.legal_at, p.acted_at, p.legal, len(p.errors), p.errors[:3]
            )
            print("   ", p.c.inbox[-2:])
        raise


@pytest.mark.parametrize("ruleset", game.rulesets())
async def test_four_clients_play_a_complete_game(server, redis_url, ruleset):
    assert ruleset in playable()
    clients, room = await setup_table(
        server.port, 4, ruleset, {**FAST, "length": "hands", "hands": 2}
    )
    # a spectator watches the whole game: it must never see a concealed tile
    spec = await Client.connect(server.port, "spectator", check_view_message)
    await spec.hello("spectator")
    code = next(m for m in clients[0].inbox if m["type"] == "snapshot")["lobby"]["code"]
    assert (await spec.request({"type": "join_room", "code": code}))["type"] == "ack"
    r = await clients[0].request({"type": "start_game", "room": room})
    assert r["type"] == "ack", r
    players = [Player(c, random.Random(i)) for i, c in enumerate(clients)]
    await play_all(players)
    watcher = Player(spec, random.Random(9))
    await watcher.run(timeout=30)
    assert watcher.game_over == players[0].game_over
    summaries = [p.game_over["summary"] for p in players]
    assert all(s == summaries[0] for s in summaries)
    assert sum(summaries[0]["scores"]) == 0
    assert summaries[0]["hands_played"] >= 2
    assert all(p.hand_results >= 2 for p in players), [p.hand_results for p in players]
    # every event stream is gap-free and identical in shape for all four seats
    start = r["seq"]
    seqs = [
        [m["seq"] for m in p.c.inbox if m["type"] == "events" and m["seq"] >= start]
        for p in players
    ]
    assert seqs[0] == list(range(start, seqs[0][-1] + 1))
    assert all(s == seqs[0] for s in seqs)
    log = await read_log(redis_url, room)
    assert sum(check_against_log(p.c, log) for p in players) > 0
    # the finished game's log can be downloaded and replays to the same final state
    r = await clients[0].request({"type": "get_log", "room": room})
    assert r["type"] == "game_log"
    import table

    st = table.new_game(table.GameConfig(ruleset, max_hands=2))
    for a in r["log"]["actions"]:
        st, _ = table.apply(st, table.Action.from_json(a))
    assert list(st.scores) == summaries[0]["scores"]
    assert check_against_log(spec, log) > 0
    # rematch: back to the lobby with the same seats, humans must get ready again
    r = await clients[1].request({"type": "rematch", "room": room})
    assert r["type"] == "ack"
    ev = await clients[0].wait_for(
        lambda m: m["type"] == "events" and (m.get("lobby") or {}).get("status") == "lobby"
    )
    assert [s["name"] for s in ev["lobby"]["seats"]] == ["p0", "p1", "p2", "p3"]
    assert not any(s["ready"] for s in ev["lobby"]["seats"])
    for c in [*clients, spec]:
        await c.close()


async def test_actions_are_idempotent_by_client_seq(server):
    rs = playable()[0]
    clients, room = await setup_table(
        server.port, 1, rs, {**FAST, "bot_delay_ms": 2000, "length": "hands", "hands": 1}
    )
    c = clients[0]
    await c.request({"type": "start_game", "room": room})
    ev = await c.wait_for(lambda m: m["type"] == "events" and m.get("legal"))
    discard = next(a for a in ev["legal"] if a["type"] == "discard")
    msg = {"type": "action", "room": room, "seq": 1, "action": discard}
    first = await c.request(msg)
    assert first["type"] == "ack" and first["duplicate"] is False and first["client_seq"] == 1
    again = await c.request(msg)  # the retry of a request whose ack was lost
    assert again["type"] == "ack" and again["duplicate"] is True and again["seq"] == first["seq"]
    # a stale action with a new client seq is rejected by the engine, nothing changes
    stale = await c.request({**msg, "seq": 2})
    assert stale["type"] == "error" and stale["code"] == "illegal_action"
    assert stale["detail"]["table_code"] in ("stale-seq", "not-your-turn", "wrong-phase")
    # an action that is not well-formed (no tile code, no decision seq) is a bad message
    # (the protocol's validation, docs/protocol.md section 6), and changes nothing either
    bad_action = {"type": "discard", "tile": "f9", "seq": discard["seq"]}
    await c.send_raw(
        msgpack.packb(
            {"type": "action", "room": room, "seq": 3, "action": bad_action, "id": 900},
            use_bin_type=True,
        )
    )
    bad = await c.wait_for(lambda m: m.get("re") == 900)
    assert bad["type"] == "error" and bad["code"] == "bad_message", bad
    other = await c.request(
        {"type": "action", "room": room, "seq": 4, "action": {**discard, "seat": 2}}
    )
    assert other["code"] == "illegal_action" and other["detail"]["table_code"] == "not-your-seat"
    await c.close()
