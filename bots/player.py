"""The real bot: decides from one seat's view (the JSON of :func:`table.view`) only.

:func:`choose` takes exactly what a client receives — the seat's view and its legal actions
— so a bot cannot cheat: it never sees another seat's concealed tiles or the wall.

Policy (documented in docs/bots.md):

* **win** whenever a win is among the legal actions (the table only offers wins that meet
  the rule set's minimum, checked with the scoring engine);
* **discard** the tile that leaves the lowest shanten number, then the most useful tiles
  (ukeire: the unseen copies of every tile that would lower it), then the safest (tiles
  already seen on the table, honours and terminals first) and least valuable; with a
  minimum to reach (MCR: 8) a ready hand only counts as ready when one of its waits
  actually scores the minimum (checked with the scoring engine);
* **claim** (chow, pung, kong) only when it lowers the shanten number, or for a pung/kong of a
  valued honour (dragon, seat or round wind) that does not raise it; otherwise pass;
* **kong** from the hand when it does not raise the shanten number;
* **ting** (叮) when the rule set has it and the hand is ready with at least
  :data:`TING_MIN_OUTS` unseen winning tiles.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bots.rules import BotRules, bot_rules
from bots.shanten import caps_of, shanten, useful_tiles
from scoring.hand import Relative
from scoring.tiles import Tile

__all__ = [
    "TING_MIN_GAIN",
    "TING_MIN_OUTS",
    "Bot",
    "Situation",
    "choose",
    "situation",
    "ting_gain",
    "ukeire",
]

TING_MIN_OUTS = 3
#: …and when the scoring engine says 叮 adds at least this much to the win (hk-tw16: 門清叮
#: 15 on a concealed hand, 叮牌 5 otherwise); a fixed hand loses flexibility
TING_MIN_GAIN = 10
#: shanten number (after the discard) from which the bot plays safe against a declared ting
FOLD_AT_SHANTEN = 2
#: with a minimum score (MCR), claim only to become ready on a wait that meets it (off:
#: measured weaker, see docs/bots.md)
MIN_SCORE_CLAIMS_READY = False

_MELD_SIZE = {"chow": 3, "pung": 3, "kong": 4}


@dataclass(slots=True)
class Situation:
    """What the bot reads from a view: its hand, its melds and the tiles it has seen."""

    rules: BotRules
    seat: int
    concealed: list[int]  # 34 counts, the drawn tile included
    melds: list[dict[str, Any]]
    meld_counts: list[int]  # 34 counts of the seat's own meld tiles
    visible: list[int]  # 34 counts of every tile this seat can see (own hand included)
    seat_wind: Tile
    round_wind: Tile
    flowers: list[str]
    discard: Tile | None  # the tile under claim
    ting: bool
    caps: tuple[int, ...] = ()  # copies the concealed hand may still use (4 - own melds)
    #: tiles known safe against every opponent who declared ting (叮): their own discards
    #: (they cannot win on them after passing them); None when nobody has declared
    safe_vs_ting: frozenset[int] | None = None
    discarder: int | None = None  # who discarded the tile under claim

    def __post_init__(self) -> None:
        if not self.caps:
            self.caps = caps_of(self.meld_counts)

    @property
    def n_melds(self) -> int:
        return len(self.melds)

    def unseen(self, t: int) -> int:
        return max(0, 4 - self.visible[t])


def _tile(code: Any) -> int | None:
    if not isinstance(code, str):
        return None
    try:
        t = Tile.parse(code)
    except Exception:
        return None
    return int(t) if t < 34 else None


def situation(view: Mapping[str, Any]) -> Situation:
    """Read the seat's situation from its view."""
    seat = view["you"]
    hand = view["hand"]
    me = hand["seats"][seat]
    n_conc = len(me.get("concealed") or [])
    n_melds = len(me.get("melds", []))
    rules = bot_rules(str(view["ruleset"]), 16 if n_conc + 3 * n_melds >= 16 else 13)
    concealed = [0] * 34
    for code in me.get("concealed") or []:
        t = _tile(code)
        if t is not None:
            concealed[t] += 1
    visible = list(concealed)
    meld_counts = [0] * 34
    for s in hand["seats"]:
        for m in s.get("melds", []):
            for code in m.get("tiles") or []:
                t = _tile(code)
                if t is not None:
                    visible[t] += 1
                    if s["seat"] == seat:
                        meld_counts[t] += 1
        for code in s.get("discards", []):
            t = _tile(code)
            if t is not None:
                visible[t] += 1
    # the tile under claim is still in its discarder's river (counted above)
    discard = _tile(hand.get("discard")) if view.get("phase") != "turn" else None
    return Situation(
        rules=rules,
        seat=seat,
        concealed=concealed,
        melds=list(me.get("melds", [])),
        meld_counts=meld_counts,
        visible=visible,
        seat_wind=Tile.parse(me.get("wind", "we")),
        round_wind=Tile.parse(view.get("round_wind", "we")),
        flowers=list(me.get("flowers", [])),
        discard=Tile(discard) if discard is not None else None,
        ting=bool(me.get("ting")),
        safe_vs_ting=_safe_vs_ting(hand["seats"], seat),
        discarder=hand.get("discarder") if discard is not None else None,
    )


def _safe_vs_ting(seats: Sequence[Mapping[str, Any]], me: int) -> frozenset[int] | None:
    """Tiles in the river of every opponent who declared ting (None: nobody did)."""
    safe: set[int] | None = None
    for s in seats:
        if s.get("seat") == me or not s.get("ting"):
            continue
        river = {t for t in (_tile(c) for c in s.get("discards", [])) if t is not None}
        safe = river if safe is None else safe & river
    return frozenset(safe) if safe is not None else None


def ukeire(
    counts: list[int], n_melds: int, sit: Situation, base: int | None = None
) -> tuple[int, list[int]]:
    """(unseen copies of the useful tiles, the useful tiles) of a hand before its draw."""
    tiles = useful_tiles(counts, n_melds, sit.rules.shapes, sit.caps, base)
    useful = [t for t in tiles if sit.unseen(t) > 0]
    return sum(sit.unseen(t) for t in useful), useful


@lru_cache(maxsize=1 << 14)
def _score(
    ruleset: str,
    counts: tuple[int, ...],
    melds: str,
    flowers: tuple[str, ...],
    seat_wind: Tile,
    round_wind: Tile,
    win: int,
    ting: bool = False,
    self_drawn: bool = False,
    fourth_tile: bool = False,
) -> tuple[int, bool] | None:
    """(total, minimum met) of winning on ``win`` (scoring engine) by a discard or a
    self-draw, with the hand declared ting (叮) or not, the tile the last copy or not; None
    when the engine does not accept the hand."""
    from scoring import get_ruleset, score

    try:
        uses_flowers = bool(get_ruleset(ruleset).uses_flowers)
    except Exception:
        uses_flowers = False
    hand: dict[str, Any] = {
        "ruleset": ruleset,
        "concealed": [str(Tile(i)) for i in range(34) for _ in range(counts[i])],
        "melds": json.loads(melds),
        "flowers": list(flowers) if uses_flowers else [],
        "win_tile": str(Tile(win)),
        "win": {"self_drawn": self_drawn, "fourth_tile": fourth_tile},
        "seat_wind": str(seat_wind),
        "round_wind": str(round_wind),
    }
    if ting:
        hand["context"] = {"ting": True}
    res = score(hand)
    if res.get("error") is not None:
        return None
    return int(res.get("total", 0)), bool(res.get("minimum_met"))


def _meets_minimum(*key: Any) -> bool:
    r = _score(*key)
    return r is not None and r[1]


def _hand_key(
    counts: list[int], sit: Situation
) -> tuple[str, tuple[int, ...], str, tuple[str, ...], Tile, Tile]:
    melds = json.dumps([m for m in sit.melds if m.get("tiles")], sort_keys=True)
    return (sit.rules.name, tuple(counts), melds, tuple(sit.flowers), sit.seat_wind,
            sit.round_wind)  # fmt: skip


def ting_gain(counts: list[int], waits: Sequence[int], sit: Situation) -> float:
    """How much declaring ting adds to the win, averaged over the unseen winning tiles
    (scoring engine: the hand scored with and without the ``ting`` context)."""
    key = _hand_key(counts, sit)
    total = 0.0
    n = 0
    for w in waits:
        left = sit.unseen(w)
        with_ting = _score(*key, w, True)
        without = _score(*key, w, False)
        if left and with_ting is not None and without is not None:
            total += left * (with_ting[0] - without[0])
            n += left
    return total / n if n else 0.0


def _valued(t: int, sit: Situation) -> bool:
    return t >= 31 or t in (int(sit.seat_wind), int(sit.round_wind))


def _safety(t: int, sit: Situation) -> int:
    """Higher is safer: copies already seen, honours and terminals first."""
    tile = Tile(t)
    s = sit.visible[t] - sit.concealed[t]
    if tile.is_honor:
        s += 2
    elif tile.is_terminal:
        s += 1
    return s


class Bot:
    """The policy, with its scoring look-ups cached per hand situation."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random(0)

    # -- value checks (minimum score) ----------------------------------------------------------

    def _wins_meeting_minimum(self, counts: list[int], waits: list[int], sit: Situation) -> int:
        """Unseen copies of the waits whose win (by discard) meets the rule set's minimum."""
        if sit.rules.min_score <= 0:
            return sum(sit.unseen(t) for t in waits)
        key = _hand_key(counts, sit)
        return sum(sit.unseen(w) for w in waits if _meets_minimum(*key, w))

    # -- evaluation    # -- evaluation -------------------------------------------------------------------------

    def evaluate_discard(
        self, counts: list[int], n_melds: int, sit: Situation
    ) -> tuple[int, int, int]:
        """(effective shanten, outs, ready outs) of a hand before its draw."""
        s = shanten(counts, n_melds, sit.rules.shapes, caps=sit.caps)
        outs, useful = ukeire(counts, n_melds, sit, s)
        if s == 0:
            good = self._wins_meeting_minimum(counts, useful, sit)
            if good == 0 and sit.rules.min_score > 0:
                return 1, outs, 0  # ready but nothing scores the minimum: not really ready
            return 0, outs, good
        return s, outs, 0

    def best_discard(
        self, counts: list[int], n_melds: int, sit: Situation, allowed: Sequence[int]
    ) -> tuple[int, tuple[int, int, int]]:
        """The tile to discard among ``allowed`` and its evaluation."""
        best: tuple[tuple[float, ...], int, tuple[int, int, int]] | None = None
        cands = [t for t in sorted(set(allowed)) if counts[t] > 0]
        if sit.safe_vs_ting is None and len(cands) > 1:
            # ukeire only breaks ties: evaluate fully only the discards that keep the lowest
            # shanten number (and, with a minimum score, the next one: a ready hand on
            # waits that score too little counts as 1-shanten)
            raw: dict[int, int] = {}
            for t in cands:
                counts[t] -= 1
                raw[t] = shanten(counts, n_melds, sit.rules.shapes, caps=sit.caps)
                counts[t] += 1
            low = min(raw.values())
            slack = 1 if low == 0 and sit.rules.min_score > 0 else 0
            cands = [t for t in cands if raw[t] <= low + slack]
        for t in cands:
            counts[t] -= 1
            ev = self.evaluate_discard(counts, n_melds, sit)
            keep_value = 1 if _valued(t, sit) and counts[t] >= 1 else 0
            # against a declared ting, a hand still far from ready (2+) folds: safe first
            fold = 0
            if sit.safe_vs_ting is not None and ev[0] >= FOLD_AT_SHANTEN:
                fold = 0 if t in sit.safe_vs_ting else 1
            key = (
                fold, ev[0], -ev[2], -ev[1], keep_value, -_safety(t, sit), self.rng.random(),
            )  # fmt: skip
            counts[t] += 1
            if best is None or key < best[0]:
                best = (key, t, ev)
        if best is None:
            raise ValueError("no discard available")
        return best[1], best[2]

    # -- decisions ------------------------------------------------------------------------

    def choose(
        self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]] | None = None
    ) -> Mapping[str, Any]:
        acts: list[Mapping[str, Any]] = list(
            legal if legal is not None else view.get("legal_actions", [])
        )
        if not acts:
            raise ValueError("no legal action to choose from")
        by_type: dict[str, list[Mapping[str, Any]]] = {}
        for a in acts:
            by_type.setdefault(str(a.get("type")), []).append(a)
        if "win" in by_type:
            return by_type["win"][0]
        if view.get("hand") is None:
            return acts[0]
        sit = situation(view)
        if view.get("phase") == "turn":
            return self._turn(sit, by_type, acts)
        return self._claim(sit, by_type, acts)

    def _turn(
        self,
        sit: Situation,
        by_type: dict[str, list[Mapping[str, Any]]],
        acts: list[Mapping[str, Any]],
    ) -> Mapping[str, Any]:
        discards = by_type.get("discard", [])
        tings = {_tile(a.get("tile")): a for a in by_type.get("ting", [])}
        if not discards and not tings:
            return acts[0]
        c = sit.concealed
        allowed = [t for t in (_tile(a.get("tile")) for a in discards) if t is not None]
        allowed += [t for t in tings if t is not None]
        tile, (s, _outs, good) = self.best_discard(c, sit.n_melds, sit, allowed)
        # kongs from the hand: when they do not raise the shanten number
        for kind in ("concealed_kong", "added_kong"):
            for a in by_type.get(kind, []):
                t = _tile(a.get("tile"))
                if t is None:
                    continue
                n = 4 if kind == "concealed_kong" else 1
                c[t] -= n
                melds = sit.n_melds + (1 if kind == "concealed_kong" else 0)
                caps = (*sit.caps[:t], 0, *sit.caps[t + 1 :])  # all four in the meld
                after = shanten(c, melds, sit.rules.shapes, caps=caps)
                c[t] += n
                if after <= s:
                    return a
        if tile in tings and s == 0 and good >= TING_MIN_OUTS:
            c[tile] -= 1
            waits = useful_tiles(c, sit.n_melds, sit.rules.shapes, sit.caps, 0)
            gain = ting_gain(c, waits, sit)
            c[tile] += 1
            if gain >= TING_MIN_GAIN:
                return tings[tile]
        for a in discards:
            if _tile(a.get("tile")) == tile:
                return a
        return tings.get(tile) or discards[0]

    def _claim(
        self,
        sit: Situation,
        by_type: dict[str, list[Mapping[str, Any]]],
        acts: list[Mapping[str, Any]],
    ) -> Mapping[str, Any]:
        passes = by_type.get("pass", [])
        fallback = passes[0] if passes else acts[0]
        d = sit.discard
        if d is None or sit.ting:
            return fallback
        t = int(d)
        c = sit.concealed
        rules = sit.rules.shapes
        now = self.evaluate_discard(c, sit.n_melds, sit)
        best: tuple[tuple[int, int], Mapping[str, Any]] | None = None
        options: list[tuple[Mapping[str, Any], list[int], bool]] = []
        for a in by_type.get("pung", []):
            options.append((a, [t, t], _valued(t, sit)))
        for a in by_type.get("kong", []):
            options.append((a, [t, t, t], _valued(t, sit)))
        for a in by_type.get("chow", []):
            first = _tile(a.get("tile"))
            if first is None:
                continue
            need = [x for x in (first, first + 1, first + 2) if x != t]
            options.append((a, need, False))
        for a, need, valued in options:
            if any(c[x] < need.count(x) for x in need):
                continue
            for x in need:
                c[x] -= 1
            mc = sit.meld_counts
            for x in (*need, t):
                mc[x] += 1
            sub = Situation(
                sit.rules, sit.seat, c, [*sit.melds, _meld_json(a, need, t, sit)], mc,
                sit.visible, sit.seat_wind, sit.round_wind, sit.flowers, None, False,
            )  # fmt: skip
            if a.get("type") == "kong":
                s_after = shanten(c, sit.n_melds + 1, rules, caps=sub.caps)
                ev = (s_after, 0)
            else:
                allowed = [x for x in range(34) if c[x] > 0 and x != t]
                if not allowed:
                    ev = (99, 0)
                else:
                    _, e = self.best_discard(c, sit.n_melds + 1, sub, allowed)
                    ev = (e[0], e[1])
            for x in (*need, t):
                mc[x] -= 1
            for x in need:
                c[x] += 1
            helps = ev[0] < now[0] or (valued and ev[0] <= now[0])
            if MIN_SCORE_CLAIMS_READY and sit.rules.min_score > 0 and ev[0] > 0:
                # with a minimum to reach, an exposed meld costs the concealed-hand points:
                # claim only when it makes the hand ready on a wait that scores the minimum
                helps = False
            if helps and (best is None or (ev[0], -ev[1]) < best[0]):
                best = ((ev[0], -ev[1]), a)
        return best[1] if best is not None else fallback


def _meld_json(a: Mapping[str, Any], need: list[int], t: int, sit: Situation) -> dict[str, Any]:
    """The meld a claim would expose (the scoring engine's JSON form)."""
    kind = str(a.get("type"))
    out: dict[str, Any] = {
        "kind": kind,
        "tiles": [str(Tile(x)) for x in sorted([*need, t])],
        "claimed": str(Tile(t)),
    }
    if sit.discarder is not None and sit.discarder != sit.seat:
        out["from"] = str(Relative.between(sit.seat, int(sit.discarder)))
    return out


def choose(
    view: Mapping[str, Any],
    legal: Sequence[Mapping[str, Any]] | None = None,
    rng: random.Random | None = None,
) -> Mapping[str, Any]:
    """The bot's action for the seat whose view this is (one of ``legal``, default: the
    view's ``legal_actions``)."""
    return Bot(rng).choose(view, legal)
