"""Bad input: every kind gets a documented error code and the connection stays usable;
abuse is closed with a policy code; a fuzz run of >= 10,000 bad frames."""

from __future__ import annotations

import asyncio
import random

import msgpack
import pytest
from websockets.exceptions import ConnectionClosed

from protocol.codes import CloseCode, ErrorCode
from server_tests.conftest import running_server
from server_tests.helpers import FAST_ONE_HAND, Player, check_view_message, setup_table
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(120)

P = lambda v: msgpack.packb(v, use_bin_type=True)  # noqa: E731

CASES = [
    ("text frame", "hello", ErrorCode.BAD_FRAME),
    ("empty", b"", ErrorCode.BAD_FRAME),
    ("reserved byte", b"\xc1", ErrorCode.BAD_FRAME),
    ("truncated", P({"type": "ping", "t": 5})[:-1], ErrorCode.BAD_FRAME),
    ("two values", P({"type": "ping"}) + P(1), ErrorCode.BAD_FRAME),
    ("int map key", P({1: 2}), ErrorCode.BAD_FRAME),
    ("bad utf-8", b"\xa2\xff\xfe", ErrorCode.BAD_FRAME),
    ("ext type", b"\xd4\x01\x01", ErrorCode.LIMIT_EXCEEDED),
    ("oversized", P({"type": "chat", "room": "r", "text": "x" * 20000}), ErrorCode.FRAME_TOO_LARGE),
    ("deep", b"\x91" * 40 + b"\x01", ErrorCode.TOO_DEEP),
    ("huge array header", b"\xdd\xff\xff\xff\xff", ErrorCode.LIMIT_EXCEEDED),
    ("long string", P({"type": "ping", "x": "y" * 5000}), ErrorCode.LIMIT_EXCEEDED),
    ("not a map", P([1, 2, 3]), ErrorCode.BAD_MESSAGE),
    ("no type", P({"t": 1}), ErrorCode.BAD_MESSAGE),
    ("type not a string", P({"type": 7}), ErrorCode.BAD_MESSAGE),
    ("unknown type", P({"type": "launch_missiles", "id": 9}), ErrorCode.UNKNOWN_TYPE),
    ("wrong field type", P({"type": "sit", "room": "r", "seat": "north"}), ErrorCode.BAD_MESSAGE),
    ("bool for int", P({"type": "sit", "room": "r", "seat": True}), ErrorCode.BAD_MESSAGE),
    ("out of range", P({"type": "sit", "room": "r", "seat": 4}), ErrorCode.BAD_MESSAGE),
    ("unknown field", P({"type": "ping", "colour": "red"}), ErrorCode.BAD_MESSAGE),
    ("missing field", P({"type": "sit", "room": "r"}), ErrorCode.BAD_MESSAGE),
    ("not in room", P({"type": "sit", "room": "r_nope", "seat": 1}), ErrorCode.NOT_IN_ROOM),
    ("no such code", P({"type": "join_room", "code": "ZZZZZZ"}), ErrorCode.ROOM_NOT_FOUND),
    ("bad ruleset", P({"type": "create_room", "ruleset": "snap"}), ErrorCode.BAD_RULESET),
    ("second hello", P({"type": "hello", "v": 1}), ErrorCode.ALREADY_HELLO),
    # the action map is validated like every other field: a missing action, an unknown
    # field, a wrong type, or a value that is not a tile code is a bad message
    ("action without action", P({"type": "action", "room": "r", "seq": 1}), ErrorCode.BAD_MESSAGE),
    (
        "action unknown field",
        P({"type": "action", "room": "r", "seq": 1, "action": {"type": "pass", "seq": 1, "x": 1}}),
        ErrorCode.BAD_MESSAGE,
    ),
    (
        "action seat as text",
        P(
            {
                "type": "action",
                "room": "r",
                "seq": 1,
                "action": {"type": "pass", "seq": 1, "seat": "0"},
            }
        ),
        ErrorCode.BAD_MESSAGE,
    ),
    (
        "action tile as int",
        P(
            {
                "type": "action",
                "room": "r",
                "seq": 1,
                "action": {"type": "discard", "seq": 1, "tile": 5},
            }
        ),
        ErrorCode.BAD_MESSAGE,
    ),
    (
        "action without type",
        P({"type": "action", "room": "r", "seq": 1, "action": {"seq": 1}}),
        ErrorCode.BAD_MESSAGE,
    ),
    (
        "action not in room",
        P({"type": "action", "room": "r", "seq": 1, "action": {"type": "pass", "seq": 1}}),
        ErrorCode.NOT_IN_ROOM,
    ),
]


async def test_each_bad_frame_gets_its_code_and_the_connection_survives(server):
    c = await Client.connect(server.port)
    pre = await c.request({"type": "sit", "room": "r", "seat": 0})
    assert pre["code"] == ErrorCode.HELLO_REQUIRED
    await c.hello("fuzzy")
    for name, frame, code in CASES:
        await c.send_raw(frame)
        reply = await c.recv()
        assert reply["type"] == "error" and reply["code"] == code.value, (name, reply)
        pong = await c.request({"type": "ping", "t": 1})
        assert pong["type"] == "pong", name
    await c.close()


async def test_hard_frame_limit_closes_with_1009(redis_url):
    async with running_server(redis_url, hard_frame_bytes=64 * 1024) as srv:
        c = await Client.connect(srv.port)
        await c.hello()
        await c.send_raw(b"\x00" * (100 * 1024))
        with pytest.raises(ConnectionClosed) as exc:
            await c.recv()
        assert exc.value.rcvd is not None and exc.value.rcvd.code == CloseCode.TOO_BIG


async def test_rate_limit_then_recovery(redis_url):
    async with running_server(redis_url, rate_per_second=20.0, rate_burst=10) as srv:
        c = await Client.connect(srv.port)
        await c.hello()
        for _ in range(40):
            await c.send({"type": "ping"})
        replies = [await c.recv() for _ in range(40)]
        codes = [r.get("code") for r in replies if r["type"] == "error"]
        assert codes and set(codes) == {ErrorCode.RATE_LIMITED.value}
        assert sum(r["type"] == "pong" for r in replies) >= 9  # the burst, less the hello
        await asyncio.sleep(1.0)
        assert (await c.request({"type": "ping"}))["type"] == "pong"


async def test_abuse_is_closed_with_policy_code(redis_url):
    async with running_server(redis_url, max_errors=20) as srv:
        c = await Client.connect(srv.port)
        await c.hello()
        with pytest.raises(ConnectionClosed) as exc:
            for _ in range(100):
                await c.send_raw(b"\xc1")
                await c.recv()
        assert exc.value.rcvd is not None and exc.value.rcvd.code == CloseCode.POLICY


async def test_version_token_and_hello_timeout(redis_url):
    async with running_server(redis_url, hello_timeout=0.3) as srv:
        c = await Client.connect(srv.port)
        r = await c.request({"type": "hello", "v": 99})
        assert r["code"] == ErrorCode.UNSUPPORTED_VERSION and r["detail"]["supported"] == [1]
        with pytest.raises(ConnectionClosed) as exc:
            await c.recv()
        assert exc.value.rcvd.code == CloseCode.UNSUPPORTED_VERSION
        c = await Client.connect(srv.port)
        r = await c.request({"type": "hello", "v": 1, "token": "forged"})
        assert r["code"] == ErrorCode.BAD_TOKEN
        with pytest.raises(ConnectionClosed) as exc:
            await c.recv()
        assert exc.value.rcvd.code == CloseCode.BAD_TOKEN
        c = await Client.connect(srv.port)
        with pytest.raises(ConnectionClosed) as exc:
            await c.recv(timeout=5)
        assert exc.value.rcvd.code == CloseCode.HELLO_TIMEOUT


def fuzz_frame(rng: random.Random, room: str) -> bytes | str:
    """One random bad frame: garbage, truncated, oversized, wrong-typed or illegal."""
    k = rng.randrange(10)
    valid = [
        {"type": "sit", "room": room, "seat": 1},
        {
            "type": "action",
            "room": room,
            "seq": rng.randrange(1, 10**6),
            "action": {
                "type": rng.choice(["discard", "pung", "win", "pass", "chow"]),
                "tile": rng.choice(["1m", "5p", "9s", "we", "zz", 7]),
                "seq": rng.randrange(99),
            },
        },
        {"type": "chat", "room": room, "text": "x" * rng.randrange(290, 400)},
        {"type": "add_bot", "room": room, "seat": rng.randrange(4)},
        {"type": "start_game", "room": room},
        {"type": "resync", "room": "r_" + "0" * 16, "since": 0},
        {"type": "get_log", "room": room},
        {"type": "join_room", "code": "".join(rng.choice("ABC") for _ in range(6))},
    ]
    if k == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if k == 1:
        b = P(rng.choice(valid))
        return b[: rng.randrange(1, len(b))]
    if k == 2:
        return P({"type": "chat", "room": room, "text": "y" * rng.randrange(17000, 60000)})
    if k == 3:
        m = dict(rng.choice(valid))
        key = rng.choice(list(m))
        m[key] = rng.choice([None, 1.5, [], {}, "s", -1, True, 2**40])
        return P(m)
    if k == 4:
        return P({"type": rng.choice(["", "HELLO", "pingg", "events", "snapshot"]), "id": 1})
    if k == 5:
        depth = rng.randrange(17, 60)
        return b"\x91" * depth + b"\xc0"
    if k == 6:
        return "text " + str(rng.random())
    if k == 7:
        return P([rng.random() for _ in range(rng.randrange(5))])
    return P(rng.choice(valid))


async def test_fuzz_ten_thousand_bad_frames(redis_url):
    async with running_server(
        redis_url, rate_per_second=1e9, rate_burst=10**9, max_errors=10**9
    ) as srv:
        clients, room = await setup_table(
            srv.port,
            3,
            (await _ruleset()),
            dict(FAST_ONE_HAND),
        )
        f = await Client.connect(srv.port, "fuzz", check_view_message)
        await f.hello("fuzz")
        code = next(m for m in clients[0].inbox if m["type"] == "snapshot")["lobby"]["code"]
        r = await clients[0].request({"type": "start_game", "room": room})
        assert r["type"] == "ack"
        # the fuzzer joins as a spectator, so room-level messages reach the room logic
        assert (await f.request({"type": "join_room", "code": code}))["type"] == "ack"
        players = [Player(c, random.Random(i)) for i, c in enumerate(clients)]
        rng = random.Random(1234)
        n = 10_000
        documented = {c.value for c in ErrorCode}
        replies: list[dict] = []

        async def reader() -> None:
            while sum(1 for m in replies if m["type"] != "events") < n:
                msg = await f._recv_one(30)
                replies.append(msg)

        read_task = asyncio.create_task(reader())
        for _ in range(n):
            await f.send_raw(fuzz_frame(rng, room))
        # seated players also send valid-but-illegal actions while they play
        for p in players:
            for t in ("dw", "1m", "we"):
                p.c.seq += 1
                await p.c.send(
                    {
                        "type": "action",
                        "room": room,
                        "seq": p.c.seq,
                        "action": {"type": "discard", "tile": t, "seq": 0},
                    }
                )
        await asyncio.wait_for(read_task, 60)
        await asyncio.gather(*(p.run(timeout=60) for p in players))
        assert all(p.game_over for p in players)
        for m in replies:
            if m["type"] == "error":
                assert m["code"] in documented, m
            else:
                assert m["type"] in ("pong", "room_list", "ack", "snapshot", "events", "left"), m
        assert sum(m["type"] == "error" for m in replies) >= 9_000
        illegal = [e for p in players for e in p.errors if e["code"] == "illegal_action"]
        assert illegal and all("table_code" in e["detail"] for e in illegal)
        # the server is still up and the room state is exactly the replay of its log
        assert (await f.request({"type": "ping"}))["type"] == "pong"
        await _check_consistent(redis_url, room)


async def _ruleset() -> str:
    from server.room import game

    assert game.available() and game.rulesets()
    return game.rulesets()[0]


async def _check_consistent(redis_url: str, room: str) -> None:
    import redis.asyncio as aioredis

    import table
    from server.storage.store import Store

    store = Store(aioredis.Redis.from_url(redis_url))
    try:
        version, state = await store.load(room)
        log = await store.read_log(room, 1)
    finally:
        await store.close()
    assert [v for v, _ in log] == list(range(1, version + 1))
    cfg = table.GameConfig.from_json(state["game"]["config"])
    st = table.new_game(cfg)
    for _, entry in log:
        for a in entry.get("actions") or []:
            st, _ = table.apply(st, table.Action.from_json(a))
    assert st.to_json() == state["game"]


async def test_closing_handshake_after_the_handshake_headers_are_dropped(redis_url):
    """The server drops each connection's handshake request/response headers once the
    handshake is done (memory per connection); the closing handshake must still work both
    ways: the client closes (the server answers the close frame) and the server closes."""
    import gc

    from websockets.asyncio.server import ServerConnection
    from websockets.protocol import State

    async with running_server(redis_url, hard_frame_bytes=64 * 1024) as srv:
        c = await Client.connect(srv.port)
        await c.hello("closer")
        assert (await c.request({"type": "ping", "t": 1}))["type"] == "pong"
        server_side = [
            o
            for o in gc.get_objects()
            if type(o) is ServerConnection
            and o.state is State.OPEN
            and o.local_address[1] == srv.port
        ]
        assert server_side  # this test runs the server in-process
        for ws in server_side:
            assert ws.request is not None and len(ws.request.headers) == 0
            assert ws.response is not None and len(ws.response.headers) == 0
            assert type(ws.drain_waiters) is list  # deques emptied at rest: lists
            parsed = ws.protocol.parser.gi_frame.f_locals.get("request")  # kept by the parser
            assert parsed is not None and len(parsed.headers) == 0
        # the receive queue (a list now) in order: a burst, and a message in fragments
        for i in range(30):
            await c.send({"type": "ping", "t": i})
        assert [(await c.recv())["t"] for _ in range(30)] == list(range(30))
        frame = P({"type": "ping", "t": 99})
        await c.ws.send(iter([frame[:3], frame[3:]]))
        assert (await c.recv())["t"] == 99
        await c.close()  # client-initiated: the server must answer with its close frame
        assert c.ws.protocol.close_rcvd is not None and c.ws.protocol.close_rcvd.code == 1000
        assert c.ws.protocol.close_sent is not None and c.ws.protocol.close_sent.code == 1000

        d = await Client.connect(srv.port)  # server-initiated close after the drop
        await d.hello("closed")
        await d.send_raw(b"\x00" * (100 * 1024))
        with pytest.raises(ConnectionClosed) as exc:
            await d.recv()
        assert exc.value.rcvd is not None and exc.value.rcvd.code == CloseCode.TOO_BIG
        assert exc.value.sent is not None and exc.value.sent.code == CloseCode.TOO_BIG
