"""The room's one entry point (server/room/commands.py): each command applied by ``step`` is the
room logic's own function with the same arguments, and its outcome carries that change's log
entry and next deadline as ``server.room.facts`` makes them (a differential test over sequences
of commands by several players), a refused command raises and changes nothing, and a game is
played to its end through ``step`` alone (the players' actions, and the ticks)."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.flow.entropy import OS_SEEDS
from server.room import commands as c
from server.room import facts, game, game_room, host, rooms
from server.room.options import validate_options
from server.room.state import RoomState

PLAYERS = ["p_a", "p_b", "p_c"]
RS = game.rulesets()[0]
NOW = 1_000
TIMING = c.Timing(grace_ms=60_000, bot_delay_ms=0)

who = st.sampled_from(PLAYERS)
seat = st.integers(-1, 4)
command = st.one_of(
    st.builds(c.Join, who, st.sampled_from(["Ann", "Bob"])),
    st.builds(c.Leave, who),
    st.builds(c.Sit, who, seat),
    st.builds(c.Stand, who),
    st.builds(c.Ready, who, st.booleans()),
    st.builds(c.AddBot, who, seat),
    st.builds(c.RemoveBot, who, seat),
    st.builds(c.Rename, who, st.sampled_from(["Cy", ""])),
    st.builds(c.SetAway, who, st.booleans()),
    st.builds(c.Chat, who, st.text(max_size=4), st.just(3)),
    st.builds(c.SwapSeats, who, seat, seat),
    st.builds(c.Kick, who, who),
    st.builds(c.MakeHost, who, who),
    st.builds(c.StartGame, who),
)


def direct(state: RoomState, cmd: c.Command) -> rooms.Change | None:
    """The room logic's function for ``cmd``, called as the handlers called it before."""
    match cmd:
        case c.Join():
            return rooms.join(state, cmd.player, cmd.name, NOW)
        case c.Leave():
            return rooms.leave(state, cmd.player, NOW)
        case c.Sit():
            return rooms.sit(state, cmd.player, cmd.seat)
        case c.Stand():
            return rooms.stand(state, cmd.player)
        case c.Ready():
            return rooms.ready(state, cmd.player, cmd.ready)
        case c.AddBot():
            return rooms.add_bot(state, cmd.player, cmd.seat)
        case c.RemoveBot():
            return rooms.remove_bot(state, cmd.player, cmd.seat)
        case c.Rename():
            return rooms.rename(state, cmd.player, cmd.name)
        case c.SetAway():
            return rooms.set_away(state, cmd.player, cmd.away, NOW)
        case c.Chat():
            return rooms.chat(state, cmd.player, cmd.text, NOW, cmd.max_len)
        case c.SwapSeats():
            return host.swap_seats(state, cmd.player, cmd.a, cmd.b)
        case c.Kick():
            return host.kick(state, cmd.player, cmd.target)
        case c.MakeHost():
            return host.make_host(state, cmd.player, cmd.target)
        case c.StartGame():
            return game_room.start(state, cmd.player, NOW, cmd.seeds)
    raise AssertionError(cmd)


def outcome(fn, *args):  # type: ignore[no-untyped-def]
    try:
        return fn(*args)
    except (rooms.RoomError, game.GameError) as exc:
        return type(exc), exc.code


@settings(deadline=None, max_examples=150)
@given(st.lists(command, max_size=12))
def test_step_is_the_room_logic_itself(cmds: list[c.Command]) -> None:
    opts = validate_options(RS, {"length": "hands", "hands": 1})
    state = rooms.new_room("r_1", "ABCDEF", "p_a", "Ann", RS, opts, 0).state
    for cmd in cmds:
        before = copy.deepcopy(state)
        got = outcome(c.step, state, cmd, NOW, TIMING)
        assert state == before, "a command changed the state it was given"
        want = outcome(direct, copy.deepcopy(state), cmd)
        if isinstance(want, rooms.Change) and not facts.changes_anything(want):
            assert got is None  # nothing anyone would be told of: nothing to commit
        elif isinstance(want, rooms.Change):
            assert isinstance(got, c.Outcome)
            g, b = TIMING.grace_ms, TIMING.bot_delay_ms
            assert got.next_deadline == facts.next_deadline(facts.room_deadlines(got.state, g, b))
            if isinstance(cmd, c.StartGame):
                # a dealt wall is the server's secret randomness: not equal twice, and the
                # first game's id is drawn at random
                assert got.boundary and got.entry == facts.build_entry(got.change, NOW, g, b)
                return
            assert got.change == want
            assert got.entry == facts.build_entry(want, NOW, g, b)
            assert got.boundary == (want.state["status"] != state["status"])
            state = got.state
        else:
            assert got == want


def test_a_game_is_played_through_step_alone() -> None:
    opts = validate_options(
        RS, {"length": "hands", "hands": 1, "hand_pause_ms": 0, "bot_delay_ms": 0}
    )
    state = rooms.new_room("r_1", "ABCDEF", "p_a", "Ann", RS, opts, 0).state
    for s in range(4):
        out = c.step(state, c.AddBot("p_a", s), NOW, TIMING)
        assert isinstance(out, c.Outcome)
        state = out.state
    out = c.step(state, c.StartGame("p_a", OS_SEEDS), NOW, TIMING)
    assert isinstance(out, c.Outcome)
    state, now, rng = out.state, NOW, random.Random(7)
    for _ in range(2000):
        if game.finished(state["game"]):
            break
        now += 60_000
        out = c.step(state, c.Tick(rng), now, TIMING, {})
        assert isinstance(out, c.Outcome)
        assert out.entry["t"] == now and out.entry["actions"]
        state = out.state
    assert game.finished(state["game"])


def test_a_command_it_does_not_know_is_refused() -> None:
    state = rooms.new_room("r_1", "ABCDEF", "p_a", "Ann", RS, {}, 0).state
    with pytest.raises(TypeError):
        c.step(state, object(), NOW, TIMING)  # type: ignore[arg-type]
