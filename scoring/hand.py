"""Melds, win information and the hand value type, with their JSON forms.

The JSON form of a hand is public (the ``mahjong-score`` CLI reads it and the server's win
breakdown uses it)::

    {"ruleset": "mcr",
     "concealed": ["4s","5s","6s","6s","6s","8s","9s","9s","9s","9s"],
     "melds": [{"kind": "chow", "tiles": ["2s","3s","4s"], "claimed": "3s", "from": "left"},
               {"kind": "pung", "tiles": ["we","we","we"], "from": "opposite"},
               {"kind": "kong", "tiles": ["5p","5p","5p","5p"], "concealed": true},
               {"kind": "kong", "tiles": ["9m","9m","9m","9m"], "from": "right", "added": true}],
     "flowers": ["f1"],
     "win_tile": "7s",
     "win": {"self_drawn": true, "last_tile": false, "kong_replacement": false,
             "robbing_kong": false, "fourth_tile": false},
     "seat_wind": "ww", "round_wind": "we",
     "context": {"dealer": true, "streak": 1, ...}}

``concealed`` does not include ``win_tile``. ``from`` is relative to the winner (``left`` is
the previous player). ``context`` is the typed win context (:class:`scoring.context.WinContext`:
its fields by name, and the documented aliases of older per-rule-set names); its keys may
also be given at the top level. A key that is none of these is an error naming the nearest.

The chain of replacement draws before a self-draw is ``context.chain``: what made each draw,
in order — ``kong-discard`` (a kong claimed on a discard, 明槓; only first), ``added-kong``
(補槓), ``concealed-kong`` (暗槓), ``flower`` — e.g. ``"chain": ["kong-discard", "flower"]``
(it sets ``replacements``, the older ``flower`` / ``kong`` form). With ``kong_discarder``
(the seat whose discard made that first kong) the rule set decides 包 from the chain
(hk-tw16: only a chain of that kong alone). Older inputs without ``chain`` keep their
meaning: ``kong_discarder`` given means 包.

Settling (``mahjong-score`` with the seats) refuses seats that contradict the win, with an
``error_code``: ``discarder-is-winner`` (``discarder`` or ``kong_discarder`` is the winner's
``seat``), ``self-drawn-with-discarder`` (``win.self_drawn`` and a ``discarder``),
``discard-without-discarder`` (a win on a discard with no ``discarder``; flower wins
excepted), ``one-winner-only`` (several ``winners`` of one discard under a rule set that
takes one, MCR).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from scoring.context import ALIASES, EMPTY, FIELDS, WinContext, nearest
from scoring.context import context_from_json as _context_from_json
from scoring.errors import InvalidHandError, InvalidMeldError, ScoringError
from scoring.tiles import Tile, Wind

__all__ = ["Hand", "Meld", "MeldKind", "Relative", "WinContext", "WinInfo"]

_HAND_KEYS = frozenset(
    {"ruleset", "concealed", "melds", "flowers", "win_tile", "win", "seat_wind", "round_wind"}
)


class MeldKind(enum.Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"


class Relative(enum.Enum):
    """Where a claimed tile came from, relative to the claimer."""

    LEFT = "left"  # the previous player (the only one a chow may be claimed from)
    OPPOSITE = "opposite"
    RIGHT = "right"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def between(cls, claimer: int, discarder: int) -> Relative:
        """Relative position of seat ``discarder`` seen from seat ``claimer`` (seats 0-3 in
        turn order)."""
        d = (discarder - claimer) % 4
        if d == 0:
            raise InvalidMeldError("a seat cannot claim its own discard")
        return {3: cls.LEFT, 2: cls.OPPOSITE, 1: cls.RIGHT}[d]


def _tile(value: Any, what: str) -> Tile:
    if not isinstance(value, str):
        raise InvalidHandError(f"{what}: expected a tile code string, got {value!r}")
    return Tile.parse(value)


def _tiles(value: Any, what: str) -> tuple[Tile, ...]:
    if not isinstance(value, list | tuple):
        raise InvalidHandError(f"{what}: expected a list of tile codes, got {value!r}")
    try:  # the fast path: every code known (only strings are keys)
        return tuple(map(_TILE_BY_CODE.__getitem__, value))
    except (KeyError, TypeError):
        return tuple(_tile(v, what) for v in value)  # says exactly what is wrong


_TILE_BY_CODE: dict[str, Tile] = {t.code: t for t in Tile}
_MELD_KINDS = {"chow": MeldKind.CHOW, "pung": MeldKind.PUNG, "kong": MeldKind.KONG}
_RELATIVES = {"left": Relative.LEFT, "opposite": Relative.OPPOSITE, "right": Relative.RIGHT}
_WIND_BY_CODE = {w.value: w for w in Wind}


def _wind(code: Any) -> Wind:
    try:
        return _WIND_BY_CODE[code]
    except (KeyError, TypeError):
        return Wind.parse(code)  # raises, saying what is wrong


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared (exposed, or concealed-kong) set.

    ``tiles`` are sorted. ``concealed`` is only true for a concealed kong; ``added`` marks a
    kong made by adding a drawn tile to an exposed pung; ``claimed``/``source`` say which tile
    was taken from whom (None for a concealed kong).
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    concealed: bool = False
    added: bool = False
    claimed: Tile | None = None
    source: Relative | None = None

    def __post_init__(self) -> None:
        t = self.tiles
        if t and max(t) >= 34:
            raise InvalidMeldError(f"a meld cannot contain flowers: {self}")
        if self.kind is MeldKind.CHOW:
            a = t[0]
            ok = len(t) == 3 and a < 27 and a % 9 <= 6 and t[1] == a + 1 and t[2] == a + 2
            if not ok:
                raise InvalidMeldError(f"not a chow: {' '.join(map(str, t))}")
            if self.concealed:
                raise InvalidMeldError("a chow meld cannot be concealed")
        else:
            n = 3 if self.kind is MeldKind.PUNG else 4
            if len(t) != n or any(x != t[0] for x in t):
                raise InvalidMeldError(f"not a {self.kind.value}: {' '.join(map(str, t))}")
            if self.concealed and self.kind is not MeldKind.KONG:
                raise InvalidMeldError("only a kong can be a concealed meld")
        if self.added and self.kind is not MeldKind.KONG:
            raise InvalidMeldError("only a kong can be 'added'")
        if self.claimed is not None and self.claimed not in t:
            raise InvalidMeldError(f"claimed tile {self.claimed} is not in the meld")

    @classmethod
    def chow(cls, first: Tile, **kw: Any) -> Meld:
        second, third = first.shifted(1), first.shifted(2)
        if second is None or third is None:
            raise InvalidMeldError(f"no chow starts at {first}")
        return cls(MeldKind.CHOW, (first, second, third), **kw)

    @classmethod
    def pung(cls, tile: Tile, **kw: Any) -> Meld:
        return cls(MeldKind.PUNG, (tile,) * 3, **kw)

    @classmethod
    def kong(cls, tile: Tile, **kw: Any) -> Meld:
        return cls(MeldKind.KONG, (tile,) * 4, **kw)

    @property
    def first(self) -> Tile:
        return self.tiles[0]

    @property
    def is_kong(self) -> bool:
        return self.kind is MeldKind.KONG

    def __str__(self) -> str:
        s = "".join(str(t.number) for t in self.tiles) + self.tiles[0].suit.value
        if not self.tiles[0].is_suited:
            s = " ".join(map(str, self.tiles))
        return f"{self.kind.value}[{s}{' concealed' if self.concealed else ''}]"

    # -- JSON -----------------------------------------------------------------------------

    @classmethod
    def from_json(cls, obj: Any) -> Meld:
        if type(obj) is not dict and not isinstance(obj, Mapping):  # (the ABC check is slow)
            raise InvalidMeldError(f"a meld must be an object, got {obj!r}")
        raw_kind: Any = obj.get("kind")
        try:
            kind = _MELD_KINDS[raw_kind]
        except (KeyError, TypeError):
            raise InvalidMeldError(
                f"meld kind must be chow, pung or kong, got {obj.get('kind')!r}"
            ) from None
        tiles = tuple(sorted(_tiles(obj.get("tiles"), "meld tiles")))
        claimed = obj.get("claimed")
        src = obj.get("from")
        try:
            source = _RELATIVES[src] if src is not None else None
        except (KeyError, TypeError):
            raise InvalidMeldError(
                f"meld 'from' must be left, opposite or right, got {src!r}"
            ) from None
        concealed = obj.get("concealed", False)
        added = obj.get("added", False)
        if not isinstance(concealed, bool) or not isinstance(added, bool):
            raise InvalidMeldError("meld 'concealed' and 'added' must be booleans")
        return cls(
            kind,
            tiles,
            concealed=concealed,
            added=added,
            claimed=_tile(claimed, "meld claimed") if claimed is not None else None,
            source=source,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "tiles": [str(t) for t in self.tiles]}
        if self.concealed:
            out["concealed"] = True
        if self.added:
            out["added"] = True
        if self.claimed is not None:
            out["claimed"] = str(self.claimed)
        if self.source is not None:
            out["from"] = self.source.value
        return out


@dataclass(frozen=True, slots=True)
class WinInfo:
    """How the hand was won (the rule-set independent facts)."""

    self_drawn: bool = False
    last_tile: bool = False  # the last tile of the wall (self-draw) / its discard
    kong_replacement: bool = False  # won on a kong's replacement tile
    robbing_kong: bool = False
    fourth_tile: bool = False  # the winning tile is the last copy (3 already visible)

    @classmethod
    def from_json(cls, obj: Any) -> WinInfo:
        if obj is None:
            return cls()
        if type(obj) is not dict and not isinstance(obj, Mapping):  # (the ABC check is slow)
            raise InvalidHandError(f"'win' must be an object, got {obj!r}")
        for name in _WIN_NAMES:
            v = obj.get(name, False)
            if v is not False and v is not True:
                raise InvalidHandError(f"win.{name} must be a boolean, got {v!r}")
        if len(obj) > 5 or not _WIN_FLAGS.issuperset(obj):
            unknown = set(obj) - _WIN_FLAGS
            if unknown:
                raise InvalidHandError(f"unknown keys in 'win': {sorted(unknown)}")
        key = (
            obj.get("self_drawn", False),
            obj.get("last_tile", False),
            obj.get("kong_replacement", False),
            obj.get("robbing_kong", False),
            obj.get("fourth_tile", False),
        )
        info = _WIN_INFOS.get(key)
        if info is None:  # 32 possible values, each built once (immutable)
            info = _WIN_INFOS[key] = cls(*key)
        if info.robbing_kong and info.self_drawn:
            raise InvalidHandError("a win by robbing a kong is not self-drawn")
        if info.kong_replacement and not info.self_drawn:
            raise InvalidHandError("a win on a kong replacement tile is self-drawn")
        return info

    def to_json(self) -> dict[str, bool]:
        return {
            "self_drawn": self.self_drawn,
            "last_tile": self.last_tile,
            "kong_replacement": self.kong_replacement,
            "robbing_kong": self.robbing_kong,
            "fourth_tile": self.fourth_tile,
        }


_WIN_NAMES = ("self_drawn", "last_tile", "kong_replacement", "robbing_kong", "fourth_tile")
_WIN_FLAGS = frozenset(_WIN_NAMES)
_WIN_INFOS: dict[tuple[bool, bool, bool, bool, bool], WinInfo] = {}


@dataclass(frozen=True)
class Hand:
    """A winning hand to score: tiles, melds, flowers, the win tile and the context.

    ``context`` is the typed win context (dealer, ting, first-turn facts, …).
    """

    ruleset: str
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile
    flowers: tuple[Tile, ...] = ()
    win: WinInfo = WinInfo()
    seat_wind: Wind = Wind.EAST
    round_wind: Wind = Wind.EAST
    context: WinContext = EMPTY
    _concealed_counts: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _tile_counts: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.context, WinContext):  # (a rule set of its own may subclass it)
            raise TypeError(f"Hand.context must be a WinContext, got {type(self.context)}")
        if self.win_tile >= 34 or (self.concealed and max(self.concealed) >= 34):
            raise InvalidHandError("flowers go in 'flowers', not in the hand")
        if self.flowers:
            if min(self.flowers) < 34:
                raise InvalidHandError("'flowers' may only hold f1..f8")
            if len(set(self.flowers)) != len(self.flowers):
                raise InvalidHandError("each flower exists once")
        c = [0] * 34
        for t in self.concealed:
            c[t] += 1
        c[self.win_tile] += 1
        # the counts are computed once here and copied on request (scoring asks often)
        object.__setattr__(self, "_concealed_counts", tuple(c))
        for m in self.melds:
            for t in m.tiles:
                c[t] += 1
        object.__setattr__(self, "_tile_counts", tuple(c))
        if max(c) > 4:
            for i, n in enumerate(c):
                if n > 4:
                    raise InvalidHandError(f"{n} copies of {Tile(i)}: there are only four")

    # -- derived ------------------------------------------------------------------------

    def tile_counts(self) -> list[int]:
        """Counts (34) of every tile the winner holds: concealed, win tile and melds."""
        return list(self._tile_counts)

    def concealed_counts(self) -> list[int]:
        """Counts (34) of the concealed tiles including the win tile."""
        return list(self._concealed_counts)

    @property
    def is_concealed(self) -> bool:
        """No exposed meld (concealed kongs allowed)."""
        return all(m.concealed for m in self.melds)

    def get(self, key: str, default: Any = None) -> Any:
        """A field of the win context by name (``first_turn`` too), else ``default``."""
        if key in _CONTEXT_NAMES:
            return getattr(self.context, key)
        return default

    # -- JSON -----------------------------------------------------------------------------

    @classmethod
    def from_json(cls, obj: Any) -> Hand:
        """Build a hand from its JSON form; raise a ScoringError saying what is wrong."""
        if type(obj) is not dict and not isinstance(obj, Mapping):  # (the ABC check is slow)
            raise InvalidHandError(f"a hand must be a JSON object, got {type(obj).__name__}")
        ruleset = obj.get("ruleset")
        if not isinstance(ruleset, str):
            raise InvalidHandError("'ruleset' (a rule set name) is required")
        if "win_tile" not in obj:
            raise InvalidHandError("'win_tile' is required")
        melds_raw = obj.get("melds", [])
        if not isinstance(melds_raw, list):
            raise InvalidHandError("'melds' must be a list")
        ctx: dict[str, Any] = {}
        raw_ctx = obj.get("context", {})
        if type(raw_ctx) is not dict and not isinstance(raw_ctx, Mapping):
            raise InvalidHandError("'context' must be an object")
        for k, v in obj.items():
            if k not in _HAND_KEYS and k != "context":
                if k not in _CONTEXT_KEYS:
                    known = [*_HAND_KEYS, "context", *FIELDS, *ALIASES]
                    raise InvalidHandError(f"unknown key {k!r}{nearest(str(k), known)}")
                ctx[k] = v
        ctx.update(raw_ctx)
        win = WinInfo.from_json(obj.get("win"))
        context = _context_from_json(ctx, ruleset=ruleset, self_drawn=win.self_drawn)
        if context.robbing_kong is not win.robbing_kong:
            if "robbing_kong" in ctx:
                raise InvalidHandError("context 'robbing_kong' differs from win.robbing_kong")
            context = replace(context, robbing_kong=win.robbing_kong)
        try:
            seat = _wind(obj.get("seat_wind", "we"))
            rnd = _wind(obj.get("round_wind", "we"))
        except ScoringError as e:
            raise InvalidHandError(f"seat_wind/round_wind: {e}") from None
        return cls(
            ruleset=ruleset,
            concealed=tuple(sorted(_tiles(obj.get("concealed", []), "concealed"))),
            melds=tuple(Meld.from_json(m) for m in melds_raw),
            win_tile=_tile(obj["win_tile"], "win_tile"),
            flowers=tuple(sorted(_tiles(obj.get("flowers", []), "flowers"))),
            win=win,
            seat_wind=seat,
            round_wind=rnd,
            context=context,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "concealed": [str(t) for t in self.concealed],
            "melds": [m.to_json() for m in self.melds],
            "flowers": [str(f) for f in self.flowers],
            "win_tile": str(self.win_tile),
            "win": self.win.to_json(),
            "seat_wind": str(self.seat_wind),
            "round_wind": str(self.round_wind),
        }
        if self.context != EMPTY:
            out["context"] = self.context.to_json()
        return out


_CONTEXT_NAMES = frozenset({*FIELDS, "first_turn"})
_CONTEXT_KEYS = frozenset({*FIELDS, *ALIASES})
