"""What each connection is sent of one log entry (``server/room/delivery.py``), decided for
all of a room's connections at once: dense and sparse connections, quiet entries, the seat a
lobby gives, leaving and being kicked, and one frame shared per seat view."""

from __future__ import annotations

from typing import Any

import pytest

from protocol.codec import decode
from server.room import frames
from server.room.delivery import Delivery, Reader, deliveries

JSON = dict[str, Any]
ROOM = "r_1"
#: an entry that shows nobody anything new after ``QUIET_BEFORE`` (a pass nobody sees)
QUIET_BEFORE: JSON = {"t": 1, "kind": "action", "actor": "p_a", "events": []}
QUIET: JSON = {"t": 2, "kind": "action", "actor": "p_b", "events": []}
CHAT: JSON = {**QUIET, "chat": {"player": "p_a", "text": "hi"}}


def lobby(seats: list[str | None], spectators: list[str]) -> JSON:
    return {
        "seats": [{"player": p, "bot": False} if p else None for p in seats],
        "spectators": [{"player": p} for p in spectators],
    }


def frame_of(d: Delivery) -> JSON:
    assert d.frame is not None
    msg = decode(d.frame)
    assert isinstance(msg, dict)
    return msg


@pytest.mark.parametrize(
    ("reader", "entry", "before", "sent", "prev"),
    [
        # dense: always sent, never a prev
        (Reader("p_a", 0, False, None), QUIET, QUIET_BEFORE, True, None),
        (Reader("p_a", 0, False, 3), CHAT, QUIET_BEFORE, True, None),
        # sparse, nothing sent since its snapshot: sent, prev the version before
        (Reader("p_a", 0, True, None), QUIET, QUIET_BEFORE, True, 6),
        # sparse with a frame before: a quiet entry is not sent, another carries prev
        (Reader("p_a", 0, True, 3), QUIET, QUIET_BEFORE, False, None),
        (Reader("p_a", 0, True, 3), CHAT, QUIET_BEFORE, True, 3),
        # the entry before not at hand: sent (it cannot be known quiet)
        (Reader("p_a", 0, True, 3), QUIET, None, True, 3),
    ],
)
def test_who_is_sent_what(
    reader: Reader, entry: JSON, before: JSON | None, sent: bool, prev: int | None
) -> None:
    (d,) = deliveries(ROOM, 7, entry, before, [reader], frames.EntryFrames())
    assert (d.frame is not None) == sent
    assert d.seat == reader.seat and d.member and not d.kicked
    if sent:
        msg = frame_of(d)
        assert msg["seq"] == 7 and msg["room"] == ROOM and msg.get("prev") == prev


def test_a_lobby_seats_its_players_and_takes_out_who_left_or_was_kicked() -> None:
    entry = {
        **QUIET,
        "lobby": lobby(["p_b", None, "p_a", None], ["p_s"]),
        "notice": {"type": "kicked", "player": "p_k"},
    }
    readers = [
        Reader("p_a", 0, False, None),  # moved from seat 0 to seat 2
        Reader("p_s", None, True, 4),  # a spectator, still
        Reader("p_k", 1, False, None),  # kicked
        Reader("p_l", 3, True, 4),  # left
    ]
    got = deliveries(ROOM, 7, entry, QUIET_BEFORE, readers, frames.EntryFrames())
    assert [(d.seat, d.member, d.kicked) for d in got] == [
        (2, True, False),
        (None, True, False),
        (None, False, True),
        (None, False, False),
    ]
    # every one of them is sent the entry (a lobby is never quiet): the ones it took out
    # learn so from it
    assert all(frame_of(d)["lobby"] == entry["lobby"] for d in got)


def test_connections_with_one_view_share_the_same_bytes() -> None:
    readers = [Reader(f"p_{i}", None, False, None) for i in range(3)]
    readers += [Reader("p_x", 0, False, None), Reader("p_y", 0, False, None)]
    readers += [Reader(f"p_s{i}", None, True, 2) for i in range(2)]
    got = deliveries(ROOM, 7, CHAT, QUIET_BEFORE, readers, frames.EntryFrames())
    dense, seat0, sparse = got[:3], got[3:5], got[5:]
    assert len({id(d.frame) for d in dense}) == 1
    assert len({id(d.frame) for d in seat0}) == 1
    assert len({id(d.frame) for d in sparse}) == 1
    assert frame_of(sparse[0])["prev"] == 2 and "prev" not in frame_of(dense[0])
