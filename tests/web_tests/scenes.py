"""Table states for the browser's layout tests, made from the table engine's golden games.

A claim prompt of each kind (chow, pung, kong, win), a self-drawn win offered on your turn,
a 16-tile hand, the win dialog and the end of the game are hard to reach by playing random
deals in a browser. Each scene here is the frames the server would send one seat — a
``snapshot`` from ``server.room.game.view`` at the chosen moment with the seat's legal actions,
then, for the dialogs, the ``events`` frames that follow (``server.app.visible_events``, the
``game_over`` notice with ``server.room.game.summary``) — replayed from tests/table/golden/. The
test hands them to the page's client (``window.mahjong.receive``), whose real reducer and
components draw them: the same path as frames from the socket.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from server.app import visible_events
from server.room import game
from table import Action, GameConfig, apply, new_game

JSON = dict[str, Any]
GOLDEN = Path(__file__).resolve().parents[1] / "table" / "golden"
NAMES = ("Ann", "Bob", "Cat", "Dan")
ROOM = "r_scene"


def lobby(ruleset: str, options: JSON | None = None) -> JSON:
    return {
        "id": ROOM,
        "code": "SCENE1",
        "ruleset": ruleset,
        "options": options
        or {"length": "hands", "hands": 1, "turn_seconds": 0, "claim_seconds": 0},
        "host": "p_0",
        "status": "playing",
        "game_no": 1,
        "seats": [
            {
                "player": f"p_{i}",
                "name": n,
                "bot": i > 0,
                "ready": True,
                "away": False,
                "auto": False,
            }
            for i, n in enumerate(NAMES)
        ],
        "spectators": [],
    }


def legal_for(state: JSON, seat: int) -> list[JSON]:
    if seat not in game.pending(state):
        return []
    return list(game.legal(state, seat))


def snapshot(state: JSON, seat: int, seq: int, ruleset: str) -> JSON:
    return {
        "type": "snapshot",
        "room": ROOM,
        "seq": seq,
        "lobby": lobby(ruleset),
        "you": {"player": f"p_{seat}", "seat": seat, "spectator": False},
        "game": game.view(state, seat),
        "legal": legal_for(state, seat),
    }


def replay(name: str, max_hands: int | None = None) -> Iterator[tuple[JSON, list[JSON], str]]:
    """Each state of a golden game with the events that led to it, and the rule set;
    ``max_hands`` shortens the game (its last hand played ends it)."""
    lines = [json.loads(x) for x in (GOLDEN / f"{name}.jsonl").read_text().splitlines()]
    config = dict(lines[0]["config"])
    if max_hands is not None:
        config["max_hands"] = max_hands
    cfg = GameConfig.from_json(config)
    st = new_game(cfg)
    yield dict(st.to_json()), [], cfg.ruleset
    for x in lines[1:]:
        st, events = apply(st, Action.from_json(x["action"]))
        yield dict(st.to_json()), [dict(e.to_json()) for e in events], cfg.ruleset


def games() -> list[str]:
    return sorted(p.stem for p in GOLDEN.glob("*.jsonl"))


def first(want: Callable[[JSON, int, list[JSON]], bool]) -> list[JSON]:
    """A snapshot of the first state of any golden game where a seat's legal actions satisfy
    ``want(state, seat, legal)``."""
    for name in games():
        for seq, (state, _, ruleset) in enumerate(replay(name), start=1):
            for seat in range(4):
                legal = legal_for(state, seat)
                if legal and want(state, seat, legal):
                    return [snapshot(state, seat, seq, ruleset)]
    raise LookupError("no golden game has that state")


def claim(kind: str) -> list[JSON]:
    def want(state: JSON, seat: int, legal: list[JSON]) -> bool:
        types = {a["type"] for a in legal}
        return "pass" in types and kind in types

    return first(want)


def self_drawn_win() -> list[JSON]:
    return first(
        lambda s, seat, legal: (
            any(a["type"] == "win" for a in legal) and not any(a["type"] == "pass" for a in legal)
        )
    )


def long_hand_turn() -> list[JSON]:
    """Your turn with a 16-tile hand (17 with the drawn tile)."""

    def want(state: JSON, seat: int, legal: list[JSON]) -> bool:
        view = game.view(state, seat)
        mine = view["hand"]["seats"][seat]
        return any(a["type"] == "discard" for a in legal) and len(mine["concealed"]) == 17

    return first(want)


def late_turn() -> list[JSON]:
    """Your turn to discard where the rivers are longest (the shortest of the four the
    longest of any such turn of the golden games: 20-21 discards each)."""
    best: tuple[tuple[int, int], list[JSON]] | None = None
    for name in games():
        for seq, (state, _, ruleset) in enumerate(replay(name), start=1):
            for seat in range(4):
                legal = legal_for(state, seat)
                if not any(a["type"] == "discard" for a in legal):
                    continue
                lengths = [len(s["discards"]) for s in game.view(state, seat)["hand"]["seats"]]
                key = (min(lengths), sum(lengths))
                if best is None or key > best[0]:
                    best = (key, [snapshot(state, seat, seq, ruleset)])
    if best is None:
        raise LookupError("no golden game has a turn to discard")
    return best[1]


def to_the_end(name: str, seat: int = 0, max_hands: int | None = None) -> list[JSON]:
    """A snapshot just before the game's last hand is won or drawn, then every frame to the
    end of the game, the ``game_over`` notice included."""
    states = list(replay(name, max_hands))
    last = max(
        i
        for i, (_, ev, _) in enumerate(states)
        if any(e["type"] in ("hand_won", "hand_drawn") for e in ev)
    )
    state, _, ruleset = states[last - 1]
    frames = [snapshot(state, seat, last, ruleset)]
    for i in range(last, len(states)):
        state, events, _ = states[i]
        frame: JSON = {
            "type": "events",
            "room": ROOM,
            "seq": i + 1,
            "events": visible_events({"events": events}, seat),
            "legal": legal_for(state, seat),
        }
        if state.get("phase") == "game_over" and any(e["type"] == "game_over" for e in events):
            frame["notice"] = {"type": "game_over", "summary": game.summary(state)}
            frame["lobby"] = {**lobby(ruleset), "status": "finished"}
        frames.append(frame)
    return frames


def all_scenes() -> dict[str, list[JSON]]:
    """Every scene by name."""
    return {
        "claim-chow": claim("chow"),
        "claim-pung": claim("pung"),
        "claim-kong": claim("kong"),
        "claim-win": claim("win"),
        "turn-win": self_drawn_win(),
        "turn-16": long_hand_turn(),
        "turn-late": late_turn(),
        "win": to_the_end("robbing_kong"),
        # the exhaustive draw's game cut to its one (drawn) hand: the game ends on a draw
        "draw": to_the_end("exhaustive_draw_dealer_keeps", max_hands=1),
    }
