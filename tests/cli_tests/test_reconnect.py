"""A dropped connection mid-hand: the client resumes with its token and plays on, with no
user action. The network is cut by a TCP relay between the client and a real server."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from cli_tests.helpers import (
    SIZE,
    create_room_from_the_form,
    play_with_keys,
    press_for_decision,
    screen_text,
    wait_for,
)
from clients.cli.app import MahjongApp
from clients.cli.replay import load
from clients.cli.table_screen import TableScreen

pytestmark = pytest.mark.timeout(90)


class Relay:
    """Forwards TCP connections to ``port``; :meth:`cut` aborts every open one."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.port = 0
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()
        self.accepted = 0
        self.attempts: list[float] = []  # loop time of every connection the client made
        self.down = False

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._conn, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _pipe(self, r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        with contextlib.suppress(Exception):
            while data := await r.read(65536):
                w.write(data)
                await w.drain()
        w.close()

    async def _conn(self, r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        self.attempts.append(asyncio.get_running_loop().time())
        if self.down:  # the network is still down: refuse
            w.transport.abort()
            return
        self.accepted += 1
        ur, uw = await asyncio.open_connection("127.0.0.1", self.target)
        self.writers |= {w, uw}
        await asyncio.gather(self._pipe(r, uw), self._pipe(ur, w))
        self.writers -= {w, uw}

    def cut(self) -> None:
        for w in list(self.writers):
            w.transport.abort()

    async def stop(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()


async def test_connection_cut_mid_hand_resumes_without_user_action(
    mahjong_server, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    relay = Relay(mahjong_server.port)
    await relay.start()
    app = MahjongApp(f"ws://127.0.0.1:{relay.port}", "Bob", autoconnect=True, plain=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            # three hands: a seat is asked only when it has a choice, so a hand may end
            # (a bot wins) before our next decision; the next hand then brings one
            await create_room_from_the_form(pilot, app, hands=3)
            await pilot.press("s", "a", "r")
            await wait_for(
                pilot,
                lambda: (
                    all(app.model.room.seats())
                    and app.model.room.seats()[app.model.room.seat or 0]["ready"]
                ),
                what="a full, ready table",
            )
            await pilot.press("g")
            room = app.model.room
            # play a few turns with the keys, then wait until the table waits for us
            await play_with_keys(
                pilot, app, lambda: len((room.my_view() or {}).get("discards") or []) >= 2
            )
            await wait_for(pilot, lambda: bool(room.legal), what="a decision of ours")
            hand_before = room.my_tiles()
            legal_before = room.legal
            assert app.session is not None
            token = app.session.token
            assert app.session.connects == 1
            relay.cut()  # the network drops: no close frame, and no key is pressed
            await wait_for(pilot, lambda: app.session.connects == 2, what="the reconnect")
            assert app.model.resumed and app.session.token == token
            assert relay.accepted == 2
            room = app.model.room
            seq_at_resume = room.seq
            assert room.status == "playing"
            # the snapshot gives back the same hand and the same decision
            assert room.my_tiles() == hand_before
            assert room.legal == legal_before
            me = room.seats()[room.seat]
            assert me["player"] == app.model.player_id and not me["auto"]
            # cut again, and decide while the connection is down: the action is sent again
            # with the same client seq after the resume, and applied once
            await play_with_keys(
                pilot, app, lambda: room.legal_seq > room.seq - 1 and room.seq > seq_at_resume + 3
            )
            await wait_for(pilot, room.can_act, what="another decision")
            decided_at = room.legal_seq
            relay.down = True
            relay.cut()
            await wait_for(pilot, lambda: not app.model.connected, what="the drop")
            await press_for_decision(pilot, room)
            assert room.action_pending, "the action waits for the connection"
            await pilot.pause(0.3)
            assert room.action_pending and app.session.connects == 2
            relay.down = False
            await wait_for(pilot, lambda: app.session.connects == 3, what="the second reconnect")
            await wait_for(pilot, lambda: not room.action_pending, what="the answer")
            assert room.ack_seq > decided_at, "the action made while offline was applied"
            assert "illegal" not in app.status
            # and the game goes on to its end from the keyboard
            await play_with_keys(pilot, app, lambda: app.model.room.status == "finished")
            room = app.model.room
            assert room.summary is not None and sum(room.summary["scores"]) == 0
            table = app.screen
            assert isinstance(table, TableScreen)
            await pilot.pause(0.2)
            assert "Game summary" in screen_text(table.query_one("#result"))
            # L saves the game log from the server; the replay viewer rebuilds the same game
            await pilot.press("L")
            await wait_for(pilot, lambda: "saved" in app.status, what="the saved log")
            saved = tmp_path / f"mahjong-{room.code}-1.json"
            replay = load(saved)
            assert list(replay.states[-1].scores) == room.summary["scores"]
            # rematch: back to the lobby of the same room, bots still seated
            await pilot.press("m")
            await wait_for(pilot, lambda: app.model.room.status == "lobby", what="the rematch")
            room = app.model.room
            assert room.game is None and room.summary is None
            assert sum(1 for s in room.seats() if s and s["bot"]) == 3
    finally:
        await relay.stop()


async def test_after_a_graceful_stop_the_client_reconnects_when_the_server_said(
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    """A stopping server's ``closing.retry_after_ms`` (here 1.5 s: --reconnect-after-seconds,
    no spread) is when the terminal client's session connects again — not its own backoff,
    whose first retry is 0.1 s — and it then resumes on the next process."""
    import signal

    from server_tests.conftest import RedisProc, ServerProc

    from clients.cli.model import ClientModel
    from clients.cli.session import Session

    redis = RedisProc(tmp_path)
    srv = ServerProc("--redis-url", redis.url, "--reconnect-after-seconds", "1.5",
                     "--reconnect-rate", "0")  # fmt: skip
    srv2: ServerProc | None = None
    relay = Relay(srv.port)
    await relay.start()
    loop = asyncio.get_running_loop()
    lost: list[float] = []

    def status(text: str) -> None:
        if "reconnecting" in text:
            lost.append(loop.time())

    session = Session(
        f"ws://127.0.0.1:{relay.port}", "g", ClientModel(), lambda _lines: None, on_status=status
    )
    task = asyncio.create_task(session.run())
    try:
        await asyncio.wait_for(session.ready.wait(), 10)
        token = session.token
        srv.proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(10):  # the session sees the graceful stop
            while not lost:
                await asyncio.sleep(0.02)
        srv2 = ServerProc("--redis-url", redis.url)
        relay.target = srv2.port
        await asyncio.wait_for(session.ready.wait(), 15)
        assert session.token == token  # resumed, not a new player
        retries = [t for t in relay.attempts if t > lost[0]]
        assert retries and retries[0] - lost[0] >= 1.4, (lost, relay.attempts)
    finally:
        session.stopped = True
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        await relay.stop()
        for s in (srv, srv2):
            if s is not None:
                s.stop()
        redis.stop()
