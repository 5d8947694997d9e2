"""The connect and lobby screens: the server's address and your name, then creating,
joining and listing rooms."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Select, Static, Switch

from clients.cli.i18n import by_code, lang, ruleset_name, tr
from protocol import messages as m

JSON = dict[str, Any]

if TYPE_CHECKING:
    from clients.cli.app import MahjongApp

LENGTHS = ("one_round", "two_rounds", "four_rounds", "hands")


def lengths() -> list[tuple[str, str]]:
    """The game lengths to choose from, in words."""
    return [(tr(f"len_{k}"), k) for k in LENGTHS]


def the_app(screen: Screen[None]) -> MahjongApp:
    """The screen's application (the app module imports this one, hence the late import)."""
    from clients.cli.app import MahjongApp

    app = screen.app
    assert isinstance(app, MahjongApp)
    return app


class ConnectScreen(Screen[None]):
    def on_screen_resume(self) -> None:
        self.refresh_view()

    def compose(self) -> ComposeResult:
        app = the_app(self)
        with Vertical(id="connect-box"):
            yield Static(tr("connect_title"), id="title")
            yield Input(app.url, placeholder="ws://host:8765", id="url")
            yield Input(app.player_name, placeholder=tr("your_name"), id="name")
            yield Button(tr("connect"), id="connect", variant="primary")
            yield Static("", id="status")

    @on(Button.Pressed, "#connect")
    @on(Input.Submitted)
    def do_connect(self) -> None:
        app = the_app(self)
        url = self.query_one("#url", Input).value.strip()
        name = self.query_one("#name", Input).value.strip()
        if not url or not name:
            self.query_one("#status", Static).update(tr("enter_url_name"))
            return
        app.start_session(url, name)

    def refresh_view(self) -> None:
        app = the_app(self)
        self.query_one("#status", Static).update(app.status)


def ruleset_title(ruleset: str) -> str:
    """A rule set by its name (``Chinese Official (MCR), competition rules``), from the
    rule set's parameters (the ``table`` package installed with the client); its id else.
    In Chinese: its Chinese name."""
    if lang() != "en":
        return ruleset_name(ruleset)
    try:
        from table.params import get_params

        return f"{get_params(ruleset).title}"
    except Exception:
        return ruleset


class LobbyScreen(Screen[None]):
    def __init__(self) -> None:
        super().__init__()
        self._rulesets: list[str] = []

    def on_screen_resume(self) -> None:
        self.refresh_view()

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="lobby-box"):
            yield Static("", id="who")
            yield Static(tr("create_title"))
            yield Select[str]([], prompt=tr("rule_set"), id="ruleset", allow_blank=True)
            with Horizontal(classes="row"):
                yield Select[str](lengths(), value="four_rounds", id="length", allow_blank=False)
                yield Input("4", placeholder=tr("hands_placeholder"), id="hands", type="integer")
            with Horizontal(classes="row"):
                yield Static(tr("turn_s"), classes="lbl")
                yield Input("30", id="turn", type="integer")
                yield Static(tr("claim_s"), classes="lbl")
                yield Input("10", id="claim", type="integer")
                yield Static(tr("pause_s"), classes="lbl")
                yield Input("3", id="pause", type="integer")
            with Horizontal(classes="row"):
                yield Switch(False, id="public")
                yield Static(tr("public_off"), id="public-label", classes="lbl")
            yield Button(tr("create"), id="create", variant="primary")
            yield Static(tr("join_title"))
            with Horizontal(classes="row"):
                yield Input("", placeholder=tr("code_placeholder"), id="code")
                yield Button(tr("join"), id="join")
            yield Static(tr("public_title"))
            with Horizontal(classes="row"):
                yield Button(tr("refresh"), id="refresh")
            yield Static("", id="rooms")
        yield Static("", id="status")

    def refresh_view(self) -> None:
        app = the_app(self)
        model = app.model
        self.query_one("#who", Static).update(
            Text(tr("connected_to", url=app.url, name=model.name), style="bold")
        )
        sel = self.query_one("#ruleset", Select)
        opts = [(f"{ruleset_title(r)} — {r}", r) for r in model.rulesets]
        if opts and self._rulesets != model.rulesets:
            self._rulesets = list(model.rulesets)
            sel.set_options(opts)
            sel.value = model.rulesets[0]
        rooms = Text()
        for rm in model.room_list:
            status = by_code("room_status", rm.get("status"), str(rm.get("status")))
            free = tr("free_seats", n=rm.get("seats_free"))
            players = ", ".join(rm.get("players") or [])
            rooms.append(f"{rm.get('code')}  {rm.get('ruleset')}  {status}  {free}  {players}\n")
        self.query_one("#rooms", Static).update(rooms or Text(tr("none"), style="dim"))
        self.query_one("#status", Static).update(app.status)

    @on(Switch.Changed, "#public")
    def public_changed(self, event: Switch.Changed) -> None:
        self.query_one("#public-label", Static).update(
            tr("public_on") if event.value else tr("public_off")
        )

    @on(Button.Pressed, "#create")
    def create(self) -> None:
        app = the_app(self)
        ruleset = self.query_one("#ruleset", Select).value
        if not isinstance(ruleset, str):
            app.set_status(tr("choose_ruleset"))
            return
        length = self.query_one("#length", Select).value
        options: JSON = {"length": length}
        try:
            if length == "hands":
                options["hands"] = int(self.query_one("#hands", Input).value or "4")
            options["turn_seconds"] = int(self.query_one("#turn", Input).value or "30")
            options["claim_seconds"] = int(self.query_one("#claim", Input).value or "10")
            options["hand_pause_ms"] = 1000 * int(self.query_one("#pause", Input).value or "3")
        except ValueError:
            app.set_status(tr("numbers_only"))
            return
        options["public"] = self.query_one("#public", Switch).value
        app.model.expect_room = True
        app.send_request(m.CreateRoom(ruleset=ruleset, options=options))

    @on(Button.Pressed, "#join")
    @on(Input.Submitted, "#code")
    def join(self) -> None:
        app = the_app(self)
        code = self.query_one("#code", Input).value.strip()
        if code:
            app.model.expect_room = True
            app.send_request(m.JoinRoom(code=code))

    @on(Button.Pressed, "#refresh")
    def refresh_rooms(self) -> None:
        app = the_app(self)
        app.send_request(m.ListRooms())
