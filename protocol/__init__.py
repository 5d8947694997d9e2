"""The wire protocol of the mahjong server: typed messages, a msgpack codec with limits,
the version handshake, and stable error and close codes.

Pure: no asyncio, no sockets. Documented in ``docs/protocol.md``.
"""

from protocol.codec import (
    DEFAULT_LIMITS,
    CodecError,
    Limits,
    decode,
    encode,
)
from protocol.codes import CloseCode, ErrorCode
from protocol.messages import (
    CLIENT_MESSAGES,
    PROTOCOL_VERSION,
    SERVER_MESSAGES,
    ClientMessage,
    ProtocolError,
    ServerMessage,
    parse_client,
    parse_server,
)

__all__ = [
    "CLIENT_MESSAGES",
    "DEFAULT_LIMITS",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGES",
    "ClientMessage",
    "CloseCode",
    "CodecError",
    "ErrorCode",
    "Limits",
    "ProtocolError",
    "ServerMessage",
    "decode",
    "encode",
    "parse_client",
    "parse_server",
]
