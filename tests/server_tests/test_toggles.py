"""A player's own play settings (``toggles``): auto-win, no claims, auto-discard. Kept per
seat in the room (they survive a reconnect), applied by the room logic to the decision open
now, private to the player."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator

import pytest

import table
from protocol.codes import ErrorCode
from server.flow.entropy import new_game_id
from server.room import game, game_room, rooms, schedule
from server.room.game_room import Seeds
from server.room.lobby import public_lobby
from server.room.options import validate_options
from server.room.stored import older
from server_tests.helpers import setup_table

GRACE_MS = 60_000
BOT_DELAY_MS = 0
JSON = dict


def _room(ruleset: str, seed: int) -> JSON:
    opts = validate_options(
        ruleset,
        {
            "length": "hands",
            "hands": 1,
            "hand_pause_ms": 0,
            "turn_seconds": 20,
            "claim_seconds": 10,
            "window_ms": 800,
        },
    )
    s = rooms.new_room("r_1", "ABCDEF", "p0", "P0", ruleset, opts, 0).state
    for i in range(4):
        p = f"p{i}"
        if i:
            s = rooms.join(s, p, p.upper()).state
        s = rooms.sit(s, p, i).state
        s = rooms.ready(s, p, True).state
    n = iter(range(1, 100))
    return game_room.start(
        s,
        "p0",
        1000,
        Seeds(lambda: hashlib.sha256(f"{seed}:{next(n)}".encode()).hexdigest(), new_game_id),
    ).state


def _states(ruleset: str, seed: int) -> Iterator[tuple[JSON, int]]:
    """Every state of a seeded game in which the players act at once (random player,
    claiming half the time); the room's own deadlines run when no player is asked."""
    s = _room(ruleset, seed)
    player = table.RandomPlayer(random.Random(seed), claim_rate=0.5)
    rng = random.Random(seed)
    now = 1000
    while s["status"] == "playing":
        yield s, now
        asked = [int(k) for k in older(s)["pending_kinds"] if k not in older(s)["pending_auto"]]
        now += 50
        if asked:
            seat = min(asked)
            a = player.choose(table.GameState.from_json(s["game"]), seat)
            assert a is not None
            s = game_room.play(
                s, f"p{seat}", {k: v for k, v in a.to_json().items() if k != "seat"}, now
            ).state
        else:
            now = max(now, schedule.next_deadline(s, GRACE_MS, BOT_DELAY_MS) or now)
            ch = game_room.tick(s, now, GRACE_MS, BOT_DELAY_MS, rng)
            assert ch is not None
            s = ch.state


def _kinds(s: JSON, seat: int) -> set[str]:
    return {a["type"] for a in game.legal(s["game"], seat)}


@pytest.mark.parametrize("ruleset", ["mcr", "hk-tw16"])
def test_no_claims_passes_for_a_seat_that_could_claim_but_not_win(ruleset):
    found = 0
    for s, now in _states(ruleset, 3):
        for k, kind in older(s)["pending_kinds"].items():
            seat = int(k)
            kinds = _kinds(s, seat)
            if kind != "claim" or "win" in kinds or not kinds & {"pung", "chow", "kong"}:
                continue
            assert k not in older(s)["pending_auto"]  # asked, as it may claim
            after = game_room.set_toggles(s, f"p{seat}", {"no_claims": True}, now).state
            assert k in older(after)["pending_auto"]  # not asked any more: the server passes
            assert (
                older(after)["pending_since"][k] == older(s)["pending_since"][k]
            )  # the same decision
            found += 1
        if found >= 3:
            break
    assert found


@pytest.mark.parametrize("ruleset", ["mcr", "zung-jung"])
def test_auto_win_declares_a_legal_win(ruleset):
    for seed in range(6):
        for s, now in _states(ruleset, seed):
            winners = [int(k) for k in older(s)["pending_kinds"] if "win" in _kinds(s, int(k))]
            if not winners:
                continue
            seat = winners[0]
            after = game_room.set_toggles(s, f"p{seat}", {"auto_win": True}, now).state
            assert older(after)["pending_act"][str(seat)]["type"] == "win"
            # the room's deadlines run (the win is the server's, at once on a turn, in a
            # window when its drawn time comes; the others answer or time out)
            events: list[JSON] = []
            actions: list[JSON] = []
            st = after
            for _ in range(12):
                if any(e["type"] == "hand_won" for e in events):
                    break
                at = schedule.next_deadline(st, GRACE_MS, 0)
                assert at is not None
                nxt = game_room.tick(st, at, GRACE_MS, 0, random.Random(0))
                assert nxt is not None
                events += nxt.events
                actions += nxt.actions
                st = nxt.state
            assert [a["type"] for a in actions if a["seat"] == seat] == ["win"]
            won = [e for e in events if e["type"] == "hand_won"]
            assert won and seat in [w["seat"] for w in won[0]["winners"]]
            return
    raise AssertionError("no win was ever possible")


def test_toggles_belong_to_a_seat():
    s = _room("mcr", 1)
    s = rooms.join(s, "p9", "Watcher").state
    with pytest.raises(rooms.RoomError) as exc:
        game_room.set_toggles(s, "p9", {"auto_win": True}, 2000)
    assert exc.value.code is ErrorCode.NOT_SEATED
    ch = game_room.set_toggles(s, "p1", {"no_claims": True}, 2000)
    assert game_room.toggles_of(ch.state, 1) == {
        "auto_win": False,
        "no_claims": True,
        "auto_discard": False,
    }
    assert "toggles" not in str(public_lobby(ch.state))  # private to the player


async def test_toggles_over_a_websocket_survive_a_resync(server):
    [alice], room = await setup_table(server.port, 1, "mcr", {"length": "hands", "hands": 1})
    assert (await alice.request({"type": "start_game", "room": room}))["type"] == "ack"
    ack = await alice.request({"type": "toggles", "room": room, "auto_win": True})
    assert ack["type"] == "ack", ack
    snap = await alice.request({"type": "resync", "room": room, "since": 0})
    assert snap["you"]["toggles"] == {"auto_win": True, "no_claims": False, "auto_discard": False}
    ack = await alice.request({"type": "toggles", "room": room, "no_claims": True})
    snap = await alice.request({"type": "resync", "room": room, "since": 0})
    assert snap["you"]["toggles"] == {"auto_win": True, "no_claims": True, "auto_discard": False}
    await alice.close()
