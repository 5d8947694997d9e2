"""The client state: server messages in, a model the UI renders out.

Pure (no I/O, no clock: "now" is a parameter). :meth:`ClientModel.apply` takes one typed
server message (:mod:`protocol.messages`) and updates the model; it returns narration lines
for the log. Everything shown comes from what the server sent: the ``snapshot`` view (the
table's ``view(state, seat)``) and the ``events`` stream (``view_event``), which is applied
to that view the same way the engine changed its state, so between snapshots the client
holds exactly the view the server would send now.

A gap in the event stream (a ``seq`` that is not the next one) sets
:attr:`RoomState.needs_resync`; the session then asks for the missing entries.

A message the model cannot apply -- a missing or ill-typed field, an event that does not fit
the view (a seat that does not exist, a tile we do not hold) -- is never trusted blindly: the
model logs a warning, marks the room :attr:`RoomState.stale` (nothing more is applied to it,
no action is offered) and asks for a fresh ``snapshot`` (``resync {since: 0}``), which
replaces the view. Reconnecting (``hello``) brings a snapshot too.
"""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass, field
from typing import Any

from clients.cli.i18n import by_code, error_text, lang, ruleset_name, tr
from clients.cli.reducers import MalformedMessage, apply_event, apply_notice
from clients.cli.tiles import sort_tiles
from protocol import messages as m

JSON = dict[str, Any]

log = logging.getLogger("mahjong.cli.model")

OVER = ("between_hands", "game_over")
#: narration lines kept per room (the log pane shows the current room's)
LOG_LINES = 500
#: malformed snapshots in a row after which the model stops asking (until it reconnects)
MAX_BAD_SNAPSHOTS = 3


#: what applying a malformed message can raise (server data indexed as the protocol says)
_MALFORMED = (MalformedMessage, KeyError, IndexError, TypeError, ValueError, AttributeError)


@dataclass
class ChatLine:
    name: str
    text: str
    t: int


@dataclass
class RoomState:
    """One room as this client sees it."""

    id: str
    seq: int = 0
    lobby: JSON = field(default_factory=dict)
    seat: int | None = None
    game: JSON | None = None
    legal: list[JSON] = field(default_factory=list)
    legal_seq: int = 0  # the room seq at which ``legal`` was sent
    deadline: int | None = None  # ms since the epoch (server clock) of this seat's timeout
    chat: list[ChatLine] = field(default_factory=list)
    results: list[JSON] = field(default_factory=list)  # hand_won / hand_drawn events
    hand_ended: JSON | None = None  # the last hand_ended event (all hands revealed)
    ledger: list[JSON] = field(default_factory=list)  # payment events of this game
    summary: JSON | None = None  # the game_over notice's summary
    needs_resync: bool = False
    acted_seq: int = -1  # the legal_seq we last acted on
    ack_seq: int = 0  # the commit seq of the last acknowledged action
    action_pending: bool = False  # an action is on its way (no ack / error yet)
    last_discard_seat: int | None = None  # whose river ends with the latest discard
    #: the hand ended with another seat's concealed kong still hidden: no event reveals its
    #: tiles, so the session asks for a fresh snapshot (which shows every hand)
    wants_snapshot: bool = False
    #: the view is out of step with the server (a message could not be applied): nothing is
    #: applied and no action offered until the fresh snapshot asked for arrives
    stale: bool = False
    bad_snapshots: int = 0  # malformed snapshots in a row
    #: the server's hints for this seat (the ``hints`` reply, docs/protocol.md) and the
    #: legal_seq they were asked for
    hints: JSON | None = None
    hints_asked: int = -1
    #: this seat's play settings as the server keeps them (``snapshot.you.toggles``)
    toggles: JSON = field(default_factory=dict)
    #: this room's narration (what the log pane shows while the room is on screen)
    log: list[str] = field(default_factory=list)
    log_total: int = 0  # lines ever added to ``log`` (it keeps the last LOG_LINES)

    def resync_from_scratch(self, snapshot_failed: bool = False) -> None:
        """Drop the view's authority and ask for a fresh snapshot (bounded for snapshots
        that themselves cannot be applied)."""
        self.stale = True
        self.legal = []
        self.deadline = None
        self.needs_resync = False
        if snapshot_failed:
            self.bad_snapshots += 1
        self.wants_snapshot = self.bad_snapshots < MAX_BAD_SNAPSHOTS

    # ----------------------------------------------------------------- lobby helpers

    @property
    def code(self) -> str:
        return str(self.lobby.get("code", ""))

    @property
    def status(self) -> str:
        return str(self.lobby.get("status", "lobby"))

    @property
    def ruleset(self) -> str:
        return str(self.lobby.get("ruleset", ""))

    def seats(self) -> list[JSON | None]:
        seats = self.lobby.get("seats") or [None] * 4
        return list(seats)

    def name_of(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        seats = self.seats()
        s = seats[seat] if 0 <= seat < len(seats) else None
        if not s:
            return tr("seat_n", n=seat + 1)
        return str(s.get("name") or tr("seat_n", n=seat + 1))

    # ------------------------------------------------------------------ game helpers

    @property
    def phase(self) -> str | None:
        return None if self.game is None else str(self.game.get("phase"))

    @property
    def hand(self) -> JSON | None:
        return None if self.game is None else self.game.get("hand")

    def seat_view(self, seat: int) -> JSON | None:
        h = self.hand
        if h is None:
            return None
        seats = h.get("seats") or []
        return seats[seat] if 0 <= seat < len(seats) else None

    def my_view(self) -> JSON | None:
        return None if self.seat is None else self.seat_view(self.seat)

    def my_tiles(self) -> tuple[list[str], str | None]:
        """My concealed tiles sorted, without the drawn tile, and the drawn tile apart."""
        me = self.my_view()
        if me is None or me.get("concealed") is None:
            return [], None
        tiles = sort_tiles(me["concealed"])
        drawn = me.get("drawn")
        if drawn is not None and drawn in tiles:
            tiles.remove(drawn)
        return tiles, drawn

    def legal_of(self, *types: str) -> list[JSON]:
        return [a for a in self.legal if a.get("type") in types]

    def can_act(self) -> bool:
        """Whether ``legal`` may be acted on now: something to do, no action of ours in
        flight, not already answered, and not older than the commit of our last action
        (acks and events travel separately: an older ``legal`` is stale)."""
        return (
            bool(self.legal)
            and not self.action_pending
            and self.legal_seq > self.acted_seq
            and self.legal_seq >= self.ack_seq
        )

    def mark_acted(self) -> None:
        self.acted_seq = self.legal_seq
        self.action_pending = True

    def action_done(self, reply: m.ServerMessage | None) -> None:
        """The answer to our action: an ack moves ``ack_seq`` (a held one clears the prompt);
        an error or no answer at all lets us decide again on the same ``legal`` (nothing
        was applied)."""
        self.action_pending = False
        if isinstance(reply, m.Ack):
            self.ack_seq = max(self.ack_seq, reply.seq)
            if reply.held and self.legal_seq <= reply.seq:
                # an answer to a claim window, held until it closes (no commit: the frame
                # of the close brings the next question): the prompt is answered
                self.legal = []
                self.deadline = None
        else:
            self.acted_seq = -1

    def time_left(self, now_ms: int) -> float | None:
        if self.deadline is None or not self.legal:
            return None
        return max(0.0, (self.deadline - now_ms) / 1000)

    def is_host(self, player: str | None) -> bool:
        return player is not None and self.lobby.get("host") == player

    @property
    def paused(self) -> JSON | None:
        """Who paused the game (``{player, name, since}``), None: not paused."""
        p = self.lobby.get("paused")
        return dict(p) if isinstance(p, dict) else None

    def members(self) -> list[tuple[str, str, str]]:
        """Every member as (number key, player id, name): the seated players by seat
        ("1"…"4"), then the spectators ("5"…"9"; more are not numbered)."""
        out = [
            (str(i + 1), str(s["player"]), str(s.get("name", "?")))
            for i, s in enumerate(self.seats())
            if s and s.get("player")
        ]
        for n, sp in enumerate(self.lobby.get("spectators") or []):
            if n + 5 > 9:
                break
            out.append((str(n + 5), str(sp.get("player")), str(sp.get("name", "?"))))
        return out

    def hand_context(self) -> JSON | None:
        """The finished hand's table -- its number, round wind, dealer and seat winds -- while
        its result is on screen: after a hand ends the view already has the next hand's
        dealer and winds (``next_hand``), which are shown only once that hand starts."""
        if self.phase not in OVER or not self.results:
            return None
        ctx = self.results[-1].get("context")
        h = self.hand
        if not isinstance(ctx, dict) or h is None or ctx.get("number") != h.get("number"):
            return None
        return ctx

    def last_win(self) -> JSON | None:
        for r in reversed(self.results):
            if r.get("type") == "hand_won":
                return r
        return None


class ClientModel:
    """Everything the client knows, built only from server messages."""

    def __init__(self) -> None:
        self.player_id: str | None = None
        self.token: str | None = None
        self.name: str = ""
        self.rulesets: list[str] = []
        self.limits: JSON = {}
        self.server: str = ""
        self.rooms: dict[str, RoomState] = {}
        #: the room on screen: set by the first room, by a room we asked to create or join
        #: (:attr:`expect_room`), or by switching; never by a resync of another room
        self.current: str | None = None
        #: we asked to create or join a room: its first snapshot puts it on screen
        self.expect_room = False
        self.room_list: list[JSON] = []
        self.last_error: m.Error | None = None
        self.closing: m.Closing | None = None
        self.connected = False
        self.resumed = False
        #: server clock minus ours, in ms (measured with ping/pong by the session):
        #: ``deadline`` values are server time
        self.clock_offset = 0

    @property
    def room(self) -> RoomState | None:
        return None if self.current is None else self.rooms.get(self.current)

    # ------------------------------------------------------------------------ apply

    def apply(self, msg: m.ServerMessage) -> list[str]:
        """Apply one server message; return narration lines for the log. A message that
        cannot be applied resynchronises its room (see the module docstring)."""
        try:
            lines = self._apply(msg)
        except _MALFORMED as exc:
            rid = getattr(msg, "room", None)
            r = self.rooms.get(rid) if isinstance(rid, str) else None
            log.warning(
                "cannot apply %s from the server (%s: %s); %s",
                type(msg).__name__,
                type(exc).__name__,
                exc,
                "asking for a fresh snapshot" if r is not None else "ignored",
            )
            if r is None:
                return []
            r.resync_from_scratch(snapshot_failed=isinstance(msg, m.Snapshot))
            if not r.wants_snapshot:
                log.error("room %s: the server's snapshots cannot be applied; giving up", rid)
                lines = [tr("log_out_of_step_stop")]
            else:
                lines = [tr("log_out_of_step")]
        rid = getattr(msg, "room", None)
        r = self.rooms.get(rid) if isinstance(rid, str) else None
        if r is not None and lines:
            r.log.extend(lines)
            r.log_total += len(lines)
            del r.log[:-LOG_LINES]
        return lines

    def switch_room(self) -> RoomState | None:
        """Put the next room we are in on screen (the rooms in the order we joined them)."""
        ids = list(self.rooms)
        if not ids:
            return None
        k = ids.index(self.current) + 1 if self.current in ids else 0
        self.current = ids[k % len(ids)]
        return self.room

    def _apply(self, msg: m.ServerMessage) -> list[str]:
        if isinstance(msg, m.Welcome):
            self.player_id = msg.player_id
            self.token = msg.token
            self.name = msg.name
            self.rulesets = list(msg.rulesets)
            self.limits = dict(msg.limits)
            self.server = msg.server
            self.connected = True
            self.resumed = msg.resumed
            for rid in list(self.rooms):
                if rid not in msg.rooms:
                    del self.rooms[rid]  # we are no longer in it
                    if self.current == rid:
                        self.current = None
            how = "log_resumed" if msg.resumed else "log_connected"
            return [tr(how, name=msg.name, server=msg.server)]
        if isinstance(msg, m.Snapshot):
            return self._snapshot(msg)
        if isinstance(msg, m.Events):
            return self._events(msg)
        if isinstance(msg, m.HintsReply):
            hr = self.rooms.get(msg.room)
            if hr is not None:
                hr.hints = msg.to_wire()
            return []
        if isinstance(msg, m.Error):
            self.last_error = msg
            return [tr("log_error", message=error_text(msg.code, msg.message), code=msg.code)]
        if isinstance(msg, m.RoomList):
            self.room_list = list(msg.rooms)
            return []
        if isinstance(msg, m.Left):
            gone = self.rooms.pop(msg.room, None)
            if self.current == msg.room:
                self.current = next(iter(self.rooms), None)
            if msg.reason == "kicked":
                code = gone.code if gone is not None else msg.room
                return [tr("log_kicked_from", code=code)]
            return [tr("log_you_left")]
        if isinstance(msg, m.Closing):
            self.closing = msg
            return [tr("log_server", reason=msg.reason)]
        return []  # ack, pong, game_log: replies the session matches to requests

    def _room(self, rid: str) -> RoomState:
        r = self.rooms.get(rid)
        if r is None:
            r = self.rooms[rid] = RoomState(rid)
            if self.expect_room:  # the room we asked for
                self.expect_room = False
                self.current = rid
        if self.current is None or self.current not in self.rooms:
            self.current = rid
        return r

    def _snapshot(self, msg: m.Snapshot) -> list[str]:
        r = self._room(msg.room)
        r.seq = msg.seq
        r.lobby = dict(msg.lobby)
        r.seat = msg.you.get("seat")
        r.toggles = dict(msg.you.get("toggles") or {})
        r.game = copy.deepcopy(msg.game) if msg.game is not None else None
        r.legal = list(msg.legal or [])
        r.legal_seq = msg.seq
        r.acted_seq = -1  # a fresh decision (an action still in flight keeps us waiting)
        r.deadline = msg.deadline
        r.needs_resync = False
        r.wants_snapshot = False
        h = r.hand
        r.last_discard_seat = h.get("discarder") if h is not None else None
        if r.game is not None and r.phase in OVER and r.hand is not None:
            r.hand_ended = None
        _check_view(r)
        r.stale = False
        r.bad_snapshots = 0
        status = by_code("room_status", r.status, r.status)
        rs = r.ruleset if lang() == "en" else ruleset_name(r.ruleset)  # English: its id
        return [tr("log_room", code=r.code, ruleset=rs, status=status)]

    def _events(self, msg: m.Events) -> list[str]:
        r = self.rooms.get(msg.room)
        if r is None:
            return []  # a room we have no snapshot of (it will come)
        if r.stale:
            return []  # out of step: wait for the snapshot asked for
        if msg.seq <= r.seq:
            return []  # already applied (redelivered after a resync)
        # the frame before this one: ``prev`` with sparse delivery (commits that show this
        # seat nothing are not sent), else the commit before
        prior = msg.prev if msg.prev is not None else msg.seq - 1
        if prior != r.seq:
            r.needs_resync = True
            return []
        r.seq = msg.seq
        out: list[str] = []
        if msg.lobby is not None:
            before = r.status
            r.lobby = dict(msg.lobby)
            r.seat = None
            for i, s in enumerate(r.lobby.get("seats") or []):
                if s and s.get("player") == self.player_id:
                    r.seat = i
            if r.status == "playing" and before != "playing":
                r.game = _new_game_view(r.ruleset, r.seat)
                r.results, r.ledger, r.summary, r.hand_ended = [], [], None, None
                out.append(tr("log_game_starts"))
            elif r.status == "lobby" and before == "finished":
                r.game = None
                r.results, r.ledger, r.summary, r.hand_ended = [], [], None, None
                out.append(tr("log_rematch"))
        for e in msg.events:
            if r.game is not None:
                out.extend(self._event(r, e))
                _check_counts(r)
        if msg.chat is not None:
            c = msg.chat
            r.chat.append(  # shown in the chat pane, not in the narration
                ChatLine(str(c.get("name", "?")), str(c.get("text", "")), int(c.get("t", 0)))
            )
        if msg.notice is not None:
            out.extend(apply_notice(r, msg.notice, self.player_id))
        if msg.legal is not None:
            r.legal = list(msg.legal)
            r.legal_seq = msg.seq
            r.deadline = msg.deadline
        elif r.status != "playing":
            r.legal = []
            r.deadline = None
        return out

    # ------------------------------------------------------------------- the events

    def _event(self, r: RoomState, e: JSON) -> list[str]:
        return apply_event(r, e)  # one small function per event type (clients/cli/reducers.py)


def _check_counts(r: RoomState) -> None:
    h = r.hand
    if h is None:
        return
    for sv in h["seats"]:
        if int(sv.get("concealed_count", 0)) < 0:
            raise MalformedMessage(f"seat {sv.get('seat')} would hold fewer than no tiles")


def _check_view(r: RoomState) -> None:
    """The parts of a snapshot's view the model indexes later: fail now (and ask again)
    rather than on the next event."""
    g = r.game
    if g is None:
        return
    if not isinstance(g, dict):
        raise MalformedMessage("the game view is not a map")
    h = g.get("hand")
    if h is None:
        return
    seats = h["seats"]
    if not isinstance(seats, list) or len(seats) != 4:
        raise MalformedMessage("the hand view does not have four seats")
    for sv in seats:
        if not isinstance(sv.get("melds"), list) or not isinstance(sv.get("discards"), list):
            raise MalformedMessage("a seat view without melds or discards")


def _new_game_view(ruleset: str, seat: int | None) -> JSON:
    """The view of a new game before its first deal (what ``view`` gives for it)."""
    return {
        "seq": 0,
        "ruleset": ruleset,
        "phase": "between_hands",
        "you": seat,
        "dealer": 0,
        "round_wind": "we",
        "hands_played": 0,
        "streak": 0,
        "scores": [0, 0, 0, 0],
        "hand": None,
        "legal_actions": [],
    }
