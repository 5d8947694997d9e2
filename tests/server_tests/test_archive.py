"""The game archive (issue 41) against a real SQLite file and a real PostgreSQL server: a
played game of each rule set is archived and reads back equal to its log, with every hand;
a replay of the archived actions yields the live game's events; migrations run from an
empty database and from the previous revision; writes are idempotent."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlparse

import asyncpg
import psutil
import pytest
import redis.asyncio

from server.archive import Archive, archiver, open_archive, sql
from server.archive import queue as archive_queue
from server.archive.records import KEPT, GameRecord
from server.archive.scan import Entry
from server.room import game
from server.room.state import JsonObject as JSON
from server.storage.store import Store

from .conftest import running_server
from .helpers import http_get, metric, read_log, until
from .wsclient import Client

pytestmark = pytest.mark.timeout(240)

#: the PostgreSQL server of the tests (the machine's, trust authentication); each test makes
#: a database of its own there and drops it after
PG_ADMIN = os.environ.get("MAHJONG_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
RULESETS = ["mcr", "zung-jung", "zung-jung-v3.3", "tw16-tai", "hk-tw16"]


@contextlib.asynccontextmanager
async def pg_database(create: bool = True) -> AsyncIterator[str]:
    """A fresh PostgreSQL database (its URL), dropped afterwards; ``create=False``: only
    its name is chosen (the test creates it later: a database that is down)."""
    name = "mj_archive_" + secrets.token_hex(6)
    admin = await asyncpg.connect(PG_ADMIN)
    try:
        if create:
            await admin.execute(f'CREATE DATABASE "{name}"')
        yield urlparse(PG_ADMIN)._replace(path="/" + name).geturl()
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def create_pg(url: str) -> None:
    admin = await asyncpg.connect(PG_ADMIN)
    try:
        await admin.execute(f'CREATE DATABASE "{urlparse(url).path.lstrip("/")}"')
    finally:
        await admin.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def archive_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield "sqlite:///" + str(tmp_path / "archive.sqlite3")
        return
    async with pg_database() as url:
        yield url


async def bot_game(
    port: int, ruleset: str, hands: int = 2, public: bool = False, leave: bool = False
) -> str:
    """A watching host starts a game of four bots and waits for its end; returns the room."""
    host = await Client.connect(port, f"w-{ruleset}")
    await host.hello(f"w-{ruleset}")
    options = {
        "length": "hands",
        "hands": hands,
        "hand_pause_ms": 0,
        "bot_delay_ms": 0,
        "public": public,
    }
    ack = await host.request({"type": "create_room", "ruleset": ruleset, "options": options})
    assert ack["type"] == "ack", ack
    room = str(ack["room"])
    for seat in range(4):
        assert (await host.request({"type": "add_bot", "room": room, "seat": seat}))[
            "type"
        ] == "ack"
    assert (await host.request({"type": "start_game", "room": room}))["type"] == "ack"
    await host.wait_for(lambda m: (m.get("notice") or {}).get("type") == "game_over", 120)
    if leave:  # the last member leaves a finished game: the room closes
        assert (await host.request({"type": "leave_room", "room": room}))["type"] == "left"
    await host.close()
    return room


async def archived(archive: Archive, game_id: str, timeout: float = 30.0) -> GameRecord:
    end = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < end:
        record = await archive.game(game_id)
        if record is not None:
            return record
        await asyncio.sleep(0.1)
    raise AssertionError(f"game {game_id} was not archived within {timeout} s")


def game_of_log(log: dict[int, JSON]) -> list[JSON]:
    """The last game's entries of a room's log, from its start to its game_over."""
    versions = sorted(log)
    start = max(v for v in versions if log[v].get("kind") == "start")
    out = []
    for v in versions:
        if v < start:
            continue
        out.append(log[v])
        if (log[v].get("notice") or {}).get("type") == "game_over":
            break
    return out


async def test_a_game_of_each_rule_set_reads_back_equal_to_its_log(redis_url, archive_url):
    async with running_server(redis_url, archive_url=archive_url) as srv:
        rooms = await asyncio.gather(
            *(bot_game(srv.port, r, public=(r == "mcr")) for r in RULESETS)
        )
        archive = await open_archive(archive_url)
        try:
            for ruleset, room in zip(RULESETS, rooms, strict=True):
                entries = game_of_log(await read_log(redis_url, room))
                lobby = entries[0]["lobby"]
                record = await archived(archive, lobby["game_id"])
                check_record(record, ruleset, room, entries)
                assert record.public == (ruleset == "mcr")
                check_hands(await archive.hands(record.game_id), entries)
                check_replay(record, entries)
        finally:
            await archive.close()


def check_record(record: GameRecord, ruleset: str, room: str, entries: list[JSON]) -> None:
    lobby, summary = entries[0]["lobby"], entries[-1]["notice"]["summary"]
    assert (record.ruleset, record.room, record.game_no) == (ruleset, room, lobby["game_no"])
    assert record.public == lobby["options"]["public"] and record.options == lobby["options"]
    assert [s.name for s in record.seats] == [s["name"] for s in lobby["seats"]]
    assert all(s.bot and s.player is None for s in record.seats)
    assert record.scores == summary["scores"] and record.summary == summary
    assert record.hands_played == summary["hands_played"] == 2
    assert record.log == [{k: e[k] for k in KEPT if k in e} for e in entries]
    assert record.actions == [a for e in entries for a in e.get("actions") or []]
    assert record.started_ms == entries[0]["t"] and record.finished_ms == entries[-1]["t"]


def check_hands(hands: list, entries: list[JSON]) -> None:
    events = [ev for e in entries for ev in e.get("events") or []]
    ended = [ev for ev in events if ev["type"] == "hand_ended"]
    won = {ev["hand"]: ev for ev in events if ev["type"] == "hand_won"}
    assert [h.hand for h in hands] == [ev["hand"] for ev in ended] == [0, 1]
    for h, ev in zip(hands, ended, strict=True):
        assert (h.result, h.scores) == (ev["result"], ev["scores"])
        if h.result == "win":  # each winner's breakdown and payments, as the live win said
            assert h.winners == won[h.hand]["winners"] and h.how == won[h.hand]["how"]
            assert all(w["payments"] and w["score"] for w in h.winners)
        else:
            assert h.winners == [] and h.how is None


def check_replay(record: GameRecord, entries: list[JSON]) -> None:
    """The archived actions, replayed by the engine, yield the live game's events."""
    lobby = record.log[0]["lobby"]
    options = {
        "length": lobby["options"]["length"],
        "hands": lobby["options"]["hands"],
        "stakes": lobby["options"]["stakes"],
        "house_rules": lobby["options"].get("house_rules"),
        "settlement": lobby["options"].get("settlement"),
        "names": [s["name"] for s in lobby["seats"]],
    }
    state = game.new_game(record.ruleset, options)
    replayed: list[JSON] = []
    for action in record.actions:
        state, events = game.apply(state, action)
        replayed.extend(events)
    assert replayed == [ev for e in entries for ev in e.get("events") or []]
    assert game.finished(state) and state["scores"] == record.scores


@pytest.mark.parametrize("start", range(1, sql.HEAD))
async def test_migrations_from_empty_and_from_the_previous_revision(archive_url, start):
    """From an empty database to each older revision, then to the newest (every revision
    since the first is a "previous" one for some database in the field)."""
    first = await open_archive(archive_url, migrate_to=start)
    try:
        assert await first.revision() == start
        await put_as_of_revision_1(first, sample_game("g-old"))
    finally:
        await first.close()
    # several processes starting at once all migrate the same database, once
    opened = await asyncio.gather(*(open_archive(archive_url) for _ in range(3)))
    try:
        for a in opened:
            assert await a.revision() == sql.HEAD == 5
        assert (await opened[0].game("g-old")) == sample_game("g-old")
        assert [g.game_id for g in await opened[1].games_of("p1")] == ["g-old"]
        assert [g.game_id for g in await opened[2].games_of_room("r_1")] == ["g-old"]
    finally:
        for a in opened:
            await a.close()


async def put_as_of_revision_1(archive: Archive, g: GameRecord) -> None:
    """Write ``g`` as a server of the first revision did (the columns it had)."""
    seats = [{"seat": s.seat, "player": s.player, "name": s.name, "bot": s.bot} for s in g.seats]
    values = (
        g.game_id, g.room, g.game_no, g.ruleset, int(g.public), g.started_ms, g.finished_ms,
        g.hands_played, *(json.dumps(v) for v in (g.options, seats, g.scores, g.summary, g.log)),
    )  # fmt: skip
    async with archive.db.transaction():
        await archive.db.execute(
            "INSERT INTO games (game_id, room, game_no, ruleset, public, started_ms, "
            "finished_ms, hands_played, options, seats, scores, summary, log) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            values,
        )
        for s in g.seats:
            if s.player is not None:
                await archive.db.execute(
                    "INSERT INTO game_players (game_id, seat, player, finished_ms) "
                    "VALUES (?, ?, ?, ?)",
                    (g.game_id, s.seat, s.player, g.finished_ms),
                )


async def test_writes_are_idempotent(archive_url):
    archive = await open_archive(archive_url)
    try:
        g = sample_game("g-1")
        await asyncio.gather(archive.put_game(g), archive.put_game(g))
        await archive.put_game(sample_game("g-1", scores=[0, 0, 0, 0]))  # not overwritten
        assert await archive.count_games() == 1 and await archive.game("g-1") == g
        assert len(await archive.games_of("p1")) == 1
    finally:
        await archive.close()


def sample_game(game_id: str, scores: list[int] | None = None) -> GameRecord:
    from server.archive.records import Seat

    return GameRecord(
        game_id=game_id,
        room="r_1",
        game_no=1,
        ruleset="mcr",
        options={"public": False, "length": "hands", "hands": 1},
        public=False,
        seats=[Seat(0, "p1", "Ann", False), *(Seat(i, None, f"Bot {i}", True) for i in (1, 2, 3))],
        started_ms=1,
        finished_ms=2,
        hands_played=1,
        scores=scores or [8, -8, 0, 0],
        summary={"ruleset": "mcr", "hands_played": 1, "scores": scores or [8, -8, 0, 0]},
        log=[{"t": 1, "kind": "start", "actions": [{"type": "start_hand", "seed": "00"}]}],
    )


async def lag(port: int) -> tuple[float, float]:
    _, _, body = await http_get(port, "/metrics")
    return (
        metric(body, "mahjong_archive_waiting_rooms"),
        metric(body, "mahjong_archive_oldest_wait_seconds"),
    )


async def state_ttl(redis_url: str, room: str) -> int:
    r = redis.asyncio.Redis.from_url(redis_url)
    try:
        return int(await r.pttl(f"{{room:{room}}}:state"))
    finally:
        await r.aclose()


async def test_a_database_that_is_down_delays_no_game_and_is_caught_up_with(redis_url):
    async with (
        pg_database(create=False) as url,
        running_server(redis_url, archive_url=url, closed_room_ttl=3600) as srv,
    ):
        # the database does not exist yet: the game is played all the same
        room = await bot_game(srv.port, "zung-jung", leave=True)
        entries = game_of_log(await read_log(redis_url, room))

        async def waiting() -> bool:
            n, age = await lag(srv.port)
            return n == 1 and age > 0

        await until(waiting, "the lag metric shows the room waiting", tries=3000)
        # closed, but its keys do not expire while it waits for the archive
        assert await state_ttl(redis_url, room) == -1
        await create_pg(url)  # the database is back
        archive = await open_archive(url)
        try:
            record = await archived(archive, entries[0]["lobby"]["game_id"], 90)
            check_record(record, "zung-jung", room, entries)
            assert len(await archive.hands(record.game_id)) == 2
        finally:
            await archive.close()

        async def done() -> bool:
            return (await lag(srv.port))[0] == 0 and await state_ttl(redis_url, room) > 0

        await until(done, "the room is off the queue and expires as a closed room does", 3000)
        # and the archive keeps nothing of it in Redis (where its log was read to)
        store = Store.from_url(redis_url)
        try:
            assert await store.r.hget(archive_queue.POS, room) is None
            assert await store.r.hget(archive_queue.HANDS, room) is None
        finally:
            await store.close()


async def test_games_finished_before_the_archive_are_backfilled_at_start(redis_url, tmp_path):
    before = "sqlite:///" + str(tmp_path / "before.sqlite3")
    after = "sqlite:///" + str(tmp_path / "after.sqlite3")
    async with running_server(redis_url, archive_url=before) as srv:
        room = await bot_game(srv.port, "mcr")
    entries = game_of_log(await read_log(redis_url, room))
    # a server whose archive has never seen the game (as one of before the archive)
    async with running_server(redis_url, archive_url=after):
        archive = await open_archive(after)
        try:
            record = await archived(archive, entries[0]["lobby"]["game_id"])
            check_record(record, "mcr", room, entries)
        finally:
            await archive.close()


def test_the_last_finished_game_of_a_room_of_before_game_ids():
    finished = {"id": "r_9", "status": "finished", "game_no": 2, "history": [{"scores": []}]}
    assert archiver.last_finished_game(finished) == "r_9-2"
    # the next game is being played: the finished one is the one before
    assert archiver.last_finished_game({**finished, "status": "playing", "game_no": 3}) == "r_9-2"
    assert archiver.last_finished_game({**finished, "history": []}) is None
    with_id = {**finished, "history": [{"game_id": "abc"}]}
    assert archiver.last_finished_game(with_id) == "abc"


class SeenSoFar(archiver.Archiver):
    """The archiver as the hands of a game come in: it sees the room's log only up to
    ``upto`` (what had been committed then), and records where each read started."""

    upto = 0
    starts: list[int]

    async def read_from(self, room: str, start: int) -> list[Entry]:
        self.starts.append(start)
        return [e for e in await super().read_from(room, start) if e.version <= self.upto]


async def test_a_game_in_progress_is_read_from_its_last_archived_hand(redis_url, tmp_path):
    """Each pass over a game in progress reads on from its last archived hand, not from
    the game's start (which made a game's later hands cost more and more: BENCHMARKS.md
    archive-cost), and the game, read whole once at its end, is archived as before."""
    async with running_server(redis_url, archive_url="off") as srv:
        room = await bot_game(srv.port, "mcr", hands=3)
    log = await read_log(redis_url, room)
    entries = game_of_log(log)
    start = min(v for v, e in log.items() if e is entries[0])
    ends = [v for v, e in sorted(log.items()) if v >= start and any(
        ev["type"] == "hand_ended" for ev in e.get("events") or [])]  # fmt: skip
    assert len(ends) == 3
    url = "sqlite:///" + str(tmp_path / "archive.sqlite3")
    store = Store.from_url(redis_url)
    arch = SeenSoFar(store, url, 0.0)
    arch.starts = []
    try:
        for i, end in enumerate(ends):
            arch.upto = end  # the commit that ended hand i, and the room queued
            await arch.archive_rooms([room])
            hands = await (await arch.connect()).hands(entries[0]["lobby"]["game_id"])
            assert [h.hand for h in hands] == list(range(i + 1))
        arch.upto = max(log)  # the game is over
        await arch.archive_rooms([room])
        # the first pass read from the room's first entry, the next from after the hand
        # before theirs; the last hand's commit also ended the game: that pass read on
        # from its mark, and the game's record joined the stretches its hands kept (the
        # game is not read whole again); the pass after it finds nothing new
        assert arch.starts == [1, ends[0] + 1, ends[1] + 1, ends[2] + 1]
        archive = await arch.connect()
        record = await archived(archive, entries[0]["lobby"]["game_id"])
        assert record.log == [{k: e[k] for k in KEPT if k in e} for e in entries]
        assert record.hands_played == 3 and len(await archive.hands(record.game_id)) == 3
        assert await store.r.hget(archive_queue.HANDS, room) is None  # nothing left for it
        # the hands' stretches are dropped once the game's record holds them
        db = archive.db
        assert await db.fetch("SELECT log, packed FROM hands") == [(None, None)] * 3
    finally:
        await arch.close()
        await store.close()


async def test_a_hand_kept_without_its_stretch_has_the_game_read_whole(redis_url, tmp_path):
    """A hand written without its stretch of the log (by a process of before revision 4,
    during a rolling upgrade) cannot be joined: the game is read whole once more, and its
    record holds the whole log all the same."""
    async with running_server(redis_url, archive_url="off") as srv:
        room = await bot_game(srv.port, "zung-jung", hands=2)
    log = await read_log(redis_url, room)
    entries = game_of_log(log)
    start = min(v for v, e in log.items() if e is entries[0])
    first_end = min(v for v, e in sorted(log.items()) if v >= start and any(
        ev["type"] == "hand_ended" for ev in e.get("events") or []))  # fmt: skip
    url = "sqlite:///" + str(tmp_path / "archive.sqlite3")
    store = Store.from_url(redis_url)
    arch = SeenSoFar(store, url, 0.0)
    arch.starts = []
    try:
        arch.upto = first_end
        await arch.archive_rooms([room])
        archive = await arch.connect()
        # as a process of before revision 5 wrote it (its stretch as JSON text, not packed)
        await archive.db.execute("UPDATE hands SET packed = NULL, log = '[]'")
        arch.upto = max(log)
        await arch.archive_rooms([room])
        assert arch.starts == [1, first_end + 1, start]  # the join failed: read whole
        record = await archived(archive, entries[0]["lobby"]["game_id"])
        assert record.log == [{k: e[k] for k in KEPT if k in e} for e in entries]
        assert [h.hand for h in await archive.hands(record.game_id)] == [0, 1]
    finally:
        await arch.close()
        await store.close()


async def bots_play_one_hand(port: int, name: str) -> tuple[Client, str]:
    """A host ``name`` opens an MCR room of one hand, four bots play it to its game over:
    (the host's connection, still in the room; the room)."""
    host = await Client.connect(port, name)
    await host.hello(name)
    options = {"length": "hands", "hands": 1, "hand_pause_ms": 0, "bot_delay_ms": 0}
    ack = await host.request({"type": "create_room", "ruleset": "mcr", "options": options})
    room = str(ack["room"])
    for seat in range(4):
        await host.request({"type": "add_bot", "room": room, "seat": seat})
    assert (await host.request({"type": "start_game", "room": room}))["type"] == "ack"
    await host.wait_for(lambda m: (m.get("notice") or {}).get("type") == "game_over", 120)
    return host, room


async def test_a_room_closed_after_its_games_were_archived_leaves_no_mark(redis_url, tmp_path):
    """A room whose games are all archived, closed later (its last member leaves), is not
    queued again; where its log was read to (``pos``) goes with the close, so the queue's
    hashes do not keep an entry for every room that ever played."""
    url = "sqlite:///" + str(tmp_path / "archive.sqlite3")
    async with running_server(redis_url, archive_url=url, closed_room_ttl=3600) as srv:
        host, room = await bots_play_one_hand(srv.port, "w-closer")
        store = Store.from_url(redis_url)
        try:

            async def archived_and_off_the_queue() -> bool:
                return (await lag(srv.port))[0] == 0 and await store.r.hget(
                    archive_queue.POS, room
                ) is not None

            await until(archived_and_off_the_queue, "the game archived, the room done", 3000)
            assert (await host.request({"type": "leave_room", "room": room}))["type"] == "left"

            async def forgotten() -> bool:
                return await store.r.hget(archive_queue.POS, room) is None

            await until(forgotten, "the closed room's pos dropped", 3000)
            assert await store.r.hget(archive_queue.HANDS, room) is None
            assert (await lag(srv.port))[0] == 0  # not queued again
        finally:
            await store.close()
            await host.close()


async def test_rooms_whose_hands_end_together_are_queued_in_one_round_trip(redis_url):
    """The commit hook gathers the rooms whose hand ended within ``COALESCE`` seconds and
    queues them in one round trip (each counted once); an entry that ends nothing queues
    nothing."""
    store = Store.from_url(redis_url)
    arch = archiver.Archiver(store, "sqlite:///unused", 0)  # (its loop is not run)
    trips: list[int] = []
    round_trip = store.round_trip

    async def counted(*commands):  # type: ignore[no-untyped-def]
        trips.append(len(commands))
        return await round_trip(*commands)

    store.round_trip = counted  # type: ignore[method-assign]
    rooms = ["r_a", "r_b", "r_c"]
    try:
        for room in rooms:
            arch.committed(room, 9, {"events": [{"type": "hand_ended"}]}, None)
        arch.committed("r_d", 9, {"events": [{"type": "discarded"}]}, None)
        assert await store.r.zcard(archive_queue.DUE) == 0  # gathered, not queued yet
        await asyncio.sleep(archiver.COALESCE + 0.3)
        assert trips == [1 + len(rooms)]  # one ZADD for all, a count each
        assert sorted(m.decode() for m in await store.r.zrange(archive_queue.DUE, 0, -1)) == rooms
        assert {
            r: int(await store.r.hget(archive_queue.QUEUED, r)) for r in rooms
        } == dict.fromkeys(rooms, 1)
    finally:
        await arch.close()
        await store.close()


async def test_a_room_closed_before_its_hand_end_was_queued_is_held(redis_url):
    """A close right after a hand's end (before the gathered rooms are queued) queues the
    hand's end first, so the closed room waits for the archive with its keys kept (held),
    instead of being forgotten with its last hand unarchived."""
    store = Store.from_url(redis_url)
    arch = archiver.Archiver(store, "sqlite:///unused", 3600)
    try:
        arch.committed("r_x", 9, {"events": [{"type": "hand_ended"}]}, None)
        arch.committed("r_x", 10, {"lobby": {"status": "closed"}}, None)
        await until(lambda: _held(store, "r_x"), "the closed room held", 200)
        assert await store.r.zscore(archive_queue.DUE, "r_x") is not None
    finally:
        await arch.close()
        await store.close()


async def _held(store: Store, room: str) -> bool:
    return await store.r.hget(archive_queue.HELD, room) is not None


async def test_the_archivers_own_process_archives_what_the_server_queues(redis_url, tmp_path):
    """``--archive-process`` (the default of ``mahjong-server``): the game server only
    queues; the process it starts for the archive's passes archives the game (with its
    hand), and stops with the server."""
    url = "sqlite:///" + str(tmp_path / "archive.sqlite3")
    me = psutil.Process()

    def archivers() -> list[psutil.Process]:
        return [p for p in me.children() if "spawn_main" in " ".join(p.cmdline())]

    assert archivers() == []
    async with running_server(redis_url, archive_url=url, archive_process=True) as srv:
        (proc,) = archivers()
        host, room = await bots_play_one_hand(srv.port, "w-proc")
        await host.close()
        archive = await open_archive(url)
        try:

            async def kept() -> bool:
                return len(await archive.games_of_room(room)) == 1

            await until(kept, "the game archived by the archiver's process", 1500)
            (record,) = await archive.games_of_room(room)
            assert len(await archive.hands(record.game_id)) == 1
        finally:
            await archive.close()
    proc.wait(15)  # stopped with the server
    assert not proc.is_running()
