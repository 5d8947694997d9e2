"""The archive's read API over HTTP, on the WebSocket's port: a game's page data, its log for
a replay, and a player's own games — and who may read what.

* ``GET /api/games/<id>`` — the game's page: rule set, options, the seats (names, bots),
  final scores and ranks, every hand's result, breakdown and payments, the ledger;
* ``GET /api/games/<id>/log`` — the same, the game's whole log, and ``game_log``: the game
  as the protocol's ``game_log`` has it (``mahjong-cli replay <url>`` replays it);
* ``GET /api/games/<id>/replay`` — the page and ``game_log`` without the raw log: what the
  browser's game page and replay viewer read (half the size);
* ``GET /api/my/games`` — the games of the player whose token the request carries, newest
  first;
* ``GET /api/rooms/<code or room id>/games`` — a room's games that the reader may read,
  newest first (the terminal client's list of a room's past games).

Answers are gzip-compressed when the request accepts it (a 16-hand game's log is up to
~1.3 MB of JSON, under 90 KB compressed). A request names its player with
``Authorization: Bearer <token>`` (the token of ``hello``). A game is readable by its
players, and by anyone with its id (the link) when its room was public
(``options.public``); never while it is being played (only finished games are in the
archive's games). A refused read answers 403 and is logged (``refused archive read``).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server.archive import Archive
from server.archive.records import GameRecord, HandRecord
from server.room.game import open_events
from server.room.rooms import normalize_code
from server.storage.store import Store
from server.storage.store_base import k_token

log = logging.getLogger("mahjong.archive")

JSON = dict[str, Any]


def json_response(status: HTTPStatus, body: object) -> Response:
    data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
    headers = Headers(
        [
            ("Content-Type", "application/json; charset=utf-8"),
            ("Content-Length", str(len(data))),
            ("Cache-Control", "private, no-store"),
            ("Connection", "close"),
        ]
    )
    return Response(status.value, status.phrase, headers, data)


#: answers at least this long are compressed for a client that accepts gzip
GZIP_MIN = 1024
#: answers at least this long are compressed in a worker thread (off the event loop)
GZIP_THREAD = 64 * 1024


def accepts_gzip(request: Request) -> bool:
    return any(
        part.split(";", 1)[0].strip().lower() == "gzip"
        for value in request.headers.get_all("Accept-Encoding")
        for part in value.split(",")
    )


async def compressed(response: Response, request: Request) -> Response:
    """``response`` gzip-compressed when ``request`` accepts it and it is long enough."""
    body = response.body
    if len(body) < GZIP_MIN or not accepts_gzip(request):
        return response
    if len(body) >= GZIP_THREAD:
        data = await asyncio.to_thread(gzip.compress, body, 5)
    else:
        data = gzip.compress(body, 5)
    headers = Headers(
        [(k, v) for k, v in response.headers.raw_items() if k.lower() != "content-length"]
    )
    headers["Content-Length"] = str(len(data))
    headers["Content-Encoding"] = "gzip"
    headers["Vary"] = "Accept-Encoding"
    return Response(response.status_code, response.reason_phrase, headers, data)


def error(status: HTTPStatus, code: str) -> Response:
    return json_response(status, {"error": code})


def may_read(game: GameRecord, player: str | None) -> bool:
    """Who may read a finished game: its players; anyone when its room was public."""
    return game.public or (player is not None and any(s.player == player for s in game.seats))


def ranks(scores: list[int]) -> list[int]:
    """Each seat's place (1 = best; equal scores share a place)."""
    return [1 + sum(1 for o in scores if o > s) for s in scores]


def page(game: GameRecord, hands: list[HandRecord], player: str | None) -> JSON:
    """What a game's page shows (no player ids: a seat says whether it is the reader's)."""
    return {
        "game_id": game.game_id,
        "game_no": game.game_no,
        "ruleset": game.ruleset,
        "options": game.options,
        "public": game.public,
        "started_ms": game.started_ms,
        "finished_ms": game.finished_ms,
        "hands_played": game.hands_played,
        "seats": [
            {"seat": s.seat, "name": s.name, "bot": s.bot, "you": s.player == player}
            for s in game.seats
        ],
        "scores": game.scores,
        "ranks": ranks(game.scores),
        "ledger": game.summary.get("ledger") or [],
        "hands": [
            {
                "hand": h.hand,
                "result": h.result,
                "how": h.how,
                "scores": h.scores,
                "winners": h.winners,
                "ended_ms": h.ended_ms,
            }
            for h in hands
        ],
    }


def game_log(game: GameRecord) -> JSON:
    """The game as the protocol's ``game_log.log`` (``GameLogDoc``): what the clients'
    replay viewers read from a saved file (``mahjong-cli replay``)."""
    return {
        "ruleset": game.ruleset,
        "options": game.options,
        "game_no": game.game_no,
        "game_id": game.game_id,
        "seats": [s.name for s in sorted(game.seats, key=lambda s: s.seat)],
        "actions": game.actions,
        "summary": game.summary,
        "events": open_events(game.log),
    }


def listing(game: GameRecord, player: str | None) -> JSON:
    """One line of a list of games (a player's, a room's)."""
    you = next((s.seat for s in game.seats if player and s.player == player), None)
    return {
        "game_id": game.game_id,
        "game_no": game.game_no,
        "ruleset": game.ruleset,
        "finished_ms": game.finished_ms,
        "hands_played": game.hands_played,
        "players": [s.name for s in game.seats],
        "scores": game.scores,
        "you": you,
        "rank": None if you is None else ranks(game.scores)[you],
    }


def bearer(request: Request) -> str | None:
    auth = request.headers.get("Authorization") or ""
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


class GamePages:
    """Answers the archive's HTTP paths (``/api/…``); ``archive()`` is the open archive, or
    None while the database is unreachable (503)."""

    def __init__(self, store: Store, archive: Callable[[], Archive | None]) -> None:
        self.store = store
        self.archive = archive

    async def player_of(self, request: Request) -> str | None:
        token = bearer(request)
        if token is None:
            return None
        pid = await self.store.r.get(k_token(token))
        return None if pid is None else (pid.decode() if isinstance(pid, bytes) else str(pid))

    async def respond(self, request: Request) -> Response | None:
        """The answer to an ``/api/`` path, None for any other path."""
        path = request.path.split("?", 1)[0]
        if not path.startswith("/api/"):
            return None
        return await compressed(await self.route(request, path), request)

    async def route(self, request: Request, path: str) -> Response:
        archive: Archive | None = self.archive()
        if archive is None:
            return error(HTTPStatus.SERVICE_UNAVAILABLE, "archive_unavailable")
        player = await self.player_of(request)
        parts = path.strip("/").split("/")
        if parts == ["api", "my", "games"]:
            if player is None:
                return error(HTTPStatus.UNAUTHORIZED, "token_required")
            games = await archive.games_of(player)
            return json_response(HTTPStatus.OK, {"games": [listing(g, player) for g in games]})
        if len(parts) == 4 and parts[:2] == ["api", "rooms"] and parts[3] == "games":
            return await self.room_games(archive, parts[2], player)
        if len(parts) in (3, 4) and parts[:2] == ["api", "games"]:
            what = parts[3] if len(parts) == 4 else "page"
            if what not in ("page", "log", "replay"):
                return error(HTTPStatus.NOT_FOUND, "not_found")
            return await self.game(archive, parts[2], player, what)
        return error(HTTPStatus.NOT_FOUND, "not_found")

    async def room_games(self, archive: Archive, room: str, player: str | None) -> Response:
        """A room's games (``room``: its code, or its id ``r_…``, which outlives the code of
        a closed room) that ``player`` may read; 403 when it has games and none of them is."""
        room_id = (
            room if room.startswith("r_") else await self.store.room_by_code(normalize_code(room))
        )
        games = await archive.games_of_room(room_id) if room_id else []
        if not games and room_id is None:
            return error(HTTPStatus.NOT_FOUND, "room_not_found")
        readable = [g for g in games if may_read(g, player)]
        if games and not readable:
            log.warning(
                "refused archive read",
                extra={"room": room_id, "player": player, "reason": "no game of the room readable"},
            )
            return error(HTTPStatus.FORBIDDEN, "not_allowed")
        body = {"room": room_id, "games": [listing(g, player) for g in readable]}
        return json_response(HTTPStatus.OK, body)

    async def game(self, archive: Archive, game_id: str, player: str | None, what: str) -> Response:
        """``what``: ``page`` (the page's data), ``log`` (and the raw log, and ``game_log``)
        or ``replay`` (and ``game_log``)."""
        game = await archive.game(game_id, with_log=what != "page")
        if game is None:  # unknown, or still being played
            return error(HTTPStatus.NOT_FOUND, "game_not_found")
        if not may_read(game, player):
            log.warning(
                "refused archive read",
                extra={"game": game_id, "player": player, "reason": "not a player, not public"},
            )
            return error(HTTPStatus.FORBIDDEN, "not_allowed")
        body = page(game, await archive.hands(game_id), player)
        if what == "log":
            body["log"] = game.log
        if what != "page":
            body["game_log"] = game_log(game)
        return json_response(HTTPStatus.OK, body)
