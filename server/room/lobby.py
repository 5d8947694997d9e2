"""What a room's lobby shows: its public record (`lobby`), its line in the room list and the id of its current or last game.

Built from the room's state for every member alike (nothing private to a seat: a player's
own settings and concealed tiles never appear here).
"""

from __future__ import annotations

from server.room.rooms import held
from server.room.state import Lobby, RoomState


def game_id_of(state: RoomState) -> str | None:
    """The id of the room's current or last game: given when it started
    (``server.room.game_room.start``); a game started before game ids existed gets
    ``<room id>-<game_no>`` (stable, so its archive record and links keep one id); None
    before the first game."""
    if not state.get("game_no"):
        return None
    gid = state.get("game_id")
    return str(gid) if gid else f"{state['id']}-{state['game_no']}"


def public_lobby(state: RoomState) -> Lobby:
    seated = {s["player"] for s in state["seats"] if s and s.get("player")}
    lobby: Lobby = {
        "id": state["id"],
        "code": state["code"],
        "ruleset": state["ruleset"],
        "options": state["options"],
        "host": state["host"],
        "status": state["status"],
        "game_no": state["game_no"],
        "seats": [
            None
            if s is None
            else {
                "player": s.get("player"),
                "name": s["name"],
                "bot": s["bot"],
                "ready": s["ready"],
                "away": s.get("away") is not None,
                "auto": s.get("auto", False),
            }
            for s in state["seats"]
        ],
        "spectators": [
            {"player": p, "name": n} for p, n in sorted(state["members"].items()) if p not in seated
        ],
        "paused": held(state),
    }
    gid = game_id_of(state)
    if gid is not None:
        lobby["game_id"] = gid
    return lobby


def room_summary(state: RoomState) -> dict[str, object]:
    return {
        "id": state["id"],
        "code": state["code"],
        "ruleset": state["ruleset"],
        "status": state["status"],
        "seats_free": sum(1 for s in state["seats"] if s is None),
        "players": [s["name"] for s in state["seats"] if s],
        "options": state["options"],
    }
