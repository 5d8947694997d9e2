"""Every wire message as a typed, frozen value with schema validation.

A frame is a msgpack map ``{"type": <str>, ...fields}``. Client messages may carry an
optional request id ``id`` (int); every direct reply (``ack``, ``error``, ``room_list``, ...)
echoes it as ``re``. Unknown fields are rejected (``bad_message``) so typos surface early.
Optional fields may be omitted or nil. See ``docs/protocol.md``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, TypeVar, Union

from protocol import shapes as sh
from protocol.actions import ActionParseError, ClientAction, action_to_wire, parse_action
from protocol.codes import ErrorCode
from table.events import EventData
from table.wire import Doc, Open, Shape

PROTOCOL_VERSION = 1
SUPPORTED_VERSIONS = frozenset({1})

NAME_MAX = 32
CODE_MAX = 16
ROOM_ID_MAX = 40
TEXT_MAX = 2000  # decoder-level cap on chat text; the server's chat limit is lower
INT_MAX = 2**53  # ints on the wire stay within what every language represents exactly

ID_DOC = "a request id: the direct reply carries it as re"
ROOM_DOC = "the room id (r_…) from ack / snapshot"
RE_DOC = "the id of the request this answers"
DEADLINE_DOC = "when the server acts for you (ms since the epoch, server clock)"
CLOCKS_DOC = (
    "the table's public countdowns while a game is played: the turn deadline of the seat in "
    "turn and each away seat's grace until a bot plays it; never a claim window's "
    "(present in every frame of a running game; empty: none)"
)


class ProtocolError(Exception):
    def __init__(self, code: ErrorCode, message: str, re: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.re = re


def _meta(
    max_len: int | None = None, lo: int | None = None, hi: int | None = None, doc: str = ""
) -> Any:
    return {"max_len": max_len, "lo": lo, "hi": hi, "doc": doc}


def text(max_len: int, default: Any = dataclasses.MISSING, doc: str = "") -> Any:
    if default is dataclasses.MISSING:
        return field(metadata=_meta(max_len=max_len, doc=doc))
    return field(default=default, metadata=_meta(max_len=max_len, doc=doc))


def required() -> Any:
    """A required field with no bounds (after fields declared with ``text``/``num``)."""
    return field(metadata=_meta())


def num(lo: int, hi: int, default: Any = dataclasses.MISSING, doc: str = "") -> Any:
    if default is dataclasses.MISSING:
        return field(metadata=_meta(lo=lo, hi=hi, doc=doc))
    return field(default=default, metadata=_meta(lo=lo, hi=hi, doc=doc))


@dataclass(frozen=True)
class Message:
    type: ClassVar[str] = ""

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for name in _spec(type(self))[0]:  # the fields in order
            v = getattr(self, name)
            if isinstance(v, ClientAction):
                out[name] = action_to_wire(v)
            elif v is not None:
                out[name] = v
        return out


@dataclass(frozen=True)
class ClientMessage(Message):
    pass


@dataclass(frozen=True)
class ServerMessage(Message):
    pass


# --------------------------------------------------------------------------- client -> server


@dataclass(frozen=True)
class Hello(ClientMessage):
    """The first message of a connection: start a session, or resume one with its token."""

    type: ClassVar[str] = "hello"
    v: int = num(0, 1000, doc="the protocol version the client speaks (1)")
    name: str | None = text(NAME_MAX, None, doc="your display name (renames on a resume)")
    token: str | None = text(128, None, doc="resume: the token a welcome gave")
    client: str | None = text(64, None, doc="the client's name and version, for logs")
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)
    #: only the commits that change something for this connection's seat (docs/protocol.md
    #: section 5, "Sparse delivery"); each ``events`` then carries ``prev``. Left out (None)
    #: unless asked for: a server from before it refuses the field
    sparse: bool | None = None
    client_build: str | None = text(
        64, None, doc="a web client's build id: the welcome then says the server's (build)"
    )


@dataclass(frozen=True)
class Ping(ClientMessage):
    """Keep-alive and clock offset."""

    type: ClassVar[str] = "ping"
    t: int | None = num(0, INT_MAX, None, doc="echoed in the pong")
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class ListRooms(ClientMessage):
    """The public rooms; with ``code``, the room with that code, public or not (an invite)."""

    type: ClassVar[str] = "list_rooms"
    code: str | None = text(CODE_MAX, None, doc="just this room (case, spaces, dashes ignored)")
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class CreateRoom(ClientMessage):
    """Create a room: you join it as a spectator and become its host."""

    type: ClassVar[str] = "create_room"
    ruleset: str = text(64)
    options: Annotated[dict[str, Any] | None, Open, Doc("section 3, Room options")] = None
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class JoinRoom(ClientMessage):
    """Join a room by its code (your seat back, in a game you had one in)."""

    type: ClassVar[str] = "join_room"
    code: str = text(CODE_MAX, doc="the room's code (case, spaces and dashes ignored)")
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class LeaveRoom(ClientMessage):
    """Leave a room (in a game a bot plays your seat until you come back)."""

    type: ClassVar[str] = "leave_room"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class Sit(ClientMessage):
    """Take a free seat, or move (lobby only)."""

    type: ClassVar[str] = "sit"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    seat: int = num(0, 3)
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class Stand(ClientMessage):
    """Leave your seat and stay as a spectator (lobby only)."""

    type: ClassVar[str] = "stand"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class Ready(ClientMessage):
    """Say whether you are ready to start."""

    type: ClassVar[str] = "ready"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    ready: bool = True
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class AddBot(ClientMessage):
    """Host only: a bot takes the free seat."""

    type: ClassVar[str] = "add_bot"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    seat: int = num(0, 3)
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class RemoveBot(ClientMessage):
    """Host only: the bot leaves its seat."""

    type: ClassVar[str] = "remove_bot"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    seat: int = num(0, 3)
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class SwapSeats(ClientMessage):
    """Host only: swap what is in two seats, players, bots or nobody (lobby only)."""

    type: ClassVar[str] = "swap_seats"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    a: int = num(0, 3, doc="one seat")
    b: int = num(0, 3, doc="the other seat")
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class Kick(ClientMessage):
    """Host only: remove a member from the room; they cannot join it again."""

    type: ClassVar[str] = "kick"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    player: str = text(ROOM_ID_MAX, doc="the member's player id (p_…)")
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class MakeHost(ClientMessage):
    """Host only: hand the host role to another member."""

    type: ClassVar[str] = "make_host"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    player: str = text(ROOM_ID_MAX, doc="the member's player id (p_…)")
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class PauseGame(ClientMessage):
    """Host only: pause the game (timers stop, nobody acts) until resume_game."""

    type: ClassVar[str] = "pause_game"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class ResumeGame(ClientMessage):
    """Host only: the paused game goes on; every clock keeps the time it had left."""

    type: ClassVar[str] = "resume_game"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class StartGame(ClientMessage):
    """Host only: start (four seats taken, every human ready)."""

    type: ClassVar[str] = "start_game"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class Rematch(ClientMessage):
    """After a game: back to the lobby with the same seats."""

    type: ClassVar[str] = "rematch"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class Action(ClientMessage):
    """A game action (section 6)."""

    type: ClassVar[str] = "action"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    seq: int = num(1, INT_MAX, doc="your client seq: strictly increasing per room (section 6)")
    #: the game action (protocol/actions.py), validated like every other field
    action: ClientAction = required()  # noqa: RUF009 (a dataclasses.field, like text/num)
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class Chat(ClientMessage):
    """A chat line to everyone in the room."""

    type: ClassVar[str] = "chat"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    text: str = text(TEXT_MAX)
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class Resync(ClientMessage):
    """Resend every commit after since (0: a snapshot)."""

    type: ClassVar[str] = "resync"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    since: int = num(0, INT_MAX, doc="the last seq you have (0: send a snapshot)")
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class GetLog(ClientMessage):
    """The finished game's log."""

    type: ClassVar[str] = "get_log"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class SetToggles(ClientMessage):
    """Your seat's play settings; the ones left out keep their value (section 6)."""

    type: ClassVar[str] = "toggles"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    auto_win: Annotated[bool | None, Doc("declare any legal win at once")] = None
    no_claims: Annotated[bool | None, Doc("pass on every discard but a win")] = None
    auto_discard: Annotated[
        bool | None, Doc("discard the drawn tile when nothing else is possible")
    ] = None
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


@dataclass(frozen=True)
class GetHints(ClientMessage):
    """Hints for your seat, from your own view: shanten, discards, waits (section 6)."""

    type: ClassVar[str] = "hints"
    room: str = text(ROOM_ID_MAX, doc=ROOM_DOC)
    id: int | None = num(0, INT_MAX, None, doc=ID_DOC)


# --------------------------------------------------------------------------- server -> client


@dataclass(frozen=True)
class Welcome(ServerMessage):
    """The answer to hello."""

    type: ClassVar[str] = "welcome"
    v: Annotated[int, Doc("the protocol version of this session")]
    player_id: Annotated[str, Doc("your player id, p_…")]
    token: Annotated[str, Doc("secret: keep it to resume as the same player")]
    name: str
    resumed: Annotated[bool, Doc("true: a known token; a snapshot per room follows")]
    rooms: Annotated[list[str], Doc("the ids of the rooms you are in")]
    server: Annotated[str, Doc("the serving process, for logs")]
    limits: Annotated[dict[str, Any], Shape(sh.Limits)]
    rulesets: Annotated[list[str], Doc("the rule sets rooms can be created with")]
    re: Annotated[int | None, Doc(RE_DOC)] = None
    # hello.sparse honoured; only in answer to it (a client from before it refuses the field)
    sparse: Annotated[bool | None, Doc("true: hello.sparse honoured (absent otherwise)")] = None
    # only in answer to hello.client_build (a client from before it refuses the field)
    build: Annotated[
        str | None,
        Doc("the build id of the web client this server serves (absent: none, or not asked)"),
    ] = None


@dataclass(frozen=True)
class Pong(ServerMessage):
    """The answer to ping."""

    type: ClassVar[str] = "pong"
    t: Annotated[int | None, Doc("ping.t, echoed")] = None
    server_ms: Annotated[int | None, Doc("the server's clock, ms since the epoch")] = None
    re: Annotated[int | None, Doc(RE_DOC)] = None


@dataclass(frozen=True)
class Error(ServerMessage):
    """A request failed and changed nothing (section 9)."""

    type: ClassVar[str] = "error"
    code: Annotated[str, Doc("section 9")]
    message: Annotated[str, Doc("English, for people")]
    detail: Annotated[dict[str, Any] | None, Shape(sh.ErrorDetail)] = None
    re: Annotated[int | None, Doc(RE_DOC)] = None


@dataclass(frozen=True)
class RoomList(ServerMessage):
    """The answer to list_rooms."""

    type: ClassVar[str] = "room_list"
    rooms: Annotated[list[dict[str, Any]], Shape(sh.RoomInfo)]
    re: Annotated[int | None, Doc(RE_DOC)] = None


@dataclass(frozen=True)
class Snapshot(ServerMessage):
    """The room as of seq: replaces what the client knows of it."""

    type: ClassVar[str] = "snapshot"
    room: str
    seq: Annotated[int, Doc("the room's commit number this is as of (section 5)")]
    lobby: Annotated[dict[str, Any], Shape(sh.Lobby)]
    you: Annotated[dict[str, Any], Shape(sh.You)]
    game: Annotated[dict[str, Any] | None, Shape(sh.GameView)] = None
    legal: Annotated[
        list[dict[str, Any]] | None, Shape(ClientAction), Doc("what your seat may send now")
    ] = None
    deadline: Annotated[int | None, Doc(DEADLINE_DOC)] = None
    clocks: Annotated[list[dict[str, Any]] | None, Shape(sh.Clock), Doc(CLOCKS_DOC)] = None
    re: Annotated[int | None, Doc(RE_DOC)] = None


@dataclass(frozen=True)
class Events(ServerMessage):
    """One commit of the room: the events your seat may see, and what changed."""

    type: ClassVar[str] = "events"
    room: str
    seq: Annotated[int, Doc("the commit's number: the last one + 1 (section 5)")]
    events: Annotated[list[dict[str, Any]], Shape(EventData), Doc("redacted for your seat")]
    lobby: Annotated[dict[str, Any] | None, Shape(sh.Lobby)] = None
    chat: Annotated[dict[str, Any] | None, Shape(sh.ChatLine)] = None
    notice: Annotated[dict[str, Any] | None, Shape(sh.Notice)] = None
    legal: Annotated[
        list[dict[str, Any]] | None,
        Shape(ClientAction),
        Doc("what your seat may send now (present in every frame of a running game)"),
    ] = None
    deadline: Annotated[int | None, Doc(DEADLINE_DOC)] = None
    clocks: Annotated[list[dict[str, Any]] | None, Shape(sh.Clock), Doc(CLOCKS_DOC)] = None
    #: sparse delivery: the seq of this connection's previous frame
    prev: Annotated[int | None, Doc("sparse delivery: the seq of your previous frame")] = None


@dataclass(frozen=True)
class Ack(ServerMessage):
    """A request was committed (for resync: the resend is complete)."""

    type: ClassVar[str] = "ack"
    room: str
    seq: Annotated[int, Doc("the commit that applied the request (resync: the last resent)")]
    client_seq: Annotated[int | None, Doc("action: the client seq acknowledged")] = None
    duplicate: Annotated[bool, Doc("the action had been applied before (a resend)")] = False
    held: Annotated[
        bool,
        Doc(
            "action: an answer to a claim window, held (stored) until the window closes: "
            "no new commit, seq is the room's; the answer appears in the commit that "
            "closes the window"
        ),
    ] = False
    re: Annotated[int | None, Doc(RE_DOC)] = None


@dataclass(frozen=True)
class GameLog(ServerMessage):
    """The answer to get_log."""

    type: ClassVar[str] = "game_log"
    room: str
    log: Annotated[dict[str, Any], Shape(sh.GameLogDoc)]
    re: Annotated[int | None, Doc(RE_DOC)] = None


@dataclass(frozen=True)
class HintsReply(ServerMessage):
    """The answer to hints: computed from your seat's view only."""

    type: ClassVar[str] = "hints"
    room: str
    seq: Annotated[int, Doc("the room commit the hints are as of")]
    discards: Annotated[
        list[dict[str, Any]],
        Shape(sh.DiscardHint),
        Doc("your turn: the discards that keep or reach the best shanten, best first"),
    ]
    waits: Annotated[list[dict[str, Any]], Shape(sh.WaitHint), Doc("when ready: every wait")]
    minimum: Annotated[int, Doc("the rule set's minimum to win (0: none)")]
    shanten: Annotated[
        int | None,
        Doc("-1: a winning hand (your turn); 0: ready; n: n tiles from ready; absent: no hand"),
    ] = None
    note: Annotated[
        str | None, Doc('English, for people (e.g. "ready, but no wait reaches 8")')
    ] = None
    note_code: Annotated[
        str | None,
        Doc(
            "the note's code, for clients to word it: below_minimum (ready, but no wait "
            "reaches minimum); absent with no note or from an older server"
        ),
    ] = None
    re: Annotated[int | None, Doc(RE_DOC)] = None


@dataclass(frozen=True)
class Left(ServerMessage):
    """The answer to leave_room, or: the host removed you from the room (reason kicked)."""

    type: ClassVar[str] = "left"
    room: str
    re: Annotated[int | None, Doc(RE_DOC)] = None
    #: absent in the answer to leave_room; "kicked" when the host removed you (no re then)
    reason: Annotated[str | None, Doc('"kicked": the host removed you (absent: you left)')] = None


@dataclass(frozen=True)
class Closing(ServerMessage):
    """The server is shutting down: reconnect and resume."""

    type: ClassVar[str] = "closing"
    reason: str
    reconnect: Annotated[bool, Doc("false: do not come back")] = True
    #: when to reconnect, in ms from now: the stopping server spreads its connections over a
    #: window after the expected restart time, so thousands do not come back at once
    retry_after_ms: int | None = None


CLIENT_MESSAGES: dict[str, type[ClientMessage]] = {
    c.type: c
    for c in (
        Hello,
        Ping,
        ListRooms,
        CreateRoom,
        JoinRoom,
        LeaveRoom,
        Sit,
        Stand,
        Ready,
        AddBot,
        RemoveBot,
        SwapSeats,
        Kick,
        MakeHost,
        PauseGame,
        ResumeGame,
        StartGame,
        Rematch,
        Action,
        Chat,
        Resync,
        GetLog,
        GetHints,
        SetToggles,
    )
}

SERVER_MESSAGES: dict[str, type[ServerMessage]] = {
    c.type: c
    for c in (
        Welcome,
        Pong,
        Error,
        RoomList,
        Snapshot,
        Events,
        Ack,
        GameLog,
        HintsReply,
        Left,
        Closing,
    )
}

# ----------------------------------------------------------------------------- validation

#: type -> (typing.get_origin, typing.get_args) of it (both are slow to call per message)
_TYPE_INFO: dict[Any, tuple[Any, tuple[Any, ...]]] = {}


def _type_info(tp: Any) -> tuple[Any, tuple[Any, ...]]:
    info = _TYPE_INFO.get(tp)
    if info is None:
        info = _TYPE_INFO[tp] = (typing.get_origin(tp), typing.get_args(tp))
    return info


def _check_type(name: str, value: Any, tp: Any, meta: Any) -> None:
    if tp is Any:
        return
    if tp is ClientAction:
        return  # parsed by _build
    origin, args = _type_info(tp)
    if origin in (Union, types.UnionType):
        if value is None and type(None) in args:
            return
        inner = [a for a in args if a is not type(None)]
        _check_type(name, value, inner[0], meta)
        return
    if tp is bool:
        if not isinstance(value, bool):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"field {name!r} must be a bool")
        return
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"field {name!r} must be an int")
        lo = meta.get("lo") if meta else None
        hi = meta.get("hi") if meta else None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"field {name!r} out of range")
        return
    if tp is str:
        if not isinstance(value, str):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"field {name!r} must be a string")
        mx = meta.get("max_len") if meta else None
        if mx is not None and len(value) > mx:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"field {name!r} longer than {mx}")
        return
    if origin is dict:
        if not isinstance(value, dict):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"field {name!r} must be a map")
        return
    if origin is list:
        if not isinstance(value, list):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"field {name!r} must be an array")
        (item,) = args
        for i, v in enumerate(value):
            _check_type(f"{name}[{i}]", v, item, None)
        return
    raise TypeError(f"unsupported field type {tp!r}")  # programming error, not client input


M = TypeVar("M", bound=Message)


#: message class -> ({field: (type hint, metadata)} in field order, required field names),
#: built once (``dataclasses.fields`` per message is slow): parsing and ``to_wire`` use it
_SPECS: dict[type, tuple[dict[str, tuple[Any, Any]], tuple[str, ...]]] = {}


def _spec(cls: type) -> tuple[dict[str, tuple[Any, Any]], tuple[str, ...]]:
    spec = _SPECS.get(cls)
    if spec is None:
        hints = typing.get_type_hints(cls)
        fields = dataclasses.fields(cls)
        spec = _SPECS[cls] = (
            {f.name: (hints[f.name], f.metadata) for f in fields},
            tuple(
                f.name
                for f in fields
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            ),
        )
    return spec


def _build(cls: type[M], raw: dict[str, Any]) -> M:
    fields, required = _spec(cls)
    kwargs: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "type":
            continue
        f = fields.get(key)
        if f is None:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"unknown field {key!r} in {cls.type}")
        if f[0] is ClientAction:
            try:
                value = parse_action(value)
            except ActionParseError as exc:
                raise ProtocolError(exc.code, exc.message) from None
        else:
            _check_type(key, value, f[0], f[1])
        if value is not None:
            kwargs[key] = value
    for name in required:
        if name not in kwargs:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"missing field {name!r} in {cls.type}")
    return cls(**kwargs)


def request_id_of(raw: Any) -> int | None:
    """The request id of a decoded frame: its ``id`` when it is a map with a valid one."""
    if not isinstance(raw, dict):
        return None
    rid = raw.get("id")
    if isinstance(rid, int) and not isinstance(rid, bool) and 0 <= rid <= INT_MAX:
        return rid
    return None


def parse_client(raw: Any) -> ClientMessage:
    """Validate one decoded frame as a client message; ProtocolError on any problem.

    The error's ``re`` is the frame's request id when one could be read, so a client can
    match the error to its request even when the rest of the message is wrong.
    """
    if not isinstance(raw, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message must be a map")
    rid = request_id_of(raw)
    t = raw.get("type")
    if not isinstance(t, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "missing string field 'type'", rid)
    cls = CLIENT_MESSAGES.get(t)
    if cls is None:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {t[:40]!r}", rid)
    try:
        return _build(cls, raw)
    except ProtocolError as exc:
        exc.re = rid
        raise


def parse_server(raw: Any) -> ServerMessage:
    """Validate a server message (used by clients and by the tests on every frame)."""
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "not a message")
    cls = SERVER_MESSAGES.get(raw["type"])
    if cls is None:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown server message {raw['type']!r}")
    return _build(cls, raw)
