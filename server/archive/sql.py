"""The archive's tables and queries, one SQL text for SQLite and PostgreSQL, with the schema
migrations that run at start (:func:`migrate`).

Every write is keyed (a game by its id, a hand by game id and number, a seat by game id and
seat) and is an ``INSERT … ON CONFLICT DO NOTHING``: writing the same game or hand again,
from this process or another, changes nothing. JSON values are stored as text (the same on
both databases; the archive never queries inside them); logs are stored packed (msgpack, as
Redis holds them: BLOB on SQLite, BYTEA on PostgreSQL; revision 5).
"""

from __future__ import annotations

import json
from typing import Any

from server.archive.drivers import Db, Row, Value
from server.archive.records import GameRecord, HandRecord, Seat
from server.archive.scan import pack_log, unpack_log

#: the schema's revisions, in order: each a list of statements run in one transaction
MIGRATIONS: list[list[str]] = [
    [  # 1: games, hands, seats
        """CREATE TABLE games (
            game_id TEXT PRIMARY KEY,
            room TEXT NOT NULL,
            game_no INTEGER NOT NULL,
            ruleset TEXT NOT NULL,
            public INTEGER NOT NULL,
            started_ms BIGINT NOT NULL,
            finished_ms BIGINT NOT NULL,
            hands_played INTEGER NOT NULL,
            options TEXT NOT NULL,
            seats TEXT NOT NULL,
            scores TEXT NOT NULL,
            summary TEXT NOT NULL,
            log TEXT NOT NULL
        )""",
        """CREATE TABLE hands (
            game_id TEXT NOT NULL,
            hand INTEGER NOT NULL,
            result TEXT NOT NULL,
            how TEXT,
            ended_ms BIGINT NOT NULL,
            scores TEXT NOT NULL,
            winners TEXT NOT NULL,
            PRIMARY KEY (game_id, hand)
        )""",
        """CREATE TABLE game_players (
            game_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            player TEXT NOT NULL,
            finished_ms BIGINT NOT NULL,
            PRIMARY KEY (game_id, seat)
        )""",
    ],
    [  # 2: a player's games, newest first ("My games"); the newest games of all
        "CREATE INDEX game_players_by_player ON game_players (player, finished_ms)",
        "CREATE INDEX games_by_finish ON games (finished_ms)",
    ],
    [  # 3: a room's games, newest first (the terminal client's list)
        "CREATE INDEX games_by_room ON games (room, finished_ms)",
    ],
    [  # 4: each hand's stretch of the log, kept until its game's record joins them
        "ALTER TABLE hands ADD COLUMN log TEXT",
    ],
    [  # 5: logs kept packed (msgpack, as Redis holds them): a game's, a hand's stretch
        "ALTER TABLE games ADD COLUMN packed BLOB",
        "ALTER TABLE hands ADD COLUMN packed BLOB",
    ],
]

#: the newest revision
HEAD = len(MIGRATIONS)


async def revision(db: Db) -> int:
    """The schema's revision (0: an empty database)."""
    await db.execute("CREATE TABLE IF NOT EXISTS archive_schema (revision INTEGER NOT NULL)")
    rows = await db.fetch("SELECT revision FROM archive_schema")
    return int(rows[0][0] or 0) if rows else 0


async def migrate(db: Db, to: int = HEAD) -> int:
    """Bring the schema to revision ``to``, one transaction per revision; safe when several
    processes start at once (PostgreSQL: an advisory lock; SQLite: ``BEGIN IMMEDIATE``
    takes the write lock before the revision is read). Returns the revision reached."""
    await revision(db)
    while True:
        async with db.transaction():
            if db.dialect == "postgresql":
                await db.execute("SELECT pg_advisory_xact_lock(4141)")
            now = await revision(db)
            if now >= to:
                return now
            for stmt in MIGRATIONS[now]:
                await db.execute(_in_dialect(stmt, db.dialect))
            if now == 0:
                await db.execute("INSERT INTO archive_schema (revision) VALUES (?)", (1,))
            else:
                await db.execute("UPDATE archive_schema SET revision = ?", (now + 1,))


def _in_dialect(stmt: str, dialect: str) -> str:
    """A migration's statement for the database: PostgreSQL's type of bytes is BYTEA."""
    return stmt.replace(" BLOB", " BYTEA") if dialect == "postgresql" else stmt


def _j(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


async def put_hands(db: Db, hands: list[HandRecord]) -> None:
    async with db.transaction():
        for h in hands:
            await db.execute(
                "INSERT INTO hands (game_id, hand, result, how, ended_ms, scores, winners, "
                "packed) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (
                    h.game_id,
                    h.hand,
                    h.result,
                    h.how,
                    h.ended_ms,
                    _j(h.scores),
                    _j(h.winners),
                    h.log,
                ),
            )


async def joined_log(db: Db, g: GameRecord) -> bytes | None:
    """The game's whole log, packed: its hands' kept stretches (in order) and then
    ``g.packed`` (the entries after its last hand), joined as bytes, not unpacked. None when
    a hand of the game is missing or kept no packed stretch (written before revision 5, or
    by an older process): the caller reads the game whole instead."""
    rows = await db.fetch(
        "SELECT hand, packed FROM hands WHERE game_id = ? ORDER BY hand", (g.game_id,)
    )
    if [int(r[0] or 0) for r in rows] != list(range(g.hands_played)):
        return None
    parts = []
    for _, packed in rows:
        if not isinstance(packed, bytes):
            return None
        parts.append(packed)
    parts.append(g.packed or b"")
    return b"".join(parts)


async def put_game(db: Db, g: GameRecord, joined: bool = False) -> bool:
    """Keep the finished game ``g`` (once: a game kept already is left as it is) and drop
    its hands' stretches. ``joined``: ``g.packed`` is the entries after its last hand only
    and the hands' stretches come before it (:func:`joined_log`); False, with nothing
    written, when they cannot be joined. The log is kept packed (revision 5); the column
    ``log`` of before it is left empty."""
    seats = [{"seat": s.seat, "player": s.player, "name": s.name, "bot": s.bot} for s in g.seats]
    async with db.transaction():
        if await has_game(db, g.game_id):
            return True
        if joined:
            packed = await joined_log(db, g)
        else:
            packed = g.packed if g.packed is not None else pack_log(g.log)
        if packed is None:
            return False
        await db.execute(
            "INSERT INTO games (game_id, room, game_no, ruleset, public, started_ms, "
            "finished_ms, hands_played, options, seats, scores, summary, log, packed) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (
                g.game_id,
                g.room,
                g.game_no,
                g.ruleset,
                int(g.public),
                g.started_ms,
                g.finished_ms,
                g.hands_played,
                _j(g.options),
                _j(seats),
                _j(g.scores),
                _j(g.summary),
                "",
                packed,
            ),
        )
        for s in g.seats:
            if s.player is not None:
                await db.execute(
                    "INSERT INTO game_players (game_id, seat, player, finished_ms) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (g.game_id, s.seat, s.player, g.finished_ms),
                )
        await db.execute(
            "UPDATE hands SET log = NULL, packed = NULL "
            "WHERE game_id = ? AND (log IS NOT NULL OR packed IS NOT NULL)",
            (g.game_id,),
        )
    return True


_GAME_COLUMNS = (
    "game_id, room, game_no, ruleset, public, started_ms, finished_ms, hands_played, "
    "options, seats, scores, summary"
)


def _log_of(log: Value, packed: Value) -> list[dict[str, Any]]:
    """A game's log as kept: packed (revision 5 on), else JSON text (written before)."""
    if isinstance(packed, bytes):
        return unpack_log(packed)
    return list(json.loads(str(log))) if log else []


def _game_of(row: Row, log: list[dict[str, Any]] | None = None) -> GameRecord:
    seats: list[dict[str, Any]] = json.loads(str(row[9]))
    return GameRecord(
        game_id=str(row[0]),
        room=str(row[1]),
        game_no=int(row[2] or 0),
        ruleset=str(row[3]),
        public=bool(row[4]),
        started_ms=int(row[5] or 0),
        finished_ms=int(row[6] or 0),
        hands_played=int(row[7] or 0),
        options=json.loads(str(row[8])),
        seats=[Seat(int(s["seat"]), s["player"], str(s["name"]), bool(s["bot"])) for s in seats],
        scores=json.loads(str(row[10])),
        summary=json.loads(str(row[11])),
        log=log or [],
    )


async def get_game(db: Db, game_id: str, with_log: bool = True) -> GameRecord | None:
    cols = _GAME_COLUMNS + (", log, packed" if with_log else "")
    rows = await db.fetch(f"SELECT {cols} FROM games WHERE game_id = ?", (game_id,))
    if not rows:
        return None
    return _game_of(rows[0], _log_of(rows[0][12], rows[0][13]) if with_log else None)


async def get_hands(db: Db, game_id: str) -> list[HandRecord]:
    rows = await db.fetch(
        "SELECT game_id, hand, result, how, ended_ms, scores, winners FROM hands "
        "WHERE game_id = ? ORDER BY hand",
        (game_id,),
    )
    return [
        HandRecord(
            game_id=str(r[0]),
            hand=int(r[1] or 0),
            result=str(r[2]),
            how=None if r[3] is None else str(r[3]),
            ended_ms=int(r[4] or 0),
            scores=json.loads(str(r[5])),
            winners=json.loads(str(r[6])),
        )
        for r in rows
    ]


async def games_of(db: Db, player: str, limit: int = 50) -> list[GameRecord]:
    """The player's finished games, newest first (without their logs)."""
    cols = ", ".join(f"g.{c.strip()}" for c in _GAME_COLUMNS.split(","))
    rows = await db.fetch(
        f"SELECT {cols} FROM game_players p JOIN games g ON g.game_id = p.game_id "
        "WHERE p.player = ? ORDER BY p.finished_ms DESC LIMIT ?",
        (player, limit),
    )
    return [_game_of(r) for r in rows]


async def games_of_room(db: Db, room: str, limit: int = 50) -> list[GameRecord]:
    """The room's finished games, newest first (without their logs)."""
    rows = await db.fetch(
        f"SELECT {_GAME_COLUMNS} FROM games WHERE room = ? ORDER BY finished_ms DESC LIMIT ?",
        (room, limit),
    )
    return [_game_of(r) for r in rows]


async def has_game(db: Db, game_id: str) -> bool:
    return bool(await db.fetch("SELECT 1 FROM games WHERE game_id = ?", (game_id,)))


async def count_games(db: Db) -> int:
    rows = await db.fetch("SELECT COUNT(*) FROM games")
    return int(rows[0][0] or 0)
