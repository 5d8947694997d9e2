"""Reconnects, bot takeover, SIGKILL + restart, and two server processes on one Redis."""

from __future__ import annotations

import asyncio
import random

import pytest

from server_tests.conftest import ServerProc, running_server
from server_tests.helpers import (
    Player,
    check_against_log,
    check_held,
    check_view_message,
    load_room,
    read_log,
    setup_table,
    until,
)
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(120)

FAST = {"turn_seconds": 0, "claim_seconds": 0, "hand_pause_ms": 0, "bot_delay_ms": 0}


def ruleset() -> str:
    from server.room import game

    assert game.available() and game.rulesets(), "needs the table engine and a rule set"
    return game.rulesets()[0]


async def resume(port: int, old: Client) -> Client:
    c = await Client.connect(port, old.label + "'", check_view_message)
    c.seq = old.seq  # client sequence numbers keep increasing across connections
    w = await c.hello(old.label, token=old.token)
    assert w["resumed"] is True and w["player_id"] == old.player_id
    return c


async def test_resume_with_token_and_bot_takes_over(redis_url):
    async with running_server(redis_url, grace_seconds=0.5) as srv:
        clients, room = await setup_table(
            srv.port, 4, ruleset(), {**FAST, "length": "hands", "hands": 1}
        )
        r = await clients[0].request({"type": "start_game", "room": room})
        assert r["type"] == "ack"
        players = [Player(c, random.Random(i)) for i, c in enumerate(clients)]
        # play a while, then seats 1 and 3 drop
        await asyncio.gather(*(p.run(until=lambda p: p.seq_seen >= r["seq"] + 25) for p in players))
        await clients[1].close()
        await clients[3].close()

        async def seat_1_away() -> bool:
            _, state = await load_room(redis_url, room)
            return state["seats"][1].get("away") is not None

        # (a resume the server sees before the close would take the connection over: no
        # away, so no seat_back, which this test is about)
        await until(seat_1_away, "seat 1 marked away")
        c1 = await resume(srv.port, clients[1])
        snap = await c1.wait_for(lambda m: m["type"] == "snapshot")
        assert snap["room"] == room and snap["you"]["seat"] == 1
        hand = snap["game"]["hand"]
        assert hand["seats"][1]["concealed"] and hand["seats"][0]["concealed"] is None
        p1 = Player(c1, random.Random(11))
        live = [players[0], p1, players[2]]
        await asyncio.gather(*(p.run(timeout=60) for p in live))
        # seat 3 never came back: after the grace period a bot played it to the end
        notices = [m.get("notice") for m in clients[0].inbox if m["type"] == "events"]
        assert {"type": "seat_away", "seat": 3} in notices
        assert {"type": "bot_took_over", "seat": 3} in notices
        assert {"type": "seat_back", "seat": 1} in notices
        assert all(p.game_over for p in live)
        log = await read_log(redis_url, room)
        bot_moves = [
            e
            for e in log.values()
            if e["kind"] == "tick" and any(a.get("seat") == 3 for a in e.get("actions", []))
        ]
        assert bot_moves
        for p in live:
            check_against_log(p.c, log)
            await p.c.close()


async def test_sigkill_mid_hand_and_restart_with_embedded_redis(tmp_path):
    data = tmp_path / "data"
    srv = ServerProc("--data-dir", str(data))
    try:
        clients, room = await setup_table(
            srv.port, 2, ruleset(), {**FAST, "length": "hands", "hands": 1}
        )
        r = await clients[0].request({"type": "start_game", "room": room})
        players = [Player(c, random.Random(i)) for i, c in enumerate(clients)]
        await asyncio.gather(*(p.run(until=lambda p: p.seq_seen >= r["seq"] + 30) for p in players))
        acked = [a for p in players for a in p.acked]
        assert acked
        srv.kill()  # SIGKILL: no shutdown code runs; the embedded redis-server survives it
        srv2 = ServerProc("--data-dir", str(data))
        try:
            new = [await resume(srv2.port, c) for c in clients]
            snaps = [await c.wait_for(lambda m: m["type"] == "snapshot") for c in new]
            assert all(s["room"] == room for s in snaps)
            assert snaps[0]["seq"] >= max(v for _, v in acked)
            players2 = [Player(c, random.Random(20 + i)) for i, c in enumerate(new)]
            # the resume's snapshot is where each player picks up (its legal actions: with no
            # turn timer nothing else comes while it is that seat's turn)
            for p, snap in zip(players2, snaps, strict=True):
                p.absorb(snap)
            await asyncio.gather(*(p.run(timeout=60) for p in players2))
            assert all(p.game_over for p in players2)
            # no acknowledged action was lost: each is in the log at the version acked
            ids = {c.player_id for c in clients}
            url = f"unix://{data / 'redis.sock'}"
            log = await read_log(url, room)
            for p in players:
                for cseq, v in p.acked:
                    assert log[v]["actor"] in ids and log[v]["kind"] == "action"
                    assert log[v]["cseq"] == cseq
                check_held(log, p.held)  # held answers too: in Redis, closed with the window
            for p in players2:
                check_against_log(p.c, log)
                await p.c.close()
        finally:
            srv2.stop()
    finally:
        srv.stop()


def _private(e: dict) -> bool:
    return e["type"] == "answered" or (e["type"] == "timeout" and e.get("default") == "pass")


async def test_two_processes_share_one_redis(redis_url):
    a = ServerProc("--redis-url", redis_url)
    b = ServerProc("--redis-url", redis_url)
    try:
        ca = [await Client.connect(a.port, f"a{i}", check_view_message) for i in range(2)]
        cb = [await Client.connect(b.port, f"b{i}", check_view_message) for i in range(2)]
        clients = [ca[0], cb[0], ca[1], cb[1]]
        for c in clients:
            await c.hello(c.label)
        host = clients[0]
        ack = await host.request(
            {
                "type": "create_room",
                "ruleset": ruleset(),
                "options": {**FAST, "length": "hands", "hands": 1},
            }
        )
        room = ack["room"]
        snap = await host.wait_for(lambda m: m["type"] == "snapshot")
        for c in clients[1:]:
            assert (await c.request({"type": "join_room", "code": snap["lobby"]["code"]}))[
                "type"
            ] == "ack"
        for i, c in enumerate(clients):
            assert (await c.request({"type": "sit", "room": room, "seat": i}))["type"] == "ack"
            assert (await c.request({"type": "ready", "room": room}))["type"] == "ack"
        r = await host.request({"type": "start_game", "room": room})
        assert r["type"] == "ack"
        players = [Player(c, random.Random(i)) for i, c in enumerate(clients)]
        await asyncio.gather(*(p.run(timeout=60) for p in players))
        start = r["seq"]
        streams = []
        for p in players:
            # claim-window answers (and their timeouts) go to the answering seat only
            evs = [
                (m["seq"], [e["type"] for e in m["events"] if not _private(e)], m.get("notice"))
                for m in p.c.inbox
                if m["type"] == "events" and m["seq"] >= start
            ]
            streams.append(evs)
        assert [s for s, _, _ in streams[0]] == list(range(start, streams[0][-1][0] + 1))
        assert all(s == streams[0] for s in streams)
        log = await read_log(redis_url, room)
        for p in players:
            check_against_log(p.c, log)
            await p.c.close()
    finally:
        a.stop()
        b.stop()


async def test_lost_pubsub_messages_are_healed_from_the_stream(redis_url, redis_proc):
    import redis as sync_redis

    async with running_server(redis_url) as a, running_server(redis_url) as b:
        ca = await Client.connect(a.port, "ca")
        cb = await Client.connect(b.port, "cb")
        await ca.hello("ca")
        await cb.hello("cb")
        ack = await ca.request({"type": "create_room", "ruleset": ruleset()})
        code = next(m for m in ca.inbox if m["type"] == "snapshot")["lobby"]["code"]
        await cb.request({"type": "join_room", "code": code})
        r = sync_redis.Redis(port=redis_proc.port)
        for i in range(5):
            # cut every pub/sub connection (as a network blip would), then commit on the
            # other process: the notification is lost for process a
            r.client_kill_filter(_type="pubsub")
            await cb.request({"type": "chat", "room": ack["room"], "text": f"m{i}"})
        got = []
        while len(got) < 5:
            m = await ca.wait_for(lambda m: m["type"] == "events" and m.get("chat"), 10)
            got.append(m["chat"]["text"])
        assert got == [f"m{i}" for i in range(5)]
        await ca.close()
        await cb.close()
