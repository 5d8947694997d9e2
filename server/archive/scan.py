"""Reads what the archive needs of a room's log straight from its packed entries: each
entry's kept fields copied as packed bytes (never built as objects), and the few small
fields the archiver decides by.

A log entry is a msgpack map (docs/server.md, "The log"). The archive keeps seven of its
fields (:data:`server.archive.records.KEPT`) and drops the rest (the seats' legal actions,
deadlines, chat). Building every kept value as Python objects and encoding them again
for the database was most of what archiving cost the server (BENCHMARKS.md
``archive-cost``); here each kept field's bytes are sliced out of the entry as they are,
and an entry's kept map is those slices under a new map header. A game's log in the
archive is its entries' kept maps one after the other (a msgpack stream), so the stretches
of a game's hands join by concatenation.

The archiver decides by the entry's time, kind, lobby and notice (decoded: they are small
or rare) and by whether a hand ends or is won in it: the events are decoded only when their
bytes hold ``hand_`` (a msgpack string is its bytes after a header, so the type of an event
``hand_ended`` or ``hand_won`` is found by a byte search; a match elsewhere, such as
``hand_started`` or a player's name, only costs a decode).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import msgpack

JSON = dict[str, Any]

#: the fields of a log entry the archive keeps for a replay (not the seats' legal actions,
#: deadlines or chat: what happened, not what could have)
KEPT = ("t", "kind", "actor", "actions", "events", "lobby", "notice")
KEPT_KEYS = frozenset(KEPT)
#: the kept fields decoded for the archiver's decisions (small, or on few entries)
HEAD_KEYS = frozenset(("t", "kind", "actor", "lobby", "notice"))
#: what the events of an entry where a hand ends or is won hold (``hand_ended``,
#: ``hand_won``: a msgpack string is its bytes after a header); also ``hand_started`` and
#: ``hand_drawn``, and any value that happens to hold it: those are decoded for nothing
_MARK = b"hand_"


@dataclass(frozen=True, slots=True)
class Entry:
    """One log entry as the archive reads it."""

    version: int
    #: the entry's kept fields: a packed msgpack map
    packed: bytes
    #: decoded: ``t``, ``kind``, ``actor``, ``lobby``, ``notice`` (those present), and
    #: ``events`` when a hand ends or is won in the entry
    head: JSON


def _unpacker() -> msgpack.Unpacker:
    return msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=0)


def scan(rows: list[tuple[int, bytes]]) -> list[Entry]:
    """Each packed log entry ``(version, msgpack map)`` as an :class:`Entry`. One unpacker
    reads them all; a run of kept fields is copied as one slice."""
    data = b"".join(blob for _, blob in rows)
    view = memoryview(data)
    u = _unpacker()
    u.feed(data)
    tell, unpack, skip, header = u.tell, u.unpack, u.skip, u.read_map_header
    out: list[Entry] = []
    for version, _ in rows:
        head: JSON = {}
        parts: list[memoryview] = []
        n = 0
        span = -1  # where the run of kept fields being read began
        for _ in range(header()):
            at = tell()
            key = unpack()
            if key not in KEPT_KEYS:
                if span >= 0:
                    parts.append(view[span:at])
                    span = -1
                skip()
                continue
            if span < 0:
                span = at
            n += 1
            if key in HEAD_KEYS:
                head[key] = unpack()
            elif key == "events":
                start = tell()
                skip()
                end = tell()
                if data.find(_MARK, start, end) >= 0:
                    head["events"] = msgpack.unpackb(
                        view[start:end], raw=False, strict_map_key=False
                    )
            else:
                skip()
        if span >= 0:
            parts.append(view[span : tell()])
        out.append(Entry(version, bytes((0x80 | n,)) + b"".join(parts), head))
    return out


def entry(version: int, fields: JSON) -> Entry:
    """An :class:`Entry` of a log entry given as a dict (tests, tools)."""
    return scan([(version, msgpack.packb(fields, use_bin_type=True))])[0]


def pack_log(entries: list[JSON]) -> bytes:
    """Log entries (their kept fields) packed as the archive keeps a log."""
    return b"".join(msgpack.packb(e, use_bin_type=True) for e in entries)


def unpack_log(packed: bytes) -> list[JSON]:
    """A log kept packed (entries' kept maps one after the other) as a list of entries."""
    return list(msgpack.Unpacker(io.BytesIO(packed), raw=False, strict_map_key=False))


def events_of(e: Entry) -> list[JSON]:
    """The entry's events if a hand ends or is won in it (else none: not decoded)."""
    return list(e.head.get("events") or [])
