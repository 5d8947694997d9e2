"""Per-seat frame streams for the browser client's reducer tests (clients/web/test/).

Each of the table engine's golden games (tests/table/golden/) is replayed, and after every
action each seat (0-3) and a spectator get the ``events`` frame the server would send it:
the events through the server's view function (``server.app.visible_events`` →
``server.room.game.view_event``) and the seat's legal actions; a ``snapshot`` (``server.room.game.view``)
opens each stream and replaces the state once in the middle, as a reload does. Every frame
carries ``expect``: what the screen must show after it, taken from ``server.room.game.view`` of
the new state for that seat (null: the same as after the frame before).

    python tests/web_tests/make_web_fixtures.py     # rewrite clients/web/test/fixtures/*.json

It also writes the replay viewer's fixtures (``fixtures/replay/<game>.json``): a golden
game's log as ``game_log`` has it (``events``: each step's events as their owners saw them,
``server.room.game.open_events``) and, after every step, each seat's concealed tiles and the
scores as the engine's views show them (clients/web/test/replay.test.ts).

``tests/web_tests/test_web_fixtures.py`` fails when the committed files differ from what this
writes (a change to the engine or the views that the client's tests have not seen).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from server.app import visible_events  # noqa: E402
from server.room import game  # noqa: E402
from table import Action, GameConfig, apply, new_game  # noqa: E402

JSON = dict[str, Any]
GOLDEN = ROOT / "tests" / "table" / "golden"
OUT = ROOT / "clients" / "web" / "test" / "fixtures"
#: the golden games the client is tested on: a robbed kong, two winners on one discard, 叮
#: with an instant win (16 tiles, hk-tw16), an exhaustive draw, four rounds
GAMES = (
    "robbing_kong",
    "multiple_winners_double",
    "ting_instant",
    "exhaustive_draw_dealer_keeps",
    "seven_robs_one",
)
#: the long games: one seat and the spectator only (keeps the files small)
FEW_VIEWS = {"exhaustive_draw_dealer_keeps": (0, None)}
NAMES = ("Ann", "Bob", "Cat", "Dan")
VIEWS: tuple[int | None, ...] = (0, 1, 2, 3, None)


def lobby(ruleset: str) -> JSON:
    return {
        "id": "r_golden",
        "code": "GOLDEN",
        "ruleset": ruleset,
        "options": {},
        "host": "p_0",
        "status": "playing",
        "game_no": 1,
        "seats": [
            {
                "player": f"p_{i}",
                "name": n,
                "bot": False,
                "ready": True,
                "away": False,
                "auto": False,
            }
            for i, n in enumerate(NAMES)
        ],
        "spectators": [{"player": "p_spec", "name": "Eve"}],
    }


def screen(view: JSON) -> JSON:
    """What the table shows of a seat's view (the fields the reducer must keep right)."""
    h = view.get("hand")
    out: JSON = {
        "phase": view["phase"],
        "dealer": view["dealer"],
        "round_wind": view["round_wind"],
        "scores": view["scores"],
        "hand": None,
    }
    if h is not None:
        over = view["phase"] in ("between_hands", "game_over")
        out["hand"] = {
            "number": h["number"],
            "turn": h["turn"],
            "wall_left": h["wall_left"],
            "seats": [
                {
                    "wind": s["wind"],
                    "melds": s["melds"],
                    "flowers": s["flowers"],
                    "discards": s["discards"],
                    "concealed_count": s["concealed_count"],
                    "ting": s["ting"],
                    "concealed": s["concealed"],
                    # once the hand is over every hand is shown whole, no drawn tile apart
                    "drawn": None if over else s.get("drawn"),
                }
                for s in h["seats"]
            ],
        }
    return out


def legal_for(state: JSON, seat: int | None) -> list[JSON]:
    if seat is None or seat not in game.pending(state):
        return []
    return game.legal(state, seat)


def streams(name: str) -> JSON:
    views = FEW_VIEWS.get(name, VIEWS)
    lines = [json.loads(x) for x in (GOLDEN / f"{name}.jsonl").read_text().splitlines()]
    cfg = GameConfig.from_json(lines[0]["config"])
    st = new_game(cfg)
    state = dict(st.to_json())
    actions = [x["action"] for x in lines[1:]]
    middle = len(actions) // 2
    out: JSON = {"game": name, "ruleset": cfg.ruleset, "views": []}
    frames: dict[int | None, list[JSON]] = {v: [] for v in views}

    def snapshot(seq: int) -> None:
        for v in views:
            view = game.view(state, v)
            frames[v].append(
                {
                    "frame": {
                        "type": "snapshot",
                        "room": "r_golden",
                        "seq": seq,
                        "lobby": lobby(cfg.ruleset),
                        "you": {
                            "player": f"p_{v}" if v is not None else "p_spec",
                            "seat": v,
                            "spectator": v is None,
                        },
                        "game": view,
                        "legal": legal_for(state, v),
                    },
                    "expect": screen(view),
                }
            )

    snapshot(1)
    for i, action in enumerate(actions):
        st, events = apply(st, Action.from_json(action))
        state = dict(st.to_json())
        entry = {"events": [dict(e.to_json()) for e in events]}
        seq = i + 2
        for v in views:
            frames[v].append(
                {
                    "frame": {
                        "type": "events",
                        "room": "r_golden",
                        "seq": seq,
                        "events": visible_events(entry, v),
                        "legal": legal_for(state, v),
                    },
                    "expect": screen(game.view(state, v)),
                }
            )
        if i == middle:
            snapshot(seq)  # a reload: the snapshot as of this seq replaces everything
    for v in views:  # an expectation equal to the one before is left out (null): smaller files
        last = None
        for f in frames[v]:
            if f["expect"] == last:
                f["expect"] = None
            else:
                last = f["expect"]
    out["views"] = [{"seat": v, "frames": frames[v]} for v in views]
    return out


#: the golden games the replay viewer is tested on (two winners on one discard; 叮 with an
#: instant win)
REPLAY_GAMES = ("multiple_winners_double", "ting_instant")


def replay_log(name: str) -> JSON:
    """A golden game's ``game_log`` (one step per action) and, after each step, every seat's
    concealed tiles (sorted) and the scores, from the engine's views."""
    lines = [json.loads(x) for x in (GOLDEN / f"{name}.jsonl").read_text().splitlines()]
    cfg = GameConfig.from_json(lines[0]["config"])
    st = new_game(cfg)
    actions = [x["action"] for x in lines[1:]]
    steps: list[list[JSON]] = []
    expect: list[JSON] = []
    for action in actions:
        st, events = apply(st, Action.from_json(action))
        state = dict(st.to_json())
        steps.extend(game.open_events([{"events": [dict(e.to_json()) for e in events]}]) or [[]])
        hands = []
        for k in range(4):
            hand = game.view(state, k)["hand"]
            hands.append(sorted(hand["seats"][k]["concealed"]) if hand else [])
        expect.append({"concealed": hands, "scores": list(st.scores)})
    doc = {
        "ruleset": cfg.ruleset,
        "options": {},
        "game_no": 1,
        "seats": list(NAMES),
        "actions": actions,
        "summary": {"scores": list(st.scores)},
        "events": steps,
    }
    return {"game": name, "log": doc, "expect": expect}


def render_replay(name: str) -> str:
    return json.dumps(replay_log(name), separators=(",", ":"), sort_keys=True) + "\n"


def render(name: str) -> str:
    return json.dumps(streams(name), separators=(",", ":"), sort_keys=True) + "\n"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in GAMES:
        (OUT / f"{name}.json").write_text(render(name))
        print(f"wrote {OUT / name}.json")
    (OUT / "replay").mkdir(exist_ok=True)
    for name in REPLAY_GAMES:
        (OUT / "replay" / f"{name}.json").write_text(render_replay(name))
        print(f"wrote {OUT / 'replay' / name}.json")


if __name__ == "__main__":
    main()
