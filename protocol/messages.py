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
from typing import Any, ClassVar, TypeVar, Union

from protocol.actions import ActionParseError, ClientAction, action_to_wire, parse_action
from protocol.codes import ErrorCode

PROTOCOL_VERSION = 1
SUPPORTED_VERSIONS = frozenset({1})

NAME_MAX = 32
CODE_MAX = 16
ROOM_ID_MAX = 40
TEXT_MAX = 2000  # decoder-level cap on chat text; the server's chat limit is lower
INT_MAX = 2**53  # ints on the wire stay within what every language represents exactly


class ProtocolError(Exception):
    def __init__(self, code: ErrorCode, message: str, re: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.re = re


def _meta(max_len: int | None = None, lo: int | None = None, hi: int | None = None) -> Any:
    return {"max_len": max_len, "lo": lo, "hi": hi}


def text(max_len: int, default: Any = dataclasses.MISSING) -> Any:
    if default is dataclasses.MISSING:
        return field(metadata=_meta(max_len=max_len))
    return field(default=default, metadata=_meta(max_len=max_len))


def required() -> Any:
    """A required field with no bounds (after fields declared with ``text``/``num``)."""
    return field(metadata=_meta())


def num(lo: int, hi: int, default: Any = dataclasses.MISSING) -> Any:
    if default is dataclasses.MISSING:
        return field(metadata=_meta(lo=lo, hi=hi))
    return field(default=default, metadata=_meta(lo=lo, hi=hi))


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
    type: ClassVar[str] = "hello"
    v: int = num(0, 1000)
    name: str | None = text(NAME_MAX, None)
    token: str | None = text(128, None)
    client: str | None = text(64, None)
    id: int | None = num(0, INT_MAX, None)
    #: only the commits that change something for this connection's seat (docs/protocol.md
    #: section 5, "Sparse delivery"); each ``events`` then carries ``prev``. Left out (None)
    #: unless asked for: a server from before it refuses the field
    sparse: bool | None = None


@dataclass(frozen=True)
class Ping(ClientMessage):
    type: ClassVar[str] = "ping"
    t: int | None = num(0, INT_MAX, None)
    id: int | None = num(0, INT_MAX, None)


@dataclass(frozen=True)
class ListRooms(ClientMessage):
    type: ClassVar[str] = "list_rooms"
    id: int | None = num(0, INT_MAX, None)


@dataclass(frozen=True)
class CreateRoom(ClientMessage):
    type: ClassVar[str] = "create_room"
    ruleset: str = text(64)
    options: dict[str, Any] | None = None
    id: int | None = num(0, INT_MAX, None)


@dataclass(frozen=True)
class JoinRoom(ClientMessage):
    type: ClassVar[str] = "join_room"
    code: str = text(CODE_MAX)
    id: int | None = num(0, INT_MAX, None)


@dataclass(frozen=True)
class LeaveRoom(ClientMessage):
    type: ClassVar[str] = "leave_room"
    room: str = text(ROOM_ID_MAX)
    id: int | None = num(0, INT_MAX, None)


@dataclass(frozen=True)
class Sit(ClientMessage):
    type: ClassVar[str] = "sit"
    room: str = text(ROOM_ID_MAX)
    seat: int = num(0, 3)
    id: int | None = num(0, INT_MAX, None)


@dataclass(frozen=True)
class Stand(ClientMessage):
    type: ClassVar[str] = "stand"
    room: str = text(ROOM_ID_MAX)
    id: int | None = num(0, INT_MAX, None)


@dataclass(frozen=True)
class Ready(ClientMessage):
    type: ClassVar[str] = "ready"
    room: str = text(ROOM_ID_MAX)
    ready: bool = True
    id: int | None = num(0, INT_MAX, None)


@dataclass(frozen=True)
class AddBot(ClientMessage):
    type: ClassVar[str] = "add_bot"
    room: str = text(ROOM_ID_MAX)
    seat: int = num(0, 3)
    id: int | None = num(0, INT_MAX, None)


@dataclass(frozen=True)
class RemoveBot(ClientMessage):
    type: ClassVar[str] = "remove_bot"
    room: str = text(ROOM_ID_MAX)
    seat: int = num(0, 3)
    id: int | None = num(0, INT_MAX, None)


@dataclass(frozen=True)
class StartGame(ClientMessage):
    type: ClassVar[str] = "start_game"
    room: str = text(ROOM_ID_MAX)
    id: int | None = num(0, INT_MAX, None)


@dataclass(frozen=True)
class Rematch(ClientMessage):
    type: ClassVar[str] = "rematch"
    room: str = text(ROOM_ID_MAX)
    id: int | None = num(0, INT_MAX, None)


@dataclass(frozen=True)
class Action(ClientMessage):
    type: ClassVar[str] = "action"
    room: str = text(ROOM_ID_MAX)
    seq: int = num(1, INT_MAX)
    #: the game action (protocol/actions.py), validated like every other field
    action: ClientAction = required()
    id: int | None = num(0, INT_MAX, None)


@dataclass(frozen=True)
class Chat(ClientMessage):
    type: ClassVar[str] = "chat"
    room: str = text(ROOM_ID_MAX)
    text: str = text(TEXT_MAX)
    id: int | None = num(0, INT_MAX, None)


@dataclass(frozen=True)
class Resync(ClientMessage):
    type: ClassVar[str] = "resync"
    room: str = text(ROOM_ID_MAX)
    since: int = num(0, INT_MAX)
    id: int | None = num(0, INT_MAX, None)


@dataclass(frozen=True)
class GetLog(ClientMessage):
    type: ClassVar[str] = "get_log"
    room: str = text(ROOM_ID_MAX)
    id: int | None = num(0, INT_MAX, None)


# --------------------------------------------------------------------------- server -> client


@dataclass(frozen=True)
class Welcome(ServerMessage):
    type: ClassVar[str] = "welcome"
    v: int
    player_id: str
    token: str
    name: str
    resumed: bool
    rooms: list[str]
    server: str
    limits: dict[str, Any]
    rulesets: list[str]
    re: int | None = None
    # hello.sparse honoured; only in answer to it (a client from before it refuses the field)
    sparse: bool | None = None


@dataclass(frozen=True)
class Pong(ServerMessage):
    type: ClassVar[str] = "pong"
    t: int | None = None
    server_ms: int | None = None
    re: int | None = None


@dataclass(frozen=True)
class Error(ServerMessage):
    type: ClassVar[str] = "error"
    code: str
    message: str
    detail: dict[str, Any] | None = None
    re: int | None = None


@dataclass(frozen=True)
class RoomList(ServerMessage):
    type: ClassVar[str] = "room_list"
    rooms: list[dict[str, Any]]
    re: int | None = None


@dataclass(frozen=True)
class Snapshot(ServerMessage):
    type: ClassVar[str] = "snapshot"
    room: str
    seq: int
    lobby: dict[str, Any]
    you: dict[str, Any]
    game: dict[str, Any] | None = None
    legal: list[dict[str, Any]] | None = None
    deadline: int | None = None
    re: int | None = None


@dataclass(frozen=True)
class Events(ServerMessage):
    type: ClassVar[str] = "events"
    room: str
    seq: int
    events: list[dict[str, Any]]
    lobby: dict[str, Any] | None = None
    chat: dict[str, Any] | None = None
    notice: dict[str, Any] | None = None
    legal: list[dict[str, Any]] | None = None
    deadline: int | None = None
    prev: int | None = None  # sparse delivery: the seq of this connection's previous frame


@dataclass(frozen=True)
class Ack(ServerMessage):
    type: ClassVar[str] = "ack"
    room: str
    seq: int  # the room's event seq at which the request was committed
    client_seq: int | None = None
    duplicate: bool = False
    re: int | None = None


@dataclass(frozen=True)
class GameLog(ServerMessage):
    type: ClassVar[str] = "game_log"
    room: str
    log: dict[str, Any]
    re: int | None = None


@dataclass(frozen=True)
class Left(ServerMessage):
    type: ClassVar[str] = "left"
    room: str
    re: int | None = None


@dataclass(frozen=True)
class Closing(ServerMessage):
    type: ClassVar[str] = "closing"
    reason: str
    reconnect: bool = True
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
        StartGame,
        Rematch,
        Action,
        Chat,
        Resync,
        GetLog,
    )
}

SERVER_MESSAGES: dict[str, type[ServerMessage]] = {
    c.type: c
    for c in (Welcome, Pong, Error, RoomList, Snapshot, Events, Ack, GameLog, Left, Closing)
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
