"""What the archive keeps of a game, computed purely from a room's event log: the games in
it, each hand's record as it ends, and the whole game's record once it is over.

A room's log (``{room:<id>}:log``, docs/server.md) holds every game played in the room one
after the other; a game begins at an entry of kind ``start`` (its ``lobby`` names the game's
id, rule set, options and seats) and ends at the entry whose notice is ``game_over`` (its
summary: final scores and the whole ledger). Each hand ends with a ``hand_ended`` event,
after the ``hand_won`` event of a win (winners, breakdown and payments) or a ``hand_drawn``.
No I/O here: :mod:`server.archive.archiver` reads the log (as :mod:`server.archive.scan`'s
entries: the kept fields packed, a few decoded) and writes what this returns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from server.archive.scan import KEPT, KEPT_KEYS, Entry, events_of

__all__ = ["KEPT", "KEPT_KEYS", "GameLog", "GameRecord", "HandRecord", "Seat"]

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    player: str | None  # None: a bot seat
    name: str
    bot: bool


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand as it ended (keyed by ``(game_id, hand)``)."""

    game_id: str
    hand: int  # the hand's number in the game, from 0
    result: str  # "win" or "draw"
    ended_ms: int
    scores: list[int]  # every seat's score after the hand
    winners: list[JSON]  # hand_won's winners: seat, scored hand, breakdown, payments
    how: str | None  # hand_won's how (self_drawn, discard...); None on a draw
    #: the hand's stretch of the game's log, packed (its entries' KEPT maps one after the
    #: other: :mod:`server.archive.scan`): the entries after the end of the hand before (or
    #: from the game's start) to its own end, kept until the game's record joins them;
    #: None: not kept (the game's record holds them, or not read back)
    log: bytes | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game (keyed by ``game_id``): everything its page and replay show."""

    game_id: str
    room: str
    game_no: int
    ruleset: str
    options: JSON
    public: bool  # the room was listed: anyone with the link may read it
    seats: list[Seat]
    started_ms: int
    finished_ms: int
    hands_played: int
    scores: list[int]
    summary: JSON  # the game_over notice's summary (ledger, last result)
    log: list[JSON] = field(default_factory=list)  # the game's log entries (KEPT fields)
    #: the log packed as the archiver read it (its entries' KEPT maps one after the other;
    #: only the entries after the last hand when the archive joins the hands' stretches);
    #: None: :attr:`log` is written, packed then. Never read back (reads give ``log``)
    packed: bytes | None = field(default=None, compare=False)

    @property
    def actions(self) -> list[JSON]:
        """The table actions in order: what ``table.replay`` replays."""
        return [a for e in self.log for a in e.get("actions") or []]


@dataclass(slots=True)
class GameLog:
    """One game's stretch of a room's log."""

    room: str
    first_version: int  # the version of its start entry
    entries: list[Entry] = field(default_factory=list)
    last_version: int = 0
    #: a stretch that continues a game whose start was read before (its hands only): the
    #: game's id, which its lobby would give; None for a stretch from the game's start
    continues: str | None = None

    @property
    def finished(self) -> bool:
        return bool(self.entries) and _is_game_over(self.entries[-1])

    @property
    def lobby(self) -> JSON:
        return dict(self.entries[0].head.get("lobby") or {})

    @property
    def game_id(self) -> str:
        if self.continues is not None:
            return self.continues
        lobby = self.lobby
        gid = lobby.get("game_id")
        return str(gid) if gid else f"{self.room}-{lobby.get('game_no', 0)}"


def _is_game_over(entry: Entry) -> bool:
    notice = entry.head.get("notice") or {}
    return bool(notice.get("type") == "game_over")


def split_games(
    room: str, entries: list[Entry], continues: tuple[int, str] | None = None
) -> list[GameLog]:
    """The games in a stretch of a room's log (in order); entries
    before the first ``start`` (the lobby, or the end of a game before the stretch) and
    between games are not part of any — unless the stretch ``continues`` a game: then
    they are that game's (``(its start's version, its id)``; its hands, not its record)."""
    games: list[GameLog] = []
    current: GameLog | None = None
    if continues is not None:
        current = GameLog(room, continues[0], continues=continues[1])
        games.append(current)
    for entry in entries:
        if entry.head.get("kind") == "start":
            current = GameLog(room, entry.version)
            games.append(current)
        if current is None:
            continue
        current.entries.append(entry)
        current.last_version = entry.version
        if _is_game_over(entry):
            current = None
    return games


def _ends_hand(entry: Entry) -> bool:
    return any(ev.get("type") == "hand_ended" for ev in events_of(entry))


def hand_records(game: GameLog, logs: bool = True) -> list[HandRecord]:
    """Every hand of ``game`` that has ended, in order; with ``logs``, each with its stretch
    of the log (``game`` starts at the game's start or right after a hand's end: a mark)."""
    out: list[HandRecord] = []
    won: JSON | None = None
    stretch: list[bytes] = []
    for entry in game.entries:
        if logs:
            stretch.append(entry.packed)
        for ev in events_of(entry):
            kind = ev.get("type")
            if kind == "hand_won":
                won = ev
            elif kind == "hand_ended":
                out.append(
                    HandRecord(
                        game_id=game.game_id,
                        hand=int(ev["hand"]),
                        result=str(ev["result"]),
                        ended_ms=int(entry.head.get("t") or 0),
                        scores=[int(x) for x in ev["scores"]],
                        winners=list(won["winners"]) if won else [],
                        how=str(won["how"]) if won else None,
                        log=b"".join(stretch) if logs else None,
                    )
                )
                won = None
        if logs and _ends_hand(entry):
            stretch = []
    return out


def tail_log(game: GameLog) -> bytes:
    """The entries of ``game`` after its last hand's end, packed: with the hands' stretches
    (:func:`hand_records`), the game's whole log."""
    out: list[bytes] = []
    for entry in reversed(game.entries):
        if _ends_hand(entry):
            break
        out.append(entry.packed)
    out.reverse()
    return b"".join(out)


def seats_of(lobby: JSON) -> list[Seat]:
    out = []
    for i, s in enumerate(lobby.get("seats") or []):
        if s is None:
            continue
        out.append(Seat(i, None if s.get("bot") else s.get("player"), s["name"], bool(s["bot"])))
    return out


def last_hand_end(game: GameLog) -> int | None:
    """The version of the last entry of ``game`` in which a hand ended (None: none did)."""
    for entry in reversed(game.entries):
        if _ends_hand(entry):
            return entry.version
    return None


def game_record(game: GameLog, start: Entry | None = None) -> GameRecord | None:
    """The record of ``game`` once it is over, else None. Read from its start, the record's
    ``packed`` holds the whole log. A stretch that continues a game from its last archived
    hand needs the game's ``start`` entry (else None) and its record's ``packed`` is the
    stretch's tail only (:func:`tail_log`): the archive joins the hands' stretches before it
    (:meth:`server.archive.Archive.put_game`, ``joined``)."""
    if not game.finished or (game.continues is not None and start is None):
        return None
    if start is None:
        start = game.entries[0]
        packed = b"".join(e.packed for e in game.entries)
    else:
        packed = tail_log(game)
    lobby = dict(start.head.get("lobby") or {})
    end = game.entries[-1].head
    summary = dict((end.get("notice") or {}).get("summary") or {})
    options = dict(lobby.get("options") or {})
    return GameRecord(
        game_id=game.game_id,
        room=game.room,
        game_no=int(lobby.get("game_no") or 0),
        ruleset=str(lobby.get("ruleset") or summary.get("ruleset") or ""),
        options=options,
        public=bool(options.get("public")),
        seats=seats_of(lobby),
        started_ms=int(start.head.get("t") or 0),
        finished_ms=int(end.get("t") or 0),
        hands_played=int(summary.get("hands_played") or 0),
        scores=[int(x) for x in summary.get("scores") or []],
        summary=summary,
        packed=packed,
    )
