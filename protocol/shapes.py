"""The nested objects of the server's messages, typed (lobby, notices, the game view, …).

These dataclasses are descriptions: the server builds the maps where they come from
(``server/room/rooms.py``, ``table/views.py``) and the conformance tests check every frame
against the schema generated from them (``python -m protocol.schema``). Field markers are
``table.wire``'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from protocol.actions import ClientAction
from table.events import EventData, MeldJSON, PaymentJSON
from table.wire import Doc, MaxLen, Omit, Open, Range, Seat, Shape, TileCode, Wind

__all__ = ["NOTICES"]

PlayerId = Annotated[str, MaxLen(40), Doc("a player id, p_…")]
RoomId = Annotated[str, MaxLen(40), Doc("a room id, r_…")]


# -- lobby -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class LobbySeat:
    player: Annotated[PlayerId | None, Doc("null: a bot")]
    name: str
    bot: bool
    ready: bool
    away: Annotated[bool, Doc("the player has no live connection")]
    auto: Annotated[bool, Doc("a bot plays this seat (bot seats, or after the grace period)")]


@dataclass(frozen=True, slots=True, kw_only=True)
class Spectator:
    player: PlayerId
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RoomOptions:
    """``create_room.options`` after validation and defaults (section 3)."""

    length: Literal["one_round", "two_rounds", "four_rounds", "hands"]
    hands: Annotated[int | None, Range(1, 64)]
    turn_seconds: Annotated[int, Range(0, 600)]
    claim_seconds: Annotated[int, Range(0, 120)]
    stakes: Annotated[int, Range(0, 1_000_000)]
    public: bool
    hand_pause_ms: Annotated[int, Range(0, 60_000)]
    bot_delay_ms: Annotated[int | None, Range(0, 10_000)]
    house_rules: Annotated[dict[str, Any] | None, Open]
    settlement: Annotated[dict[str, Any] | None, Open]
    window_ms: Annotated[
        int | None,
        Range(0, 5_000),
        Omit,
        Doc("the longest a bot or a seat with no choice takes to answer a claim window"),
    ] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Clock:
    """A public countdown of the table (``clocks``): what everyone may know is running."""

    seat: Seat
    kind: Annotated[
        Literal["turn", "grace"],
        Doc(
            "turn: the seat's turn deadline (the server discards for it then); grace: the "
            "seat's player is away and a bot takes the seat then"
        ),
    ]
    at: Annotated[int, Doc("ms since the epoch, server clock")]


@dataclass(frozen=True, slots=True, kw_only=True)
class Pause:
    """Who paused the game (``pause_game``) and when."""

    player: PlayerId
    name: str
    since: Annotated[int, Doc("server time the game was paused, ms since the epoch")]


@dataclass(frozen=True, slots=True, kw_only=True)
class Lobby:
    id: RoomId
    code: Annotated[str, Doc("the short join code")]
    ruleset: str
    options: RoomOptions
    host: PlayerId
    status: Literal["lobby", "playing", "finished", "closed"]
    game_no: Annotated[int, Doc("games started in this room")]
    game_id: Annotated[
        str | None,
        Omit,
        Doc(
            "the id of the room's current or last game (a rematch's game gets a new one when "
            "it starts); absent before the first game"
        ),
    ] = None
    seats: Annotated[list[LobbySeat | None], Doc("four entries; null: a free seat")]
    spectators: list[Spectator]
    paused: Annotated[
        Pause | None, Doc("the host paused the game (pause_game); null: not paused")
    ] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Toggles:
    """A seated player's own play settings (``toggles``), seen only by that player."""

    auto_win: Annotated[bool, Doc("declare any legal win at once")]
    no_claims: Annotated[bool, Doc("pass on every discard but a win (not asked)")]
    auto_discard: Annotated[bool, Doc("discard the drawn tile when nothing else is possible")]


@dataclass(frozen=True, slots=True, kw_only=True)
class You:
    player: PlayerId
    seat: Annotated[Seat | None, Doc("null: a spectator")]
    spectator: bool
    toggles: Annotated[Toggles | None, Omit, Doc("your seat's play settings")] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RoomInfo:
    """A public room in ``room_list``."""

    id: RoomId
    code: str
    ruleset: str
    status: Literal["lobby", "playing", "finished"]
    seats_free: Annotated[int, Range(0, 4)]
    players: Annotated[list[str], Doc("the names in the taken seats, bots included")]
    options: Annotated[
        RoomOptions | None, Omit, Doc("the room's length, timers and the rest (as the lobby's)")
    ] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """``welcome.limits``: the limits this server enforces (section 1)."""

    max_frame_bytes: Annotated[int, Doc("larger frames: error frame_too_large")]
    hard_frame_bytes: Annotated[int, Doc("larger frames: the WebSocket is closed with 1009")]
    max_depth: Annotated[int, Doc("nesting depth of maps and arrays (the top level is 1)")]
    max_str_len: int
    max_bin_len: int
    max_array_len: int
    max_map_len: int
    rate_per_second: Annotated[float, Doc("messages per second, sustained")]
    rate_burst: Annotated[int, Doc("messages in a burst")]
    max_errors_per_minute: Annotated[int, Doc("more bad messages: closed with 1008")]
    hello_timeout_seconds: Annotated[float, Doc("no hello by then: closed with 4001")]
    chat_max_len: int
    chat_per_minute: int
    grace_seconds: Annotated[float, Doc("how long a seat waits for its player before a bot")]
    max_conns_per_address: Annotated[
        int,
        Doc(
            "open connections one client address may hold on a server process (0: no limit);"
            " more: the handshake is answered HTTP 429"
        ),
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class ErrorDetail:
    table_code: Annotated[
        str | None, Omit, Doc("illegal_action, bad_options: the table's stable code")
    ] = None
    known: Annotated[list[str] | None, Omit, Doc("bad_ruleset: the rule sets there are")] = None
    supported: Annotated[
        list[int] | None, Omit, Doc("unsupported_version: the versions there are")
    ] = None


# -- chat and notices ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ChatLine:
    player: PlayerId
    name: str
    text: str
    t: Annotated[int, Doc("server time, ms since the epoch")]


@dataclass(frozen=True, slots=True, kw_only=True)
class Notice:
    TYPE: ClassVar[str] = ""
    DOC: ClassVar[str] = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class RoomCreated(Notice):
    TYPE = "room_created"
    DOC = "the room was created by its host"
    player: PlayerId
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Joined(Notice):
    TYPE = "joined"
    DOC = "a member joined (or came back)"
    player: PlayerId
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LeftNotice(Notice):
    TYPE = "left"
    DOC = "a member left (during a game a bot plays the seat; the host role passes on)"
    player: PlayerId
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatAway(Notice):
    TYPE = "seat_away"
    DOC = "a seated player's last connection closed"
    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatBack(Notice):
    TYPE = "seat_back"
    DOC = "the player is back"
    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class BotTookOver(Notice):
    TYPE = "bot_took_over"
    DOC = "the grace period ended: a bot plays the seat until its player is back"
    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class RoomClosed(Notice):
    TYPE = "room_closed"
    DOC = "the server closed a room nobody was present in for long (docs/server.md)"
    reason: Literal["idle"]


@dataclass(frozen=True, slots=True, kw_only=True)
class KickedNotice(Notice):
    TYPE = "kicked"
    DOC = "the host removed a member (a bot plays their seat in a game); they cannot rejoin"
    player: PlayerId
    name: str
    by: Annotated[PlayerId, Doc("the host")]


@dataclass(frozen=True, slots=True, kw_only=True)
class HostChanged(Notice):
    TYPE = "host_changed"
    DOC = "the host handed the host role to another member (make_host)"
    player: Annotated[PlayerId, Doc("the new host")]
    name: str
    by: Annotated[PlayerId, Doc("the host before")]


@dataclass(frozen=True, slots=True, kw_only=True)
class PausedNotice(Notice):
    TYPE = "paused"
    DOC = "the host paused the game: no timer runs and nobody acts until resumed"
    player: PlayerId
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ResumedNotice(Notice):
    TYPE = "resumed"
    DOC = "the paused game goes on; every clock kept the time it had left"
    player: PlayerId
    name: str
    paused_ms: Annotated[int, Doc("how long the game was paused")]


@dataclass(frozen=True, slots=True, kw_only=True)
class LastResult:
    hand: int
    winners: list[Seat]
    fanxue: Annotated[
        dict[str, Any] | None,
        Omit,
        Open,
        Doc("hk-tw16 after 雙響/三響: {discarder seat: {bonus, payers}} (docs/table.md 反雪)"),
    ] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Summary:
    ruleset: str
    hands_played: int
    scores: list[int]
    ledger: Annotated[list[dict[str, Any]], Shape(PaymentJSON)]
    last_result: LastResult | None
    game_id: Annotated[str | None, Omit, Doc("the game's id (games of before ids: absent)")] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameOverNotice(Notice):
    TYPE = "game_over"
    DOC = (
        "the game ended: the summary with the whole ledger (the game_over *event* before it "
        "has only the final scores)"
    )
    summary: Summary


NOTICES: tuple[type[Notice], ...] = (
    RoomCreated,
    Joined,
    LeftNotice,
    SeatAway,
    SeatBack,
    BotTookOver,
    RoomClosed,
    KickedNotice,
    HostChanged,
    PausedNotice,
    ResumedNotice,
    GameOverNotice,
)


# -- the game view (snapshot.game) -----------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class HiddenKong:
    """Another seat's concealed kong while the hand is in play."""

    kind: Literal["kong"]
    concealed: Literal[True]
    tiles: None


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    seat: Seat
    wind: Wind
    melds: Annotated[list[dict[str, Any]], Shape(MeldJSON | HiddenKong)]
    flowers: list[TileCode]
    discards: Annotated[list[TileCode], Doc("the river (claimed tiles leave it)")]
    concealed_count: int
    ting: bool
    ting_tile: TileCode | None
    concealed: Annotated[
        list[TileCode] | None,
        Doc("your own seat (and every seat once the hand is over); null otherwise"),
    ]
    drawn: Annotated[
        TileCode | None,
        Omit,
        Doc("your seat only: the tile just drawn (it is also in concealed)"),
    ] = None
    missed_win: Annotated[bool | None, Omit, Doc("your seat only: 過水 in force")] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class HandView:
    number: int
    commitment: Annotated[str, Doc("SHA-256 hex of the salt and the wall (section 6)")]
    dice: list[int]
    wall_left: Annotated[int, Doc("tiles still drawable normally")]
    turn: Seat
    discarder: Seat | None
    discard: Annotated[TileCode | None, Doc("the tile of the open claim or robbing window")]
    pending: Annotated[
        list[Seat],
        Doc("who the table waits for (in a window: every other seat until it closes)"),
    ]
    seats: list[SeatView]
    wall: Annotated[list[TileCode] | None, Omit, Doc("revealed once the hand is over")] = None
    salt: Annotated[str | None, Omit, Doc("hex; revealed once the hand is over")] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameView:
    """``snapshot.game``: the table engine's view for your seat (``table.view``)."""

    seq: Annotated[int, Doc("the table's decision number (actions carry it)")]
    ruleset: str
    phase: Literal["between_hands", "turn", "claim", "rob", "game_over"]
    you: Annotated[Seat | None, Doc("your seat; null: a spectator")]
    dealer: Seat
    round_wind: Wind
    hands_played: int
    streak: int
    scores: list[int]
    hand: Annotated[HandView | None, Omit] = None
    legal_actions: Annotated[
        list[dict[str, Any]] | None, Omit, Shape(ClientAction), Doc("as the snapshot's legal")
    ] = None


# -- hints ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class WaitHint:
    """A tile that completes the ready hand."""

    tile: TileCode
    unseen: Annotated[int, Doc("copies you cannot see anywhere (4 minus those in sight)")]
    by_discard: Annotated[bool, Doc("a win on it by a discard reaches the minimum")]
    by_self_draw: Annotated[bool, Doc("a win on it by a self-draw reaches the minimum")]


@dataclass(frozen=True, slots=True, kw_only=True)
class DiscardHint:
    tile: TileCode
    shanten: Annotated[int, Doc("after the discard")]
    useful: Annotated[int, Doc("unseen copies of the tiles that would then lower it")]
    waits: Annotated[list[WaitHint], Doc("when the discard leaves the hand ready")]


# -- the game log (game_log.log) ----------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class LoggedAction:
    """An action as the table applied it: a player's (with seat), or the server's
    ``start_hand`` (with the wall seed) and ``timeout``."""

    type: Literal[
        "start_hand",
        "discard",
        "ting",
        "chow",
        "pung",
        "kong",
        "concealed_kong",
        "added_kong",
        "win",
        "pass",
        "timeout",
    ]
    seat: Seat | None
    seq: int
    tile: Annotated[TileCode | None, Omit] = None
    seed: Annotated[str | None, Omit, Doc("start_hand: the wall seed, hex")] = None
    wall: Annotated[list[TileCode] | None, Omit] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameLogDoc:
    ruleset: str
    options: RoomOptions
    game_no: int
    game_id: Annotated[str | None, Omit, Doc("the game's id (games of before ids: absent)")] = None
    seats: Annotated[list[str | None], Doc("the names of the four seats")]
    actions: Annotated[list[LoggedAction], Doc("replayed by table.replay")]
    summary: Summary | None
    events: Annotated[
        list[list[EventData]] | None,
        Omit,
        Doc(
            "the events of each step of the game (one commit each), as their owners saw them "
            "(every hand open): what the browser's replay viewer steps through; absent from "
            "older servers"
        ),
    ] = None


#: what ``Events.events`` holds: any event definition (redacted for you)
EVENT_BASE = EventData
