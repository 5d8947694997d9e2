"""The client model on its own: ordering of the event stream, lobby changes, chat, errors."""

from __future__ import annotations

from clients.cli.model import ClientModel
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
    assert lines == ["error: that seat is taken (seat_taken)"]
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
