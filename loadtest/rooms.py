"""Room drivers: four client connections playing one room, against the game server or the
bare room-broadcast baseline.

Latency is measured per action: from sending it to the arrival, on each of the room's four
connections, of the first broadcast whose room version is newer than the version the actor
had seen when it sent the action (the broadcast of that action's commit: the table waits for
the action, so nothing else commits in between). "Own" is the actor's connection, "all four"
the last of the four.

With sparse delivery (``hello.sparse``, the default; ``--dense`` turns it off) a seat is not
sent a commit that shows it nothing (another seat's pass in a claim window): "all four" is
then the last of the seats the commit was sent to. A seat's first frame newer than the
action's version tells which it was: the commit itself (``seq`` = version + 1), or a later
one whose ``prev`` is older than the commit (the seat was not sent it).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field
from typing import Any

from loadtest.conn import Conn, RequestError
from loadtest.stats import Recorder
from protocol.retry import retry_delay

__all__ = ["BaselineRoom", "GameRoom", "Pacing", "pick_action"]

JSON = dict[str, Any]


@dataclass(frozen=True)
class Pacing:
    """``interval`` seconds between a seat being asked and its answer (0: flat out), with
    ±``jitter`` (a fraction) of uniform noise, like a person thinking."""

    interval: float = 0.0
    jitter: float = 0.5

    def delay(self, rng: random.Random) -> float:
        if self.interval <= 0:
            return 0.0
        return self.interval * (1 + self.jitter * (2 * rng.random() - 1))


def pick_action(legal: list[JSON], rng: random.Random) -> JSON | None:
    """The load-test client's policy over the legal actions the server sent: win when it
    can, pass claims, otherwise discard a random tile (no view needed, so every client
    stays cheap; the real bot is :mod:`bots`)."""
    if not legal:
        return None
    by: dict[str, list[JSON]] = {}
    for a in legal:
        by.setdefault(str(a.get("type")), []).append(a)
    for t in ("win", "pass"):
        if t in by:
            return by[t][0]
    if "discard" in by:
        return rng.choice(by["discard"])
    return legal[0]


@dataclass
class _Inflight:
    sent: float
    version: int
    actor: int
    seen: set[int] = field(default_factory=set)
    last: float | None = None  # the latest arrival of the commit at a seat it was sent to


class _Room:
    def __init__(self, urls: list[str], index: int, rec: Recorder, pacing: Pacing) -> None:
        self.index = index
        self.rec = rec
        self.pacing = pacing
        self.rng = random.Random(index)
        # spread the rooms over the server processes; all four seats of a room on one
        self.url = urls[index % len(urls)]
        self.conns: list[Conn] = []
        self.versions = [0, 0, 0, 0]
        self.inflight: list[_Inflight] = []
        self.stop = asyncio.Event()
        self.tasks: set[asyncio.Task[Any]] = set()

    def _spawn(self, coro: Any) -> None:
        t = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(t)
        t.add_done_callback(self._done)

    def _done(self, t: asyncio.Task[Any]) -> None:
        self.tasks.discard(t)
        if not t.cancelled() and t.exception() is not None:
            self.rec.error(f"client-{type(t.exception()).__name__}")

    def track(self, conn: Conn, version: int, now: float, prev: int | None = None) -> None:
        """A broadcast of room ``version`` reached seat ``conn.index`` at ``now`` (``prev``:
        the seq of the frame before it, on a sparse connection)."""
        i = conn.index
        self.versions[i] = max(self.versions[i], version)
        done = []
        for f in self.inflight:
            if version > f.version and i not in f.seen:
                f.seen.add(i)
                # sparse: a later commit's frame means this seat was not sent the action's
                arrived = prev is None or version == f.version + 1
                if arrived:
                    f.last = now
                own = now - f.sent if arrived and i == f.actor else None
                complete = len(f.seen) == 4
                all4 = f.last - f.sent if complete and f.last is not None else None
                self.rec.delivered(own, all4, arrived)
                if complete:
                    done.append(f)
        for f in done:
            self.inflight.remove(f)

    async def open_all(self) -> None:
        self.conns = [Conn(self.url, self.rec, i) for i in range(4)]
        await asyncio.gather(*(c.open() for c in self.conns))
        for c in self.conns:
            c.on_message = self.on_message

    def on_message(self, conn: Conn, msg: JSON, now: float) -> None:  # pragma: no cover
        raise NotImplementedError

    async def close(self) -> None:
        self.stop.set()
        for t in list(self.tasks):
            t.cancel()
        await asyncio.gather(*(c.close() for c in self.conns), return_exceptions=True)


class GameRoom(_Room):
    """Four players of the game server: hello, create/join, sit, ready, start, then play
    whatever the server asks (``legal`` in ``events``/``snapshot``) until told to stop;
    a finished game is followed by a rematch."""

    def __init__(
        self,
        urls: list[str],
        index: int,
        rec: Recorder,
        pacing: Pacing,
        ruleset: str,
        hands_per_game: int = 64,
        reconnect: bool = False,
        sparse: bool = True,
        window_ms: int | None = None,
    ) -> None:
        super().__init__(urls, index, rec, pacing)
        self.ruleset = ruleset
        #: the rooms' ``window_ms`` option (None: the server's default): the longest wait of
        #: a claim window's automatic answers (server/room/windows.py)
        self.window_ms = window_ms
        self.reconnect = reconnect
        # hello.sparse only when asked for: a server older than sparse delivery refuses the field
        self._sparse = {"sparse": True} if sparse else {}
        # seat -> (loss time, successful attempt's start, version seen, resumed future)
        self.resuming: dict[int, tuple[float, float, int, asyncio.Future[float]]] = {}
        self.hands_per_game = hands_per_game
        self.room = ""
        self.asked = [-1, -1, -1, -1]  # the version each seat last acted on
        self.busy = [False] * 4  # an action of the seat is in flight
        self.latest: list[tuple[int, list[JSON]]] = [(0, [])] * 4  # last question per seat
        self.client_seq = [0, 0, 0, 0]
        self._lobby_code: str | None = None

    async def setup(self) -> None:
        t0 = time.perf_counter()
        await self.open_all()
        for i, c in enumerate(self.conns):
            w = await c.request(
                {"type": "hello", "v": 1, "name": f"lt{self.index}-{i}", **self._sparse}
            )
            c.token = str(w.get("token") or "") or None
            if self.reconnect:
                c.on_lost = self._lost
        host = self.conns[0]
        opts = {
            "length": "hands",
            "hands": self.hands_per_game,
            "turn_seconds": 0,
            "claim_seconds": 0,
            "hand_pause_ms": 0,
        }
        if self.window_ms is not None:
            opts["window_ms"] = self.window_ms
        ack = await host.request({"type": "create_room", "ruleset": self.ruleset, "options": opts})
        self.room = str(ack["room"])
        code = await self._code(host)
        for c in self.conns[1:]:
            await c.request({"type": "join_room", "code": code})
        for i, c in enumerate(self.conns):
            await c.request({"type": "sit", "room": self.room, "seat": i})
            await c.request({"type": "ready", "room": self.room, "ready": True})
        await host.request({"type": "start_game", "room": self.room})
        self.rec.rooms += 1
        self.rec.setup.append(time.perf_counter() - t0)

    async def _code(self, host: Conn) -> str:
        """The room code, from the snapshot the server sends after create_room."""
        for _ in range(200):
            if self._lobby_code:
                return self._lobby_code
            await asyncio.sleep(0.01)
        raise RequestError({"code": "no-snapshot", "message": "no snapshot after create_room"})

    # -- reconnection (server restarts) ---------------------------------------------------

    def _lost(self, conn: Conn) -> None:
        if not self.stop.is_set() and conn.token:
            self._spawn(self._resume(conn.index, conn.token, conn.retry_after_ms))

    async def _resume(self, i: int, token: str, hint_ms: int | None = None) -> None:
        """Reconnect seat ``i`` with its token and time it from the loss to the resume
        snapshot of the room: first when the server said (``closing.retry_after_ms`` of a
        graceful stop), else after a short random delay; then jittered exponential backoff,
        for up to 60 s."""
        loop = asyncio.get_running_loop()
        t0 = time.perf_counter()
        last_seen = self.versions[i]
        delay = hint_ms / 1000 if hint_ms is not None else 0.05 + 0.2 * self.rng.random()
        backoff = 0.25  # after a failed attempt (the server not up yet): doubling, to 2 s
        while not self.stop.is_set() and time.perf_counter() - t0 < 60:
            await asyncio.sleep(delay)
            delay = backoff * (0.5 + self.rng.random())
            backoff = min(2.0, backoff * 2)
            attempt = time.perf_counter()
            c = Conn(self.url, self.rec, i)
            try:
                await c.open(timeout=10, count_failure=False)  # the server is restarting
            except Exception as exc:
                # refused while the server answers the clients ahead of us: come back when
                # it says (jittered), not on our own backoff
                told = retry_delay(exc, self.rng)
                if told is not None:
                    self.rec.refused += 1
                    delay = told
                continue
            c.on_message = self.on_message
            c.token = token
            c.on_lost = self._lost
            fut: asyncio.Future[float] = loop.create_future()
            self.resuming[i] = (t0, attempt, last_seen, fut)
            self.conns[i] = c
            self.busy[i] = False
            self.asked[i] = -1
            try:
                # a server taking a storm of reconnects queues the hellos: wait, do not add
                # another reconnect to the pile
                await c.request(
                    {"type": "hello", "v": 1, "token": token, **self._sparse}, timeout=30
                )
                await asyncio.wait_for(fut, 30)
                return
            except Exception:
                self.resuming.pop(i, None)
                await c.close()
                continue
        self.rec.reconnect_failures += 1

    def on_message(self, conn: Conn, msg: JSON, now: float) -> None:
        t = msg.get("type")
        if t == "snapshot" and conn.index in self.resuming and msg.get("room") == self.room:
            t0, attempt, last_seen, fut = self.resuming.pop(conn.index)
            self.rec.resumed(time.time(), now - attempt, now - t0)
            if int(msg.get("seq", 0)) < last_seen:
                self.rec.resumed_behind += 1
            # the snapshot stands in for the broadcasts this seat missed while away
            for f in list(self.inflight):
                f.seen.add(conn.index)
                if len(f.seen) == 4:
                    self.inflight.remove(f)
            if not fut.done():
                fut.set_result(now)
        if t == "snapshot":
            lobby = msg.get("lobby") or {}
            if conn.index == 0 and lobby.get("code"):
                self._lobby_code = str(lobby["code"])
            self.versions[conn.index] = max(self.versions[conn.index], int(msg.get("seq", 0)))
            self._maybe_act(conn, msg)
        elif t == "events":
            v = int(msg.get("seq", 0))
            prev = msg.get("prev")
            self.track(conn, v, now, int(prev) if prev is not None else None)
            if conn.index == 0:
                for e in msg.get("events") or []:
                    if e.get("type") == "hand_ended":
                        self.rec.hands += 1
                notice = msg.get("notice") or {}
                if notice.get("type") == "game_over":
                    self.rec.games += 1
                    self._spawn(self._rematch())
            self._maybe_act(conn, msg)

    def _maybe_act(self, conn: Conn, msg: JSON) -> None:
        i = conn.index
        legal = msg.get("legal")
        if legal is None:
            return
        self.latest[i] = (self.versions[i], list(legal))
        self._act_if_asked(conn)

    def _act_if_asked(self, conn: Conn) -> None:
        i = conn.index
        v, legal = self.latest[i]
        if not legal or self.busy[i] or self.asked[i] >= v or self.stop.is_set():
            return
        action = pick_action(legal, self.rng)
        if action is None:
            return
        self.asked[i] = v
        self.busy[i] = True
        self._spawn(self._act(conn, action, v))

    async def _act(self, conn: Conn, action: JSON, version: int) -> None:
        """Answer on ``conn`` after the seat's thinking time. An answer whose connection was
        lost meanwhile is dropped, and leaves the seat's state alone: the seat resumed on a
        new connection, which answers its own snapshot's question (an answer still thinking
        on the old connection used to clear the new one's ``busy`` and let it answer the same
        question twice: ``not-waiting-for-seat`` in reconnect storms)."""
        try:
            d = self.pacing.delay(self.rng)
            if d:
                await asyncio.sleep(d)
            if self.stop.is_set() or self.conns[conn.index] is not conn:
                return
            f = _Inflight(time.perf_counter(), version, conn.index)
            self.inflight.append(f)
            self.rec.action_sent()
            self.client_seq[conn.index] += 1
            # sent back as the server gave it (with the seq of the decision it answers, as
            # the protocol asks; the server fills in the seat): an answer in a claim window
            # stays valid while that window is open, and an action on a question that has
            # closed (a resume snapshot's, during a reconnect storm) is refused as stale
            body = {k: v for k, v in action.items() if k != "seat"}
            msg = {
                "type": "action",
                "room": self.room,
                "seq": self.client_seq[conn.index],
                "action": body,
            }
            try:
                ack = await conn.request(msg)
                # broadcasts older than our commit may still be on their way and carry the
                # question we just answered: only a newer one may ask again
                self.asked[conn.index] = max(self.asked[conn.index], int(ack.get("seq", 0)) - 1)
                if ack.get("held"):
                    # an answer to a claim window, held: no commit of its own, so no
                    # broadcast to wait for (the window's close comes when it is due); its
                    # latency is the ack's. The question it answered is the room's seq
                    self.asked[conn.index] = max(self.asked[conn.index], int(ack["seq"]))
                    self.rec.held += 1
                    with contextlib.suppress(ValueError):
                        self.inflight.remove(f)
                    self.rec.delivered(time.perf_counter() - f.sent, None, False)
            except RequestError as e:
                if self.reconnect and e.code == "shutting_down":
                    self.rec.lost_in_flight += 1  # refused by a server going down: resumed
                elif e.stale:
                    self.rec.stale += 1  # the table moved on first: refused, nothing changed
                else:
                    self.rec.error(e.label)
                with contextlib.suppress(ValueError):
                    self.inflight.remove(f)
            except (ConnectionError, TimeoutError, OSError):
                if self.reconnect:
                    self.rec.lost_in_flight += 1  # the connection dropped: resumed later
                else:
                    self.rec.error("action-failed")
                with contextlib.suppress(ValueError):
                    self.inflight.remove(f)
        finally:
            if self.conns[conn.index] is conn:  # else: the seat's state is the new one's
                self.busy[conn.index] = False
        if self.conns[conn.index] is conn:
            self._act_if_asked(conn)  # a newer question that arrived while we were answering

    async def close(self) -> None:
        """Leave the room (every seat), so the server closes it instead of letting bots
        play the abandoned seats on, then close the connections."""
        self.stop.set()
        for t in list(self.tasks):
            t.cancel()
        if self.room:

            async def leave(c: Conn) -> None:
                with contextlib.suppress(Exception):
                    await c.request({"type": "leave_room", "room": self.room}, timeout=5)

            await asyncio.gather(*(leave(c) for c in self.conns if not c.closed.is_set()))
        await super().close()

    async def _rematch(self) -> None:
        if self.stop.is_set():
            return
        try:
            await self.conns[0].request({"type": "rematch", "room": self.room})
            for c in self.conns:
                await c.request({"type": "ready", "room": self.room, "ready": True})
            await self.conns[0].request({"type": "start_game", "room": self.room})
        except (RequestError, ConnectionError, TimeoutError) as e:
            self.rec.error(getattr(e, "code", "rematch-failed"))


class BaselineRoom(_Room):
    """Four clients of the bare broadcast server: the seats act in turn, each action is
    broadcast to all four (the same fan-out as a game action), ``payload`` bytes each.

    ``fanout`` below 4 (the game's events frames per action with sparse delivery): each
    action goes to all four with probability (fanout - 1) / 3, else to the actor only (the
    game's pattern: a discard or a window's last answer reaches every seat, a mid-window
    answer only the one who gave it); latency is then measured to the seats it is sent to,
    and the next seat acts once they all have it."""

    def __init__(
        self,
        urls: list[str],
        index: int,
        rec: Recorder,
        pacing: Pacing,
        payload: int,
        fanout: float = 4.0,
    ) -> None:
        super().__init__(urls, index, rec, pacing)
        self.payload = payload
        self.turn = 0
        self.room = f"b{index}"
        self.p_all = min(1.0, max(0.0, (fanout - 1) / 3))
        self.sparse = fanout < 4
        self.expect: set[int] = set()  # the seats the action in flight is sent to

    async def setup(self) -> None:
        t0 = time.perf_counter()
        await self.open_all()
        for c in self.conns:
            await c.request({"type": "join", "room": self.room})
        self.rec.rooms += 1
        self.rec.setup.append(time.perf_counter() - t0)
        self._spawn(self._act(0))

    def on_message(self, conn: Conn, msg: JSON, now: float) -> None:
        if msg.get("type") != "events":
            return
        v = int(msg.get("seq", 0))
        if not self.sparse:
            before = len(self.inflight)
            self.track(conn, v, now)
            done = bool(before and not self.inflight)
        else:
            i = conn.index
            self.versions[i] = max(self.versions[i], v)
            f = self.inflight[0] if self.inflight else None
            if f is None or v != f.version + 1 or i in f.seen or i not in self.expect:
                return
            f.seen.add(i)
            done = f.seen >= self.expect
            own = now - f.sent if i == f.actor else None
            self.rec.delivered(own, now - f.sent if done else None)
            if done:
                self.inflight.remove(f)
        if done and not self.stop.is_set():
            self.turn = (self.turn + 1) % 4
            self._spawn(self._act(self.turn))

    async def _act(self, seat: int) -> None:
        d = self.pacing.delay(self.rng)
        if d:
            await asyncio.sleep(d)
        if self.stop.is_set():
            return
        conn = self.conns[seat]
        # the room's version (a seat an actor-only frame skipped is behind it)
        version = max(self.versions)
        f = _Inflight(time.perf_counter(), version, seat)
        self.inflight.append(f)
        self.rec.action_sent()
        msg: JSON = {
            "type": "action",
            "room": self.room,
            "seq": version + 1,
            "action": {"type": "discard", "tile": "5p"},
            "size": self.payload,
        }
        if self.sparse:
            to_all = self.rng.random() < self.p_all
            msg["to"] = 4 if to_all else 1
            self.expect = {0, 1, 2, 3} if to_all else {seat}
        try:
            await conn.send(msg)
        except Exception:
            self.rec.error("action-failed")
