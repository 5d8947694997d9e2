"""A reference reducer: a seat's view of the table, folded from the events it is sent.

:func:`fold` takes a seat's previous view (``table.view``) and the events of one action as
that seat sees them (``table.view_event``), and returns the next view. Everything it knows
comes from those two and from the room's rules (``GameParams``: the dead wall and the
過水 rule, which a client knows from the room's options); the legal actions are the
engine's own (the server sends them with every frame), so they are taken from the engine's
view, not folded. tests/table/test_table_view_reducer.py checks that the fold equals the
engine's view after every action: a view that changes with no event saying so fails it.
"""

from __future__ import annotations

import json
from typing import Any

from table.params import GameParams

JSON = dict[str, Any]

__all__ = ["fold"]

_TILE_ORDER: dict[str, int] = {}


def _order() -> dict[str, int]:
    if not _TILE_ORDER:
        from scoring.tiles import Tile

        _TILE_ORDER.update({str(Tile(i)): i for i in range(42)})
    return _TILE_ORDER


def _sorted(tiles: list[str]) -> list[str]:
    o = _order()
    return sorted(tiles, key=o.__getitem__)


def _remove(tiles: list[str], tile: str, n: int = 1) -> list[str]:
    out = list(tiles)
    for _ in range(n):
        out.remove(tile)
    return out


def _others(seat: int) -> list[int]:
    return [(seat + i) % 4 for i in (1, 2, 3)]


class _Fold:
    """One action's events applied to a copy of the previous view."""

    def __init__(self, prev: JSON, params: GameParams) -> None:
        legal = prev.get("legal_actions", [])
        # (a deep copy of the JSON at C speed; the legal actions are not folded)
        self.v: JSON = json.loads(json.dumps({**prev, "legal_actions": []}))
        self.p = params
        self.me: int | None = prev["you"]
        self.legal = {a["type"] for a in legal}
        self.dealing = False

    # -- helpers -----------------------------------------------------------------------

    @property
    def h(self) -> JSON:
        hand: JSON = self.v["hand"]
        return hand

    def seat(self, i: int) -> JSON:
        s: JSON = self.h["seats"][i]
        return s

    def mine(self, i: int) -> bool:
        return self.me == i

    def take(self, i: int, tiles: list[str]) -> None:
        """``tiles`` leave seat ``i``'s concealed hand."""
        s = self.seat(i)
        s["concealed_count"] -= len(tiles)
        if self.mine(i):
            for t in tiles:
                s["concealed"] = _remove(s["concealed"], t)
            s["drawn"] = None

    def give(self, i: int, tile: str) -> None:
        s = self.seat(i)
        s["concealed_count"] += 1
        if self.mine(i):
            s["concealed"] = _sorted([*s["concealed"], tile])

    def turn_to(self, i: int) -> None:
        self.v["phase"] = "turn"
        self.h.update(turn=i, discard=None, discarder=None, pending=[])

    def window(self, phase: str, seat: int, tile: str) -> None:
        self.v["phase"] = phase
        self.h.update(discarder=seat, discard=tile, pending=_others(seat))

    # -- events ------------------------------------------------------------------------

    def apply(self, e: JSON) -> None:
        getattr(self, "on_" + str(e["type"]))(e)

    def on_hand_started(self, e: JSON) -> None:
        self.dealing = True
        dealer = e["dealer"]
        self.v.update(dealer=dealer, round_wind=e["round_wind"], streak=e["streak"], phase="turn")
        seats = []
        for i in range(4):
            entry: JSON = {
                "seat": i,
                "wind": e["seat_winds"][i],
                "melds": [],
                "flowers": [],
                "discards": [],
                "concealed_count": 0,
                "ting": False,
                "ting_tile": None,
                "concealed": [] if self.mine(i) else None,
            }
            if self.mine(i):
                entry.update(drawn=None, missed_win=False)
            seats.append(entry)
        self.v["hand"] = {
            "number": e["hand"],
            "commitment": e["commitment"],
            "dice": e["dice"],
            "wall_left": max(0, e["tiles"] - self.p.dead_wall),
            "turn": dealer,
            "discarder": None,
            "discard": None,
            "pending": [],
            "seats": seats,
        }

    def on_dealt(self, e: JSON) -> None:
        i = e["seat"]
        self.h["wall_left"] = max(0, self.h["wall_left"] - e["count"])
        s = self.seat(i)
        s["concealed_count"] += e["count"]
        if self.mine(i):
            s["concealed"] = _sorted([*s["concealed"], *e["tiles"]])
            s["drawn"] = e["tiles"][-1] if i == self.v["dealer"] else None

    def on_draw(self, e: JSON) -> None:
        i = e["seat"]
        self.h["wall_left"] = e["wall_left"]
        s = self.seat(i)
        s["concealed_count"] += 1
        if self.mine(i):
            s["concealed"] = _sorted([*s["concealed"], e["tile"]])
            if not self.dealing or i == self.v["dealer"]:
                s["drawn"] = e["tile"]
            if not e["replacement"]:
                s["missed_win"] = False
        if not self.dealing:
            self.turn_to(i)

    def on_flower(self, e: JSON) -> None:
        i = e["seat"]
        s = self.seat(i)
        s["flowers"] = [*s["flowers"], e["tile"]]
        s["concealed_count"] -= 1
        if self.mine(i):
            s["concealed"] = _remove(s["concealed"], e["tile"])
            if not self.dealing:
                s["drawn"] = None

    def on_discard(self, e: JSON) -> None:
        i = e["seat"]
        self.take(i, [e["tile"]])
        s = self.seat(i)
        s["discards"] = [*s["discards"], e["tile"]]
        self.window("claim", i, e["tile"])

    def on_ting(self, e: JSON) -> None:
        s = self.seat(e["seat"])
        s.update(ting=True, ting_tile=e["tile"])

    def on_answered(self, e: JSON) -> None:
        i = e["seat"]  # (our own answer: no other seat's is sent to us)
        self.h["pending"] = [x for x in self.h["pending"] if x != i]
        if e["answer"] == "pass" and self.p.missed_win and "win" in self.legal:
            self.seat(i)["missed_win"] = True  # 過水: a win passed

    def on_timeout(self, e: JSON) -> None:
        pass  # (a discard or our own answer follows)

    def on_claimed(self, e: JSON) -> None:
        i, meld = e["seat"], e["meld"]
        src = self.seat(e["from"])
        src["discards"] = src["discards"][:-1]
        self.take(i, _remove(meld["tiles"], meld["claimed"]))
        s = self.seat(i)
        s["melds"] = [*s["melds"], meld]
        self.turn_to(i)

    def on_kong_declared(self, e: JSON) -> None:
        self.window("rob", e["seat"], e["tile"])

    def on_kong(self, e: JSON) -> None:
        i = e["seat"]
        s = self.seat(i)
        if e.get("concealed"):
            if self.mine(i):
                self.take(i, [e["tile"]] * 4)
                meld: JSON = {"kind": "kong", "tiles": [e["tile"]] * 4, "concealed": True}
            else:
                s["concealed_count"] -= 4
                meld = {"kind": "kong", "concealed": True, "tiles": None}
            s["melds"] = [*s["melds"], meld]
        else:
            tile = e["tile"]
            self.take(i, [tile])
            melds = list(s["melds"])
            for k, m in enumerate(melds):
                if m["kind"] == "pung" and m["tiles"][0] == tile:
                    melds[k] = {**m, "kind": "kong", "tiles": [tile] * 4, "added": True}
                    melds[k] = {x: melds[k][x] for x in _MELD_KEYS if x in melds[k]}
                    break
            s["melds"] = melds
        self.turn_to(i)

    def on_payment(self, e: JSON) -> None:
        sc = self.v["scores"]
        sc[e["payer"]] -= e["amount"]
        sc[e["payee"]] += e["amount"]

    def on_instant(self, e: JSON) -> None:
        pass  # (its payments follow)

    def on_hand_won(self, e: JSON) -> None:
        if e["how"] in ("discard", "robbing_kong"):
            d = e["discarder"]
            if e["how"] == "discard":
                src = self.seat(d)
                src["discards"] = src["discards"][:-1]
            else:
                self.seat(d)["concealed_count"] -= 1
            self.seat(e["winners"][0]["seat"])["concealed_count"] += 1

    def on_hand_drawn(self, e: JSON) -> None:
        pass

    def on_hand_ended(self, e: JSON) -> None:
        self.v["phase"] = "between_hands"
        self.v["hands_played"] += 1
        self.v["scores"] = list(e["scores"])
        h = self.h
        h.update(pending=[], wall=e["wall"], salt=e["salt"])
        for i, tiles in enumerate(e["hands"]):
            s = self.seat(i)
            s.update(concealed=list(tiles), concealed_count=len(tiles))
            kongs = list((e.get("concealed_kongs") or [[]] * 4)[i])
            for m in s["melds"]:
                if m["kind"] == "kong" and m.get("concealed") and m["tiles"] is None and kongs:
                    m["tiles"] = [kongs.pop(0)] * 4

    def on_next_hand(self, e: JSON) -> None:
        self.v.update(
            phase="between_hands",
            dealer=e["dealer"],
            streak=e["streak"],
            round_wind=e["round_wind"],
            hands_played=e["hand"],
        )
        for i, w in enumerate(e.get("seat_winds") or ()):
            self.seat(i)["wind"] = w

    def on_game_over(self, e: JSON) -> None:
        self.v.update(phase="game_over", hands_played=e["hands"], scores=list(e["scores"]))


#: a meld's keys in ``Meld.to_json`` order
_MELD_KEYS = ("kind", "tiles", "concealed", "added", "claimed", "from")


def fold(prev: JSON, events: list[JSON], seq: int, params: GameParams) -> JSON:
    """The view after ``events`` (one action's, as this seat sees them) on ``prev``; the
    legal actions are left as they were (the caller takes the engine's)."""
    f = _Fold(prev, params)
    for e in events:
        f.apply(e)
    f.v["seq"] = seq
    return f.v
