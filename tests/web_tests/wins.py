"""Scripted wins for the win screen's browser test: one hand per playable rule set, won by
seat 1 with a self-draw or on the dealer's discard, from a preset wall.

The table engine plays the hand (``table.apply``, as the server does); the frames are the
ones the server would send seat 1: a ``snapshot`` from ``server.room.game.view`` just before the
win, then the ``events`` of the win (``server.app.visible_events``). The engine's own
``hand_won`` is returned with them: the payments the page must show are the settlement the
server computed.
"""

from __future__ import annotations

from typing import Any

from scoring.tiles import parse_tiles
from server.app import visible_events
from table import Action, ActionType, GameConfig, GameState, apply, new_game
from table.wall import build_wall

from .scenes import ROOM, legal_for, snapshot

JSON = dict[str, Any]
RULESETS = ("mcr", "hk-tw16", "tw16-tai", "zung-jung", "zung-jung-v3.3")
WINNER = 1
#: settlement options that put every part of the arithmetic on the screen (底, × per 番 / 台)
SETTLEMENT: dict[str, tuple[tuple[str, Any], ...]] = {
    "hk-tw16": (("base", 2), ("per_fan", 2)),
    "tw16-tai": (("base", 50), ("unit", 20)),
}

#: seat 1 waits on 5p (a single wait); the dealer (seat 0) holds 7s, or 5p to deal in
HANDS = {
    13: (
        "1p 1p 2p 2p 3p 3p 4p 4p we we ws ws ww",
        "123456789m 234s 5p",
        "6p 6p 7p 7p 8p 8p 9p 9p wn wn dr dr dg",
        "4m 4m 5m 5m 6m 6m 7m 7m 8m 8m 9m 9m 1s",
    ),
    16: (
        "1p 1p 2p 2p 3p 3p 4p 4p we we ws ws ww ww wn wn",
        "123456789m 234s 678s 5p",
        "6p 6p 7p 7p 8p 8p 9p 9p dr dr dg dg dw dw 1s 1s",
        "4m 4m 5m 5m 6m 6m 7m 7m 8m 8m 9m 9m 1s 2s 3s 4s",
    ),
}


def _do(st: GameState, typ: ActionType, seat: int | None, tile: str | None = None) -> GameState:
    t = parse_tiles(tile)[0] if tile else None
    st, _ = apply(st, Action(typ, seat, st.seq, t))
    return st


def _pass_all(st: GameState) -> GameState:
    assert st.hand is not None
    for s in list(st.hand.pending):
        st = _do(st, ActionType.PASS, s)
    return st


def scripted_win(ruleset: str, self_drawn: bool) -> tuple[list[JSON], JSON]:
    """Seat 1's frames up to the win, and the engine's ``hand_won`` event."""
    st = new_game(GameConfig(ruleset, max_hands=2, settlement=SETTLEMENT.get(ruleset, ())))
    size = st.params.hand_size
    flowers = st.params.flowers
    dealer, winner, third, fourth = HANDS[size]
    dealer += " 7s" if self_drawn else " 5p"
    hands = [parse_tiles(h) for h in (dealer, winner, third, fourth)]
    wall = build_wall(flowers, size, 0, hands, parse_tiles("5p") if self_drawn else [], [])
    seed = b"win-screen-000000"
    st, _ = apply(st, Action(ActionType.START_HAND, None, st.seq, seed=seed, wall=wall))
    if self_drawn:
        st = _do(st, ActionType.DISCARD, 0, "7s")
        st = _pass_all(st)  # seat 1 draws 5p
    else:
        st = _do(st, ActionType.DISCARD, 0, "5p")
    seq = 5
    frames = [snapshot(dict(st.to_json()), WINNER, seq, ruleset)]
    if not self_drawn:
        assert st.hand is not None
        for s in sorted(st.hand.pending):
            if s != WINNER:
                st = _do(st, ActionType.PASS, s)
    st, events = apply(st, Action(ActionType.WIN, WINNER, st.seq))
    evs = [dict(e.to_json()) for e in events]
    frames.append(
        {
            "type": "events",
            "room": ROOM,
            "seq": seq + 1,
            "events": visible_events({"events": evs}, WINNER),
            "legal": legal_for(dict(st.to_json()), WINNER),
        }
    )
    won = next(e for e in evs if e["type"] == "hand_won")
    return frames, won
