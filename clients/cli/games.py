"""``mahjong-cli games ROOM``: a room's past games, from the server's archive
(``GET /api/rooms/<code>/games``, docs/archive.md), each with the command that replays it."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import quote, urlsplit

from clients.cli.i18n import ruleset_name, tr
from clients.cli.replay import fetch

JSON = dict[str, Any]


def http_base(url: str) -> str:
    """The server's HTTP address for its WebSocket URL (``ws://h:p/ws`` → ``http://h:p``)."""
    parts = urlsplit(url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme or "http")
    return f"{scheme}://{parts.netloc}"


def room_games(base: str, room: str, token: str | None) -> JSON:
    """The archive's answer for ``room`` (its code, or its id); ReplayError when refused."""
    return fetch(f"{base}/api/rooms/{quote(room, safe='')}/games", token)


def lines(listing: JSON, base: str, room: str) -> list[str]:
    """The list in words: one line per game (newest first), then how to replay it."""
    games = listing.get("games") or []
    if not games:
        return [tr("games_none", room=room)]
    out = [tr("games_head", room=room)]
    for g in games:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(int(g["finished_ms"]) / 1000))
        scores = g.get("scores") or []
        players = ", ".join(
            f"{name} {scores[i] if i < len(scores) else ''}".strip()
            for i, name in enumerate(g.get("players") or [])
        )
        out.append(
            tr(
                "games_line",
                when=when,
                ruleset=ruleset_name(str(g["ruleset"])),
                hands=g.get("hands_played", 0),
                players=players,
            )
        )
        out.append(
            tr("games_replay", cmd=f"mahjong-cli replay {base}/api/games/{g['game_id']}/log")
        )
    return out
