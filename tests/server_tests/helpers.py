"""Players for the integration tests: real WebSocket clients that play from the legal actions
the server sends them, plus the leak checks run on every message; and the small helpers
several test files share (polling a condition, a room's stored state, /metrics)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis

from server.room import game
from server.room.lobby import public_lobby
from server.storage.store import Store
from server_tests.wsclient import Client

JSON = dict[str, Any]

OVER_PHASES = ("between_hands", "game_over")


def check_view_message(client: Client, msg: JSON) -> None:
    """Structural leak check on every message a client receives (run by the Client)."""
    assert "_owner" not in str(msg.keys())
    if msg["type"] == "snapshot" and msg.get("game") is not None:
        g = msg["game"]
        seat = msg["you"]["seat"]
        assert g["you"] == seat
        hand = g.get("hand")
        if hand is not None and g["phase"] not in OVER_PHASES:
            assert "wall" not in hand and "salt" not in hand, "wall sent during a hand"
            for s in hand["seats"]:
                if s["seat"] != seat:
                    assert s["concealed"] is None, f"seat {seat} sees seat {s['seat']}'s tiles"
                    assert "drawn" not in s
                    for meld in s["melds"]:
                        if meld.get("concealed"):
                            assert meld["tiles"] is None
        for a in msg.get("legal") or []:
            assert a["seat"] == seat
    if msg["type"] == "events":
        for e in msg["events"]:
            assert "_owner" not in e and "_secret" not in e
            if e["type"] in ("dealt", "draw") and e.get("seat") != client.seat:
                assert "tiles" not in e and "tile" not in e, f"{client.label} saw {e}"
        for a in msg.get("legal") or []:
            assert a["seat"] == client.seat
    if msg["type"] in ("snapshot",):
        client.seat = msg["you"]["seat"]
    if msg["type"] == "events" and msg.get("lobby") is not None:
        client.seat = None
        for i, s in enumerate(msg["lobby"]["seats"]):
            if s and s.get("player") == client.player_id:
                client.seat = i


def check_held(log: dict[int, JSON], held: list[tuple[int, int | None, JSON]]) -> None:
    """Every answer acknowledged as held is applied by one later commit (the window's
    close), with the seat's other answers of that window nowhere else."""
    for v, seat, action in held:
        found = [
            w
            for w, e in log.items()
            if w > v
            for a in e.get("actions") or []
            if a.get("seq") == action.get("seq")
            and a.get("type") == action.get("type")
            and (seat is None or a.get("seat") == seat)
        ]
        assert len(found) == 1, (v, seat, action, found)


def check_against_log(client: Client, log: dict[int, JSON]) -> int:
    """Post-hoc check: every event this client got is the engine's event with every secret
    of another seat removed (``log``: the room's unredacted stream, version -> entry)."""
    seat: int | None = None
    checked = 0
    for msg in client.inbox:
        if msg["type"] == "snapshot":
            seat = msg["you"]["seat"]
            continue
        if msg["type"] != "events":
            continue
        entry = log[msg["seq"]]
        if entry.get("lobby") is not None:
            seat = None
            for i, s in enumerate(entry["lobby"]["seats"]):
                if s and s.get("player") == client.player_id:
                    seat = i
        # another seat's claim-window answers are not sent at all (table.view_event)
        full = [e for e in entry.get("events") or [] if game.view_event(e, seat) is not None]
        assert len(full) == len(msg["events"])
        for raw, seen in zip(full, msg["events"], strict=True):
            owner = raw.get("_owner")
            assert seen["type"] == raw["type"]
            for key in raw.get("_secret") or []:
                if owner is not None and owner != seat:
                    assert key not in seen, f"leak of {key} of seat {owner} to seat {seat}"
                    checked += 1
    return checked


class Player:
    """A client that plays whatever the server says is legal."""

    def __init__(self, client: Client, rng: random.Random, claim_rate: float = 0.3) -> None:
        self.c = client
        self.rng = rng
        self.claim_rate = claim_rate
        self.room: str | None = None
        self.legal: list[JSON] = []
        self.legal_at = -1
        self.acted_at = -1
        self.seq_seen = 0
        self.game_over: JSON | None = None
        self.acked: list[tuple[int, int]] = []  # (client seq, room seq) of acknowledged actions
        #: answers to claim windows acknowledged as held: (room seq then, seat, the action)
        self.held: list[tuple[int, int | None, JSON]] = []
        self.errors: list[JSON] = []
        self.hand_results = 0
        self.paused = False
        self.inflight: int | None = None  # request id of our action awaiting its reply
        self.last_action: JSON | None = None
        self.retry = False
        pending = {id(m) for m in client.pending}
        for msg in client.inbox:  # what the client already consumed (e.g. its snapshot)
            if id(msg) not in pending:
                self.absorb(msg)

    def choose(self) -> JSON:
        by: dict[str, list[JSON]] = {}
        for a in self.legal:
            by.setdefault(a["type"], []).append(a)
        if "win" in by:
            return by["win"][0]
        if "pass" in by:
            claims = [a for t in ("kong", "pung", "chow") for a in by.get(t, [])]
            if claims and self.rng.random() < self.claim_rate:
                return self.rng.choice(claims)
            return by["pass"][0]
        if "discard" in by:
            return self.rng.choice(by["discard"])
        return self.rng.choice(self.legal)

    def absorb(self, msg: JSON) -> None:
        t = msg["type"]
        if t == "snapshot":
            self.room = msg["room"]
            self.seq_seen = msg["seq"]
            self.legal = msg.get("legal") or []
            self.legal_at = msg["seq"]
        elif t == "events":
            # sparse delivery: ``prev`` is the frame before (commits showing us nothing skipped)
            before = msg.get("prev", msg["seq"] - 1)
            assert before == self.seq_seen, f"gap: {self.seq_seen} -> {msg['seq']} ({before})"
            self.seq_seen = msg["seq"]
            if msg.get("legal") is not None:
                self.legal = msg["legal"]
                self.legal_at = msg["seq"]
            notice = msg.get("notice")
            if notice and notice.get("type") == "game_over":
                self.game_over = notice
            for e in msg["events"]:
                if e["type"] == "hand_ended":
                    self.hand_results += 1
        elif t == "ack" and msg.get("client_seq") is not None:
            if msg.get("held"):
                # no commit of its own: the window's close applies it (check_held)
                assert self.last_action is not None
                self.held.append((msg["seq"], self.c.seat, self.last_action))
                # the server sends a held ack before the frame that closes its window
                # (docs/protocol.md): clearing the prompt never clears the next question
                assert self.legal_at <= msg["seq"], (
                    f"{self.c.label}: the held ack of seq {msg['seq']} came after the frame "
                    f"of seq {self.legal_at}"
                )
                self.legal = []
            else:
                self.acked.append((msg["client_seq"], msg["seq"]))
            if msg.get("re") == self.inflight:
                self.inflight = None
                # events of commits before ours may still be on their way: never act on
                # the legal actions they carry
                self.acted_at = max(self.acted_at, msg["seq"] - 1)
        elif t == "error":
            self.errors.append(msg)
            if msg.get("re") == self.inflight or msg["code"] == "rate_limited":
                self.inflight = None
                if msg["code"] in ("rate_limited", "busy", "unavailable"):
                    self.retry = True  # resend the same action with the same client seq

    async def act_if_needed(self) -> None:
        if self.paused or self.inflight is not None or self.room is None:
            return
        if self.retry and self.last_action is not None:
            self.retry = False
            await asyncio.sleep(0.05)
            self.inflight = await self.c.send(
                {"type": "action", "room": self.room, "seq": self.c.seq, "action": self.last_action}
            )
            return
        if not self.legal or self.acted_at >= self.legal_at:
            return
        self.acted_at = self.legal_at
        action = self.choose()
        self.c.seq += 1
        self.last_action = action
        self.inflight = await self.c.send(
            {"type": "action", "room": self.room, "seq": self.c.seq, "action": action}
        )

    async def run(self, until: Any = None, timeout: float = 60.0) -> None:
        """Play until the game is over (or ``until(self)`` is true)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.game_over is None and not (until and until(self)):
            await self.act_if_needed()
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError(f"{self.c.label}: game not over; last {self.c.inbox[-3:]}")
            msg = await self.c.recv(timeout=left)
            self.absorb(msg)


#: room options for a one-hand game with no timers and no pauses (tests drive every move)
FAST_ONE_HAND = {
    "turn_seconds": 0,
    "claim_seconds": 0,
    "hand_pause_ms": 0,
    "bot_delay_ms": 0,
    "length": "hands",
    "hands": 1,
}


async def until(pred: Callable[[], Awaitable[bool]], what: str, tries: int = 500) -> None:
    """Poll a condition every 20 ms (bounded; no assertion on how long it took)."""
    for _ in range(tries):
        if await pred():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"never happened: {what}")


#: a long game, bots at once: a room that is not paused commits many times a second
BUSY_OPTIONS: JSON = {
    "turn_seconds": 0,
    "claim_seconds": 0,
    "hand_pause_ms": 0,
    "bot_delay_ms": 0,
    "length": "four_rounds",
}


async def room_stays_still(redis_url: str, room: str, seconds: float = 0.8) -> tuple[int, JSON]:
    """The room's version does not move for ``seconds``: nothing is committed. Returns the
    (version, state) it stays at."""
    v0, _ = await load_room(redis_url, room)
    await asyncio.sleep(seconds)
    v1, state = await load_room(redis_url, room)
    assert v1 == v0, f"the room moved on ({v0} -> {v1})"
    return v1, state


async def room_moves_on(redis_url: str, room: str) -> None:
    """The room commits a few times within five seconds: its game goes on."""
    v0, _ = await load_room(redis_url, room)
    for _ in range(100):
        await asyncio.sleep(0.05)
        v1, _ = await load_room(redis_url, room)
        if v1 > v0 + 3:
            return
    raise AssertionError("the game did not go on")


async def load_room(src: str | Store, room: str) -> tuple[int, JSON]:
    """The room's committed (version, state), read from Redis; the room must exist. ``src``
    is a Store to read through (a poll loop opens one and passes it to every poll) or a Redis
    URL (a Store is opened for this one read, then closed)."""
    store = Store(aioredis.Redis.from_url(src)) if isinstance(src, str) else src
    try:
        loaded = await store.load(room)
        assert loaded is not None, f"no room {room}"
        return loaded
    finally:
        if store is not src:
            await store.close()


async def http_get(port: int, path: str) -> tuple[int, str, str]:
    """(status, content type, body) of a GET on the server's HTTP port."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    head, _, body = data.decode().partition("\r\n\r\n")
    status = int(head.split()[1])
    ctype = next(
        (
            h.split(":", 1)[1].strip()
            for h in head.split("\r\n")
            if h.lower().startswith("content-type:")
        ),
        "",
    )
    return status, ctype, body


def metrics_of(body: str) -> dict[str, float]:
    """The samples of a /metrics text: series (name with its labels) -> value."""
    out: dict[str, float] = {}
    for line in body.splitlines():
        if line and not line.startswith("#"):
            series, _, value = line.rpartition(" ")
            out[series] = float(value)
    return out


def metric(body: str, series: str) -> float:
    """One sample of a /metrics text (e.g. ``mahjong_room_loads_total``); it must be there."""
    value = metrics_of(body).get(series)
    if value is None:
        raise AssertionError(f"no {series} in /metrics")
    return value


async def read_log(redis_url: str, room: str) -> dict[int, JSON]:
    import redis.asyncio as aioredis

    from server.storage.store import Store

    store = Store(aioredis.Redis.from_url(redis_url))
    try:
        rows = await store.read_log(room, 1)
    finally:
        await store.close()
    return dict(rows)


async def setup_table(
    port: int, n_humans: int, ruleset: str, options: JSON, label: str = "p", sparse: bool = False
) -> tuple[list[Client], str]:
    """n_humans clients sit in seats 0.., bots fill the rest, all ready; returns (clients, room)."""
    clients = []
    for i in range(n_humans):
        c = await Client.connect(port, f"{label}{i}", check_view_message)
        await c.hello(f"{label}{i}", sparse=sparse)
        clients.append(c)
    host = clients[0]
    ack = await host.request({"type": "create_room", "ruleset": ruleset, "options": options})
    assert ack["type"] == "ack", ack
    room = ack["room"]
    snap = await host.wait_for(lambda m: m["type"] == "snapshot")
    code = snap["lobby"]["code"]
    for c in clients[1:]:
        r = await c.request({"type": "join_room", "code": code})
        assert r["type"] == "ack", r
    for i, c in enumerate(clients):
        r = await c.request({"type": "sit", "room": room, "seat": i})
        assert r["type"] == "ack", r
        r = await c.request({"type": "ready", "room": room, "ready": True})
        assert r["type"] == "ack", r
    for seat in range(n_humans, 4):
        r = await host.request({"type": "add_bot", "room": room, "seat": seat})
        assert r["type"] == "ack", r
    return clients, room


async def start_all_bots(host: Client, room: str) -> None:
    """The one seated player of a :func:`setup_table` room stands (a bot takes seat 0) and
    starts the game: four bots play, the host watches."""
    for msg in (
        {"type": "stand", "room": room},
        {"type": "add_bot", "room": room, "seat": 0},
        {"type": "start_game", "room": room},
    ):
        reply = await host.request(msg)
        assert reply["type"] == "ack", reply


async def inject_game(redis_url: str, room: str, game_json: JSON) -> int:
    """Put a known table state into the room, through the same atomic commit the server uses
    (a test fixture: production deals always come from the server's own secret seeds); its
    decisions start now. Returns the commit's room seq."""
    from server.room import game_room

    store = Store(aioredis.Redis.from_url(redis_url))
    try:
        loaded = await store.load(room)
        assert loaded is not None
        version, state = loaded
        state["game"] = game_json
        state["status"] = "playing"
        state["pending"] = {}
        game_room.refresh_pending(state, int(time.time() * 1000))
        res = await store.commit(
            room, version, state, {"kind": "fixture", "t": 0, "lobby": public_lobby(state)}
        )
        assert res.status == "ok"
        return int(res.version)
    finally:
        await store.close()
