"""The table screen: one room at a time, its keys turned into proposed and confirmed moves."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import Group
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Input, RichLog, Static

from clients.cli import hostkeys, render
from clients.cli.advice import describe
from clients.cli.i18n import lang, tr
from clients.cli.lobby_screen import the_app
from clients.cli.model import RoomState
from protocol import messages as m

JSON = dict[str, Any]

if TYPE_CHECKING:
    from clients.cli.app import MahjongApp


def now_ms(offset: int = 0) -> int:
    """Now on the server's clock (``offset``: server minus local, from ping/pong)."""
    return int(time.time() * 1000) + offset


def kind_word(kind: str) -> str:
    """A claim's kind in the status line: ``pung`` in English, 碰 in Chinese."""
    return kind if lang() == "en" else tr(f"act_{kind}")


class HandView(Static, can_focus=True):
    """My hand; takes the focus so the table's keys reach the screen."""


#: the screen is laid out for 80-column terminals below this width (one column: the table,
#: your hand and the prompt first; the help panel left out; the result in place of the table)
COMPACT_BELOW = 120
#: the smallest terminal everything needed to play fits in (docs/cli.md)
MIN_SIZE = (80, 24)
#: after a letter that means nothing on the table (typing, not playing), move keys are
#: ignored this long (seconds)
TYPING_PAUSE = 1.5
#: keys whose action plays a move (with a confirmation, see TableScreen)
MOVE_KEYS = frozenset({"enter", "d", "t", "w", "p", "k", "c", "x", *"0123456789"})


class TableScreen(Screen[None]):
    """The room on screen (one at a time; Ctrl+O switches when you are in several).

    Moves are never played by one key by accident: a discard, 叮, win, kong, pung or chow
    key *proposes* the move (the prompt says which); ``Enter`` or the same key again plays
    it, any other key cancels it. ``x`` / ``0`` pass at once, unless you could win (then
    they ask too). A letter that means nothing on the table (someone typing a chat line
    without pressing Tab) is not passed on, and move keys are ignored for a moment after it.
    """

    AUTO_FOCUS = "#hand"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "cursor(-1)", "left", show=False),
        Binding("right,l", "cursor(1)", "right", show=False),
        Binding("home", "cursor_to(0)", "first tile", show=False),
        Binding("end", "cursor_to(-1)", "drawn tile", show=False),
        Binding("enter", "enter", "discard / confirm"),
        Binding("d", "discard", "discard"),
        Binding("t", "ting", "叮 ting"),
        Binding("w", "kind('win')", "win"),
        Binding("p", "kind('pung')", "pung"),
        Binding("k", "kong", "kong"),
        Binding("c", "kind('chow')", "chow"),
        Binding("x,0", "pass", "pass"),
        *(Binding(str(n), f"option({n})", show=False) for n in range(1, 10)),
        Binding("b", "toggle_bot", "bot"),
        Binding("f2", "setting('auto_win')", "auto-win", show=False),
        Binding("f3", "setting('no_claims')", "no claims", show=False),
        Binding("f4", "setting('auto_discard')", "auto-discard", show=False),
        Binding("ctrl+g", "toggle_bell", "bell", show=False),
        Binding("ctrl+o", "next_room", "next room", show=False),
        Binding("pageup", "scroll_result(-1)", "scroll the result", show=False),
        Binding("pagedown", "scroll_result(1)", "scroll the result", show=False),
        Binding("s", "sit", "sit", show=False),
        Binding("a", "add_bots", "add bots", show=False),
        Binding("r", "ready", "ready", show=False),
        Binding("g", "start", "start", show=False),
        Binding("m", "rematch", "rematch", show=False),
        Binding("L", "save_log", "save log", show=False),
        *(Binding(k, f"room_key('{k}')", show=False) for k in ("u", "e", "o", "K", "H", "P")),
        Binding("q", "leave", "leave", show=False),
        Binding("ctrl+r", "resync", "resync", show=False),
        Binding("tab", "focus_chat", "chat", show=False),
        Binding("escape", "focus_hand", "hand", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.cursor = 0
        self._help_key: tuple[object, ...] = ()
        self._draw_id: tuple[object, ...] = ()
        #: a proposed move waiting for its confirmation: (words, action, legal_seq)
        self.armed: tuple[str, JSON, int] | None = None
        self.typing_until = 0.0  # monotonic time until which move keys are ignored
        self._shown_room: str | None = None
        self._log_shown = 0  # of the room's log_total
        self._chat_shown = 0
        self._bell_seq = -1
        self.compact = False
        #: a room key waiting for its seat or member (clients/cli/hostkeys.py)
        self.pick: hostkeys.Pick | None = None

    def on_mount(self) -> None:
        # only the hand and the chat line take the focus: the table's keys must reach us
        self.query_one("#log", RichLog).can_focus = False
        self.query_one("#chatlog", RichLog).can_focus = False
        box = self.query_one("#result-box", VerticalScroll)
        box.can_focus = False
        box.border_title = tr("frame_result")
        box.border_subtitle = "PgUp/PgDn"
        self.query_one("#log", RichLog).border_title = tr("frame_table")
        self.query_one("#chatlog", RichLog).border_title = tr("frame_chat")

    def on_screen_resume(self) -> None:
        self.refresh_view()

    def on_resize(self) -> None:
        self.refresh_view()

    def compose(self) -> ComposeResult:
        yield Static("", id="header")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield Static("", id="lobby")
                yield Static("", id="seats")
                yield HandView("", id="hand")
                yield Static("", id="prompt")
                yield Static("", id="status")
            with Vertical(id="right"):
                yield Static("", id="help")
                with VerticalScroll(id="result-box"):
                    yield Static("", id="result")
                yield RichLog(id="log", wrap=True, max_lines=500)
                yield RichLog(id="chatlog", wrap=True, max_lines=200)
                yield Input(placeholder=tr("chat_placeholder"), id="chat")

    @property
    def mj(self) -> MahjongApp:
        return the_app(self)

    @property
    def room(self) -> RoomState | None:
        return self.mj.model.room

    def _armed_words(self, r: RoomState) -> str | None:
        a = self.armed
        if a is None:
            return None
        if a[2] != r.legal_seq or not r.can_act():
            self.armed = None  # the decision it was for is gone
            return None
        return a[0]

    def _rooms_pos(self, r: RoomState) -> tuple[int, int]:
        ids = list(self.mj.model.rooms)
        return (ids.index(r.id) + 1 if r.id in ids else 1, len(ids))

    def refresh_view(self) -> None:
        r = self.room
        if r is None:
            return
        app = self.mj
        style = app.tile_style
        now = now_ms(self.mj.model.clock_offset)
        self.compact = self.size.width < COMPACT_BELOW
        self.set_class(self.compact, "compact")
        if r.id != self._shown_room:  # another room on screen: nothing of the last one stays
            self._shown_room = r.id
            self.query_one("#log", RichLog).clear()
            self.query_one("#chatlog", RichLog).clear()
            self._log_shown = r.log_total - len(r.log)
            self._chat_shown = 0
            self.cursor, self.armed, self._help_key, self._draw_id = 0, None, (), ()
        self._write_panes(r)
        self.query_one("#header", Static).update(
            render.header(
                r, now, app.model.connected, rooms=self._rooms_pos(r), compact=self.compact
            )
        )
        lobby = self.query_one("#lobby", Static)
        lobby.display = r.status in ("lobby",)
        if lobby.display:
            lobby.update(render.lobby_panel(r, app.model.player_id))
        in_game = r.game is not None
        handover = r.phase in ("between_hands", "game_over") and bool(r.results or r.summary)
        result_only = self.compact and handover  # 80 columns: the result replaces the table
        self.query_one("#seats", Static).display = in_game and not result_only
        hand = self.query_one("#hand", HandView)
        hand.display = in_game and not result_only
        self.query_one("#help", Static).display = not self.compact
        self.query_one("#result-box", VerticalScroll).display = not self.compact or handover
        self.query_one("#log", RichLog).display = not result_only
        if hand.display and self.focused is None:
            hand.focus()
        self.query_one("#seats", Static).update(render.seats_table(r, style, compact=self.compact))
        tiles = self._sync_cursor(r)
        self.query_one("#hand", HandView).update(
            render.hand_line(r, style, self.cursor if tiles else None)
        )
        self.query_one("#prompt", Static).update(
            render.prompt(r, now, self._armed_words(r), host=r.is_host(self.mj.model.player_id))
        )
        status = app.status
        w, h = self.app.size
        if w < MIN_SIZE[0] or h < MIN_SIZE[1]:
            status = tr("too_small", w=w, h=h, mw=MIN_SIZE[0], mh=MIN_SIZE[1])
        self.query_one("#status", Static).update(Text(status, style="italic"))
        key = (r.id, r.seq, r.legal_seq, style.plain)
        if key != self._help_key and not self.compact:  # only change with the table
            self._help_key = key
            self.query_one("#help", Static).update(render.help_panel(r, style))
        result = render.summary_panel(r) if r.summary is not None else None
        bd = render.breakdown(r, style)
        parts = [x for x in (bd, result) if x is not None]
        if parts:
            self.query_one("#result", Static).update(Group(*parts))
        else:
            self.query_one("#result", Static).update(Text(tr("no_result"), style="dim"))
        self._maybe_bell(r)

    def _sync_cursor(self, r: RoomState) -> list[str]:
        """The tiles the cursor walks over, the cursor put on a new drawn tile. Called before
        any key uses the cursor too, not only on a redraw: a key pressed between a server
        message and its redraw acts on the tile the redraw will show chosen."""
        tiles = render.selectable(r)
        drawn = r.my_tiles()[1]
        me = r.my_view() or {}
        draw_id = (
            (r.hand or {}).get("number"),
            len(me.get("discards") or []),
            len(me.get("melds") or []),
            len(me.get("flowers") or []),
            drawn,
        )
        if drawn is not None and tiles and draw_id != self._draw_id:
            self._draw_id = draw_id
            self.cursor = len(tiles) - 1  # a new draw: the cursor starts on the drawn tile
        if tiles:
            self.cursor = max(0, min(self.cursor, len(tiles) - 1))
        return tiles

    def _write_panes(self, r: RoomState) -> None:
        """The narration and the chat of the room on screen, what is new since last time."""
        log = self.query_one("#log", RichLog)
        new = r.log_total - self._log_shown
        if new > 0:
            for line in r.log[-min(new, len(r.log)) :]:
                log.write(line)
            self._log_shown = r.log_total
        chat = self.query_one("#chatlog", RichLog)
        for c in r.chat[self._chat_shown :]:
            chat.write(Text.assemble((f"<{c.name}> ", "bold"), c.text))
        self._chat_shown = len(r.chat)

    def _maybe_bell(self, r: RoomState) -> None:
        """The terminal bell once per decision of yours that is more than a pass."""
        if not self.mj.bell_on or not r.can_act() or r.legal_seq == self._bell_seq:
            return
        if any(a.get("type") != "pass" for a in r.legal):
            self._bell_seq = r.legal_seq
            self.mj.bell()

    def tick(self) -> None:
        r = self.room
        if r is None:
            return
        now = now_ms(self.mj.model.clock_offset)
        try:
            header = self.query_one("#header", Static)
            prompt = self.query_one("#prompt", Static)
        except NoMatches:  # not composed yet (the screen is being switched to)
            return
        header.update(
            render.header(
                r, now, self.mj.model.connected, rooms=self._rooms_pos(r), compact=self.compact
            )
        )
        prompt.update(
            render.prompt(r, now, self._armed_words(r), host=r.is_host(self.mj.model.player_id))
        )

    # ----------------------------------------------------------------- keys

    def on_key(self, event: events.Key) -> None:
        """Before the bindings: cancel a proposed move on any other key, and keep typing
        (letters that mean nothing here) away from the move keys."""
        if isinstance(self.focused, Input):
            return  # the chat line has the keys
        key = event.key
        if self.pick is not None:
            event.stop()
            event.prevent_default()
            self._answer_pick(key)
            return
        if self.armed is not None and key not in MOVE_KEYS:
            self.armed = None
            self.mj.set_status(tr("cancelled"))
        if key in MOVE_KEYS and time.monotonic() < self.typing_until:
            event.stop()
            event.prevent_default()
            self.armed = None
            self.mj.set_status(tr("key_ignored", pressed=repr(key), hint=tr("typing_hint")))
            return
        if event.is_printable and key not in MOVE_KEYS and key not in self._meaningful():
            self.typing_until = time.monotonic() + TYPING_PAUSE
            event.stop()
            event.prevent_default()
            self.mj.set_status(tr("typing_hint"))

    def _meaningful(self) -> set[str]:
        """The printable keys (other than the move keys) that do something now."""
        keys = {"h", "l", "b", "q", "L", "K", "H", "P"}
        r = self.room
        if r is not None and r.status != "playing":
            keys |= {"u", "e", "o"}
        if r is not None and r.status == "lobby":
            keys |= {"s", "a", "r", "g"}
        if r is not None and r.status == "finished":
            keys |= {"m"}
        return keys

    # ------------------------------------------------------------------- actions

    def _act(self, action: JSON | None) -> None:
        r = self.room
        self.armed = None
        if r is None or action is None or not r.can_act():
            return
        self.mj.send_action(r, action)

    def _propose(self, action: JSON, words: str | None = None) -> None:
        """Arm ``action``, or play it when it is the one armed (the same key again)."""
        r = self.room
        if r is None or not r.can_act():
            return
        a = self.armed
        if a is not None and a[1] == action and a[2] == r.legal_seq:
            self._act(action)
            return
        self.armed = (words or describe(action), action, r.legal_seq)
        self.refresh_view()

    def action_enter(self) -> None:
        r = self.room
        a = self.armed
        if r is not None and a is not None and a[2] == r.legal_seq:
            self._act(a[1])
        else:
            self.action_discard()

    def action_cursor(self, d: int) -> None:
        r = self.room
        if r is None:
            return
        n = len(self._sync_cursor(r))
        if n:
            self.cursor = (self.cursor + d) % n
            self.refresh_view()

    def action_cursor_to(self, k: int) -> None:
        r = self.room
        if r is None:
            return
        n = len(self._sync_cursor(r))
        if n:
            self.cursor = k % n
            self.refresh_view()

    def _selected(self) -> str | None:
        r = self.room
        if r is None:
            return None
        tiles = self._sync_cursor(r)
        return tiles[self.cursor] if 0 <= self.cursor < len(tiles) else None

    def action_discard(self) -> None:
        r = self.room
        if r is None:
            return
        tile = self._selected()
        for a in r.legal_of("discard"):
            if a.get("tile") == tile:
                self._propose(a, tr("propose_discard", tile=tile))
                return
        if r.legal_of("discard"):
            self.mj.set_status(tr("cannot_discard", tile=tile))

    def action_ting(self) -> None:
        r = self.room
        if r is None:
            return
        tile = self._selected()
        for a in r.legal_of("ting"):
            if a.get("tile") == tile:
                self._propose(a, tr("propose_ting", tile=tile))
                return
        ready = [str(a.get("tile")) for a in r.legal_of("ting")]
        self.mj.set_status(
            tr("ting_possible", tiles=", ".join(ready)) if ready else tr("cannot_ting")
        )

    def action_kind(self, kind: str) -> None:
        r = self.room
        if r is None:
            return
        found = r.legal_of(kind)
        if len(found) == 1:
            self._propose(found[0])
        elif len(found) > 1:
            self.mj.set_status(tr("several", kind=kind_word(kind)))
        else:
            self.mj.set_status(tr("none_possible", kind=kind_word(kind)))

    def action_pass(self) -> None:
        r = self.room
        if r is None:
            return
        found = r.legal_of("pass")
        if not found:
            self.mj.set_status(tr("nothing_to_pass"))
        elif r.legal_of("win"):
            self._propose(found[0], tr("propose_pass_win"))
        else:
            self._act(found[0])

    def action_kong(self) -> None:
        r = self.room
        if r is None:
            return
        found = r.legal_of("kong", "concealed_kong", "added_kong")
        tile = self._selected()
        pick = [a for a in found if a.get("tile") in (None, tile)] if len(found) > 1 else found
        if len(pick) == 1:
            self._propose(pick[0])
        elif found:
            self.mj.set_status(tr("several_kongs"))
        else:
            self.mj.set_status(tr("no_kong"))

    def action_option(self, n: int) -> None:
        r = self.room
        if r is None:
            return
        opts = render.options(r)
        if 1 <= n <= len(opts):
            self._propose(opts[n - 1])

    def action_toggle_bot(self) -> None:
        self.mj.bot = not self.mj.bot
        self.mj.set_status(tr("bot_plays") if self.mj.bot else tr("you_play"))
        self.mj.maybe_autoplay()

    def action_setting(self, name: str) -> None:
        """F2 / F3 / F4: switch one of the seat's play settings the server keeps (auto-win,
        no claims, auto-discard: docs/protocol.md "Play settings")."""
        r = self.mj.model.room
        if r is None or r.seat is None:
            self.mj.set_status(tr("settings_seat"))
            return
        value = not bool(r.toggles.get(name))
        r.toggles[name] = value
        self.mj.send_request(m.SetToggles(room=r.id, **{name: value}))
        words = tr(f"setting_{name}")
        self.mj.set_status(tr("setting_is", setting=words, value=tr("on" if value else "off")))

    def action_toggle_bell(self) -> None:
        self.mj.bell_on = not self.mj.bell_on
        self.mj.set_status(tr("bell", value=tr("on" if self.mj.bell_on else "off")))

    def action_next_room(self) -> None:
        model = self.mj.model
        if len(model.rooms) < 2:
            self.mj.set_status(tr("one_room"))
            return
        r = model.switch_room()
        if r is not None:
            self.mj.set_status(tr("room_now", code=r.code))
        self.refresh_view()

    def action_scroll_result(self, d: int) -> None:
        box = self.query_one("#result-box", VerticalScroll)
        if d < 0:
            box.scroll_page_up(animate=False)
        else:
            box.scroll_page_down(animate=False)

    def action_sit(self) -> None:
        r = self.room
        if r is None:
            return
        for i, s in enumerate(r.seats()):
            if s is None:
                self.mj.send_request(m.Sit(room=r.id, seat=i))
                return
        self.mj.set_status(tr("no_free_seat"))

    def action_room_key(self, key: str) -> None:
        """u, e, o, K, H, P: stand up and the host's keys (clients/cli/hostkeys.py)."""
        r = self.room
        if r is None:
            return
        self.armed = None
        what = hostkeys.start(key, r, self.mj.model.player_id)
        if isinstance(what, hostkeys.Pick):
            self.pick = what
            self.mj.set_status(what.question)
        elif isinstance(what, str):
            if what:
                self.mj.set_status(what)
        else:
            self.mj.send_request(what)

    def _answer_pick(self, key: str) -> None:
        pick, self.pick = self.pick, None
        r = self.room
        if pick is None or r is None:
            return
        what = hostkeys.answer(pick, key, r)
        if what is None:
            self.mj.set_status(tr("cancelled"))
        elif isinstance(what, hostkeys.Pick):
            self.pick = what
            self.mj.set_status(what.question)
        else:
            self.mj.set_status("")
            self.mj.send_request(what)

    def action_add_bots(self) -> None:
        r = self.room
        if r is None:
            return
        for i, s in enumerate(r.seats()):
            if s is None:
                self.mj.send_request(m.AddBot(room=r.id, seat=i))

    def action_ready(self) -> None:
        r = self.room
        if r is None or r.seat is None:
            self.mj.set_status(tr("sit_first"))
            return
        mine = r.seats()[r.seat] or {}
        self.mj.send_request(m.Ready(room=r.id, ready=not mine.get("ready")))

    def action_start(self) -> None:
        r = self.room
        if r is not None:
            self.mj.send_request(m.StartGame(room=r.id))

    def action_rematch(self) -> None:
        r = self.room
        if r is not None:
            self.mj.send_request(m.Rematch(room=r.id))

    def action_leave(self) -> None:
        r = self.room
        if r is None:
            return
        if r.status == "playing":
            self.mj.set_status(tr("quit_hint"))
        else:
            self.mj.send_request(m.LeaveRoom(room=r.id))

    def action_save_log(self) -> None:
        r = self.room
        if r is not None:
            self.mj.save_log(r)

    def action_resync(self) -> None:
        r = self.room
        if r is not None:
            self.mj.send_request(m.Resync(room=r.id, since=0))

    def action_focus_chat(self) -> None:
        self.armed = None
        self.query_one("#chat", Input).focus()

    def action_focus_hand(self) -> None:
        self.query_one("#hand", HandView).focus()

    @on(Input.Submitted, "#chat")
    def chat(self, event: Input.Submitted) -> None:
        r = self.room
        text = event.value.strip()
        event.input.value = ""
        if r is not None and text:
            self.mj.send_request(m.Chat(room=r.id, text=text))
        self.action_focus_hand()
