"""The riichi keys of the hand JSON, the house rules, and red fives.

Beside the common fields (``scoring/hand.py``) a riichi hand gives, at top level or inside
``context``::

    "riichi": {"declared": true, "double": false, "ippatsu": false},
    "dora_indicators": ["3m"],            # one, plus one per kong (at most 5)
    "ura_dora_indicators": ["wn"],        # as many as dora indicators after riichi, else []
    "first_turn": false,                  # a self-draw on one's first draw, no call made
    "house_rules": {"open_tanyao": true, "red_fives": true, "kazoe_yakuman": true,
                    "kiriage_mangan": false, "double_yakuman": true}

Red fives are the tile codes ``0m 0p 0s``: a five for every shape, at most one of each
(hand and indicators together). They exist only while the ``red_fives`` house rule is on;
otherwise (and in every other rule set) they are an ``invalid-tile`` error. The hand parser of
the rule set (:func:`hand_from_json`) reads them as fives and keeps which fives are red in the
context key ``red_fives`` (a list of red codes), so a parsed :class:`~scoring.hand.Hand`
carries them through its ``to_json`` form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final

from scoring.context import WinContext
from scoring.errors import InvalidHandError, InvalidOptionsError, InvalidTileError
from scoring.hand import Hand
from scoring.tiles import Tile

__all__ = [
    "HOUSE_RULES",
    "RED_FIVES",
    "HouseRules",
    "RiichiContext",
    "hand_from_json",
    "house_rules_of",
]

#: The red five codes and the five each one is.
RED_FIVES: Final[Mapping[str, Tile]] = {"0m": Tile.M5, "0p": Tile.P5, "0s": Tile.S5}
_RED_OF: Final[Mapping[Tile, str]] = {t: c for c, t in RED_FIVES.items()}


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The scoring options of the riichi rule set (the keys of a room's ``house_rules``
    that concern scoring; defaults: ``shared/rules/riichi.json``)."""

    open_tanyao: bool = True
    red_fives: bool = True
    kazoe_yakuman: bool = True
    kiriage_mangan: bool = False
    double_yakuman: bool = True

    @classmethod
    def from_json(cls, obj: Any) -> HouseRules:
        """The rules with ``obj`` (a mapping of option → bool, or None) applied; raise
        InvalidOptionsError naming an unknown option or a value that is not a boolean."""
        if obj is None:
            return DEFAULT_RULES
        if not isinstance(obj, Mapping):
            raise InvalidOptionsError(f"house_rules must be an object, got {obj!r}")
        known = {f.name for f in fields(cls)}
        for k, v in obj.items():
            if k not in known:
                raise InvalidOptionsError(
                    f"riichi has no house rule {k!r} (known: {', '.join(sorted(known))})"
                )
            if not isinstance(v, bool):
                raise InvalidOptionsError(f"house rule {k}: expected true or false, got {v!r}")
        return cls(**obj) if obj else DEFAULT_RULES

    def to_json(self) -> dict[str, bool]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


DEFAULT_RULES: Final = HouseRules()
#: The house rules and their defaults.
HOUSE_RULES: Final[Mapping[str, bool]] = DEFAULT_RULES.to_json()


def _ctx_get(obj: Mapping[str, Any], key: str) -> Any:
    """A riichi key of a hand JSON: top level or inside ``context`` (the latter wins, as in
    :meth:`Hand.from_json`)."""
    ctx = obj.get("context")
    if isinstance(ctx, Mapping) and key in ctx:
        return ctx[key]
    return obj.get(key)


def house_rules_of(obj: Mapping[str, Any]) -> HouseRules:
    """The house rules a hand JSON (or a hand's context) asks for."""
    return HouseRules.from_json(_ctx_get(obj, "house_rules"))


def _no_red(code: str) -> InvalidTileError:
    return InvalidTileError(
        f"red five {code!r}: the house rules of this hand play without red fives"
    )


def hand_from_json(obj: Any) -> Hand:
    """A riichi hand from its JSON form: red fives (``0m 0p 0s``) are read as fives and
    recorded in the context key ``red_fives``; everything else as :meth:`Hand.from_json`."""
    if not isinstance(obj, Mapping):
        return Hand.from_json(obj)
    rules = house_rules_of(obj)
    reds: list[str] = []

    def fives(value: Any, count: bool = True) -> Any:
        if isinstance(value, str):
            if value in RED_FIVES:
                if not rules.red_fives:
                    raise _no_red(value)
                if count:
                    reds.append(value)
                return RED_FIVES[value].code
            return value
        if isinstance(value, list | tuple):
            return [fives(v, count) for v in value]
        return value  # Hand.from_json says what is wrong with it

    def meld(m: Mapping[str, Any]) -> dict[str, Any]:
        # the claimed tile is one of the meld's tiles, not one more: a red one is counted
        # once, in the tiles, which must hold it
        claimed = m.get("claimed")
        if claimed in RED_FIVES and claimed not in (m.get("tiles") or ()):
            raise InvalidHandError(f"claimed {claimed} is not among the meld's tiles")
        out = {**m, **({"tiles": fives(m["tiles"])} if "tiles" in m else {})}
        if "claimed" in m:
            out["claimed"] = fives(claimed, count=False)
        return out

    out = dict(obj)
    for key in ("concealed", "win_tile"):
        if key in out:
            out[key] = fives(out[key])
    melds = out.get("melds")
    if isinstance(melds, list):
        out["melds"] = [meld(m) if isinstance(m, Mapping) else m for m in melds]
    if reds:
        if _ctx_get(obj, "red_fives") is not None:
            raise InvalidHandError(
                "red fives are given twice: as 0m/0p/0s tiles and as 'red_fives'"
            )
        ctx = out.get("context")
        if isinstance(ctx, Mapping):
            out["context"] = {k: v for k, v in ctx.items() if k != "red_fives"}
        out["red_fives"] = sorted(reds)
    # the riichi facts are riichi's own: taken out before the common parser (which knows only
    # the fields of the shared win context) and kept in riichi's context record
    facts: dict[str, Any] = {}
    for key in RIICHI_KEYS:
        v = _ctx_get(out, key)
        if v is not None:
            facts[key] = v
        out.pop(key, None)
        ctx = out.get("context")
        if isinstance(ctx, Mapping) and key in ctx:
            out["context"] = {k: w for k, w in ctx.items() if k != key}
    hand = Hand.from_json(out)
    base = {f.name: getattr(hand.context, f.name) for f in fields(WinContext)}
    return replace(hand, context=RiichiWinContext(**base, facts=facts))


#: the keys of a riichi hand JSON that are riichi's own (top level or inside ``context``)
RIICHI_KEYS = (
    "riichi",
    "dora_indicators",
    "ura_dora_indicators",
    "red_fives",
    "house_rules",
    "first_turn",
)


@dataclass(frozen=True, slots=True)
class RiichiWinContext(WinContext):
    """The shared win context plus the riichi facts of the hand JSON (:data:`RIICHI_KEYS`),
    as given; :class:`RiichiContext` validates them."""

    facts: Mapping[str, Any] = field(default_factory=dict)


_RIICHI_FLAGS = frozenset({"declared", "double", "ippatsu"})


def _flag(v: Any, what: str) -> bool:
    if not isinstance(v, bool):
        raise InvalidHandError(f"{what} must be true or false, got {v!r}")
    return v


def _indicators(value: Any, what: str, rules: HouseRules) -> tuple[tuple[Tile, ...], list[str]]:
    """Indicator tiles (red fives as fives) and the red codes among them."""
    if value is None:
        return (), []
    if not isinstance(value, list | tuple):
        raise InvalidHandError(f"{what}: expected a list of tile codes, got {value!r}")
    tiles: list[Tile] = []
    reds: list[str] = []
    for code in value:
        if isinstance(code, str) and code in RED_FIVES:
            if not rules.red_fives:
                raise _no_red(code)
            reds.append(code)
            tiles.append(RED_FIVES[code])
            continue
        if not isinstance(code, str):
            raise InvalidHandError(f"{what}: expected tile codes, got {code!r}")
        t = Tile.parse(code)
        if t.is_flower:
            raise InvalidHandError(f"{what}: a flower cannot be an indicator")
        tiles.append(t)
    return tuple(tiles), reds


@dataclass(frozen=True, slots=True)
class RiichiContext:
    """The riichi facts of one hand (validated types; the consistency of the facts with the
    hand is checked by the rule set's ``validate``)."""

    declared: bool
    double: bool
    ippatsu: bool
    first_turn: bool
    dora_indicators: tuple[Tile, ...]
    ura_dora_indicators: tuple[Tile, ...]
    #: the fives of the hand that are red (Tile.M5 / P5 / S5, each at most once)
    red_fives: tuple[Tile, ...]
    #: red fives shown as indicators
    red_indicators: tuple[Tile, ...]
    rules: HouseRules

    @classmethod
    def from_hand(cls, hand: Hand) -> RiichiContext:
        ctx: Mapping[str, Any] = (
            hand.context.facts if isinstance(hand.context, RiichiWinContext) else {}
        )
        rules = house_rules_of(ctx)
        r = ctx.get("riichi")
        if r is None:
            r = {}
        if not isinstance(r, Mapping):
            raise InvalidHandError(f"'riichi' must be an object, got {r!r}")
        if r and not _RIICHI_FLAGS.issuperset(r):
            unknown = set(r) - _RIICHI_FLAGS
            raise InvalidHandError(f"unknown keys in 'riichi': {sorted(unknown)}")
        declared = _flag(r.get("declared", False), "riichi.declared")
        double = _flag(r.get("double", False), "riichi.double")
        ippatsu = _flag(r.get("ippatsu", False), "riichi.ippatsu")
        first_turn = _flag(ctx.get("first_turn", False), "first_turn")
        dora, red_d = _indicators(ctx.get("dora_indicators"), "dora_indicators", rules)
        ura, red_u = _indicators(ctx.get("ura_dora_indicators"), "ura_dora_indicators", rules)
        held = ctx.get("red_fives")
        if held is None:
            held = []
        if not isinstance(held, list | tuple) or not all(
            isinstance(c, str) and c in RED_FIVES for c in held
        ):
            raise InvalidHandError(f"'red_fives' must be a list of 0m / 0p / 0s, got {held!r}")
        if held and not rules.red_fives:
            raise _no_red(held[0])
        return cls(  # (positional, in field order: cheaper than keywords)
            declared,
            double,
            ippatsu,
            first_turn,
            dora,
            ura,
            tuple([RED_FIVES[c] for c in held]) if held else (),
            tuple([RED_FIVES[c] for c in (*red_d, *red_u)]) if red_d or red_u else (),
            rules,
        )

    @staticmethod
    def red_code(tile: Tile) -> str:
        """The red code of a five (``Tile.M5`` → ``"0m"``)."""
        return _RED_OF[tile]


def all_tiles(hand: Hand, ctx: RiichiContext) -> Sequence[int]:
    """Counts (34) of the hand's tiles and every indicator: at most four of each exist."""
    c = hand.tile_counts()
    for t in (*ctx.dora_indicators, *ctx.ura_dora_indicators):
        c[t] += 1
    return c
