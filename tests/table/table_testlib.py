"""Shared checks for the table tests: invariants every transition must keep."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import scoring
import table
from scoring.tiles import Tile
from table import (
    Action,
    ActionType,
    Event,
    GameState,
    Phase,
    TableError,
    apply,
    legal_actions,
    view,
    view_event,
)
from table.wall import full_tile_set

PLAYABLE = table.playable_rulesets()

CODES = [str(Tile(i)) for i in range(42)]


def tile_multiset(state: GameState) -> Counter[Tile]:
    """Every tile of the hand in play, wherever it is (hands, melds, flowers, rivers, wall)."""
    h = state.hand
    assert h is not None
    c: Counter[Tile] = Counter(h.wall[h.front : len(h.wall) - h.back])
    for s in h.seats:
        c.update(s.concealed)
        c.update(s.flowers)
        c.update(s.discards)
        for m in s.melds:
            c.update(m.tiles)
    return c


def check_conservation(state: GameState) -> None:
    if state.hand is None:
        return
    want = Counter(full_tile_set(state.params.flowers))
    assert tile_multiset(state) == want
    assert table.tile_total(state.hand) == state.params.tile_count


def check_ledger(state: GameState) -> None:
    assert sum(state.scores) == 0
    net = [0, 0, 0, 0]
    for p in state.ledger:
        assert p.amount > 0 and p.payer != p.payee
        net[p.payer] -= p.amount
        net[p.payee] += p.amount
    assert net == list(state.scores)


_CODE_SET = frozenset(CODES)


def _codes_in(obj: Any) -> Counter[str]:
    """Every tile code appearing as a string value anywhere in a JSON value. (One counter
    filled by a walk over the value: a counter per node merged upwards took ~70 % of the
    seeded-play tests' time.)"""
    c: Counter[str] = Counter()
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, str):
            if o in _CODE_SET:
                c[o] += 1
        elif isinstance(o, dict):
            stack.extend(o.values())
        elif isinstance(o, list):
            stack.extend(o)
    return c


def check_views(state: GameState) -> None:
    """No seat (nor a spectator) sees another seat's concealed tiles or the wall while the
    hand is in play. Checked two ways: the structure of the view, and an independent count
    of every tile code in it against what that seat may know."""
    h = state.hand
    if h is None:
        return
    in_play = state.phase in (Phase.TURN, Phase.CLAIM, Phase.ROB)
    for seat in (None, 0, 1, 2, 3):
        v = view(state, seat)
        json.dumps(v)  # plain JSON
        if not in_play:
            continue
        hv = v["hand"]
        assert "wall" not in hv and "salt" not in hv
        allowed: Counter[str] = Counter()
        allowed[str(state.round_wind)] += 1  # the round and seat winds are wind codes too
        allowed.update(str(state.seat_wind(i)) for i in range(4))
        for i, s in enumerate(h.seats):
            sv = hv["seats"][i]
            if i != seat:
                assert sv["concealed"] is None
                assert "drawn" not in sv
                for m, mv in zip(s.melds, sv["melds"], strict=True):
                    if m.concealed:
                        assert mv["tiles"] is None
            allowed.update(str(t) for t in s.discards)
            allowed.update(str(t) for t in s.flowers)
            if s.ting_tile is not None:
                allowed[str(s.ting_tile)] += 1
            for m in s.melds:
                if not m.concealed or i == seat:
                    allowed.update(str(t) for t in m.tiles)
                    if m.claimed is not None:
                        allowed[str(m.claimed)] += 1
            if i == seat:
                allowed.update(str(t) for t in s.concealed)
                if s.drawn is not None:
                    allowed[str(s.drawn)] += 1
        if h.discard is not None:
            allowed[str(h.discard)] += 1
        for a in v["legal_actions"]:
            if "tile" in a:
                allowed[a["tile"]] += 1
        seen = _codes_in(v)
        over = {k: n - allowed[k] for k, n in seen.items() if n > allowed[k]}
        assert not over, f"seat {seat} sees more than it may: {over}"


def check_events(events: list[Event], state: GameState) -> None:
    for e in events:
        # the stored / wire form keeps the event's own type (a data key named "type" once
        # overwrote it: claimed events reached clients as "pung")
        assert Event.from_json(e.to_json()) == e
        for seat in (None, 0, 1, 2, 3):
            ve = view_event(e, seat)
            answer = e.type == "answered" or (e.type == "timeout" and e.data["default"] == "pass")
            if answer and e.data["seat"] != seat:
                # another seat's answer in a claim window: not even *that* it answered
                assert ve is None, f"{e.type} of seat {e.data['seat']} shown to {seat}"
                continue
            assert ve is not None, f"{e.type} hidden from {seat}"
            json.dumps(ve)
            # the redaction rule stated independently of views.py: the event's data, without
            # its secret keys for anyone but its owner
            shown = e.owner is None or e.owner == seat
            expected = {"type": e.type} | {
                k: v for k, v in e.data.items() if shown or k not in e.secret
            }
            assert ve == json.loads(json.dumps(expected)), (e.type, seat)
            assert ve["type"] == e.type
            if e.owner is not None and e.owner != seat:
                for k in e.secret:
                    assert k not in ve, f"{e.type}.{k} leaked to {seat}"
        if e.type == "hand_won":
            for w in e.data["winners"]:
                sc = w["score"]
                assert sc["error"] is None
                assert sc["minimum_met"] is True
                assert sc["total"] >= state.params.min_score
                # the table's hand, scored independently by the public scoring entry point
                if w["hand"].get("context", {}).get("flower_win") is None:
                    again = scoring.score(w["hand"])
                    assert again["total"] == sc["total"], (again, sc)
                    assert again["minimum_met"]
        if e.type == "hand_ended":
            assert table.verify_commitment(e.data["commitment"], e.data["wall"], e.data["salt"])


def check_answers_private(
    old: GameState, action: Action, new: GameState, events: list[Event]
) -> None:
    """No-leak property of the claim window: an answer (or a timeout's pass) that leaves the
    window open changes nothing that any *other* seat, or a spectator, is shown -- neither
    its view nor any event -- while the answering seat gets its own confirmation."""
    if old.phase not in (Phase.CLAIM, Phase.ROB) or action.seat is None:
        return
    if new.seq != old.seq or new.phase is not old.phase:
        return  # the window closed (a new decision, seq moved on): its outcome is public
    for seat in (None, 0, 1, 2, 3):
        if seat == action.seat:
            assert any(view_event(e, seat) is not None for e in events), "no confirmation"
            assert seat not in view(new, seat)["hand"]["pending"]
            continue
        vn, vo = view(new, seat), view(old, seat)
        diff = {k: (vo[k], vn[k]) for k in vn if vn[k] != vo[k] and k != "hand"}
        if vn["hand"] != vo["hand"]:
            hn, ho = vn["hand"], vo["hand"]
            diff["hand"] = {k: (ho[k], hn[k]) for k in hn if hn[k] != ho[k]}
        assert not diff, f"seat {seat} saw seat {action.seat}'s answer: {diff}"
        assert [view_event(e, seat) for e in events] == [None] * len(events)


def normalise(a: Action) -> Action:
    if a.type in (ActionType.PASS, ActionType.PUNG, ActionType.KONG, ActionType.WIN):
        return Action(a.type, a.seat, a.seq)
    return a


PROBE_TYPES = [
    ActionType.DISCARD,
    ActionType.TING,
    ActionType.CHOW,
    ActionType.PUNG,
    ActionType.KONG,
    ActionType.CONCEALED_KONG,
    ActionType.ADDED_KONG,
    ActionType.WIN,
    ActionType.PASS,
]


def probe_illegal(state: GameState, rng: random.Random, n: int = 6) -> int:
    """Random actions: accepted exactly when legal_actions lists them; a rejected one
    raises a TableError and leaves the state as it was. Returns how many were rejected."""
    if state.phase in (Phase.BETWEEN_HANDS, Phase.GAME_OVER):
        return 0
    before = state.to_json()
    legal = {s: {normalise(a) for a in legal_actions(state, s)} for s in range(4)}
    rejected = 0
    for _ in range(n):
        seat = rng.randrange(4)
        typ = rng.choice(PROBE_TYPES)
        hand = state.hand
        assert hand is not None
        pool = list(hand.seats[seat].concealed) or [Tile(0)]
        tile = rng.choice(pool) if rng.random() < 0.7 else Tile(rng.randrange(34))
        seq = state.seq if rng.random() < 0.9 else state.seq - 1
        a = Action(typ, seat, seq, tile)
        ok = seq == state.seq and normalise(a) in legal[seat]
        try:
            apply(state, a)
        except TableError as e:
            assert not ok, f"legal action {a} rejected: {e.code} {e}"
            assert e.code and isinstance(e.code, str)
            rejected += 1
        else:
            assert ok, f"illegal action {a} accepted (legal: {sorted(map(str, legal[seat]))})"
    assert state.to_json() == before
    return rejected


class Script:
    """Drive a table by hand: ``act(seat, type, tile)`` fills in the sequence number."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.initial = state
        self.actions: list[Action] = []
        self.events: list[Event] = []
        self.last: list[Event] = []

    def act(self, seat: int | None, typ: ActionType, tile: Tile | str | None = None) -> list[Event]:
        t = Tile.parse(tile) if isinstance(tile, str) else tile
        return self.do(Action(typ, seat, self.state.seq, t))

    def do(self, a: Action) -> list[Event]:
        self.state, ev = apply(self.state, a)
        check_conservation(self.state)
        check_ledger(self.state)
        check_views(self.state)
        check_events(ev, self.state)
        self.actions.append(a)
        self.events.extend(ev)
        self.last = ev
        return ev

    def start(
        self, seed: bytes = b"golden-seed-0000", wall: tuple[Tile, ...] | None = None
    ) -> None:
        self.do(Action(ActionType.START_HAND, None, self.state.seq, seed=seed, wall=wall))

    def discard_unclaimed(self, seat: int, tile: Tile | str | None) -> None:
        """``seat`` discards ``tile`` and every seat prompted for it passes."""
        self.act(seat, ActionType.DISCARD, tile)
        self.pass_all()

    def pass_all(self, *except_: int) -> None:
        h = self.state.hand
        assert h is not None
        for s in list(h.pending):
            if s not in except_:
                self.act(s, ActionType.PASS)

    def expect_error(
        self, code: str, seat: int | None, typ: ActionType, tile: str | None = None
    ) -> TableError:
        before = self.state.to_json()
        t = Tile.parse(tile) if tile else None
        try:
            apply(self.state, Action(typ, seat, self.state.seq, t))
        except TableError as e:
            assert e.code == code, f"expected {code}, got {e.code}: {e}"
            assert self.state.to_json() == before
            return e
        raise AssertionError(f"{typ.value} by {seat} was accepted; expected {code}")

    @property
    def hand(self) -> Any:
        assert self.state.hand is not None
        return self.state.hand

    def types(self, events: list[Event] | None = None) -> list[str]:
        return [e.type for e in (self.last if events is None else events)]


def tiles(text: str) -> list[Tile]:
    from scoring.tiles import parse_tiles

    return parse_tiles(text)
