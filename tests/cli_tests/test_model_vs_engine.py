"""Differential test: the client model, fed only what one seat is sent (``view_event``),
must hold exactly the view the engine gives that seat (``view``) after every action."""

from __future__ import annotations

import random
from typing import Any

import pytest

import table
from clients.cli.model import ClientModel
from protocol import messages as m

JSON = dict[str, Any]
RULESETS = table.playable_rulesets()


def lobby(ruleset: str, status: str) -> JSON:
    seats = [
        {
            "player": f"p{i}",
            "name": f"P{i}",
            "bot": False,
            "ready": True,
            "away": False,
            "auto": False,
        }
        for i in range(4)
    ]
    return {
        "id": "r1",
        "code": "ABCD",
        "ruleset": ruleset,
        "options": {},
        "host": "p0",
        "status": status,
        "game_no": 1,
        "seats": seats,
        "spectators": [],
    }


def comparable(view: JSON, me: int) -> JSON:
    """The parts of a view the client tracks (the wall count is checked apart)."""
    out = {
        k: view.get(k)
        for k in ("phase", "dealer", "round_wind", "hands_played", "streak", "scores")
    }
    h = view.get("hand")
    if h is None:
        out["hand"] = None
        return out
    hand = {k: h.get(k) for k in ("number", "turn", "discard", "discarder")}
    seats = []
    for s in h["seats"]:
        e = {
            k: s.get(k)
            for k in ("seat", "wind", "flowers", "discards", "concealed_count", "ting", "ting_tile")
        }
        e["melds"] = [
            {"kind": x["kind"], "tiles": x.get("tiles"), "concealed": bool(x.get("concealed"))}
            for x in s["melds"]
        ]
        c = s.get("concealed")
        e["concealed"] = sorted(c) if c is not None else None
        seats.append(e)
    hand["seats"] = seats
    if view["phase"] == "turn" and h["turn"] == me:
        hand["drawn"] = h["seats"][me].get("drawn")
    out["hand"] = hand
    return out


def play(ruleset: str, seed: int, me: int) -> int:
    rng = random.Random(seed)
    cfg = table.GameConfig(ruleset, max_hands=2)
    state = table.new_game(cfg)
    model = ClientModel()
    model.player_id = f"p{me}"
    model.apply(
        m.Snapshot(
            room="r1",
            seq=1,
            lobby=lobby(ruleset, "playing"),
            you={"player": f"p{me}", "seat": me, "spectator": False},
            game=table.view(state, me),
            legal=[],
        )
    )
    seq = 1
    player = table.RandomPlayer(rng)
    steps = 0
    while state.phase is not table.Phase.GAME_OVER:
        if state.phase is table.Phase.BETWEEN_HANDS:
            action = table.Action(
                table.ActionType.START_HAND, None, state.seq, seed=rng.randbytes(32)
            )
        else:
            h = state.hand
            seats = [h.turn] if state.phase is table.Phase.TURN else list(h.pending)
            seat = rng.choice(seats)
            action = player.choose(state, seat)
            if action is None or rng.random() < 0.03:
                action = table.Action(table.ActionType.TIMEOUT, seat, state.seq)
        state, events = table.apply(state, action)
        seq += 1
        seen = [v for v in (table.view_event(e, me) for e in events) if v is not None]
        legal = [a.to_json() for a in table.legal_actions(state, me)]
        model.apply(m.Events(room="r1", seq=seq, events=seen, legal=legal))
        room = model.room
        assert room is not None and not room.needs_resync and not room.stale
        got = room.game
        assert got is not None
        want = comparable(table.view(state, me), me)
        have = comparable(got, me)
        # hand_ended shows every concealed kong: no snapshot is needed for them any more
        assert not room.wants_snapshot
        if have != want:
            diff = []
            if have.get("hand") and want.get("hand"):
                for a, b in zip(have["hand"]["seats"], want["hand"]["seats"], strict=True):
                    for k in a:
                        if a[k] != b[k]:
                            diff.append((a["seat"], k, a[k], b[k]))
                for k in have["hand"]:
                    if k != "seats" and have["hand"][k] != want["hand"].get(k):
                        diff.append(("hand", k, have["hand"][k], want["hand"].get(k)))
            for k in have:
                if k != "hand" and have[k] != want[k]:
                    diff.append(("game", k, have[k], want[k]))
            raise AssertionError(
                f"step {steps} after {action}: {diff}; events {[e['type'] for e in seen]}"
            )
        wl = table.view(state, me)["hand"]
        if wl is not None:  # from the first event of the hand on: the deal counts it down
            assert got["hand"]["wall_left"] == wl["wall_left"], (steps, action)
        steps += 1
    return steps


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", range(4))
def test_model_tracks_the_engine_view(ruleset: str, seed: int) -> None:
    assert play(ruleset, seed, me=seed % 4) > 10
