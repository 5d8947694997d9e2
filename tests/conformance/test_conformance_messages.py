"""Conformance: every client message type, every server message type and every error code
that a client can provoke, as docs/protocol.md describes them. Every frame received is
checked against protocol/schema.json by the ``Peer`` (conftest.py).

Error codes no client can provoke on purpose, and so not covered here: ``busy`` (a room
under more concurrent writes than the commit's retries absorb) and ``internal`` (a server
bug)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgpack
import pytest
from conformance_lib import (
    CLIENT_MESSAGE,
    FAST_FLAGS,
    SCHEMA,
    P,
    Peer,
    RedisProcess,
    ServerProcess,
    error_of,
    table_of,
)
from websockets.exceptions import ConnectionClosed

pytestmark = pytest.mark.timeout(180)

#: the hints' note codes docs/protocol.md documents (section 6, "Hints")
NOTE_CODES = ("below_minimum",)

ONE_HAND = {"length": "hands", "hands": 1, "hand_pause_ms": 0, "bot_delay_ms": 0}
PASS = {"type": "pass", "seq": 1}


def test_the_schema_lists_the_documented_codes_and_types():
    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    defs = SCHEMA["$defs"]
    for name in defs:
        if name.startswith(("client.", "server.", "event.", "action.")):
            assert f"`{name}`" in doc, name
    assert CLIENT_MESSAGE.is_valid({"type": "ping"})


async def test_session_lobby_and_room_messages(peers):
    alice = await peers()
    w = await alice.request({"type": "hello", "v": 1, "name": "Alice", "client": "conf/1"})
    assert w["type"] == "welcome" and not w["resumed"] and w["rooms"] == []
    assert set(w["limits"]) >= {"max_frame_bytes", "max_depth", "hello_timeout_seconds"}
    assert w["limits"]["max_conns_per_address"] >= 0  # section 1 (0: no limit)
    pong = await alice.request({"type": "ping", "t": 42})
    assert pong["type"] == "pong" and pong["t"] == 42 and pong["server_ms"] > 0
    ack = await alice.request(
        {"type": "create_room", "ruleset": "mcr", "options": {**ONE_HAND, "public": True}}
    )
    assert ack["type"] == "ack"
    room = ack["room"]
    snap = next(m for m in alice.inbox if m["type"] == "snapshot")
    assert "re" not in snap and snap["you"]["spectator"]
    code = snap["lobby"]["code"]
    listed = await alice.request({"type": "list_rooms"})
    assert listed["type"] == "room_list" and any(r["id"] == room for r in listed["rooms"])
    bob = await peers("Bob")
    assert (await bob.request({"type": "join_room", "code": code.lower()}))["type"] == "ack"
    for msg in (
        {"type": "sit", "room": room, "seat": 0},
        {"type": "ready", "room": room, "ready": True},
        {"type": "add_bot", "room": room, "seat": 2},
        {"type": "remove_bot", "room": room, "seat": 2},
        {"type": "stand", "room": room},
        {"type": "chat", "room": room, "text": "hi"},
    ):
        r = await alice.request(msg)
        assert r["type"] == "ack", (msg, r)
    chat = await bob.wait_for(lambda m: m["type"] == "events" and "chat" in m)
    assert chat["chat"]["text"] == "hi"
    # resync: a snapshot for since 0; the commits after since, then an ack for since > 0
    snap0 = await bob.request({"type": "resync", "room": room, "since": 0})
    assert snap0["type"] == "snapshot" and snap0["re"] is not None
    since = snap0["seq"] - 2
    rid = await bob.send({"type": "resync", "room": room, "since": since})
    done = await bob.wait_for(lambda m: m.get("re") == rid)
    assert done["type"] == "ack" and done["seq"] == snap0["seq"]
    resent = [m["seq"] for m in bob.unread if m["type"] == "events" and m["seq"] > since]
    assert resent[-2:] == [since + 1, since + 2]
    # since beyond what was sent: a snapshot
    ahead = await bob.request({"type": "resync", "room": room, "since": snap0["seq"] + 50})
    assert ahead["type"] == "snapshot"
    left = await bob.request({"type": "leave_room", "room": room})
    assert left["type"] == "left" and left["room"] == room


async def test_list_rooms_by_code_finds_a_private_room_with_its_options(peers):
    """``list_rooms {code}``: the room of that code, public or not, with its options (the
    invite page shows the rule set, length and timers before joining); no such room: []."""
    alice = await peers("Alice")
    options = {**ONE_HAND, "turn_seconds": 25, "claim_seconds": 7}
    await alice.request({"type": "create_room", "ruleset": "mcr", "options": options})
    snap = next(m for m in alice.inbox if m["type"] == "snapshot")
    code = snap["lobby"]["code"]
    bob = await peers("Bob")
    public = await bob.request({"type": "list_rooms"})
    assert all(r["code"] != code for r in public["rooms"])  # private: not listed
    found = await bob.request({"type": "list_rooms", "code": f" {code[:3].lower()}-{code[3:]}"})
    (info,) = found["rooms"]
    assert (info["code"], info["ruleset"], info["seats_free"]) == (code, "mcr", 4)
    o = info["options"]
    assert (o["length"], o["hands"], o["turn_seconds"], o["claim_seconds"]) == ("hands", 1, 25, 7)
    assert (await bob.request({"type": "list_rooms", "code": "NOSUCH"}))["rooms"] == []


async def test_welcome_says_the_web_build_only_when_asked(tmp_path):
    """``hello.client_build`` (a web client's build id) → ``welcome.build``: the build id of
    the bundle this server serves (``build-id.txt``, section 2); without it, no ``build``."""
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    (bundle / "index.html").write_text("<!doctype html><title>t</title>")
    (bundle / "build-id.txt").write_text("conf-build-2\n")
    server = ServerProcess(tmp_path, *FAST_FLAGS, "--web-root", str(bundle))
    try:
        web = await Peer.open(server.url)
        w = await web.hello("Web", client_build="conf-build-1")
        assert w["build"] == "conf-build-2"
        cli = await Peer.open(server.url)
        assert "build" not in await cli.hello("Cli")
        for p in (web, cli):
            await p.close()
    finally:
        server.stop()


async def test_a_resync_from_before_the_join_keeps_the_member_in_the_room(peers):
    """Section 5: a ``since`` from before the connection's snapshot is answered (a snapshot,
    or the resend and its ``ack``) and the connection stays in the room."""
    (alice,), room, code = await table_of(peers, "mcr", ONE_HAND)
    bob = await peers("Bob")  # joins after the room's first commits
    joined = await bob.request({"type": "join_room", "code": code})
    assert joined["type"] == "ack" and joined["seq"] > 2
    rid = await bob.send({"type": "resync", "room": room, "since": 1})
    reply = await bob.wait_for(lambda m: m.get("re") == rid)
    assert reply["type"] in ("snapshot", "ack"), reply
    assert (await bob.request({"type": "chat", "room": room, "text": "hi"}))["type"] == "ack"
    said = await alice.request({"type": "chat", "room": room, "text": "yes"})
    heard = await bob.wait_for(
        lambda m: m["type"] == "events" and m.get("chat", {}).get("text") == "yes"
    )
    assert heard["seq"] == said["seq"]


async def test_a_whole_short_game_log_and_rematch(peers):
    (alice,), room, _ = await table_of(peers, "zung-jung", ONE_HAND)
    assert (await alice.request({"type": "start_game", "room": room}))["type"] == "ack"
    hints = await alice.request({"type": "hints", "room": room})
    assert hints["type"] == "hints" and isinstance(hints["shanten"], int)
    # a note comes with its code (section 6: clients word it), and only a documented one
    assert hints.get("note_code") in (None, *NOTE_CODES)
    assert (hints.get("note") is None) == (hints.get("note_code") is None)
    await play_until_over(alice, room)
    log = await alice.request({"type": "get_log", "room": room})
    assert log["type"] == "game_log" and log["log"]["actions"][0]["type"] == "start_hand"
    # the events of every step, as their owners saw them: each seat's dealt tiles are there
    steps = log["log"]["events"]
    dealt = [e for e in steps[0] if e["type"] == "dealt"]
    assert {e["seat"] for e in dealt} == {0, 1, 2, 3} and all(e["tiles"] for e in dealt)
    assert not any(k.startswith("_") for step in steps for e in step for k in e)
    assert steps[-1][-1]["type"] == "game_over"
    # every game has an id: in the lobby, the game_over summary and the log
    over = next(m for m in alice.inbox if m.get("notice", {}).get("type") == "game_over")
    first = over["lobby"]["game_id"]
    assert isinstance(first, str) and len(first) == 16
    assert over["notice"]["summary"]["game_id"] == first == log["log"]["game_id"]
    again = await alice.request({"type": "rematch", "room": room})
    assert again["type"] == "ack"
    # a rematch is a new game: a new id when it starts
    await alice.request({"type": "ready", "room": room, "ready": True})
    assert (await alice.request({"type": "start_game", "room": room}))["type"] == "ack"
    started = await alice.wait_for(
        lambda m: m["type"] == "events" and m.get("lobby", {}).get("status") == "playing", 10
    )
    assert started["lobby"]["game_id"] not in (None, first)


async def play_until_over(p, room: str, timeout: float = 60.0) -> None:
    """Answer every question with the first legal action until the game is over."""
    end = asyncio.get_running_loop().time() + timeout
    latest: dict = {}
    answered: set[int] = set()
    while True:
        left = end - asyncio.get_running_loop().time()
        assert left > 0, "the game did not end"
        m = await p.wait_for(lambda m: m["type"] in ("events", "snapshot"), left)
        if m.get("notice", {}).get("type") == "game_over":
            return
        if "legal" in m:
            latest = m
        legal = latest.get("legal") or []
        if legal and legal[0]["seq"] not in answered:
            answered.add(legal[0]["seq"])
            pick = next((a for a in legal if a["type"] in ("win", "pass")), legal[0])
            p.cseq += 1
            await p.send({"type": "action", "room": room, "seq": p.cseq, "action": pick})


# --------------------------------------------------------------------------- error codes

FRAME_ERRORS = [
    ("bad_frame", "text"),
    ("bad_frame", b"\xc1"),
    ("frame_too_large", P({"type": "chat", "room": "r", "text": "x" * 20000})),
    ("too_deep", b"\x91" * 40 + b"\x01"),
    ("limit_exceeded", b"\xdd\xff\xff\xff\xff"),
    # a str or bin declaring more than max_str_len / max_bin_len, the frame cut short before
    # its end: the declared length is checked before the data (section 1)
    ("limit_exceeded", b"\x81\xa4type\xda\x13\x88" + b"x" * 100),  # str16 of 5,000
    ("limit_exceeded", b"\xdb\x00\x00\x13\x88" + b"x" * 100),  # str32 of 5,000
    ("limit_exceeded", b"\xc5\x13\x88" + b"x" * 100),  # bin16 of 5,000
    ("bad_frame", b"\x81\xa4type\xd9\x10chat"),  # a str8 within the limit, cut short
    ("bad_message", P([1, 2])),
    ("bad_message", P({"type": "sit", "room": "r", "seat": 9, "id": 3})),
    ("bad_message", P({"type": "action", "room": "r", "seq": 1, "action": {"type": "pass"}})),
    ("unknown_type", P({"type": "fly", "id": 4})),
    ("already_hello", P({"type": "hello", "v": 1, "id": 5})),
    ("not_in_room", P({"type": "stand", "room": "r_0000000000000000", "id": 6})),
    ("room_not_found", P({"type": "join_room", "code": "QQQQQQ", "id": 7})),
    ("bad_ruleset", P({"type": "create_room", "ruleset": "snap", "id": 8})),
    (
        "bad_options",
        P({"type": "create_room", "ruleset": "mcr", "options": {"colour": 1}, "id": 9}),
    ),
]


@pytest.mark.parametrize(("code", "frame"), FRAME_ERRORS)
async def test_each_bad_frame_gets_its_code(peers, code, frame):
    p = await peers("fuzzy")
    await p.send_raw(frame)
    err = await p.wait_for(lambda m: m["type"] == "error")
    assert err["code"] == code, err
    assert (await p.request({"type": "ping"}))["type"] == "pong"  # the connection stays


async def test_hello_required_unsupported_version_and_bad_token(peers):
    p = await peers()
    assert error_of(await p.request({"type": "ping"})) == "hello_required"
    err = await p.request({"type": "hello", "v": 99}, check=False)
    assert error_of(err) == "unsupported_version" and err["detail"]["supported"] == [1]
    q = await peers()
    err = await q.request({"type": "hello", "v": 1, "token": "nope"})
    assert error_of(err) == "bad_token"
    with pytest.raises(ConnectionClosed) as closed:
        await q.wait_for(lambda m: False, 5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4003


async def test_room_errors(peers):
    (alice, bob), room, code = await table_of(peers, "mcr", ONE_HAND, humans=2)
    carol = await peers("Carol")
    assert (await carol.request({"type": "join_room", "code": code}))["type"] == "ack"
    cases = [
        (bob, {"type": "add_bot", "room": room, "seat": 3}, "not_host"),
        (carol, {"type": "sit", "room": room, "seat": 1}, "seat_taken"),
        (alice, {"type": "remove_bot", "room": room, "seat": 0}, "bad_seat"),
        (carol, {"type": "ready", "room": room, "ready": True}, "not_seated"),
        (alice, {"type": "get_log", "room": room}, "game_not_finished"),
        (alice, {"type": "rematch", "room": room}, "game_not_finished"),
        (
            alice,
            {"type": "action", "room": room, "seq": 1, "action": {"type": "pass", "seq": 1}},
            "game_not_started",
        ),
        (alice, {"type": "chat", "room": room, "text": "x" * 400}, "chat_too_long"),
    ]
    for who, msg, code_ in cases:
        assert error_of(await who.request(msg)) == code_, (msg, code_)
    assert (await bob.request({"type": "ready", "room": room, "ready": False}))["type"] == "ack"
    start = {"type": "start_game", "room": room}
    assert error_of(await alice.request(start)) == "not_ready"
    assert (await bob.request({"type": "ready", "room": room, "ready": True}))["type"] == "ack"
    assert (await alice.request(start))["type"] == "ack"
    assert error_of(await alice.request({"type": "stand", "room": room})) == "game_in_progress"
    q = await alice.wait_for(lambda m: bool(m.get("legal")))
    wrong = {**q["legal"][0], "seq": q["legal"][0]["seq"] + 7}
    err = await alice.request({"type": "action", "room": room, "seq": 1, "action": wrong})
    assert error_of(err) == "illegal_action" and err["detail"]["table_code"] == "stale-seq"
    err = await carol.request(
        {"type": "action", "room": room, "seq": 1, "action": {"type": "pass", "seq": 1}}
    )
    assert error_of(err) == "not_seated"


def _pid(p) -> str:
    pid: str = next(m for m in p.inbox if m["type"] == "welcome")["player_id"]
    return pid


async def test_host_controls(peers):
    """swap_seats, make_host, pause_game, resume_game and kick, with the errors of each:
    not_host, no_such_member, paused, not_paused, kicked; the kicked member is sent ``left``
    with ``reason: "kicked"``."""
    (alice, bob), room, code = await table_of(
        peers, "mcr", {**ONE_HAND, "turn_seconds": 0, "claim_seconds": 0}, humans=2
    )
    carol = await peers("Carol")
    assert (await carol.request({"type": "join_room", "code": code}))["type"] == "ack"
    swap = {"type": "swap_seats", "room": room, "a": 1, "b": 2}
    assert error_of(await bob.request(swap)) == "not_host"
    assert (await alice.request(swap))["type"] == "ack"
    assert (await alice.request({**swap, "a": 2, "b": 1}))["type"] == "ack"
    give = {"type": "make_host", "room": room, "player": _pid(alice)}
    assert error_of(await alice.request(give)) == "no_such_member"
    assert (await alice.request({**give, "player": _pid(bob)}))["type"] == "ack"
    assert (await bob.request({**give, "player": _pid(alice)}))["type"] == "ack"
    assert (await alice.request({"type": "start_game", "room": room}))["type"] == "ack"
    pause, resume = {"type": "pause_game", "room": room}, {"type": "resume_game", "room": room}
    assert error_of(await alice.request(resume)) == "not_paused"
    assert (await alice.request(pause))["type"] == "ack"
    note = await carol.wait_for(lambda m: m.get("notice", {}).get("type") == "paused")
    assert note["lobby"]["paused"]["player"] == _pid(alice)
    assert error_of(await alice.request(pause)) == "paused"
    act = {"type": "action", "room": room, "seq": 1, "action": {"type": "pass", "seq": 1}}
    assert error_of(await bob.request(act)) == "paused"
    assert (await alice.request(resume))["type"] == "ack"
    await carol.wait_for(lambda m: m.get("notice", {}).get("type") == "resumed")
    kick = {"type": "kick", "room": room, "player": _pid(carol)}
    assert error_of(await bob.request(kick)) == "not_host"
    assert (await alice.request(kick))["type"] == "ack"
    left = await carol.wait_for(lambda m: m["type"] == "left")
    assert left["reason"] == "kicked" and left["room"] == room
    assert error_of(await carol.request({"type": "join_room", "code": code})) == "kicked"


async def test_limits_of_a_strict_server(tmp_path):
    """rate_limited (with the dropped request's id), chat_rate_limited, too_many_rooms,
    room_full, and unavailable while Redis is down."""
    redis = RedisProcess(tmp_path)
    srv = ServerProcess(
        tmp_path,
        *FAST_FLAGS[:6],
        "--redis-url",
        redis.url,
        "--rate-per-second",
        "5",
        "--rate-burst",
        "5",
        "--chat-per-minute",
        "2",
        "--max-rooms-per-player",
        "2",
    )
    try:
        p = await Peer.open(srv.url)
        await p.hello("limits")
        await asyncio.sleep(1.2)  # the hello's token back in the bucket
        ids = [await p.send({"type": "ping"}) for _ in range(12)]
        replies = [await p.wait_for(lambda m, i=i: m.get("re") == i) for i in ids]
        limited = [r for r in replies if r["type"] == "error"]
        assert limited and all(error_of(r) == "rate_limited" for r in limited)
        await asyncio.sleep(2.5)
        rooms = []
        for _ in range(2):
            ack = await p.request({"type": "create_room", "ruleset": "mcr"})
            rooms.append(ack["room"])
        assert error_of(await p.request({"type": "create_room", "ruleset": "mcr"})) == (
            "too_many_rooms"
        )
        await asyncio.sleep(1.2)
        for text in ("a", "b"):
            assert (await p.request({"type": "chat", "room": rooms[0], "text": text}))[
                "type"
            ] == "ack"
        err = await p.request({"type": "chat", "room": rooms[0], "text": "c"})
        assert error_of(err) == "chat_rate_limited"
        code = next(m for m in p.inbox if m["type"] == "snapshot")["lobby"]["code"]
        members = []
        for i in range(63):
            q = await Peer.open(srv.url)
            members.append(q)
            await q.hello(f"m{i}")
            r = await q.request({"type": "join_room", "code": code})
            assert r["type"] == "ack", r
        late = await Peer.open(srv.url)
        await late.hello("late")
        assert error_of(await late.request({"type": "join_room", "code": code})) == "room_full"
        redis.stop()
        await asyncio.sleep(1.2)
        err = await late.request({"type": "create_room", "ruleset": "mcr"})
        assert error_of(err) == "unavailable"
        for q in [*members, late, p]:
            await q.close()
    finally:
        srv.stop()
        redis.stop()


async def test_closing_on_a_graceful_stop(tmp_path):
    srv = ServerProcess(tmp_path, *FAST_FLAGS)
    try:
        p = await Peer.open(srv.url)
        await p.hello("bye")
        srv.proc.terminate()
        closing = await p.wait_for(lambda m: m["type"] == "closing", 20)
        assert closing["reconnect"] is True
        # until the server closes the connection, a request is refused: it is stopping. (It
        # closes as soon as its `closing` messages are flushed, so the request may instead
        # meet the close: refused either way, never served.)
        with pytest.raises(ConnectionClosed) as closed:
            err = await p.request({"type": "ping"})
            assert error_of(err) == "shutting_down", err
            await p.wait_for(lambda m: False, 20)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
        assert not any(m["type"] == "pong" for m in p.inbox), "nothing is served once closing"
    finally:
        srv.stop()


def test_frames_are_plain_msgpack_maps():
    assert msgpack.unpackb(P({"type": "ping"})) == {"type": "ping"}


def test_independence():
    """The suite is a stranger's client: it imports nothing of the project."""
    import ast

    here = Path(__file__).resolve().parent
    for path in here.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                top = name.split(".")[0]
                assert top not in {"protocol", "server", "table", "bots", "scoring"}, (path, name)
