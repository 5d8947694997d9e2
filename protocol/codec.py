"""msgpack codec with explicit limits.

Every frame is exactly one msgpack value. Decoding enforces, in order: the frame size, the
unpacker's per-container/string limits, and a maximum nesting depth. Only the msgpack types
``nil, bool, int, float, str, bin, array, map`` are accepted (no ext types, no timestamps);
map keys must be strings.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import msgpack

from protocol.codes import ErrorCode
from protocol.declared import MaxLens, first_overlong


@dataclass(frozen=True)
class Limits:
    max_frame_bytes: int = 16 * 1024
    max_depth: int = 16
    max_str_len: int = 4096
    max_bin_len: int = 4096
    max_array_len: int = 1024
    max_map_len: int = 64


DEFAULT_LIMITS = Limits()


class CodecError(Exception):
    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _Packers(threading.local):
    """One reusable ``msgpack.Packer`` per thread (a Packer is not thread-safe; timer ticks
    and bots run in worker threads). ``msgpack.packb`` builds a new Packer, with its buffer,
    for every call: 1.5 µs of the 3.2 µs a small frame costs on the slow machine of
    BENCHMARKS.md, and the server encodes six or seven values per action. Same bytes as
    ``msgpack.packb(value, use_bin_type=True)``: the packer resets its buffer after each
    value and after a value it cannot pack (``tests/server_tests/test_protocol.py``)."""

    def __init__(self) -> None:
        self.packer = msgpack.Packer(use_bin_type=True, autoreset=True)


_PACKERS = _Packers()


def encode(value: Any) -> bytes:
    """Encode one value (plain dicts/lists/str/int/bool/None/float/bytes)."""
    return _PACKERS.packer.pack(value)  # type: ignore[no-any-return]


def _check(value: Any, depth: int, limits: Limits) -> None:
    """``depth`` counts nested containers: ``[[1]]`` has depth 2."""
    if isinstance(value, dict):
        if depth > limits.max_depth:
            raise CodecError(ErrorCode.TOO_DEEP, f"nesting deeper than {limits.max_depth}")
        for k, v in value.items():
            if not isinstance(k, str):
                raise CodecError(ErrorCode.BAD_FRAME, "map keys must be strings")
            _check(v, depth + 1, limits)
    elif isinstance(value, list):
        if depth > limits.max_depth:
            raise CodecError(ErrorCode.TOO_DEEP, f"nesting deeper than {limits.max_depth}")
        for v in value:
            _check(v, depth + 1, limits)


def decode(data: bytes | bytearray | memoryview, limits: Limits = DEFAULT_LIMITS) -> Any:
    """Decode one frame, raising CodecError with a stable code on any problem."""
    if len(data) > limits.max_frame_bytes:
        raise CodecError(
            ErrorCode.FRAME_TOO_LARGE, f"frame of {len(data)} bytes > {limits.max_frame_bytes}"
        )
    if len(data) == 0:
        raise CodecError(ErrorCode.BAD_FRAME, "empty frame")
    try:
        value = msgpack.unpackb(
            bytes(data),
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_str_len=limits.max_str_len,
            max_bin_len=limits.max_bin_len,
            max_array_len=limits.max_array_len,
            max_map_len=limits.max_map_len,
            max_ext_len=0,
        )
    except msgpack.StackError:
        raise CodecError(ErrorCode.TOO_DEEP, "nesting too deep") from None
    except msgpack.ExtraData:
        raise CodecError(ErrorCode.BAD_FRAME, "more than one value in the frame") from None
    except ValueError as exc:
        # msgpack reports its length limits as ValueError("... exceeds max_..._len(...)")
        text = str(exc)
        if "exceeds max" in text:
            raise CodecError(ErrorCode.LIMIT_EXCEEDED, text) from None
        raise _unreadable(data, limits, text) from None
    except Exception as exc:  # any other decoder failure (truncated data, bad utf-8, ...)
        raise _unreadable(data, limits, type(exc).__name__) from None
    _check(value, 1, limits)
    return value


def _unreadable(data: bytes | bytearray | memoryview, limits: Limits, text: str) -> CodecError:
    """The error for a frame msgpack could not read: ``limit_exceeded`` when a header up to
    where it ends declares a length above its limit (msgpack checks a string's length only
    once its data is there: a frame cut short inside one is "incomplete input"), else
    ``bad_frame``."""
    over = first_overlong(
        bytes(data),
        MaxLens(limits.max_str_len, limits.max_bin_len, limits.max_array_len, limits.max_map_len),
    )
    if over is not None:
        return CodecError(ErrorCode.LIMIT_EXCEEDED, over)
    return CodecError(ErrorCode.BAD_FRAME, f"not msgpack: {text}")
