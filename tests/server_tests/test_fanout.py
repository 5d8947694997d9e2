"""Fan-out mechanics: frames are written at once when a connection's socket is free and
queued behind what is waiting otherwise (flow control), in order; a client that stops
reading is dropped without holding up the others; frames shared by connections with the
same view are the same for each."""

from __future__ import annotations

import asyncio
import collections
import itertools
import socket

import msgpack
import pytest
from websockets.frames import Frame, Opcode

from server.net import transport as transport_module
from server.room import frames as frames_module
from server_tests.conftest import running_server
from server_tests.helpers import http_get, metric
from server_tests.wsclient import Client

pytestmark = pytest.mark.timeout(120)


async def test_a_client_that_stops_reading_is_dropped_and_the_others_get_every_frame_in_order(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transport_module, "OUT_QUEUE", 20)
    # no rate limit in the way: how much the kernel buffers for a client that does not read
    # depends on the machine (tcp_wmem: up to 4 MiB here, ~1,500 of these chats), and every
    # one of them is a request of the host's
    async with running_server(
        redis_url,
        chat_per_minute=1_000_000,
        chat_max_len=2000,
        rate_per_second=1_000_000.0,
        rate_burst=1_000_000,
    ) as srv:
        host = await Client.connect(srv.port, "host")
        await host.hello("host")
        ack = await host.request({"type": "create_room", "ruleset": "zung-jung"})
        room = ack["room"]
        code = next(m for m in host.inbox if m["type"] == "snapshot")["lobby"]["code"]
        # a client that joins and then never reads again (a raw socket with a small receive
        # buffer): the server's socket buffer for it fills up, then its queue of 20 frames
        _, slow = await _raw_client(srv.port)
        slow.write(_frame({"type": "hello", "v": 1, "name": "slow", "id": 1}))
        slow.write(_frame({"type": "join_room", "code": code, "id": 2}))
        await host.wait_for(
            lambda m: (
                m["type"] == "events"
                and any(p["name"] == "slow" for p in (m.get("lobby") or {}).get("spectators", ()))
            ),
            10,
        )
        assert await _connections(srv.port) == 2
        text = "x" * 1900
        sent = 0
        # the kernel's socket buffers, the 64 KiB direct-write limit and the queue of 20
        # frames, in chats of ~2 KB: then it must go. How much a loopback connection buffers
        # is the kernel's business: with Linux 6.18 and tcp_wmem max 4 MiB the client was
        # dropped after 4,850 chats (~9.2 MB, about twice tcp_wmem max), so the bound allows
        # four times tcp_wmem max: it only stops a test whose client is never dropped
        limit = 4 * _tcp_wmem_max() // len(text) + 2000
        while await _connections(srv.port) == 2:
            assert sent < limit, "the client that does not read was never dropped"
            for _ in range(50):  # each chat is an events frame of ~2 KB for both
                r = await host.request({"type": "chat", "room": room, "text": text})
                assert r["type"] == "ack", r
                sent += 1

        # the host got every chat, in order, each once
        def chats() -> list[int]:
            return [m["seq"] for m in host.inbox if m["type"] == "events" and m.get("chat")]

        while len(chats()) < sent:
            await host.recv(10)
        seqs = chats()
        assert len(seqs) == sent
        assert all(b - a == 1 for a, b in itertools.pairwise(seqs))
        slow.close()
        await host.close()


def _tcp_wmem_max() -> int:
    try:
        with open("/proc/sys/net/ipv4/tcp_wmem") as f:
            return int(f.read().split()[2])
    except (OSError, ValueError, IndexError):
        return 4 * 1024 * 1024


async def _raw_client(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A WebSocket client that reads nothing after the handshake (a small receive buffer,
    and a stream reader that stops reading its socket after 2 KiB)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock, limit=1024)
    writer.write(
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer


def _frame(msg: dict[str, object]) -> bytes:
    data = msgpack.packb(msg, use_bin_type=True)
    return Frame(Opcode.BINARY, data).serialize(mask=True)


async def _connections(port: int) -> int:
    _, _, body = await http_get(port, "/metrics")
    return int(metric(body, "mahjong_connections"))


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
async def test_spectators_share_one_frame_and_players_get_their_own(
    redis_url: str, monkeypatch: pytest.MonkeyPatch, sparse: bool
) -> None:
    """(With ``sparse`` the spectators ask for sparse delivery: their frames carry ``prev``
    and are shared per view and ``prev``, the same for all of them once all have joined.)"""
    # every events frame the server builds, by (room, version, seat view): counted around
    # each EntryFrames the fan-out makes (frames.py may be compiled, its calls bound early)
    built: collections.Counter[tuple[str, int, int | None]] = collections.Counter()
    entry_frames = frames_module.EntryFrames

    class Counting:
        def __init__(self) -> None:
            self.inner = entry_frames()
            self.quiet = self.inner.quiet

        def visible(self, entry: dict, seat: int | None) -> list[dict]:  # type: ignore[type-arg]
            return self.inner.visible(entry, seat)

        def frame(
            self,
            room: str,
            v: int,
            entry: dict,  # type: ignore[type-arg]
            seat: int | None,
            prev: int | None = None,
        ) -> bytes:
            n = len(self.inner.frames)
            data = self.inner.frame(room, v, entry, seat, prev)
            if len(self.inner.frames) > n:
                built[(room, v, seat)] += 1
            return data

    monkeypatch.setattr(frames_module, "EntryFrames", Counting)
    async with running_server(redis_url) as srv:
        host = await Client.connect(srv.port, "host")
        await host.hello("host")
        ack = await host.request({"type": "create_room", "ruleset": "zung-jung"})
        room = ack["room"]
        code = next(m for m in host.inbox if m["type"] == "snapshot")["lobby"]["code"]
        for seat in range(1, 4):
            assert (await host.request({"type": "add_bot", "room": room, "seat": seat}))[
                "type"
            ] == "ack"
        assert (await host.request({"type": "sit", "room": room, "seat": 0}))["type"] == "ack"
        watchers = []
        for i in range(3):
            w = await Client.connect(srv.port, f"w{i}")
            await w.hello(f"w{i}", sparse=sparse)
            await w.request({"type": "join_room", "code": code})
            watchers.append(w)
        assert (await host.request({"type": "ready", "room": room, "ready": True}))["type"] == "ack"
        assert (await host.request({"type": "start_game", "room": room}))["type"] == "ack"

        # the start commit deals the hand (the host, at seat 0, deals and must act first)
        def dealt(m: dict[str, object]) -> bool:
            events = m.get("events") or []
            assert isinstance(events, list)
            return m["type"] == "events" and any(e["type"] == "hand_started" for e in events)

        for w in [host, *watchers]:
            await w.wait_for(dealt, 30)
        last = max(m["seq"] for m in host.inbox if m["type"] == "events")
        for w in watchers:
            while max(m["seq"] for m in w.inbox if m["type"] == "events") < last:
                await w.recv(10)
        by_seq = [
            {m["seq"]: m for m in w.inbox if m["type"] == "events" and m["seq"] <= last}
            for w in watchers
        ]
        # every spectator got the same frames (the one spectator view of each entry) from
        # the last one's joining on
        common = set(by_seq[0]) & set(by_seq[1]) & set(by_seq[2])
        assert len(common) >= 2  # the ready and the start (with the deal)
        assert all(by_seq[0][v] == by_seq[1][v] == by_seq[2][v] for v in common)
        mine = {m["seq"]: m for m in host.inbox if m["type"] == "events" and m["seq"] <= last}
        deal = next(v for v, m in mine.items() if dealt(m))
        assert deal in common
        # the seated host's frame of the deal differs from the spectators' (its own tiles and
        # legal actions), the spectators' has no concealed tiles (checked by the test client)
        assert mine[deal] != by_seq[0][deal]
        assert mine[deal]["legal"] and not by_seq[0][deal].get("legal")
        # built once for the three spectators, once for the host's seat: shared bytes
        assert built[(room, deal, None)] == 1 and built[(room, deal, 0)] == 1
        assert ("prev" in by_seq[0][deal]) is sparse and "prev" not in mine[deal]
        for w in [host, *watchers]:
            await w.close()


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_direct_frames_are_the_bytes_websockets_writes(size: int) -> None:
    """Frames are written to the socket by ``binary_frame`` (not through websockets' send
    path): byte for byte what websockets serialises for a server's binary message, at each
    length-encoding boundary (7-bit, 16-bit and 64-bit lengths)."""
    data = bytes(i % 251 for i in range(size))
    expected = Frame(Opcode.BINARY, data).serialize(mask=False)
    assert transport_module.binary_frame(data) == expected
    # and websockets' own parser reads it back as that message
    parsed = Frame(Opcode.BINARY, b"")
    gen = Frame.parse(_reader(expected), mask=False, max_size=None, extensions=[])
    try:
        next(gen)
    except StopIteration as done:
        parsed = done.value
    assert parsed.opcode is Opcode.BINARY and parsed.fin and parsed.data == data


def _reader(buf: bytes):  # type: ignore[no-untyped-def]
    """A ``read_exact`` for websockets' generator-based frame parser over ``buf``."""
    pos = 0

    def read_exact(n: int):  # type: ignore[no-untyped-def]
        nonlocal pos
        chunk = buf[pos : pos + n]
        pos += n
        return chunk
        yield  # a generator that never needs more input

    return read_exact
