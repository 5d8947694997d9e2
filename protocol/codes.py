"""Stable error codes (sent in ``error`` messages), hint note codes and WebSocket close codes.

The string values are part of the protocol: never rename one, only add.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


class ErrorCode(StrEnum):
    # --- framing / decoding (the connection stays usable) ---
    BAD_FRAME = "bad_frame"  # a text frame, or bytes that are not one msgpack value
    FRAME_TOO_LARGE = "frame_too_large"  # over Limits.max_frame_bytes
    TOO_DEEP = "too_deep"  # nesting deeper than Limits.max_depth
    LIMIT_EXCEEDED = "limit_exceeded"  # a string / array / map longer than the codec allows
    BAD_MESSAGE = "bad_message"  # not a map with a string "type", or a field is wrong
    UNKNOWN_TYPE = "unknown_type"  # "type" is not a client message type
    RATE_LIMITED = "rate_limited"  # too many messages per second on this connection
    # --- session ---
    UNSUPPORTED_VERSION = "unsupported_version"  # hello.v not supported (connection closed)
    HELLO_REQUIRED = "hello_required"  # any message before hello
    ALREADY_HELLO = "already_hello"  # a second hello on one connection
    BAD_TOKEN = "bad_token"  # resume token unknown
    # --- rooms ---
    ROOM_NOT_FOUND = "room_not_found"
    NOT_IN_ROOM = "not_in_room"
    ROOM_FULL = "room_full"
    SEAT_TAKEN = "seat_taken"
    BAD_SEAT = "bad_seat"
    NOT_SEATED = "not_seated"
    NOT_HOST = "not_host"
    NOT_READY = "not_ready"  # start while a seat is empty or not ready
    GAME_IN_PROGRESS = "game_in_progress"  # lobby change while a game is running
    GAME_NOT_STARTED = "game_not_started"
    GAME_NOT_FINISHED = "game_not_finished"  # log download / rematch before the end
    BAD_RULESET = "bad_ruleset"
    BAD_OPTIONS = "bad_options"
    TOO_MANY_ROOMS = "too_many_rooms"
    # --- host controls ---
    KICKED = "kicked"  # join_room to a room whose host removed you (for the room's life)
    NO_SUCH_MEMBER = "no_such_member"  # kick / make_host: not a member, or yourself
    PAUSED = "paused"  # a game action (or a second pause) while the host has paused the game
    NOT_PAUSED = "not_paused"  # resume_game while the game is not paused
    # --- game actions ---
    ILLEGAL_ACTION = "illegal_action"  # rejected by the table engine; detail.table_code says why
    # --- chat ---
    CHAT_TOO_LONG = "chat_too_long"
    CHAT_RATE_LIMITED = "chat_rate_limited"
    # --- server ---
    BUSY = "busy"  # too much contention on the room; retry with the same seq
    UNAVAILABLE = "unavailable"  # storage unreachable; retry with the same seq
    SHUTTING_DOWN = "shutting_down"
    INTERNAL = "internal"


class HintNote(StrEnum):
    """Why a ``hints`` answer carries a ``note`` (its ``note_code``): clients word it."""

    # ready, but no wait reaches the rule set's ``minimum`` (the answer's field)
    BELOW_MINIMUM = "below_minimum"


class CloseCode(IntEnum):
    NORMAL = 1000
    GOING_AWAY = 1001  # server shutting down: reconnect (another process) and resume
    POLICY = 1008  # abuse: too many bad messages
    TOO_BIG = 1009  # frame above the hard cap (websockets closes by itself)
    INTERNAL = 1011
    # a temporary condition: one connection too many from the client's address
    # (--max-conns-per-address); reconnect later, once another one closed
    TRY_AGAIN_LATER = 1013
    UNSUPPORTED_VERSION = 4000
    HELLO_TIMEOUT = 4001
    SUPERSEDED = 4002  # the same player resumed on another connection
    BAD_TOKEN = 4003
