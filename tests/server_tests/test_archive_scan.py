"""The archive's reading of packed log entries (server/archive/scan.py): the kept fields
copied as bytes equal the whole entry unpacked with only the kept fields, and the fields
the archiver decides by are decoded (the events only where a hand ends or is won)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from server.archive.scan import HEAD_KEYS, KEPT, entry, pack_log, scan, unpack_log
from server.storage.store_base import pack, unpack

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text() | st.binary(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=20,
)
event_types = st.sampled_from(["discard", "draw", "hand_won", "hand_ended", "hand_endedx", "x"])
events = st.lists(
    st.fixed_dictionaries({"type": event_types}, optional={"note": json_values}), max_size=4
)
# the kept keys, some others (legal actions, deadlines, chat...), in any order
keys = st.sampled_from([*KEPT, "legal", "deadlines", "clocks", "chat", "playing"])


@st.composite
def entries(draw: st.DrawFn) -> dict[str, object]:
    out: dict[str, object] = {}
    for k in draw(st.lists(keys, unique=True, max_size=10)):
        out[k] = draw(events) if k == "events" else draw(json_values)
    return out


@settings(deadline=None)  # what is tested is the result, not its time
@given(st.lists(entries(), max_size=6))
def test_scan_equals_unpacking_whole_then_keeping(log: list[dict[str, object]]) -> None:
    rows = [(v + 1, pack(e)) for v, e in enumerate(log)]
    scanned = scan(rows)
    assert [e.version for e in scanned] == [v for v, _ in rows]
    for e, (_, blob) in zip(scanned, rows, strict=True):
        whole = unpack(blob)
        assert unpack(e.packed) == {k: whole[k] for k in KEPT if k in whole}
        want = {k: whole[k] for k in HEAD_KEYS if k in whole}
        evs = whole.get("events") or []
        if any(ev["type"] in ("hand_won", "hand_ended") for ev in evs):
            want["events"] = whole["events"]
        # events are decoded where a hand ends or is won, and may be elsewhere (a byte
        # match inside another value: decoded, never missed)
        assert {k: v for k, v in e.head.items() if k != "events"} == {
            k: v for k, v in want.items() if k != "events"
        }
        if "events" in want:
            assert e.head["events"] == want["events"]
        elif "events" in e.head:
            assert e.head["events"] == whole["events"]
    # the packed maps one after the other: the game's log as the archive keeps it
    joined = b"".join(e.packed for e in scanned)
    kept = [{k: unpack(b)[k] for k in KEPT if k in unpack(b)} for _, b in rows]
    assert unpack_log(joined) == kept
    assert unpack_log(pack_log(kept)) == kept


def test_a_hand_end_is_found_and_other_events_are_not_decoded() -> None:
    base = {"t": 5, "kind": "action", "actor": "p_1", "legal": {"0": [{"type": "pass"}]}}
    plain = entry(3, {**base, "events": [{"type": "discard", "seat": 1, "tile": "5p"}]})
    assert plain.version == 3
    assert plain.head == {"t": 5, "kind": "action", "actor": "p_1"}
    ended = [{"type": "hand_won", "winners": []}, {"type": "hand_ended", "hand": 0}]
    end = entry(4, {**base, "events": ended, "notice": {"type": "game_over"}})
    assert end.head["events"] == ended and end.head["notice"] == {"type": "game_over"}
    assert unpack(end.packed) == {"t": 5, "kind": "action", "actor": "p_1", "events": ended,
                                  "notice": {"type": "game_over"}}  # fmt: skip
