"""The Textual application: the session, the model and the token file, behind the screens.

The screens are :mod:`clients.cli.lobby_screen` (connect, lobby) and
:mod:`clients.cli.table_screen` (the table). Thin: every screen is redrawn from the :class:`~clients.cli.model.ClientModel` after each
server message (see :mod:`clients.cli.render`); keys turn into protocol messages sent by the
:class:`~clients.cli.session.Session`.
"""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path
from typing import Any

from textual.app import App

from clients.cli import autoplay
from clients.cli.i18n import error_text, tr
from clients.cli.lobby_screen import ConnectScreen, LobbyScreen
from clients.cli.model import ClientModel, RoomState
from clients.cli.session import Session, normalize_url
from clients.cli.table_screen import TableScreen
from clients.cli.tiles import TileStyle
from protocol import messages as m

JSON = dict[str, Any]


#: seconds between a server message and the redraw (messages in between share it)
REDRAW_DELAY = 0.03


def error_status(reply: m.Error) -> str:
    """A server error on the status line: in words by its code, and the code."""
    return tr("error_status", message=error_text(reply.code, reply.message), code=reply.code)


class MahjongApp(App[None]):
    """``mahjong-cli``: play at a server."""

    TITLE = "mahjong"
    CSS = """
    #connect-box { width: 60; height: auto; margin: 2 4; }
    #lobby-box { margin: 0 1; height: 1fr; scrollbar-size-vertical: 1; }
    #lobby-box > Static { margin: 1 0 0 0; }
    #lobby-box > #who { margin: 0; }
    #ruleset { width: 100%; max-width: 90; }
    .row { height: auto; }
    .lbl { width: auto; padding: 1 1; }
    #length { width: 34; }
    #hands, #turn, #claim, #pause { width: 10; }
    #code { width: 20; }
    LobbyScreen #status { dock: bottom; height: auto; padding: 0 1; color: $warning; }
    #header { height: auto; max-height: 2; background: $boost; }
    #left { width: 3fr; }
    #right { width: 2fr; }
    #lobby { height: auto; border: round $accent; }
    #seats { height: auto; }
    #hand { height: auto; padding: 1 1; border: round $primary; }
    #hand:focus { border: round $accent; }
    #prompt { height: auto; padding: 0 1; }
    TableScreen #status { height: auto; padding: 0 1; color: $warning; }
    #help { height: auto; border: round $secondary; }
    #result-box { height: 1fr; border: round $success; scrollbar-size-vertical: 1; }
    #log { height: 12; border: round $panel; }
    #chatlog { height: 8; border: round $panel; }
    #chat { height: 3; }
    TableScreen.compact #body { layout: vertical; }
    TableScreen.compact #left { width: 100%; height: auto; }
    TableScreen.compact #right { width: 100%; height: 1fr; }
    TableScreen.compact #lobby { border: none; }
    TableScreen.compact #hand { padding: 0 1; }
    TableScreen.compact #result-box { height: 1fr; min-height: 6; }
    TableScreen.compact #log { height: 1fr; min-height: 2; border: none; }
    TableScreen.compact #chatlog { height: 3; border: none; border-top: solid $panel; }
    TableScreen.compact #chat { height: 1; border: none; padding: 0 1; }
    """

    def __init__(
        self,
        url: str = "ws://127.0.0.1:8765",
        name: str = "",
        *,
        plain: bool = False,
        colour: bool = True,
        bot: bool = False,
        bell: bool = False,
        create: str | None = None,
        create_options: JSON | None = None,
        join: str | None = None,
        token: str | None = None,
        token_file: Path | None = None,
        autoconnect: bool = False,
        ca_file: str | None = None,
        insecure: bool = False,
    ) -> None:
        super().__init__()
        self.url = url
        self.ca_file = ca_file
        self.insecure = insecure
        self.player_name = name
        self.tile_style = TileStyle(plain=plain, colour_on=colour)
        self.bot = bot
        self.bell_on = bell  # the terminal bell when a decision of yours comes (Ctrl+G)
        self.create = create
        self.create_options = create_options or {}
        self.join = join
        self.token = token
        self.token_file = token_file
        self.autoconnect = autoconnect
        self.model = ClientModel()
        self.session: Session | None = None
        self.status = ""
        self.rng = random.Random()
        self._did_auto = False
        self._refresh_pending = False
        self._saved: str | None = None

    # ----------------------------------------------------------------- lifecycle

    def on_mount(self) -> None:
        self.install_screen(ConnectScreen(), "connect")
        self.install_screen(LobbyScreen(), "lobby")
        self.install_screen(TableScreen(), "table")
        self.push_screen("connect")
        self.set_interval(0.25, self._tick)
        if self.autoconnect and self.url and self.player_name:
            self.start_session(self.url, self.player_name)

    def start_session(self, url: str, name: str) -> None:
        url = normalize_url(url)
        self.url, self.player_name = url, name
        if self.session is not None:
            return
        token = self.token or self._saved_token(url)
        self.session = Session(
            url,
            name,
            self.model,
            self._server_update,
            token,
            self.set_status,
            ca_file=self.ca_file,
            insecure=self.insecure,
        )
        self.set_status(tr("connecting", url=url))
        self.run_worker(self.session.run(), name="session", exclusive=True)

    async def on_unmount(self) -> None:
        if self.session is not None:
            await self.session.close()

    # --------------------------------------------------------------- tokens on disk

    def _saved_token(self, url: str) -> str | None:
        if self.token_file is None:
            return None
        try:
            data = json.loads(self.token_file.read_text())
        except (OSError, ValueError):
            return None
        tok = data.get(url) if isinstance(data, dict) else None
        return tok if isinstance(tok, str) else None

    def _save_token(self) -> None:
        if self.token_file is None or self.model.token is None:
            return
        try:
            data = json.loads(self.token_file.read_text())
            if not isinstance(data, dict):
                data = {}
        except (OSError, ValueError):
            data = {}
        data[self.url] = self.model.token
        try:
            self.token_file.parent.mkdir(parents=True, exist_ok=True)
            self.token_file.write_text(json.dumps(data))
            self.token_file.chmod(0o600)
        except OSError:
            pass

    # ------------------------------------------------------------------ updates

    def set_status(self, text: str) -> None:
        self.status = text
        self.schedule_refresh()

    def schedule_refresh(self) -> None:
        """Redraw soon, once: a burst of server messages costs one redraw."""
        if self._refresh_pending or not self.screen_stack:
            return
        self._refresh_pending = True
        self.set_timer(REDRAW_DELAY, self._redraw)

    def _redraw(self) -> None:
        self._refresh_pending = False
        if not self.screen_stack:
            return  # shutting down
        scr = self.screen
        if hasattr(scr, "refresh_view") and scr.is_mounted:
            with contextlib.suppress(Exception):  # a screen mid-switch
                scr.refresh_view()

    def _server_update(self, lines: list[str]) -> None:
        # the narration is kept per room by the model (RoomState.log): the table screen
        # shows the log of the room on screen only
        if not self.screen_stack:
            return  # shutting down
        if self.model.connected and self.model.token != self._saved:
            self._saved = self.model.token
            self._save_token()
        if self.model.connected and not self._did_auto:
            self._did_auto = True
            self._after_welcome()
        target = "connect"
        if self.model.connected or self.model.token is not None:
            target = "table" if self.model.room is not None else "lobby"
        if self._current_name() != target:
            self.switch_screen(target)
        self.schedule_refresh()
        self.maybe_autoplay()

    def _current_name(self) -> str:
        for name in ("connect", "lobby", "table"):
            if self.screen is self.get_screen(name):
                return name
        return ""

    def _after_welcome(self) -> None:
        if self.model.rooms:
            return  # resumed into a room
        if self.create:
            self.model.expect_room = True
            self.send_request(m.CreateRoom(ruleset=self.create, options=self.create_options))
        elif self.join:
            self.model.expect_room = True
            self.send_request(m.JoinRoom(code=self.join))

    def _tick(self) -> None:
        if not self.screen_stack:
            return  # shutting down
        scr = self.screen
        if isinstance(scr, TableScreen) and scr.is_mounted:
            scr.tick()

    # ------------------------------------------------------------------- sending

    def send_request(self, msg: m.ClientMessage) -> None:
        async def go() -> None:
            if self.session is None:
                return
            try:
                reply = await self.session.request(msg)
            except Exception as exc:
                self.set_status(f"{msg.type}: {exc or tr('no_reply')}")
                return
            if isinstance(reply, m.Error):
                if isinstance(msg, m.CreateRoom | m.JoinRoom):
                    self.model.expect_room = False  # no room is coming
                self.set_status(error_status(reply))
            else:
                self.set_status("")

        self.run_worker(go(), group="requests")

    def send_action(self, r: RoomState, action: JSON) -> None:
        r.mark_acted()

        async def go() -> None:
            if self.session is None:
                return
            reply = await self.session.act(r.id, action)
            r.action_done(reply)
            if isinstance(reply, m.Error):
                self.set_status(error_status(reply))
            elif reply is None:
                self.set_status(tr("no_answer"))
            self.maybe_autoplay()

        self.run_worker(go(), group="actions")

    def maybe_autoplay(self) -> None:
        if not self.bot:
            return
        r = self.model.room
        if r is None or not r.can_act():
            return
        action = autoplay.choose(r, self.rng)
        if action is not None:
            self.send_action(r, action)

    def save_log(self, r: RoomState) -> None:
        async def go() -> None:
            if self.session is None:
                return
            try:
                reply = await self.session.request(m.GetLog(room=r.id))
            except Exception as exc:
                self.set_status(f"get_log: {exc}")
                return
            if isinstance(reply, m.GameLog):
                path = Path(f"mahjong-{r.code}-{r.lobby.get('game_no', 0)}.json")
                path.write_text(json.dumps(reply.log, indent=1))
                self.set_status(tr("saved_log", path=path, command=f"mahjong-cli replay {path}"))
            elif isinstance(reply, m.Error):
                self.set_status(error_status(reply))

        self.run_worker(go(), group="requests")
