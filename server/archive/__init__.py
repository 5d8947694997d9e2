"""The game archive: every finished game and every hand as it ends, kept in a relational
database (SQLite by default, PostgreSQL when given a URL) — docs/archive.md.

:class:`Archive` is the one interface the rest of the server uses; :func:`open_archive`
connects and runs the schema migrations. What a record holds is computed purely from a
room's log (:mod:`server.archive.records`); :mod:`server.archive.archiver` moves finished
games from Redis (the authority) into the archive off the hot path.
"""

from __future__ import annotations

from pathlib import Path

from server.archive import sql
from server.archive.drivers import Db, connect
from server.archive.records import GameRecord, HandRecord

__all__ = ["OFF", "Archive", "GameRecord", "HandRecord", "archive_url", "open_archive"]


class Archive:
    """The archive's database: idempotent writes keyed by game id (and hand number), and
    the reads of a game page, a replay and a player's list."""

    def __init__(self, db: Db) -> None:
        self.db = db

    @property
    def dialect(self) -> str:
        return self.db.dialect

    async def put_hands(self, hands: list[HandRecord]) -> None:
        """Keep these hands (each once: a hand already kept is left as it is)."""
        if hands:
            await sql.put_hands(self.db, hands)

    async def put_game(self, game: GameRecord, joined: bool = False) -> bool:
        """Keep this finished game (once: a game already kept is left as it is). ``joined``:
        its log is the entries after its last hand, and its hands' kept stretches of the log
        come first; False (nothing written) when a hand kept none."""
        return await sql.put_game(self.db, game, joined)

    async def game(self, game_id: str, with_log: bool = True) -> GameRecord | None:
        return await sql.get_game(self.db, game_id, with_log)

    async def hands(self, game_id: str) -> list[HandRecord]:
        return await sql.get_hands(self.db, game_id)

    async def games_of(self, player: str, limit: int = 50) -> list[GameRecord]:
        """The player's games, newest first, without their logs."""
        return await sql.games_of(self.db, player, limit)

    async def games_of_room(self, room: str, limit: int = 50) -> list[GameRecord]:
        """The room's games (by room id), newest first, without their logs."""
        return await sql.games_of_room(self.db, room, limit)

    async def has_game(self, game_id: str) -> bool:
        return await sql.has_game(self.db, game_id)

    async def count_games(self) -> int:
        return await sql.count_games(self.db)

    async def revision(self) -> int:
        return await sql.revision(self.db)

    async def close(self) -> None:
        await self.db.close()


#: ``--archive-url off``: this server keeps no archive (its reads answer 503)
OFF = "off"


def archive_url(configured: str | None, data_dir: str) -> str:
    """The archive's URL: the operator's (``--archive-url``; :data:`OFF` for none), else
    the SQLite file ``<data dir>/archive.sqlite3``."""
    if configured:
        return configured
    return "sqlite:///" + str(Path(data_dir) / "archive.sqlite3")


async def open_archive(url: str, migrate_to: int = sql.HEAD) -> Archive:
    """Connect to the archive at ``url`` and bring its schema to ``migrate_to`` (the newest
    revision by default): migrations run at start."""
    db = await connect(url)
    try:
        await sql.migrate(db, migrate_to)
    except BaseException:
        await db.close()
        raise
    return Archive(db)
