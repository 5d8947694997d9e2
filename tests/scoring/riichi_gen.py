"""Random riichi winning hands for differential testing, and the bridge to the ``mahjong``
package (the reference calculator, pinned at 2.1.0).

:func:`generate` draws one winning hand (our public hand JSON) from a seeded
:class:`random.Random`. A plain random hand almost never holds the rare yaku, so hands come
from *families* — targeted generators per yaku family (all simples, identical chows,
outside hands, straights, triple chows and triplets, all triplets, kongs, flushes, dragons,
winds, honours, terminals, green, nine gates, seven pairs, thirteen orphans) — then some sets
become declared melds (chows, pungs, open and concealed kongs), the win tile is picked among
the concealed tiles and the situation is drawn: winds, ron or self-draw, riichi / double
riichi / ippatsu, haitei / houtei, rinshan, chankan, first turn (tenhou / chiihou), dora and
ura-dora indicators, red fives, and now and then other house rules.

:func:`oracle` scores a hand with ``mahjong.HandCalculator`` (its optional rules set from the
hand's house rules) and returns ``(han, fu, total, yaku ids)`` or ``None`` when it finds no
yaku. Tile bridge: our indices equal its 34-tile indices except the dragons (ours: 31 red,
32 green, 33 white; its: 31 haku, 32 hatsu, 33 chun). In its 136-tile form copy 0 of each five
is the red one (16 = 0m, 52 = 0p, 88 = 0s), so a red five takes copy 0 and a plain five
another copy.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

WINDS = [27, 28, 29, 30]
DRAGONS = [31, 32, 33]
HONORS = WINDS + DRAGONS
TERMINALS = [0, 8, 9, 17, 18, 26]
ORPHANS = TERMINALS + HONORS
SIMPLES = [t for t in range(27) if t % 9 not in (0, 8)]
GREEN = [19, 20, 21, 23, 25, 32]
FIVES = {4: "0m", 13: "0p", 22: "0s"}
_CODES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [
    "we",
    "ws",
    "ww",
    "wn",
    "dr",
    "dg",
    "dw",
]

Set = tuple[str, int]  # ("chow" | "pung", first tile)


def code(t: int) -> str:
    return _CODES[t]


def _chow_start(rng: random.Random, suits: str = "mps", lo: int = 1, hi: int = 7) -> int:
    s = "mps".index(rng.choice(suits))
    return 9 * s + rng.randint(lo, hi) - 1


def _any_set(rng: random.Random, chow_p: float = 0.6) -> Set:
    if rng.random() < chow_p:
        return ("chow", _chow_start(rng))
    return ("pung", rng.randrange(34))


def _any_pair(rng: random.Random) -> int:
    return rng.randrange(34)


# -- families: (sets, pair, style) ------------------------------------------------------------
# style: "any" (melds allowed), "closed" (no open meld), "kongs" (kongs likely), "kongs4"
# (every pung a kong), "fives" (many open melds and kongs)

Family = Callable[[random.Random], tuple[list[Set], int, str]]


def f_random(rng: random.Random) -> tuple[list[Set], int, str]:
    return [_any_set(rng) for _ in range(4)], _any_pair(rng), "any"


def f_simples(rng: random.Random) -> tuple[list[Set], int, str]:
    sets: list[Set] = []
    for _ in range(4):
        if rng.random() < 0.8:
            sets.append(("chow", _chow_start(rng, lo=2, hi=6)))
        else:
            sets.append(("pung", rng.choice(SIMPLES)))
    return sets, rng.choice(SIMPLES), rng.choice(["closed", "closed", "any"])


def f_pinfu(rng: random.Random) -> tuple[list[Set], int, str]:
    sets: list[Set] = [("chow", _chow_start(rng)) for _ in range(4)]
    pair = rng.choice([t for t in range(31)])
    return sets, pair, "closed"


def f_peikou(rng: random.Random) -> tuple[list[Set], int, str]:
    a = _chow_start(rng)
    b = _chow_start(rng) if rng.random() < 0.5 else a
    sets: list[Set] = [("chow", a), ("chow", a)]
    if rng.random() < 0.5:
        sets += [("chow", b), ("chow", b)]
    else:
        sets += [_any_set(rng), _any_set(rng)]
    return sets, _any_pair(rng), "closed"


def f_outside(rng: random.Random) -> tuple[list[Set], int, str]:
    honors = rng.random() < 0.5
    outs = TERMINALS + (HONORS if honors else [])
    sets: list[Set] = []
    for i in range(4):
        if i == 0 or rng.random() < 0.6:
            s = "mps".index(rng.choice("mps"))
            sets.append(("chow", 9 * s + rng.choice([0, 6])))
        else:
            sets.append(("pung", rng.choice(outs)))
    return sets, rng.choice(outs), "any"


def f_ittsu(rng: random.Random) -> tuple[list[Set], int, str]:
    s = 9 * rng.randrange(3)
    return [("chow", s), ("chow", s + 3), ("chow", s + 6), _any_set(rng)], _any_pair(rng), "any"


def f_sanshoku(rng: random.Random) -> tuple[list[Set], int, str]:
    n = rng.randrange(7)
    sets: list[Set] = [("chow", n), ("chow", n + 9), ("chow", n + 18), _any_set(rng)]
    return sets, _any_pair(rng), "any"


def f_doukou(rng: random.Random) -> tuple[list[Set], int, str]:
    n = rng.randrange(9)
    sets: list[Set] = [("pung", n), ("pung", n + 9), ("pung", n + 18), _any_set(rng, 0.4)]
    return sets, _any_pair(rng), rng.choice(["any", "kongs"])


def f_triplets(rng: random.Random) -> tuple[list[Set], int, str]:
    sets: list[Set] = [("pung", rng.randrange(34)) for _ in range(4)]
    if rng.random() < 0.3:
        sets[3] = _any_set(rng)
    return sets, _any_pair(rng), rng.choice(["closed", "closed", "any", "kongs"])


def f_kongs(rng: random.Random) -> tuple[list[Set], int, str]:
    sets: list[Set] = [("pung", rng.randrange(34)) for _ in range(4)]
    if rng.random() < 0.4:
        sets[3] = _any_set(rng)
    return sets, _any_pair(rng), "kongs4" if rng.random() < 0.3 else "kongs"


def f_flush(rng: random.Random) -> tuple[list[Set], int, str]:
    suit = rng.choice("mps")
    honors = rng.random() < 0.5
    sets: list[Set] = []
    for _ in range(4):
        r = rng.random()
        if honors and r < 0.25:
            sets.append(("pung", rng.choice(HONORS)))
        elif r < 0.7:
            sets.append(("chow", _chow_start(rng, suit)))
        else:
            sets.append(("pung", 9 * "mps".index(suit) + rng.randrange(9)))
    base = 9 * "mps".index(suit)
    pair = rng.choice(HONORS) if honors and rng.random() < 0.5 else base + rng.randrange(9)
    return sets, pair, "any"


def f_dragons(rng: random.Random) -> tuple[list[Set], int, str]:
    d = DRAGONS[:]
    rng.shuffle(d)
    if rng.random() < 0.5:  # little three dragons
        sets: list[Set] = [("pung", d[0]), ("pung", d[1]), _any_set(rng), _any_set(rng)]
        return sets, d[2], "any"
    sets = [("pung", d[0]), ("pung", d[1]), ("pung", d[2]), _any_set(rng)]
    return sets, _any_pair(rng), "any"


def f_winds(rng: random.Random) -> tuple[list[Set], int, str]:
    w = WINDS[:]
    rng.shuffle(w)
    if rng.random() < 0.5:
        sets: list[Set] = [("pung", w[0]), ("pung", w[1]), ("pung", w[2]), _any_set(rng)]
        return sets, w[3], "any"
    return [("pung", x) for x in w], _any_pair(rng), "any"


def f_honors(rng: random.Random) -> tuple[list[Set], int, str]:
    h = rng.sample(HONORS, 5)
    return [("pung", x) for x in h[:4]], h[4], rng.choice(["any", "closed"])


def f_terminals(rng: random.Random) -> tuple[list[Set], int, str]:
    pool = TERMINALS + (HONORS if rng.random() < 0.5 else [])
    h = rng.sample(pool, 5)
    return [("pung", x) for x in h[:4]], h[4], rng.choice(["any", "closed"])


def f_green(rng: random.Random) -> tuple[list[Set], int, str]:
    sets: list[Set] = []
    for _ in range(4):
        if rng.random() < 0.35:
            sets.append(("chow", 19))
        else:
            sets.append(("pung", rng.choice(GREEN)))
    return sets, rng.choice(GREEN), "any"


def f_fives(rng: random.Random) -> tuple[list[Set], int, str]:
    """Pungs and chows of fives, so that red fives land in every kind of meld."""
    suits = [0, 9, 18]
    rng.shuffle(suits)
    sets: list[Set] = []
    for i in range(4):
        if i < 3 and rng.random() < 0.6:
            sets.append(("pung", suits[i] + 4))
        else:
            sets.append(("chow", 9 * rng.randrange(3) + rng.randint(2, 4)))
    return sets, rng.choice(SIMPLES), "fives"


FAMILIES: list[tuple[float, Family]] = [
    (14, f_random),
    (8, f_simples),
    (8, f_pinfu),
    (6, f_peikou),
    (7, f_outside),
    (5, f_ittsu),
    (5, f_sanshoku),
    (4, f_doukou),
    (7, f_triplets),
    (5, f_kongs),
    (7, f_flush),
    (5, f_dragons),
    (5, f_winds),
    (3, f_honors),
    (4, f_terminals),
    (3, f_green),
    (24, f_fives),
]
# special shapes (weights): seven pairs, nine gates, thirteen orphans
SPECIAL = [(6.0, "pairs"), (2.5, "gates"), (2.5, "orphans")]


def _special(rng: random.Random, kind: str) -> list[int] | None:
    """14 concealed tiles of a special family."""
    if kind == "pairs":
        r = rng.random()
        if r < 0.2:
            pool = HONORS
        elif r < 0.4:
            pool = ORPHANS
        elif r < 0.6:
            s = 9 * rng.randrange(3)
            pool = list(range(s, s + 9)) + (HONORS if rng.random() < 0.5 else [])
        elif r < 0.75:
            pool = SIMPLES
        else:
            pool = list(range(34))
        if len(pool) < 7:
            return None
        return [t for t in rng.sample(pool, 7) for _ in (0, 1)]
    if kind == "gates":
        s = 9 * rng.randrange(3)
        tiles = [s] * 3 + list(range(s + 1, s + 8)) + [s + 8] * 3
        return [*tiles, s + rng.randrange(9)]
    tiles = list(ORPHANS)
    return [*tiles, rng.choice(ORPHANS)]


# -- building a hand ------------------------------------------------------------------------


def _tiles_of(kind: str, t: int) -> list[int]:
    return [t, t + 1, t + 2] if kind == "chow" else [t] * 3


def generate(rng: random.Random, red_places: Counter[str] | None = None) -> dict[str, Any]:
    """One random winning riichi hand (our hand JSON); ``red_places`` counts where its red
    fives are (:data:`RED_PLACES`)."""
    while True:
        hand = _try(rng, red_places)
        if hand is not None:
            return hand


def _try(rng: random.Random, red_places: Counter[str] | None) -> dict[str, Any] | None:
    total = sum(w for w, _ in FAMILIES) + sum(w for w, _ in SPECIAL)
    x = rng.random() * total
    special: str | None = None
    sets: list[Set] = []
    pair = 0
    style = "closed"
    for w, fam in FAMILIES:
        if x < w:
            sets, pair, style = fam(rng)
            break
        x -= w
    else:
        for w, kind in SPECIAL:
            if x < w or kind == SPECIAL[-1][1]:
                special = kind
                break
            x -= w
    # the tiles: melds (kind, tile, open, concealed-kong) and concealed tiles
    melds: list[dict[str, Any]] = []
    concealed: list[int] = []
    kongs = 0
    if special is not None:
        tiles = _special(rng, special)
        if tiles is None:
            return None
        concealed = tiles
    else:
        open_p = {"any": 0.3, "closed": 0.0, "kongs": 0.25, "kongs4": 0.25, "fives": 0.6}[style]
        kong_p = {"any": 0.08, "closed": 0.06, "kongs": 0.6, "kongs4": 1.0, "fives": 0.7}[style]
        for kind, t in sets:
            if kind == "pung" and rng.random() < kong_p:
                conc = rng.random() < {"closed": 1.0, "fives": 0.35}.get(style, 0.5)
                m: dict[str, Any] = {"kind": "kong", "tiles": [t] * 4}
                if conc:
                    m["concealed"] = True
                else:
                    m["from"] = rng.choice(["left", "opposite", "right"])
                    m["claimed"] = t
                    if rng.random() < (0.45 if style == "fives" else 0.3):
                        m["added"] = True
                melds.append(m)
                kongs += 1
            elif rng.random() < open_p:
                src = "left" if kind == "chow" else rng.choice(["left", "opposite", "right"])
                tiles = _tiles_of(kind, t)
                melds.append(
                    {"kind": kind, "tiles": tiles, "claimed": rng.choice(tiles), "from": src}
                )
            else:
                concealed.extend(_tiles_of(kind, t))
        concealed.extend([pair, pair])
    counts = Counter(concealed)
    for m in melds:
        counts.update(m["tiles"])
    if max(counts.values()) > 4:
        return None
    is_open = any("concealed" not in m for m in melds)
    # the win tile
    win = rng.choice(concealed)
    concealed.remove(win)
    # the situation
    seat = rng.choice(WINDS)
    rnd = seat if rng.random() < 0.3 else rng.choice(WINDS)
    tsumo = rng.random() < 0.5
    declared = not is_open and rng.random() < 0.5
    double = declared and rng.random() < 0.2
    ippatsu = declared and rng.random() < 0.25
    rinshan = tsumo and kongs > 0 and rng.random() < 0.35
    if rinshan:
        ippatsu = False
    first_turn = tsumo and not melds and not declared and rng.random() < 0.1
    last = not rinshan and not first_turn and rng.random() < 0.1
    chankan = (
        not tsumo and not last and counts[win] == 1 and rng.random() < (0.5 if kongs else 0.25)
    )
    # indicators
    n_dora = 1 + kongs + (rng.randrange(5 - kongs) if rng.random() < 0.2 and kongs < 4 else 0)
    left = {t: 4 - counts[t] for t in range(34)}
    if chankan:
        left[win] = 0

    def indicator() -> int | None:
        if rng.random() < 0.4:  # show a tile of the hand as dora
            target = rng.choice(sorted(counts))
            prev = _previous(target)
            if left[prev] > 0:
                left[prev] -= 1
                return prev
        choices = [t for t in range(34) if left[t] > 0]
        if not choices:
            return None
        t = rng.choice(choices)
        left[t] -= 1
        return t

    dora = [indicator() for _ in range(n_dora)]
    ura = [indicator() for _ in range(n_dora)] if declared else []
    if None in dora or None in ura:
        return None
    # house rules, now and then not the defaults
    rules: dict[str, bool] = {}
    if rng.random() < 0.15:
        for k in ("open_tanyao", "red_fives", "kazoe_yakuman", "kiriage_mangan", "double_yakuman"):
            if rng.random() < 0.4:
                rules[k] = rng.random() < 0.5
    red_on = rules.get("red_fives", True)
    # red fives: mark one five of a suit red in the hand, or among the indicators
    out_concealed = [code(t) for t in sorted(concealed)]
    out_win = code(win)
    out_melds = [
        {**m, "tiles": [code(t) for t in m["tiles"]]}
        | ({"claimed": code(m["claimed"])} if "claimed" in m else {})
        for m in melds
    ]
    out_dora = [code(t) for t in dora if t is not None]
    out_ura = [code(t) for t in ura if t is not None]
    if red_on:
        out_win = _place_reds(
            rng, out_concealed, out_melds, out_win, tsumo, out_dora, out_ura, red_places
        )
    hand: dict[str, Any] = {
        "ruleset": "riichi",
        "concealed": out_concealed,
        "melds": out_melds,
        "win_tile": out_win,
        "win": {
            "self_drawn": tsumo,
            "last_tile": last,
            "kong_replacement": rinshan,
            "robbing_kong": chankan,
        },
        "seat_wind": code(seat),
        "round_wind": code(rnd),
        "riichi": {"declared": declared, "double": double, "ippatsu": ippatsu},
        "first_turn": first_turn,
        "dora_indicators": out_dora,
        "ura_dora_indicators": out_ura,
    }
    if rules:
        hand["house_rules"] = rules
    return hand


#: Every place a red five can be in a hand, as counted by :func:`generate`.
RED_PLACES = (
    "concealed",
    "claimed tile of a chow",
    "claimed tile of a pung",
    "claimed tile of an open kong",
    "in a chow, not claimed",
    "in a pung, not claimed",
    "in an open kong, not claimed",
    "in an added kong",
    "in a concealed kong",
    "winning tile, self-drawn",
    "winning tile, on a discard",
    "dora indicator",
    "ura-dora indicator",
)


def _meld_place(m: dict[str, Any], claimed: bool) -> str:
    if m.get("concealed"):
        return "in a concealed kong"
    if m.get("added"):
        return "in an added kong"
    kind = {"chow": "a chow", "pung": "a pung", "kong": "an open kong"}[m["kind"]]
    return f"claimed tile of {kind}" if claimed else f"in {kind}, not claimed"


def _place_reds(
    rng: random.Random,
    concealed: list[str],
    melds: list[dict[str, Any]],
    win: str,
    tsumo: bool,
    dora: list[str],
    ura: list[str],
    red_places: Counter[str] | None,
) -> str:
    """Marks at most one five of each suit red (all four fives of a suit: one of them), in
    any place of the hand: a place is picked first (each present one alike, so that rare
    places are hit often), then a five there. Returns the winning tile (red or not)."""
    for five, red in FIVES.items():
        plain = code(five)
        found: list[tuple[str, list[str], int, dict[str, Any] | None]] = []
        for i, c in enumerate(concealed):
            if c == plain:
                found.append(("concealed", concealed, i, None))
        for m in melds:
            for i, c in enumerate(m["tiles"]):
                if c == plain:
                    # the claimed five of an open meld: red or one of the plain ones
                    claimed = m.get("claimed") == plain and (
                        m["kind"] == "chow" or rng.random() < 0.55
                    )
                    found.append((_meld_place(m, claimed), m["tiles"], i, m if claimed else None))
        for name, lst in (("dora indicator", dora), ("ura-dora indicator", ura)):
            found.extend((name, lst, i, None) for i, c in enumerate(lst) if c == plain)
        if win == plain:
            found.append(
                (
                    "winning tile, self-drawn" if tsumo else "winning tile, on a discard",
                    [],
                    -1,
                    None,
                )
            )
        places: dict[str, list[tuple[list[str], int, dict[str, Any] | None]]] = {}
        for place, lst, i, m in found:
            places.setdefault(place, []).append((lst, i, m))
        n = sum(len(v) for v in places.values())
        # all four fives: one of them is the red one
        if not n or (rng.random() > 0.75 and n < 4):
            continue
        place = rng.choice(sorted(places))
        lst, i, m = rng.choice(places[place])
        if red_places is not None:
            red_places[place] += 1
        if i < 0:
            win = red
            continue
        lst[i] = red
        if m is not None:
            m["claimed"] = red
    return win


def _previous(t: int) -> int:
    """The indicator that shows ``t``."""
    if t < 27:
        return t - t % 9 + (t % 9 - 1) % 9
    if t < 31:
        return 27 + (t - 27 - 1) % 4
    return {31: 32, 32: 33, 33: 31}[t]  # red ← green ← white ← red


# -- the oracle -----------------------------------------------------------------------------

_ORACLE_IDS = {
    "tsumo": "menzen-tsumo",
    "riichi": "riichi",
    "ippatsu": "ippatsu",
    "chankan": "chankan",
    "rinshan": "rinshan",
    "haitei": "haitei",
    "houtei": "houtei",
    "daburu_riichi": "double-riichi",
    "pinfu": "pinfu",
    "tanyao": "tanyao",
    "iipeiko": "iipeikou",
    "haku": "yakuhai-haku",
    "hatsu": "yakuhai-hatsu",
    "chun": "yakuhai-chun",
    "sanshoku": "sanshoku",
    "ittsu": "ittsu",
    "chantai": "chanta",
    "honroto": "honroutou",
    "toitoi": "toitoi",
    "sanankou": "sanankou",
    "sankantsu": "sankantsu",
    "sanshoku_douko": "sanshoku-doukou",
    "chiitoitsu": "chiitoitsu",
    "shosangen": "shousangen",
    "honitsu": "honitsu",
    "junchan": "junchan",
    "ryanpeiko": "ryanpeikou",
    "chinitsu": "chinitsu",
    "kokushi": "kokushi",
    "chuuren_poutou": "chuuren",
    "suuankou": "suuankou",
    "daisangen": "daisangen",
    "shosuushi": "shousuushii",
    "ryuisou": "ryuuiisou",
    "suukantsu": "suukantsu",
    "tsuisou": "tsuuiisou",
    "chinroto": "chinroutou",
    "daisuushi": "daisuushii",
    "daburu_kokushi": "kokushi-13",
    "suuankou_tanki": "suuankou-tanki",
    "daburu_chuuren_poutou": "chuuren-9",
    "tenhou": "tenhou",
    "chiihou": "chiihou",
    "dora": "dora",
    "aka_dora": "aka-dora",
    "ura_dora": "ura-dora",
}
_THEIR_DRAGON = {31: 33, 32: 32, 33: 31}  # ours (red, green, white) -> theirs (chun, hatsu, haku)
_RED_INDEX = {"0m": 4, "0p": 13, "0s": 22}
_OUR_INDEX = {c: i for i, c in enumerate(_CODES)}


def _theirs34(c: str) -> tuple[int, bool]:
    if c in _RED_INDEX:
        return _RED_INDEX[c], True
    t = _OUR_INDEX[c]
    return _THEIR_DRAGON.get(t, t), False


class _Copies:
    """Hands out 136-tile indices: copy 0 of a five only to a red five."""

    def __init__(self, red_fives: bool) -> None:
        self.used: Counter[int] = Counter()
        self.red_fives = red_fives

    def take(self, c: str) -> int:
        t, red = _theirs34(c)
        if red:
            return 4 * t
        first = 1 if self.red_fives and t in (4, 13, 22) else 0
        n = self.used[t]
        self.used[t] += 1
        if first + n > 3:
            raise ValueError(f"too many copies of {c}")
        return 4 * t + first + n


def oracle(hand: dict[str, Any]) -> tuple[int, int, int, Counter[str]] | None:
    """The reference calculator's (han, fu, total, yaku ids with their han) for our hand
    JSON; None when it finds no yaku. Raises on any other error of the calculator."""
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
    from mahjong.meld import Meld

    rules = {
        "open_tanyao": True,
        "red_fives": True,
        "kazoe_yakuman": True,
        "kiriage_mangan": False,
        "double_yakuman": True,
        **hand.get("house_rules", {}),
    }
    cp = _Copies(rules["red_fives"])
    tiles: list[int] = []
    melds = []
    for m in hand.get("melds", []):
        ts = [cp.take(c) for c in m["tiles"]]
        tiles.extend(ts)
        if m["kind"] == "chow":
            melds.append(Meld(Meld.CHI, ts, opened=True))
        elif m["kind"] == "pung":
            melds.append(Meld(Meld.PON, ts, opened=True))
        elif m.get("concealed"):
            melds.append(Meld(Meld.KAN, ts, opened=False))
        else:
            melds.append(Meld(Meld.SHOUMINKAN if m.get("added") else Meld.KAN, ts, opened=True))
    tiles.extend(cp.take(c) for c in hand["concealed"])
    win = cp.take(hand["win_tile"])
    tiles.append(win)
    dora = [cp.take(c) for c in hand.get("dora_indicators", [])]
    ura = [cp.take(c) for c in hand.get("ura_dora_indicators", [])]
    r = hand.get("riichi", {})
    w = hand.get("win", {})
    seat = _OUR_INDEX[hand.get("seat_wind", "we")]
    first = bool(hand.get("first_turn"))
    config = HandConfig(
        is_tsumo=w.get("self_drawn", False),
        is_riichi=r.get("declared", False),
        is_daburu_riichi=r.get("double", False),
        is_ippatsu=r.get("ippatsu", False),
        is_rinshan=w.get("kong_replacement", False),
        is_chankan=w.get("robbing_kong", False),
        is_haitei=w.get("last_tile", False) and w.get("self_drawn", False),
        is_houtei=w.get("last_tile", False) and not w.get("self_drawn", False),
        is_tenhou=first and seat == 27,
        is_chiihou=first and seat != 27,
        player_wind=seat,
        round_wind=_OUR_INDEX[hand.get("round_wind", "we")],
        options=OptionalRules(
            has_open_tanyao=rules["open_tanyao"],
            has_aka_dora=rules["red_fives"],
            has_double_yakuman=rules["double_yakuman"],
            kazoe_limit=HandConstants.KAZOE_LIMITED
            if rules["kazoe_yakuman"]
            else HandConstants.KAZOE_SANBAIMAN,
            kiriage=rules["kiriage_mangan"],
            fu_for_open_pinfu=True,
            fu_for_pinfu_tsumo=False,
            renhou_as_yakuman=False,
        ),
    )
    res = HandCalculator.estimate_hand_value(
        tiles, win, melds=melds, dora_indicators=dora, config=config, ura_dora_indicators=ura
    )
    if res.error == HandCalculator.ERR_NO_YAKU:
        return None
    if res.error:
        raise ValueError(f"the reference calculator: {res.error}")
    assert res.han is not None and res.fu is not None and res.cost is not None
    yaku: Counter[str] = Counter()
    for y in res.yaku or []:
        attr = next(k for k, v in vars(config.yaku).items() if v is y)
        if attr.startswith("seat_wind_"):
            yid = "yakuhai-seat-wind"
        elif attr.startswith("round_wind_"):
            yid = "yakuhai-round-wind"
        else:
            yid = _ORACLE_IDS[attr]
        yaku[yid] += y.han_open if res.is_open_hand and y.han_open else y.han_closed
    return res.han, res.fu, res.cost["total"], yaku


def ours(result: dict[str, Any]) -> tuple[int, int | None, int, Counter[str]] | None:
    """Our (han, fu, total, yaku ids with their han); None for a hand with no yaku."""
    if result["error"]:
        raise ValueError(result["error"])
    if not result["minimum_met"]:
        return None
    yaku: Counter[str] = Counter()
    for i in result["items"]:
        yaku[i["id"]] += i["points"] * i["count"]
    return result["han"], result["fu"], result["total"], yaku


Outcome = tuple[int, int | None, int, Counter[str]] | None


def compare(hand: dict[str, Any]) -> tuple[Outcome, Outcome, dict[str, Any]]:
    """Our outcome, the reference calculator's (its fu left out where ours is null: a
    yakuman hand) and our result JSON. Equal outcomes are an agreement."""
    from scoring import score

    result = score(hand)
    mine = ours(result)
    theirs: Outcome = oracle(hand)
    if theirs is not None and mine is not None and mine[1] is None:
        theirs = (theirs[0], None, theirs[2], theirs[3])
    return mine, theirs, result
