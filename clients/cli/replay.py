"""``mahjong-cli replay FILE``: step through a finished game's log.

The log is the ``game_log`` the server sends after a game (key ``L`` at the end of a game
saves it): the rule set, the options, the seat names and every action. The pure table engine
(:mod:`table`) re-applies the actions one by one; each step is shown with the same renderer
as the live table, all hands open.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import RichLog, Static

from clients.cli import render
from clients.cli.i18n import tr
from clients.cli.model import ClientModel, RoomState
from clients.cli.reducers import action_word
from clients.cli.tiles import TileStyle

JSON = dict[str, Any]

#: the server's game lengths (room option ``length``) as table rounds
LENGTH_ROUNDS = {"one_round": 1, "two_rounds": 2, "four_rounds": 4}


class ReplayError(Exception):
    pass


class Replay:
    """The states of a finished game after each action (computed once, up front)."""

    def __init__(self, log: JSON) -> None:
        import table

        self.log = log
        seats = log.get("seats") or [None] * 4
        self.names = [n or tr("seat_n", n=i + 1) for i, n in enumerate(seats)]
        options = log.get("options") or {}
        length = options.get("length")
        try:
            # the room's house rules and settlement options, as the server set the table
            # (server.room.game.new_game): without them a replay scores its wins differently
            cfg = table.GameConfig(
                str(log["ruleset"]),
                rounds=LENGTH_ROUNDS.get(str(length)),
                max_hands=options.get("hands") if length == "hands" else None,
                house_rules=tuple(sorted((options.get("house_rules") or {}).items())),
                settlement=tuple(sorted((options.get("settlement") or {}).items())),
            )
            state = table.new_game(cfg)
        except (KeyError, ValueError, AttributeError, table.TableError) as exc:
            raise ReplayError(f"cannot start the game of this log: {exc}") from None
        self.states = [state]
        self.events: list[list[JSON]] = [[]]
        self.actions: list[JSON] = [{}]
        for a in log.get("actions") or []:
            try:
                state, events = table.apply(state, table.Action.from_json(a))
            except table.TableError as exc:
                raise ReplayError(f"action {len(self.states)} rejected: {exc}") from None
            self.states.append(state)
            self.actions.append(dict(a))
            seen = (table.view_event(e, None) for e in events)
            self.events.append([dict(v) for v in seen if v is not None])

    def __len__(self) -> int:
        return len(self.states)

    def room_at(self, i: int) -> RoomState:
        """Step ``i`` as a room seen from above: the public view, every hand open."""
        import table

        st = self.states[i]
        view = dict(table.view(st, None))
        hand = view.get("hand")
        if hand is not None:
            seats = []
            for k, sv in enumerate(hand["seats"]):
                own = table.view(st, k)["hand"]["seats"][k]
                seats.append({**sv, "concealed": own["concealed"], "melds": own["melds"]})
            view["hand"] = {**hand, "seats": seats}
        r = RoomState(id="replay")
        r.lobby = {
            "code": "replay",
            "ruleset": self.log.get("ruleset"),
            "status": "playing",
            "seats": [{"name": n, "bot": False, "ready": True} for n in self.names],
        }
        r.game = view
        r.seat = None
        if hand is not None:
            r.last_discard_seat = hand.get("discarder")
        for j in range(i, 0, -1):  # the latest hand result up to this step
            found = [e for e in self.events[j] if e.get("type") in ("hand_won", "hand_drawn")]
            if found:
                if not any(
                    e.get("type") == "hand_started"
                    for k in range(j + 1, i + 1)
                    for e in self.events[k]
                ):
                    ctx = self._context(j - 1)  # the table of the hand this result ended
                    r.results = [{**e, "context": ctx} for e in found]
                break
        return r

    def _context(self, i: int) -> JSON:
        """Round, dealer and seat winds of the hand in play at step ``i``."""
        import table

        v = table.view(self.states[i], None)
        h = v.get("hand") or {}
        return {
            "number": h.get("number"),
            "round_wind": v.get("round_wind"),
            "dealer": v.get("dealer"),
            "streak": v.get("streak"),
            "winds": [sv.get("wind") for sv in h.get("seats") or []],
        }

    def narrate(self, i: int) -> list[str]:
        """What step ``i`` did, in words."""
        if i == 0:
            return [tr("replay_set_up")]
        prev = self.room_at(i - 1)
        model = ClientModel()
        out: list[str] = []
        a = self.actions[i]
        who = self.names[a["seat"]] if isinstance(a.get("seat"), int) else tr("replay_table")
        out.append(f"#{i}: {who}: {action_word(a.get('type'))} {a.get('tile') or ''}".rstrip())
        for e in self.events[i]:
            if prev.game is not None:
                out.extend("   " + x for x in model._event(prev, e))
        return out


class ReplayApp(App[None]):
    CSS = """
    #header { height: 1; background: $boost; }
    #left { width: 3fr; }
    #right { width: 2fr; }
    #result-box { height: 1fr; }
    #log { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,n", "step(1)", "next"),
        Binding("left,p", "step(-1)", "back"),
        Binding("]", "hand(1)", "next hand"),
        Binding("[", "hand(-1)", "previous hand"),
        Binding("home", "goto(0)", "start"),
        Binding("end", "goto(-1)", "end"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, replay: Replay, plain: bool = False, colour: bool = True) -> None:
        super().__init__()
        self.replay = replay
        self.i = 0
        self.style = TileStyle(plain=plain, colour_on=colour)

    def compose(self) -> ComposeResult:
        yield Static("", id="header")
        with Horizontal():
            with Vertical(id="left"):
                yield Static("", id="seats")
                yield Static("", id="keys")
            with Vertical(id="right"):
                with VerticalScroll(id="result-box"):
                    yield Static("", id="result")
                yield RichLog(id="log", wrap=True)

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        r = self.replay.room_at(self.i)
        head = render.header(r, 0)
        head.append(tr("replay_step", i=self.i, n=len(self.replay) - 1), style="bold")
        self.query_one("#header", Static).update(head)
        self.query_one("#seats", Static).update(render.seats_table(r, self.style))
        self.query_one("#keys", Static).update(Text(tr("replay_keys"), style="dim"))
        bd = render.breakdown(r, self.style)
        self.query_one("#result", Static).update(bd if bd is not None else Text(""))
        log = self.query_one("#log", RichLog)
        for line in self.replay.narrate(self.i):
            log.write(line)

    def action_step(self, d: int) -> None:
        self.action_goto(self.i + d)

    def action_goto(self, i: int) -> None:
        n = len(self.replay)
        self.i = max(0, min(n - 1, i if i >= 0 else n - 1))
        self.show()

    def action_hand(self, d: int) -> None:
        i = self.i + d
        while 0 < i < len(self.replay) - 1:
            if any(e.get("type") in ("hand_started", "hand_ended") for e in self.replay.events[i]):
                break
            i += d
        self.action_goto(i)


def fetch(url: str, token: str | None = None) -> JSON:
    """A game's log from a server's archive (``/api/games/<id>/log``: docs/archive.md);
    ``token``: the player's, for a game of a private room."""
    import urllib.error
    import urllib.request

    req = urllib.request.Request(url, headers={"Accept": "application/json"})
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            data = json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        raise ReplayError(f"{url}: HTTP {exc.code} {exc.reason}") from None
    except (OSError, ValueError) as exc:
        raise ReplayError(f"cannot read {url}: {exc}") from None
    if not isinstance(data, dict):
        raise ReplayError(f"{url} is not a game log")
    return data


def load(path: Path | str, token: str | None = None) -> Replay:
    """A replay of a saved log file, or of a game in a server's archive (an ``http(s)://``
    URL of ``/api/games/<id>/log``)."""
    if isinstance(path, str) and path.startswith(("http://", "https://")):
        data: object = fetch(path, token)
    else:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError) as exc:
            raise ReplayError(f"cannot read {path}: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("game_log"), dict):
        data = data["game_log"]  # the archive's answer (docs/archive.md)
    if isinstance(data, dict) and "log" in data and "actions" not in data:
        data = data["log"]  # a saved game_log message
    if not isinstance(data, dict) or "actions" not in data:
        raise ReplayError(f"{path} is not a game log")
    return Replay(data)
