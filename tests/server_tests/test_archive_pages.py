"""The archive's read API over HTTP (issue 41): a game's page and log are readable by its
players, and by anyone with the link when its room was public; never while the game is
played; a refused read answers 403 and is logged; "my games" lists a player's games."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import io
import json
import logging
import random

import pytest

from clients.cli.main import main as cli_main
from clients.cli.replay import ReplayError, load
from server.archive.pages import ranks
from server.archive.queue import DUE
from server.storage.store import Store

from .conftest import running_server
from .helpers import FAST_ONE_HAND, Player, read_log, setup_table
from .wsclient import Client

pytestmark = pytest.mark.timeout(240)


async def raw_get(port: int, path: str, token: str | None, extra: str = "") -> tuple[bytes, bytes]:
    """The head and body of a GET, as they came."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n{auth}{extra}\r\n".encode())
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return head, body


async def get(port: int, path: str, token: str | None = None) -> tuple[int, dict]:
    head, body = await raw_get(port, path, token)
    return int(head.split()[1]), json.loads(body)


async def played(port: int, public: bool) -> tuple[list[Client], str, str]:
    """Two players and two bots play a game of two hands; (clients, room, game id)."""
    options = {**FAST_ONE_HAND, "hands": 2, "public": public}
    clients, room = await setup_table(port, 2, "mcr", options, label="pub" if public else "prv")
    assert (await clients[0].request({"type": "start_game", "room": room}))["type"] == "ack"
    players = [Player(c, random.Random(i)) for i, c in enumerate(clients)]
    await asyncio.wait_for(asyncio.gather(*(p.run(timeout=60) for p in players)), 60)
    return clients, room, players[0].game_over["summary"]["game_id"]


async def page_of(port: int, game_id: str, token: str | None, tries: int = 300) -> dict:
    for _ in range(tries):
        status, body = await get(port, f"/api/games/{game_id}", token)
        if status == 200:
            return body
        assert status == 404, body  # not archived yet
        await asyncio.sleep(0.05)
    raise AssertionError("never archived")


async def test_who_may_read_a_game(redis_url, tmp_path, caplog):
    url = "sqlite:///" + str(tmp_path / "archive.sqlite3")
    async with running_server(redis_url, archive_url=url) as srv:
        port = srv.port
        (alice, bob), room, gid = await played(port, public=False)
        stranger = await Client.connect(port, "stranger")
        await stranger.hello("stranger")
        body = await page_of(port, gid, alice.token)
        log = await read_log(redis_url, room)
        over = next(e for e in log.values() if (e.get("notice") or {}).get("type") == "game_over")
        summary = over["notice"]["summary"]
        assert body["scores"] == summary["scores"] and body["ranks"] == ranks(summary["scores"])
        assert body["hands_played"] == 2 and [h["hand"] for h in body["hands"]] == [0, 1]
        assert [s["you"] for s in body["seats"]] == [True, False, False, False]
        assert body["ledger"] == summary["ledger"]
        status, with_log = await get(port, f"/api/games/{gid}/log", bob.token)
        assert status == 200 and with_log["log"][0]["kind"] == "start"
        assert with_log["log"][-1]["notice"]["type"] == "game_over"
        # the browser reads the page and game_log without the raw log (/replay); a client that
        # accepts gzip gets it compressed
        status, replay = await get(port, f"/api/games/{gid}/replay", bob.token)
        assert status == 200 and "log" not in replay
        assert replay == {k: v for k, v in with_log.items() if k != "log"}
        head, body = await raw_get(
            port, f"/api/games/{gid}/log", bob.token, "Accept-Encoding: br, gzip\r\n"
        )
        assert (
            b"\r\ncontent-encoding: gzip" in head.lower()
            and len(body) < len(json.dumps(with_log)) / 3
        )
        assert json.loads(gzip.decompress(body)) == with_log
        assert (await get(port, f"/api/games/{gid}/other", bob.token))[0] == 404
        # the browser's replay steps through the events of the archived log: the same as the
        # live game's get_log, every hand open (each seat's dealt tiles)
        live = await alice.request({"type": "get_log", "room": room})
        steps = with_log["game_log"]["events"]
        assert steps == live["log"]["events"] and steps[-1][-1]["type"] == "game_over"
        assert all(e["tiles"] for s in steps for e in s if e["type"] == "dealt")
        # the terminal client replays it from the archive (mahjong-cli replay <url>)
        url = f"http://127.0.0.1:{port}/api/games/{gid}/log"
        rp = await asyncio.to_thread(load, url, bob.token)
        assert rp.log == with_log["game_log"] and rp.log["game_id"] == gid
        assert len(rp.states) == len(rp.log["actions"]) + 1
        assert list(rp.states[-1].scores) == summary["scores"]
        with pytest.raises(ReplayError, match="HTTP 403"):
            await asyncio.to_thread(load, url, stranger.token)
        # not a player of a private game: refused, and the refusal is logged
        with caplog.at_level(logging.WARNING, logger="mahjong.archive"):
            assert (await get(port, f"/api/games/{gid}", stranger.token))[0] == 403
            assert (await get(port, f"/api/games/{gid}/log"))[0] == 403
        refused = [r for r in caplog.records if r.getMessage() == "refused archive read"]
        assert len(refused) == 3 and all(r.__dict__["game"] == gid for r in refused)  # (+ the CLI)
        # a public room's game: anyone with the link
        _, _, public_gid = await played(port, public=True)
        assert (await page_of(port, public_gid, None))["public"] is True
        # my games: newest first, each with the reader's seat and place
        status, mine = await get(port, "/api/my/games", alice.token)
        assert status == 200 and [g["game_id"] for g in mine["games"]] == [gid]
        assert mine["games"][0]["you"] == 0 and mine["games"][0]["players"][0] == "prv0"
        assert (await get(port, "/api/my/games"))[0] == 401
        # a room's games (the terminal client's list): by its code or its id, its players only
        code = next(m for m in alice.inbox if m.get("lobby"))["lobby"]["code"]
        status, listed = await get(port, f"/api/rooms/{code.lower()}/games", bob.token)
        assert status == 200 and listed["room"] == room
        assert [(g["game_id"], g["you"]) for g in listed["games"]] == [(gid, 1)]
        assert (await get(port, f"/api/rooms/{room}/games", alice.token))[1] == {
            **listed,
            "games": [{**listed["games"][0], "you": 0, "rank": mine["games"][0]["rank"]}],
        }
        assert (await get(port, f"/api/rooms/{room}/games", stranger.token))[0] == 403
        assert (await get(port, "/api/rooms/NOPE99/games"))[0] == 404
        # mahjong-cli games <code>: each game with the command that replays it
        out = await asyncio.to_thread(cli_games, port, code, bob.token)
        assert out[0] == f"Games of room {code}, newest first:"
        assert out[2].endswith(f"replay http://127.0.0.1:{port}/api/games/{gid}/log")
        assert "prv1 " in out[1] and "2 hands" in out[1]
        assert (await get(port, "/api/games/nope"))[0] == 404


def cli_games(port: int, room: str, token: str) -> list[str]:
    """What ``mahjong-cli games ROOM --url ws://… --token …`` prints, line by line."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = cli_main(["games", room, "--url", f"ws://127.0.0.1:{port}", "--token", token])
    assert rc == 0
    return out.getvalue().splitlines()


async def test_a_game_being_played_is_never_readable(redis_url, tmp_path):
    url = "sqlite:///" + str(tmp_path / "archive.sqlite3")
    options = {**FAST_ONE_HAND, "hands": 2, "public": True}
    async with running_server(redis_url, archive_url=url) as srv:
        clients, room = await setup_table(srv.port, 1, "mcr", options, label="live")
        assert (await clients[0].request({"type": "start_game", "room": room}))["type"] == "ack"
        player = Player(clients[0], random.Random(1))
        # play until the first hand has ended (archived as a hand), then ask for the game
        await player.run(until=lambda p: p.hand_results >= 1, timeout=60)
        lobby = next(m for m in clients[0].inbox if m.get("lobby", {}).get("game_id"))["lobby"]
        await asyncio.sleep(0.5)
        status, body = await get(srv.port, f"/api/games/{lobby['game_id']}", clients[0].token)
        assert (status, body) == (404, {"error": "game_not_found"})


async def test_a_server_without_an_archive(redis_url, tmp_path):
    """``--archive-url off``: games are played as ever, nothing is queued for an archive or
    written to a file, and the read API answers 503 ``archive_unavailable``."""
    async with running_server(redis_url, archive_url="off", data_dir=str(tmp_path)) as srv:
        (alice, _bob), room, gid = await played(srv.port, public=True)
        await asyncio.sleep(0.3)  # what a queueing task would have done by now
        assert await get(srv.port, f"/api/games/{gid}", alice.token) == (
            503, {"error": "archive_unavailable"},
        )  # fmt: skip
        assert (await get(srv.port, "/api/my/games", alice.token))[0] == 503
        store = Store.from_url(redis_url)
        try:
            assert await store.r.zscore(DUE, room) is None
        finally:
            await store.close()
    assert not list(tmp_path.glob("archive.sqlite3*"))
