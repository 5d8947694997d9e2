"""The first over-long length a msgpack value declares, read from its headers alone.

``msgpack.unpackb`` checks a string's, bin's or ext's length against its limit only once
the data is there: a frame cut short inside a string that declares 5,000 bytes fails as
incomplete input, not as a length above the limit. docs/protocol.md section 1 says the
declared length is checked before the data, so :func:`codec.decode <protocol.codec.decode>`
asks this module about a frame that failed to decode: it walks the value's headers (types
and lengths, skipping the data they announce) up to where the frame ends and names the
first string, bin, ext, array or map whose declared length is above its limit.

Pure and bounded: each step reads at least one byte of the frame (a frame is at most
``max_frame_bytes``), and nothing is allocated but the answer.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MaxLens", "first_overlong"]


@dataclass(frozen=True)
class MaxLens:
    """The length limits, as ``msgpack.unpackb`` takes them."""

    max_str_len: int
    max_bin_len: int
    max_array_len: int
    max_map_len: int
    max_ext_len: int = 0


#: type byte -> (kind, bytes of its length field) for the headers with a length field
_SIZED: dict[int, tuple[str, int]] = {
    0xC4: ("bin", 1),
    0xC5: ("bin", 2),
    0xC6: ("bin", 4),
    0xC7: ("ext", 1),
    0xC8: ("ext", 2),
    0xC9: ("ext", 4),
    0xD9: ("str", 1),
    0xDA: ("str", 2),
    0xDB: ("str", 4),
    0xDC: ("array", 2),
    0xDD: ("array", 4),
    0xDE: ("map", 2),
    0xDF: ("map", 4),
}
#: type byte -> data bytes after it, for the values of a fixed size (nil, bools, numbers)
_FIXED: dict[int, int] = {
    0xC0: 0,
    0xC2: 0,
    0xC3: 0,
    0xCA: 4,
    0xCB: 8,
    0xCC: 1,
    0xCD: 2,
    0xCE: 4,
    0xCF: 8,
    0xD0: 1,
    0xD1: 2,
    0xD2: 4,
    0xD3: 8,
}
#: fixext type bytes -> their data length (after the ext type byte)
_FIXEXT: dict[int, int] = {0xD4: 1, 0xD5: 2, 0xD6: 4, 0xD7: 8, 0xD8: 16}


def _header(data: bytes, pos: int) -> tuple[str, int, int] | None:
    """The header at ``pos``: (kind, declared length, position after the header); kind
    ``"skip"`` is a value of a fixed size (its length: the bytes after the header). None:
    the header is cut short, or is not msgpack (0xC1)."""
    b = data[pos]
    pos += 1
    if b <= 0x7F or b >= 0xE0:
        return "skip", 0, pos
    if b <= 0x8F:
        return "map", b & 0x0F, pos
    if b <= 0x9F:
        return "array", b & 0x0F, pos
    if b <= 0xBF:
        return "str", b & 0x1F, pos
    if b in _FIXED:
        return "skip", _FIXED[b], pos
    if b in _FIXEXT:
        return "ext", _FIXEXT[b], pos
    sized = _SIZED.get(b)
    if sized is None or pos + sized[1] > len(data):
        return None
    kind, width = sized
    return kind, int.from_bytes(data[pos : pos + width], "big"), pos + width


def first_overlong(data: bytes, lens: MaxLens) -> str | None:
    """What is wrong with the first over-long declared length in the msgpack value at the
    start of ``data`` (worded as msgpack words it: ``"5000 exceeds max_str_len(4096)"``),
    reading no further than ``data`` goes; None when every header up to there is within
    its limit."""
    limits = {
        "str": lens.max_str_len,
        "bin": lens.max_bin_len,
        "ext": lens.max_ext_len,
        "array": lens.max_array_len,
        "map": lens.max_map_len,
    }
    pos, values = 0, 1  # values: how many values are still to be read
    while values > 0 and pos < len(data):
        values -= 1
        header = _header(data, pos)
        if header is None:
            return None
        kind, n, pos = header
        if kind == "skip":
            pos += n
            continue
        if n > limits[kind]:
            return f"{n} exceeds max_{kind}_len({limits[kind]})"
        if kind == "array":
            values += n
        elif kind == "map":
            values += 2 * n
        else:  # str, bin, ext: skip the data (and an ext's type byte)
            pos += n + (kind == "ext")
    return None
