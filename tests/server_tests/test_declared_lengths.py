"""A declared length above its limit is ``limit_exceeded`` even when the frame is cut short
before the data (docs/protocol.md section 1): str, bin and ext as well as arrays and maps.

msgpack checks a string's length only once its data is there, so a truncated frame declaring
a 5,000-byte string used to answer ``bad_frame`` (issue 34, item 9); ``protocol.declared``
reads the headers. Checked against msgpack itself: on a whole frame the two name the same
first over-long value, and every frame cut after that value's header answers as the whole
frame does."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import CodecError, ErrorCode, Limits, decode
from protocol.declared import MaxLens, first_overlong

STR16_5000 = b"\xda\x13\x88"  # a str16 header declaring 5,000 bytes
CASES = [
    # (what, frame, code)
    ("str16 of 5,000 cut short", b"\x81\xa4type\xda\x13\x88" + b"x" * 100, "limit_exceeded"),
    ("str16 of 5,000, no data", b"\x81\xa4type" + STR16_5000, "limit_exceeded"),
    ("str32 of 5,000 cut short", b"\xdb\x00\x00\x13\x88" + b"x" * 10, "limit_exceeded"),
    ("bin16 of 5,000 cut short", b"\xc5\x13\x88" + b"x" * 10, "limit_exceeded"),
    ("bin32 of 2^32-1 cut short", b"\xc6\xff\xff\xff\xff", "limit_exceeded"),
    ("str as a map value", b"\x82\xa4type\xa4chat\xa4text\xdb\x00\x01\x00\x00xx", "limit_exceeded"),
    ("str in an array", b"\x92\xa1a\xda\x13\x88", "limit_exceeded"),
    ("ext8 cut short", b"\xc7\x05\x01ab", "limit_exceeded"),
    ("array32 cut short", b"\xdd\xff\xff\xff\xff", "limit_exceeded"),
    ("map16 cut short", b"\xde\x13\x88\xa1a", "limit_exceeded"),
    ("str8 within the limit cut short", b"\xd9\x05ab", "bad_frame"),
    ("str16 header cut inside its length", b"\x81\xa4type\xda\x13", "bad_frame"),
    ("a short str, then one cut short", b"\x92\xa3abc\xd9\x10ab", "bad_frame"),
    ("not msgpack", b"\xc1", "bad_frame"),
    ("an over-long str after the cut", b"\x92\xa3ab", "bad_frame"),
]


@pytest.mark.parametrize(("what", "frame", "code"), CASES, ids=[c[0] for c in CASES])
def test_each_truncated_frame_gets_its_code(what, frame, code):
    with pytest.raises(CodecError) as e:
        decode(frame)
    assert e.value.code == code, (what, e.value.message)


SMALL = Limits(max_str_len=8, max_bin_len=8, max_array_len=4, max_map_len=4)
LENS = MaxLens(8, 8, 4, 4)

values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.binary(max_size=300),
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=10), inner, max_size=6)
    ),
    max_leaves=12,
)


def _code(frame: bytes) -> tuple[ErrorCode | None, str]:
    try:
        decode(frame, SMALL)
    except CodecError as exc:
        return exc.code, exc.message
    return None, ""


@settings(max_examples=400, deadline=None)
@given(values)
def test_the_headers_agree_with_msgpack_on_whole_frames(value):
    frame = msgpack.packb(value, use_bin_type=True)
    code, message = _code(frame)
    over = first_overlong(frame, LENS)
    assert (code == ErrorCode.LIMIT_EXCEEDED) == (over is not None), (code, message, over)
    if over is not None:
        assert message == over


@settings(max_examples=200, deadline=None)
@given(values)
def test_a_frame_cut_after_an_over_long_header_answers_as_the_whole_frame(value):
    frame = msgpack.packb(value, use_bin_type=True)
    whole, message = _code(frame)
    cut_codes = [_code(frame[:k]) for k in range(1, len(frame))]
    if whole != ErrorCode.LIMIT_EXCEEDED:
        # no declared length is over: a cut frame is only unreadable
        assert all(c == ErrorCode.BAD_FRAME for c, _ in cut_codes), cut_codes
        return
    # from the first cut that sees the over-long header on, the answer is the whole frame's
    first = next(k for k, (c, _) in enumerate(cut_codes) if c == ErrorCode.LIMIT_EXCEEDED)
    assert all(c == ErrorCode.BAD_FRAME for c, _ in cut_codes[:first])
    assert all(cm == (ErrorCode.LIMIT_EXCEEDED, message) for cm in cut_codes[first:])
