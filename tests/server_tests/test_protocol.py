"""The protocol package: codec limits, schema validation, and docs/protocol.md coverage."""

from __future__ import annotations

import re
from pathlib import Path

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import (
    CLIENT_MESSAGES,
    SERVER_MESSAGES,
    CloseCode,
    CodecError,
    ErrorCode,
    Limits,
    ProtocolError,
    decode,
    encode,
    parse_client,
)

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()


def doc_table_first_column(heading: str) -> set[str]:
    part = DOC.split(heading, 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z_]+)` \|", part, re.M))


def test_every_message_and_code_is_documented():
    assert doc_table_first_column("## 3. Client → server messages") >= set(CLIENT_MESSAGES)
    assert doc_table_first_column("## 4. Server → client messages") >= set(SERVER_MESSAGES)
    assert doc_table_first_column("## 9. Error codes") == {c.value for c in ErrorCode}
    for code in CloseCode:
        assert f"| {code.value} |" in DOC


json_like = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_like)
def test_roundtrip_and_parse_never_crashes(value):
    assert decode(encode(value)) == value
    try:
        parse_client(value)
    except ProtocolError as exc:
        assert exc.code in set(ErrorCode)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=64))
def test_random_bytes_give_codec_errors_only(data):
    try:
        decode(data)
    except CodecError as exc:
        assert exc.code in set(ErrorCode)


def test_limits():
    small = Limits(max_frame_bytes=100, max_depth=3, max_array_len=4)
    with pytest.raises(CodecError) as e:
        decode(b"\x00" * 101, small)
    assert e.value.code == ErrorCode.FRAME_TOO_LARGE
    with pytest.raises(CodecError) as e:
        decode(encode([[[[1]]]]), small)
    assert e.value.code == ErrorCode.TOO_DEEP
    assert decode(encode([[[1]]]), small) == [[[1]]]
    with pytest.raises(CodecError) as e:
        decode(encode([1, 2, 3, 4, 5]), small)
    assert e.value.code == ErrorCode.LIMIT_EXCEEDED


def test_messages_validate_fields():
    m = parse_client(
        {"type": "action", "room": "r_1", "seq": 3, "action": {"type": "pass", "seq": 12}, "id": 7}
    )
    assert m.to_wire() == {
        "type": "action",
        "room": "r_1",
        "seq": 3,
        "action": {"type": "pass", "seq": 12},
        "id": 7,
    }
    ok = {"type": "discard", "seq": 4, "tile": "5p"}
    for bad in (
        {"type": "action", "room": "r_1", "seq": 0, "action": ok},
        {"type": "action", "room": "r_1", "seq": 1.5, "action": ok},
        {"type": "action", "room": "r_1", "seq": 1, "action": []},
        {"type": "action", "room": "r_1", "seq": 1},  # no action
        {"type": "action", "room": "r_1", "seq": 1, "action": {**ok, "extra": 1}},
        {"type": "action", "room": "r_1", "seq": 1, "action": {**ok, "seat": "0"}},
        {"type": "action", "room": "r_1", "seq": 1, "action": {**ok, "tile": 5}},
        {"type": "action", "room": "r_1", "seq": 1, "action": {**ok, "tile": "5x"}},
        {"type": "action", "room": "r_1", "seq": 1, "action": {"type": "discard", "seq": 4}},
        {"type": "action", "room": "r_1", "seq": 1, "action": {"type": "pass"}},  # no seq
        {"type": "action", "room": "r_1", "seq": 1, "action": {"type": "timeout", "seq": 4}},
        {"type": "action", "room": "r_1", "seq": 1, "action": {"seq": 4}},
        {"type": "hello", "v": 1, "name": "x" * 33},
        {"type": "ready", "room": "r", "ready": 1},
    ):
        with pytest.raises(ProtocolError) as e:
            parse_client(bad)
        assert e.value.code == ErrorCode.BAD_MESSAGE, bad
    with pytest.raises(ProtocolError) as e:
        parse_client({"type": "nope", "id": 5})
    assert e.value.code == ErrorCode.UNKNOWN_TYPE and e.value.re == 5


def test_encode_is_plain_msgpack():
    assert msgpack.unpackb(encode({"type": "ping", "t": 1})) == {"type": "ping", "t": 1}


@settings(max_examples=300, deadline=None)
@given(st.lists(json_like | st.binary(max_size=8) | st.floats(allow_nan=False), max_size=4))
def test_encode_reused_packer_gives_packb_bytes(values):
    """``encode`` reuses one packer per thread: each value's bytes are ``packb``'s, whatever
    was packed before it, including a value the packer refused half-way (its buffer must
    not leak into the next frame)."""
    for v in values:
        assert encode(v) == msgpack.packb(v, use_bin_type=True)
        with pytest.raises(TypeError):
            encode({"ok": [1, 2, "three"], "bad": object()})
    assert encode(values) == msgpack.packb(values, use_bin_type=True)


def test_encode_packer_per_thread():
    """Each thread gets its own packer (a msgpack Packer is not thread-safe)."""
    import threading

    from protocol import codec

    seen: list[object] = []
    t = threading.Thread(target=lambda: (encode(1), seen.append(codec._PACKERS.packer)))
    t.start()
    t.join()
    encode(1)
    assert seen and seen[0] is not codec._PACKERS.packer
