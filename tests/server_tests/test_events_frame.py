"""``frames.events_frame`` builds the ``events`` wire dict directly (no message object): the
bytes equal ``encode(m.Events(...).to_wire())`` with that seat's redacted events, legal
actions and deadline and the table's public clocks, for every seat view, over the entries of a played game and entries
carrying a lobby, chat and notice."""

from __future__ import annotations

import random
from typing import Any

from loadtest.selfplay import ROOM, next_change, started_room
from protocol import messages as m
from protocol.codec import decode, encode
from server.app import App
from server.process.config import Config
from server.room import commands, game
from server.room import frames as framing
from server_tests.test_sparse import _entries


def _expected(room: str, v: int, entry: dict[str, Any], seat: int | None) -> bytes:
    events = [x for e in entry.get("events") or [] if (x := game.view_event(e, seat)) is not None]
    key = str(seat) if seat is not None else None
    legal = deadline = clocks = None
    if entry.get("playing"):
        legal = (entry.get("legal") or {}).get(key, []) if key is not None else []
        deadline = (entry.get("deadlines") or {}).get(key) if key is not None else None
        clocks = entry.get("clocks") or []
    msg = m.Events(
        room=room,
        seq=v,
        events=events,
        lobby=entry.get("lobby"),
        chat=entry.get("chat"),
        notice=entry.get("notice"),
        legal=legal,
        deadline=deadline,
        clocks=clocks,
    )
    return encode(msg.to_wire())


def test_events_frame_equals_the_message_encoding() -> None:
    app = App(Config(), None)  # type: ignore[arg-type]  # no store: nothing is committed
    joins, ch = started_room("zung-jung", 0, hands=1, turn_seconds=30)
    entries = [commands.outcome(None, j, 0, app.commits.timing).entry for j in joins]
    entries.append(commands.outcome(None, ch, 0, app.commits.timing).entry)
    entries.append({**entries[-1], "chat": {"from": "p1", "text": "hi"}, "notice": {"x": 1}})
    s, entry = ch.state, entries[-2]
    rng = random.Random(3)
    now = 0
    while s["status"] == "playing" and len(entries) < 300:
        now += 10
        ch, _ = next_change(s, entry, rng, now)
        entry = commands.outcome(None, ch, now, app.commits.timing).entry
        entries.append(entry)
        s = ch.state
    assert any(e.get("legal") for e in entries) and any(e.get("deadlines") for e in entries)
    for v, entry in enumerate(entries):
        for seat in (None, 0, 1, 2, 3):
            assert framing.events_frame(ROOM, v, entry, seat) == _expected(ROOM, v, entry, seat)


def test_seats_an_event_does_not_name_see_it_alike() -> None:
    """``frames._view_class``: the engine's redaction shows an event alike to every seat
    it does not name (owner or ``seat``), so those seats (``frames._unnamed``, without
    legal actions of their own) share one frame."""
    from server.room.frames import _view_class

    seen = 0
    for ruleset, seed in (("zung-jung", 1), ("mcr", 2), ("hk-tw16", 3)):
        for entry in _entries(ruleset, seed, n=400):
            for e in entry.get("events") or []:
                by_class: dict[Any, Any] = {}
                for seat in (0, 1, 2, 3):
                    cls = _view_class(e, seat)
                    view = game.view_event(e, seat)
                    if cls in by_class:
                        assert by_class[cls] == view, (e, seat)
                        seen += 1
                    by_class[cls] = view
    assert seen > 100


def test_shared_frames_equal_the_message_encoding_in_any_order() -> None:
    """The frame the seats an entry does not name share (``EntryFrames.frame``, one per
    view: ``frames.view_of``) is the bytes of each of them, whichever seat asks first, with
    ``prev`` or without, with the caller's visible events (``EntryFrames``) or not."""

    entries = _entries("zung-jung", 5, n=400, claim_seconds=0)
    rng = random.Random(7)
    shared = 0
    for v, entry in enumerate(entries):
        seats: list[int | None] = [None, 0, 1, 2, 3]
        rng.shuffle(seats)
        ef = framing.EntryFrames()
        for seat in seats:
            want = _expected(ROOM, v, entry, seat)
            assert ef.frame(ROOM, v, entry, seat) == want
            assert ef.frame(ROOM, v, entry, seat, v - 1) == encode({**decode(want), "prev": v - 1})
            shared += framing.view_of(entry, seat) == framing.UNNAMED
            assert framing.events_frame(ROOM, v, entry, seat) == want
            assert framing.events_frame(ROOM, v, entry, seat, None, ef.visible(entry, seat)) == want
            got = framing.events_frame(ROOM, v, entry, seat, v - 1)
            assert got == encode({**decode(want), "prev": v - 1})
            assert framing.quiet(entry, entries[v - 1], seat, ef.visible(entry, seat)) == (
                framing.quiet(entry, entries[v - 1], seat)
            )
    assert shared > 100  # seats the entries do not name, sharing a frame
