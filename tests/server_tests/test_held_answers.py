"""End to end, over real WebSockets and a real Redis: a player's answer to a claim window is
held (``{room:<id>}:answers``), acknowledged without a new seq (``ack.held``), and the
window closes in one commit that applies every answer in turn order.

The table state is the pure engine's: a claim window in which two seats have a choice
(found by a seeded game of the engine's random player), put into a room of four humans
through the server's own commit. The automatic passes wait up to ``window_ms`` (5 s, at
least 2 s), so the players answer before the window is due."""

from __future__ import annotations

import random

import msgpack
import pytest
import redis.asyncio as aioredis

import table
from server.storage.store import Store, k_answers, k_state
from server_tests.conftest import ServerProc
from server_tests.helpers import check_view_message, inject_game, read_log, setup_table, until
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(90)

RULESET = "hk-tw16"
CLAIM_S = 10
OPTIONS = {
    "length": "hands",
    "hands": 1,
    "turn_seconds": 30,
    "claim_seconds": CLAIM_S,
    "hand_pause_ms": 0,
    "bot_delay_ms": 0,
    "window_ms": 5000,
}


def _window_with_two_asked() -> tuple[table.GameState, list[int]]:
    """A claim window (after a discard) in which at least two seats can claim: the state
    and those seats."""
    for seed in range(200):
        rng = random.Random(seed)
        player = table.RandomPlayer(rng, claim_rate=0.0)
        state = table.new_game(table.GameConfig(RULESET, max_hands=1))
        state, _ = table.apply(
            state, table.Action(table.ActionType.START_HAND, None, 0, seed=rng.randbytes(16))
        )
        while state.phase is not table.Phase.GAME_OVER:
            pending = table.decisions(state)
            if state.phase is table.Phase.CLAIM:
                asked = [
                    s
                    for s in pending
                    if any(
                        a.type is not table.ActionType.PASS for a in table.legal_actions(state, s)
                    )
                ]
                if len(asked) >= 2:
                    return state, sorted(asked)
            seat = min(pending)
            action = player.choose(state, seat)
            assert action is not None
            state, _ = table.apply(state, action)
    raise AssertionError("no window with two seats asked")


async def _room(
    port: int, redis_url: str, label: str
) -> tuple[list[Client], str, table.GameState, list[int]]:
    st, asked = _window_with_two_asked()
    clients, room = await setup_table(port, 4, RULESET, OPTIONS, label=label)
    assert (await clients[0].request({"type": "start_game", "room": room}))["type"] == "ack"
    await inject_game(redis_url, room, st.to_json())
    for c in clients:
        c.drain()
    return clients, room, st, asked


def _same_snapshot(a: dict, b: dict) -> bool:
    return {k: v for k, v in a.items() if k != "re"} == {k: v for k, v in b.items() if k != "re"}


async def _snap(c: Client, room: str) -> dict:
    s = await c.request({"type": "resync", "room": room, "since": 0})
    assert s["type"] == "snapshot", s
    return s


async def test_answers_are_held_without_a_seq_and_the_window_closes_in_one_commit(
    server, redis_url
):
    clients, room, st, asked = await _room(server.port, redis_url, "held")
    a, b = asked[0], asked[1]
    others = [i for i in range(4) if i not in (a, b)]
    r = aioredis.Redis.from_url(redis_url)
    try:
        before = {i: await _snap(clients[i], room) for i in range(4)}
        version = before[a]["seq"]
        assert before[a]["legal"] and before[b]["legal"] and before[a].get("deadline")
        pass_ = {"type": "pass", "seq": st.seq}
        ack = await clients[a].request({"type": "action", "room": room, "seq": 1, "action": pass_})
        assert ack["type"] == "ack" and ack["held"] is True, ack
        assert ack["seq"] == version, "no new seq: nothing was committed"
        assert int(await r.hget(k_state(room), "version")) == version
        held = await r.hgetall(k_answers(room))
        assert int(held[b"n"]) == 1 and str(a).encode() in held
        # the seat that answered is shown so (its own snapshot only); nobody else learns it
        mine = await _snap(clients[a], room)
        assert mine["seq"] == version and mine["legal"] == [] and "deadline" not in mine
        for i in [b, *others]:
            assert _same_snapshot(await _snap(clients[i], room), before[i]), i
        # a second answer from the same seat: refused, nothing changes
        err = await clients[a].request({"type": "action", "room": room, "seq": 2, "action": pass_})
        assert err["type"] == "error" and err["code"] == "illegal_action", err
        assert err["detail"]["table_code"] == "not-waiting-for-seat"
        assert int((await r.hgetall(k_answers(room)))[b"n"]) == 1
        # the same request again (a resend, same client seq): a duplicate, nothing changes
        dup = await clients[a].request({"type": "action", "room": room, "seq": 1, "action": pass_})
        assert dup["type"] == "ack" and dup["duplicate"] is True, dup
        # the second asked seat answers: held too (the automatic passes are not due yet); the
        # room's deadline moves from the claim timeout to the window's close
        timeout_at = before[b]["deadline"]
        assert await r.zscore("mj:timers", room) == timeout_at
        ack = await clients[b].request({"type": "action", "room": room, "seq": 1, "action": pass_})
        assert ack["type"] == "ack" and ack["held"] is True and ack["seq"] == version, ack
        close_at = await r.zscore("mj:timers", room)
        assert close_at < timeout_at and close_at <= server.clock.now_ms() + 5000
        # the close: one commit, every seat's answer in turn order, then the answers are gone
        await server.advance(5.0)  # the window's close is due (window_ms 5000)
        for c in clients:
            await c.wait_for(lambda m: m["type"] == "events" and m["seq"] == version + 1, 10)
        log = await read_log(redis_url, room)
        entry = log[version + 1]
        d = st.hand.discarder
        order = sorted(st.hand.pending, key=lambda i: (i - d - 1) % 4)
        assert [x["seat"] for x in entry["actions"]][: len(order)] == order
        assert all(x["type"] == "pass" for x in entry["actions"] if x["seat"] in (a, b))
        assert entry["kind"] == "tick"
        assert not await r.exists(k_answers(room))
        # each seat saw its own answer in the close
        for i in (a, b):
            ev = next(
                m for m in clients[i].inbox if m["type"] == "events" and m["seq"] == version + 1
            )
            assert any(e["type"] == "answered" and e["seat"] == i for e in ev["events"])
        # a late answer to the closed window: refused as stale, nothing changed
        err = await clients[a].request({"type": "action", "room": room, "seq": 3, "action": pass_})
        assert err["type"] == "error" and err["detail"]["table_code"] == "stale-seq", err
    finally:
        await r.aclose()
        for c in clients:
            await c.close()


async def test_the_last_answer_closes_the_window_in_its_own_request(server, redis_url):
    """Every automatic answer is due and the last asked seat answers: the window closes in
    that request, one commit (no answers hash written), acknowledged with its seq."""
    clients, room, st, asked = await _room(server.port, redis_url, "last")
    a, b = asked[0], asked[1]
    r = aioredis.Redis.from_url(redis_url)
    try:
        version = (await _snap(clients[a], room))["seq"]
        pass_ = {"type": "pass", "seq": st.seq}
        ack = await clients[a].request({"type": "action", "room": room, "seq": 1, "action": pass_})
        assert ack["held"] is True
        await server.advance(5.2)  # every automatic pass is due now (window_ms 5000)
        assert int(await r.hget(k_state(room), "version")) == version  # the window waits for b
        ack = await clients[b].request({"type": "action", "room": room, "seq": 1, "action": pass_})
        assert ack["type"] == "ack" and ack.get("held", False) is False, ack
        assert ack["seq"] == version + 1
        log = await read_log(redis_url, room)
        assert log[version + 1]["kind"] == "action"
        assert log[version + 1]["cseq"] == 1
        assert {x["seat"] for x in log[version + 1]["actions"]} >= set(st.hand.pending)
        assert not await r.exists(k_answers(room))
    finally:
        await r.aclose()
        for c in clients:
            await c.close()


async def test_a_close_that_missed_an_answer_is_refused_and_changes_nothing(server, redis_url):
    """The race between an answer and the close, on the store: a close computed before an
    answer was added (the answers' count it read is stale) is refused ("answers": read
    them again) and writes nothing; an answer checked against a version that has since moved
    on (the window closed) is a conflict (checked again: stale), and one checked against a
    count that has moved on is refused like the close."""
    clients, room, st, asked = await _room(server.port, redis_url, "race")
    a = asked[0]
    store = Store.from_url(redis_url)
    r = aioredis.Redis.from_url(redis_url)
    try:
        loaded = await store.load(room)
        assert loaded is not None
        version, state = loaded
        n, held = await store.answers(room)
        assert (n, held) == (0, {})
        pass_ = {"type": "pass", "seq": st.seq}
        ack = await clients[a].request({"type": "action", "room": room, "seq": 1, "action": pass_})
        assert ack["held"] is True
        entry = {"t": 0, "kind": "tick", "actor": None}
        res = await store.commit(room, version, state, entry, answers_n=n, close_window=True)
        assert res.status == "answers", "read them again and compute the close again"
        assert int(await r.hget(k_state(room), "version")) == version
        assert (await store.answers(room))[0] == 1, "the held answer is still there"
        # an answer checked against an older version: a conflict, nothing written
        rec = {"g": state["game_no"], "a": {**pass_, "seat": asked[1]}}
        res = await store.hold_answer(room, version - 1, 1, asked[1], rec, None, None, None)
        assert res.status == "conflict"
        assert set((await store.answers(room))[1]) == {a}
        res = await store.hold_answer(room, version, 0, asked[1], rec, None, None, None)
        assert res.status == "answers"
        assert set((await store.answers(room))[1]) == {a}
    finally:
        await store.close()
        await r.aclose()
        for c in clients:
            await c.close()


async def test_a_held_answer_survives_a_kill(tmp_path):
    """SIGKILL right after the ack: the answer is in Redis; the next process closes the
    window with it."""
    data = tmp_path / "data"
    url = f"unix://{data / 'redis.sock'}"
    srv = ServerProc("--data-dir", str(data))
    srv2 = None
    try:
        clients, room, st, asked = await _room(srv.port, url, "kill")
        a, b = asked[0], asked[1]
        version = (await _snap(clients[a], room))["seq"]
        pass_ = {"type": "pass", "seq": st.seq}
        ack = await clients[a].request({"type": "action", "room": room, "seq": 1, "action": pass_})
        assert ack["held"] is True and ack["seq"] == version
        srv.kill()
        srv2 = ServerProc("--data-dir", str(data))
        new = []
        for old in clients:
            c = await Client.connect(srv2.port, old.label + "'", check_view_message)
            c.seq = old.seq
            await c.hello(old.label, token=old.token)
            new.append(c)
        snap = await new[a].wait_for(lambda m: m["type"] == "snapshot")
        assert snap["seq"] == version and snap["legal"] == [], "answered, after the restart too"
        ack = await new[b].request({"type": "action", "room": room, "seq": 5, "action": pass_})
        assert ack["type"] == "ack", ack

        async def closed() -> bool:
            log = await read_log(url, room)
            return version + 1 in log

        await until(closed, "the window closed", tries=500)
        log = await read_log(url, room)
        acts = log[version + 1]["actions"]
        assert {"type": "pass", "seq": st.seq, "seat": a} in [
            {k: x[k] for k in ("type", "seq", "seat")} for x in acts
        ]
        for c in new:
            await c.close()
    finally:
        if srv2 is not None:
            srv2.stop()
        srv.stop()


def test_the_answers_record_is_msgpack() -> None:
    """(What answer.lua stores: a msgpack map, read back by ``Store.answers``.)"""
    from server.storage.store_base import answers_reply, pack

    n, out = answers_reply({b"n": b"2", b"1": pack({"g": 1, "a": {"type": "pass"}})})
    assert n == 2 and out == {1: {"g": 1, "a": {"type": "pass"}}}
    assert msgpack.unpackb(pack({"x": 1})) == {"x": 1}


async def test_two_processes_hold_and_close_one_window(redis_url):
    """Two seats of one window on two server processes: the second process does not know of
    the first one's held answer (it guesses none, is told otherwise by the script, reads
    them and holds its own or closes), and the window closes in one commit with both."""
    pa = ServerProc("--redis-url", redis_url)
    pb = ServerProc("--redis-url", redis_url)
    try:
        st, asked = _window_with_two_asked()
        clients, room = await setup_table(pa.port, 4, RULESET, OPTIONS, label="two")
        assert (await clients[0].request({"type": "start_game", "room": room}))["type"] == "ack"
        await inject_game(redis_url, room, st.to_json())
        a, b = asked[0], asked[1]
        old = clients[b]
        cb = await Client.connect(pb.port, old.label + "'", check_view_message)
        cb.seq = old.seq
        await cb.hello(old.label, token=old.token)
        snap = await cb.wait_for(lambda m: m["type"] == "snapshot")
        version = snap["seq"]
        pass_ = {"type": "pass", "seq": st.seq}
        ack = await clients[a].request({"type": "action", "room": room, "seq": 1, "action": pass_})
        assert ack["held"] is True and ack["seq"] == version
        ack = await cb.request({"type": "action", "room": room, "seq": 1, "action": pass_})
        assert ack["type"] == "ack", ack

        async def closed() -> bool:
            return version + 1 in await read_log(redis_url, room)

        await until(closed, "the window closed", tries=500)
        log = await read_log(redis_url, room)
        seats = {x["seat"] for x in log[version + 1]["actions"] if x["type"] == "pass"}
        assert {a, b} <= seats
        await cb.close()
        for c in clients:
            await c.close()
    finally:
        pa.stop()
        pb.stop()


async def test_a_room_stored_mid_window_before_held_answers_plays_on(server, redis_url):
    """A room as a server of before held answers left it mid-window: one seat's answer is
    committed in the game state (the engine has it), no answers hash. The other seats'
    answers close the window in one commit, without the first seat's again."""
    st, asked = _window_with_two_asked()
    a, b = asked[0], asked[1]
    mid, _ = table.apply(st, table.Action(table.ActionType.PASS, a, st.seq))
    assert a not in mid.hand.pending and b in mid.hand.pending
    clients, room = await setup_table(server.port, 4, RULESET, OPTIONS, label="old")
    assert (await clients[0].request({"type": "start_game", "room": room}))["type"] == "ack"
    await inject_game(redis_url, room, mid.to_json())
    r = aioredis.Redis.from_url(redis_url)
    try:
        assert not await r.exists(k_answers(room))
        version = (await _snap(clients[b], room))["seq"]
        assert (await _snap(clients[a], room))["legal"] == []  # answered (in the state)
        pass_ = {"type": "pass", "seq": st.seq}
        ack = await clients[b].request({"type": "action", "room": room, "seq": 1, "action": pass_})
        assert ack["type"] == "ack", ack
        await server.advance(5.0)  # the automatic passes are due (window_ms 5000)

        async def closed() -> bool:
            return version + 1 in await read_log(redis_url, room)

        await until(closed, "the window closed", tries=500)
        log = await read_log(redis_url, room)
        seats = [x["seat"] for x in log[version + 1]["actions"]][: len(mid.hand.pending)]
        d = st.hand.discarder
        assert seats == sorted(mid.hand.pending, key=lambda i: (i - d - 1) % 4)
        assert a not in seats
    finally:
        await r.aclose()
        for c in clients:
            await c.close()


async def test_while_a_process_of_before_held_answers_is_live_answers_are_committed(redis_url):
    """A rolling upgrade: a live process of before held answers (in ``mj:procs`` and
    ``mj:procs:snap``, not in ``mj:procs:held``) would never apply a held answer, so while
    it is live a player's answer is committed as before (a new seq, no answers hash), and the
    window still closes; once it is gone, answers are held again."""
    r = aioredis.Redis.from_url(redis_url)
    await r.zadd("mj:procs", {"old-proc": 2**50})
    await r.zadd("mj:procs:snap", {"old-proc": 2**50})
    srv = ServerProc("--redis-url", redis_url)
    clients: list[Client] = []
    try:
        clients, room, st, asked = await _room(srv.port, redis_url, "roll")
        a, b = asked[0], asked[1]
        version = (await _snap(clients[a], room))["seq"]
        pass_ = {"type": "pass", "seq": st.seq}
        ack = await clients[a].request({"type": "action", "room": room, "seq": 1, "action": pass_})
        assert ack["type"] == "ack" and ack.get("held", False) is False, ack
        assert ack["seq"] == version + 1, "committed: the old process sees it in the state"
        assert not await r.exists(k_answers(room))
        log = await read_log(redis_url, room)
        assert [x["seat"] for x in log[version + 1]["actions"]] == [a]
        ack = await clients[b].request({"type": "action", "room": room, "seq": 1, "action": pass_})
        assert ack["type"] == "ack" and ack.get("held", False) is False, ack

        assert (await read_log(redis_url, room))[version + 2]["kind"] == "action"

        async def closed() -> bool:
            return version + 3 in await read_log(redis_url, room)

        await until(closed, "the window closed", tries=500)
        close = (await read_log(redis_url, room))[version + 3]
        assert close["kind"] == "tick" and a not in {x["seat"] for x in close["actions"]}
        # the old process is gone (its registration runs out): answers are held again
        store = Store.from_url(redis_url)
        try:
            await store.register_process("probe", 10_000)
            assert store.peers.unheld
            await r.zrem("mj:procs", "old-proc")
            await store.check_peers()
            assert not store.peers.unheld
        finally:
            await store.unregister_process()
            await store.close()
    finally:
        for c in clients:
            await c.close()
        srv.stop()
        await r.aclose()
