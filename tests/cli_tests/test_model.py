"""The client model on its own: ordering of the event stream, lobby changes, chat, errors."""

from __future__ import annotations

import logging

import pytest

from clients.cli.model import MAX_BAD_SNAPSHOTS, ClientModel
from protocol import messages as m


def lobby(status: str = "lobby", me_at: int | None = 0) -> dict:
    seats: list[dict | None] = [None] * 4
    if me_at is not None:
        seats[me_at] = {
            "player": "p1",
            "name": "Ann",
            "bot": False,
            "ready": False,
            "away": False,
            "auto": False,
        }
    return {
        "id": "r1",
        "code": "QQQQ",
        "ruleset": "zung-jung",
        "options": {},
        "host": "p1",
        "status": status,
        "game_no": 0,
        "seats": seats,
        "spectators": [],
    }


def connected() -> ClientModel:
    model = ClientModel()
    model.apply(
        m.Welcome(
            v=1,
            player_id="p1",
            token="tok",
            name="Ann",
            resumed=False,
            rooms=[],
            server="s",
            limits={},
            rulesets=["zung-jung"],
        )
    )
    model.apply(m.Snapshot(room="r1", seq=5, lobby=lobby(), you={"player": "p1", "seat": 0}))
    return model


def test_a_gap_in_the_stream_asks_for_a_resync_and_applies_nothing():
    model = connected()
    room = model.room
    assert room is not None and room.seq == 5 and room.seat == 0
    model.apply(m.Events(room="r1", seq=7, events=[], chat={"name": "Ben", "text": "hi", "t": 1}))
    assert room.needs_resync and room.seq == 5 and room.chat == []
    # a duplicate (already applied) entry is ignored
    model.apply(m.Events(room="r1", seq=5, events=[], chat={"name": "Ben", "text": "x", "t": 1}))
    assert room.chat == []
    # the missing entries arrive: applied in order, the flag is cleared by a snapshot
    model.apply(m.Events(room="r1", seq=6, events=[], chat={"name": "Ben", "text": "a", "t": 1}))
    model.apply(m.Events(room="r1", seq=7, events=[], chat={"name": "Ben", "text": "b", "t": 2}))
    assert [c.text for c in room.chat] == ["a", "b"] and room.seq == 7
    model.apply(m.Snapshot(room="r1", seq=9, lobby=lobby(), you={"player": "p1", "seat": 0}))
    assert not room.needs_resync and room.seq == 9


def test_sparse_frames_chain_by_prev():
    """With sparse delivery a frame's ``prev`` (not ``seq`` - 1) says what came before it:
    a skipped seq is no gap, a ``prev`` the client never saw is one."""
    model = connected()
    room = model.room
    assert room is not None and room.seq == 5
    model.apply(
        m.Events(room="r1", seq=8, prev=5, events=[], chat={"name": "B", "text": "a", "t": 1})
    )
    assert not room.needs_resync and room.seq == 8 and [c.text for c in room.chat] == ["a"]
    # the server says it sent seq 10 before this one: we never got it
    model.apply(
        m.Events(room="r1", seq=12, prev=10, events=[], chat={"name": "B", "text": "b", "t": 2})
    )
    assert room.needs_resync and room.seq == 8 and [c.text for c in room.chat] == ["a"]
    model.apply(
        m.Events(room="r1", seq=10, prev=8, events=[], chat={"name": "B", "text": "c", "t": 3})
    )
    model.apply(
        m.Events(room="r1", seq=12, prev=10, events=[], chat={"name": "B", "text": "b", "t": 2})
    )
    assert room.seq == 12 and [c.text for c in room.chat] == ["a", "c", "b"]


def test_lobby_changes_move_my_seat_and_start_the_game():
    model = connected()
    room = model.room
    assert room is not None
    model.apply(m.Events(room="r1", seq=6, events=[], lobby=lobby(me_at=2)))
    assert room.seat == 2
    lines = model.apply(m.Events(room="r1", seq=7, events=[], lobby=lobby("playing", 2)))
    assert "the game starts" in lines
    assert room.game is not None and room.game["phase"] == "between_hands"
    lines = model.apply(m.Events(room="r1", seq=8, events=[], lobby=lobby("lobby", None)))
    assert room.seat is None


def test_errors_and_leaving():
    model = connected()
    lines = model.apply(m.Error(code="seat_taken", message="that seat is taken", re=3))
    assert model.last_error is not None and model.last_error.code == "seat_taken"
    # in the client's words by its code (in every language, as the browser does)
    assert lines == ["error: That seat is taken. (seat_taken)"]
    # a code this client does not know: the server's own words
    lines = model.apply(m.Error(code="newer_code", message="a newer server's words", re=4))
    assert lines == ["error: a newer server's words (newer_code)"]
    model.apply(m.Left(room="r1"))
    assert model.room is None and model.rooms == {}


def test_a_resumed_welcome_drops_rooms_we_are_no_longer_in():
    model = connected()
    lines = model.apply(
        m.Welcome(
            v=1,
            player_id="p1",
            token="tok",
            name="Ann",
            resumed=True,
            rooms=[],
            server="s",
            limits={},
            rulesets=[],
        )
    )
    assert lines[0].startswith("resumed as Ann")
    assert model.room is None


def test_when_a_client_may_act_on_legal():
    model = connected()
    room = model.room
    assert room is not None and not room.can_act()  # nothing to do
    pass_ = {"type": "pass", "seat": 0, "seq": 3}
    model.apply(m.Events(room="r1", seq=6, events=[], legal=[pass_], deadline=1))
    assert room.can_act()
    room.mark_acted()
    assert not room.can_act()  # in flight
    room.action_done(m.Ack(room="r1", seq=9, client_seq=100))
    assert room.ack_seq == 9
    # events 7 and 8 were committed before our action (the ack overtook them): stale legal
    model.apply(m.Events(room="r1", seq=7, events=[], legal=[pass_]))
    model.apply(m.Events(room="r1", seq=8, events=[], legal=[pass_]))
    assert not room.can_act()
    model.apply(m.Events(room="r1", seq=9, events=[], legal=[]))
    assert not room.can_act()
    discard = {"type": "discard", "seat": 0, "seq": 5, "tile": "5p"}
    model.apply(m.Events(room="r1", seq=10, events=[], legal=[discard]))
    assert room.can_act()
    # an error (or no answer) lets us decide again on the same legal
    room.mark_acted()
    room.action_done(m.Error(code="illegal_action", message="no"))
    assert room.can_act()
    room.mark_acted()
    room.action_done(None)
    assert room.can_act()
    # a snapshot is a fresh decision
    room.mark_acted()
    room.action_done(m.Ack(room="r1", seq=10, client_seq=101, duplicate=True))
    assert not room.can_act()
    model.apply(
        m.Snapshot(
            room="r1", seq=10, lobby=lobby(), you={"player": "p1", "seat": 0}, legal=[discard]
        )
    )
    assert room.can_act()


def playing() -> ClientModel:
    """Connected, seat 0, a hand dealt: we hold 1m 2m 3m."""
    model = connected()
    model.apply(m.Events(room="r1", seq=6, events=[], lobby=lobby("playing", 0)))
    model.apply(
        m.Events(
            room="r1",
            seq=7,
            events=[
                {"type": "hand_started", "dealer": 1, "hand": 0},
                {"type": "dealt", "seat": 0, "count": 3, "tiles": ["1m", "2m", "3m"]},
                {"type": "dealt", "seat": 1, "count": 3},
            ],
        )
    )
    return model


BAD_EVENTS = [
    {"type": "discard", "seat": 7, "tile": "5p"},  # no such seat
    {"type": "discard", "tile": "5p"},  # no seat at all
    {"type": "discard", "seat": 0, "tile": "9s"},  # a tile we do not hold (out of order)
    {"type": "discard", "seat": 1},  # no tile
    {"type": "flower", "seat": 2, "tile": "f1"},  # seat 2 holds nothing: count below zero
    {"type": "claimed", "seat": 1, "from": 9, "meld": {"kind": "pung", "tiles": ["1m"] * 3}},
    {"type": "payment", "payer": "x", "payee": 1, "amount": 3},
    {"type": "hand_started"},
]


@pytest.mark.parametrize("bad", BAD_EVENTS, ids=lambda e: str(sorted(e.items())))
def test_a_malformed_event_asks_for_a_snapshot_instead_of_crashing(bad, caplog):
    model = playing()
    room = model.room
    assert room is not None and room.seq == 7 and room.my_tiles()[0] == ["1m", "2m", "3m"]
    legal = [{"type": "discard", "seat": 0, "seq": 9, "tile": "1m"}]
    with caplog.at_level(logging.WARNING, logger="mahjong.cli.model"):
        lines = model.apply(m.Events(room="r1", seq=8, events=[bad], legal=legal))
    assert lines == ["out of step with the server; resynchronising"]
    assert any("asking for a fresh snapshot" in r.getMessage() for r in caplog.records)
    assert room.stale and room.wants_snapshot and not room.can_act()
    # nothing more is applied until the snapshot: later entries are ignored
    model.apply(
        m.Events(room="r1", seq=9, events=[], legal=legal, chat={"name": "B", "text": "x", "t": 1})
    )
    assert room.chat == [] and not room.can_act()
    # the snapshot replaces the view and the stream goes on from it
    view = {"phase": "turn", "hand": None, "scores": [0, 0, 0, 0]}
    model.apply(
        m.Snapshot(
            room="r1", seq=12, lobby=lobby("playing", 0), you={"seat": 0}, game=view, legal=legal
        )
    )
    assert not room.stale and not room.wants_snapshot and room.seq == 12 and room.can_act()
    model.apply(m.Events(room="r1", seq=13, events=[], chat={"name": "B", "text": "y", "t": 2}))
    assert [c.text for c in room.chat] == ["y"]


def test_a_snapshot_that_cannot_be_applied_is_asked_for_a_bounded_number_of_times(caplog):
    model = playing()
    room = model.room
    assert room is not None
    bad = {"phase": "turn", "hand": {"seats": "nope"}}
    for i in range(MAX_BAD_SNAPSHOTS):
        room.wants_snapshot = False  # the session sent the resync
        lines = model.apply(
            m.Snapshot(room="r1", seq=20 + i, lobby=lobby("playing", 0), you={"seat": 0}, game=bad)
        )
        assert room.stale
        assert room.wants_snapshot == (i < MAX_BAD_SNAPSHOTS - 1), i
    assert lines == ["out of step with the server; reconnect to try again"]
    # a good one (after a reconnect) restores everything
    model.apply(m.Snapshot(room="r1", seq=30, lobby=lobby("playing", 0), you={"seat": 0}))
    assert not room.stale and room.bad_snapshots == 0


def test_a_malformed_message_for_an_unknown_room_is_ignored():
    model = connected()
    assert model.apply(m.Events(room="zz", seq=1, events=[{"type": "discard", "seat": 9}])) == []
    assert not model.rooms["r1"].stale
