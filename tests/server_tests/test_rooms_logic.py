"""Property test of the pure room logic (server/room/rooms.py): any sequence of lobby operations
by any players either raises a RoomError (changing nothing) or keeps the room consistent."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.codes import ErrorCode
from server.room import game, rooms
from server.room.lobby import public_lobby
from server.room.options import validate_options

PLAYERS = ["p_a", "p_b", "p_c", "p_d", "p_e"]
RS = game.rulesets()[0]

op = st.one_of(
    st.tuples(st.just("join"), st.sampled_from(PLAYERS)),
    st.tuples(st.just("sit"), st.sampled_from(PLAYERS), st.integers(-1, 4)),
    st.tuples(st.just("stand"), st.sampled_from(PLAYERS)),
    st.tuples(st.just("ready"), st.sampled_from(PLAYERS), st.booleans()),
    st.tuples(st.just("add_bot"), st.sampled_from(PLAYERS), st.integers(0, 3)),
    st.tuples(st.just("remove_bot"), st.sampled_from(PLAYERS), st.integers(0, 3)),
    st.tuples(st.just("leave"), st.sampled_from(PLAYERS)),
    st.tuples(st.just("away"), st.sampled_from(PLAYERS), st.booleans()),
    st.tuples(st.just("chat"), st.sampled_from(PLAYERS), st.text(max_size=5)),
)


def check(state: dict) -> None:
    seated = [s["player"] for s in state["seats"] if s and s["player"]]
    assert len(seated) == len(set(seated)), "a player in two seats"
    if state["status"] != "closed":
        assert state["host"] in state["members"]
        assert all(p in state["members"] for p in seated) or state["status"] == "playing"
    else:
        assert not state["members"]
    for s in state["seats"]:
        if s is not None:
            assert s["bot"] == (s["player"] is None)
    lobby = public_lobby(state)
    assert len(lobby["seats"]) == 4


@settings(max_examples=300, deadline=None)
@given(st.lists(op, max_size=40))
def test_lobby_operations_keep_the_room_consistent(ops):
    state = rooms.new_room("r_1", "ABCDEF", "p_a", "A", RS, validate_options(RS, {}), 0).state
    for i, (kind, player, *args) in enumerate(ops):
        before = copy.deepcopy(state)
        try:
            if kind == "join":
                change = rooms.join(state, player, player.upper())
            elif kind == "leave":
                change = rooms.leave(state, player, i)
            elif kind == "away":
                change = rooms.set_away(state, player, args[0], i)
            elif kind == "chat":
                change = rooms.chat(state, player, args[0], i, 300)
            elif kind in ("stand",):
                change = rooms.stand(state, player)
            else:
                change = getattr(rooms, kind)(state, player, *args)
        except rooms.RoomError as exc:
            assert exc.code in set(ErrorCode)
            assert state == before, "a rejected operation changed the room"
            continue
        assert state == before, "operations must not mutate their input"
        if change is not None:
            state = change.state
        check(state)
