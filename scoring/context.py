"""The typed win context: one frozen record of the facts around a win.

The table engine builds it once per win (``table.wins.build_hand``) and the hand parser
builds it from the hand JSON's ``context`` object (and from keys given at the top level of
the hand); every rule set reads the fields it needs (``hand.context.dealer``, …) and
ignores the others. The tiles, the win flags (:class:`scoring.hand.WinInfo`: self-drawn,
last tile, replacement, robbing) and the seat and round winds stay where they are in the
hand; this record holds the rest.

A key that is neither a field nor a documented alias is an error naming the nearest field.
Aliases (accepted on input only; :meth:`WinContext.to_json` writes the field names):

==========================  ==========================================================
alias                       field
==========================  ==========================================================
``dealer_streak``           ``streak`` (tw16-tai's name)
``heavenly``                ``heaven`` (tw16-tai 天胡)
``earthly``                 ``earth`` (tw16-tai 地胡)
``first_turn``              ``heaven`` / ``earth`` / ``human`` by its value (hk-tw16);
                            also written by ``to_json`` as a summary of the three
``blessing_of_heaven``      ``heaven`` (Zung Jung 天和)
``blessing_of_earth``       ``human`` (Zung Jung 地和: the non-dealer's self-draw on its
                            first draw); in ``zung-jung-v3.3``, whose 地和 is also won on
                            the dealer's first discard: ``human`` if self-drawn, else
                            ``earth``
``blessing_of_man``         ``earth`` (Zung Jung seed 人和: a win on the dealer's first
                            discard); ``zung-jung-v3.3`` has no 人和: an error there
==========================  ==========================================================

The first-turn facts are the table's, whatever a rule set calls them: ``heaven`` — the
dealer wins with its dealt hand; ``human`` — a non-dealer self-draws on its first draw;
``earth`` — a non-dealer wins on the dealer's first discard (no call before either).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from scoring.errors import InvalidHandError

__all__ = [
    "ALIASES",
    "CHAIN_KINDS",
    "EARTH_ON_DISCARD",
    "EMPTY",
    "FIELDS",
    "WinContext",
    "context_from_json",
    "replacements_of",
]

_TING_TIMINGS = ("normal", "heaven", "earth")
_FIRST_TURNS = ("heaven", "earth", "human")
_REPLACEMENTS = ("flower", "kong")
#: what made each replacement draw of a chain: a kong claimed on a discard (明槓: only the
#: first entry — a claim starts the claimer's turn), a kong added to an exposed pung (補槓 /
#: 加槓), a concealed kong (暗槓), a flower (補花)
CHAIN_KINDS = ("kong-discard", "added-kong", "concealed-kong", "flower")


def replacements_of(chain: tuple[str, ...]) -> tuple[str, ...]:
    """The ``replacements`` (``flower`` / ``kong``) of a ``chain`` (any kong: ``kong``)."""
    return tuple("flower" if x == "flower" else "kong" for x in chain)


@dataclass(frozen=True, slots=True)
class WinContext:
    """The facts around a win besides the tiles, the win flags and the winds.

    Seats are 0-3 in turn order. Every field has the value meaning "not known / not so";
    a rule set reads only the fields it needs (see docs/rules/*.md for which).
    """

    #: the winner's seat
    seat: int | None = None
    #: the winner is the dealer (庄 / 莊)
    dealer: bool = False
    #: the dealer's seat
    dealer_seat: int | None = None
    #: the dealer's run: hands it has already kept the deal (連n / 拉庄 n)
    streak: int = 0
    #: who discarded the winning tile (or whose kong was robbed, whose flower was robbed)
    discarder: int | None = None
    #: the discarder is the dealer
    discarder_is_dealer: bool = False
    #: the winner had declared 叮 (ting) …
    ting: bool = False
    #: … when: ``normal``, ``heaven`` (天聽: with the dealt hand) or ``earth`` (地聽: at the
    #: first draw); None when not ting
    ting_timing: str | None = None
    #: the ting was declared concealed
    ting_concealed: bool = False
    #: 即食: the win comes at once after the ting (hk-tw16)
    ting_instant: bool = False
    #: tiles left to draw (None: unknown)
    tiles_left: int | None = None
    #: tiles discarded to the table before the win, the winning tile not counted
    tiles_seen: int | None = None
    #: the chain of replacement draws (``flower`` / ``kong``) before a self-draw (None:
    #: unknown; then ``win.kong_replacement`` alone tells)
    replacements: tuple[str, ...] | None = None
    #: the same chain, saying what made each draw (:data:`CHAIN_KINDS`: ``kong-discard``,
    #: ``added-kong``, ``concealed-kong``, ``flower``); None: not given (then
    #: ``replacements`` alone tells, and ``kong_discarder`` is taken as given)
    chain: tuple[str, ...] | None = None
    #: the win robs a kong (the same as ``win.robbing_kong``: the hand parser fills it from
    #: there and refuses a context that says otherwise)
    robbing_kong: bool = False
    #: 包: the discarder of the exposed kong whose replacement won. With ``chain``: the seat
    #: whose discard made the chain's first kong (``chain[0] == "kong-discard"``), and the
    #: rule set decides from the chain whether that seat pays (hk-tw16: only when the chain
    #: holds nothing after it); without ``chain`` (the older form): that seat pays
    kong_discarder: int | None = None
    #: 天胡 / 天和: the dealer wins with its dealt hand
    heaven: bool = False
    #: a non-dealer wins on the dealer's first discard (tw16-tai/hk-tw16 地胡, Zung Jung seed
    #: 人和, v3.3 地和)
    earth: bool = False
    #: a non-dealer self-draws on its first draw (hk-tw16 人胡, Zung Jung 地和)
    human: bool = False
    #: winners on this discard (雙響 2, 三響 3)
    winners: int = 1
    #: an instant flower win, named as the rule set names it (hk-tw16: ``seven-flowers``,
    #: ``eight-flowers``, ``seven-robs-one``, ``one-robs-seven``; tw16-tai: ``eight``,
    #: ``seven-robs-one``)
    flower_win: str | None = None
    #: the player robbed of its flower(s) by 七搶一 / 一搶七
    flower_loser: int | None = None
    #: the flowers each other player holds, in turn order after the winner
    flowers_others: tuple[int, ...] = ()
    #: other players that had declared ting
    ting_others: int = 0
    #: other players in 天聽 / 地聽
    heaven_earth_ting_others: int = 0
    #: the hand's number in the game
    hand_number: int | None = None
    #: 反雪: the bonus owed to the winner for the multiple win it dealt into last hand …
    fanxue: int = 0
    #: … paid only by these seats (None: by every payer)
    fanxue_payers: tuple[int, ...] | None = None
    #: 絕絕 n (飛 called); read only when the win tile is the last copy
    juejue: int = 1

    @property
    def first_turn(self) -> str | None:
        """``heaven``, ``earth`` or ``human`` (the first-turn fact that holds), or None."""
        if self.heaven:
            return "heaven"
        if self.earth:
            return "earth"
        if self.human:
            return "human"
        return None

    def to_json(self) -> dict[str, Any]:
        """Every field by its name (``chain`` only when given), plus ``first_turn`` (a
        summary of heaven/earth/human)."""
        out: dict[str, Any] = {}
        for name in FIELDS:
            v = getattr(self, name)
            if v is None and name == "chain":
                continue  # (left out when not given: the older form of the context)
            out[name] = list(v) if isinstance(v, tuple) else v
        out["first_turn"] = self.first_turn
        return out

    @classmethod
    def from_json(
        cls, obj: Mapping[str, Any], *, ruleset: str = "", self_drawn: bool = False
    ) -> WinContext:
        return context_from_json(obj, ruleset=ruleset, self_drawn=self_drawn)


FIELDS: tuple[str, ...] = tuple(f.name for f in fields(WinContext))
EMPTY = WinContext()


# -- parsing ---------------------------------------------------------------------------------


def _bool(key: str, v: Any) -> bool:
    if v is not True and v is not False:
        raise InvalidHandError(f"context {key!r} must be true or false, got {v!r}")
    return v


def _int(low: int, high: int | None = None) -> Callable[[str, Any], int]:
    def check(key: str, v: Any) -> int:
        if type(v) is not int or v < low or (high is not None and v > high):
            rng = f"{low}-{high}" if high is not None else f">= {low}"
            raise InvalidHandError(f"context {key!r} must be an integer {rng}, got {v!r}")
        return v

    return check


def _opt(check: Callable[[str, Any], Any]) -> Callable[[str, Any], Any]:
    return lambda key, v: None if v is None else check(key, v)


def _seat(key: str, v: Any) -> int:
    if type(v) is not int or not 0 <= v <= 3:
        raise InvalidHandError(f"context {key!r} must be a seat 0-3, got {v!r}")
    return v


def _choice(allowed: tuple[str, ...]) -> Callable[[str, Any], str]:
    def check(key: str, v: Any) -> str:
        if v not in allowed:
            raise InvalidHandError(
                f"context {key!r} must be one of {', '.join(allowed)}, got {v!r}"
            )
        return str(v)

    return check


def _list(item: Callable[[str, Any], Any], what: str) -> Callable[[str, Any], tuple[Any, ...]]:
    def check(key: str, v: Any) -> tuple[Any, ...]:
        if not isinstance(v, list | tuple):
            raise InvalidHandError(f"context {key!r} must be a list of {what}, got {v!r}")
        try:
            return tuple(item(key, x) for x in v)
        except InvalidHandError:
            raise InvalidHandError(f"context {key!r} must be a list of {what}, got {v!r}") from None

    return check


def _flower_win(key: str, v: Any) -> str | None:
    if v is None or v is False:  # (tw16-tai took false for "none")
        return None
    if not isinstance(v, str):
        raise InvalidHandError(f"context {key!r} must be a flower win name, got {v!r}")
    return v


_CHECKS: dict[str, Callable[[str, Any], Any]] = {
    "seat": _opt(_seat),
    "dealer": _bool,
    "dealer_seat": _opt(_seat),
    "streak": _int(0),
    "discarder": _opt(_seat),
    "discarder_is_dealer": _bool,
    "ting": _bool,
    "ting_timing": _opt(_choice(_TING_TIMINGS)),
    "ting_concealed": _bool,
    "ting_instant": _bool,
    "tiles_left": _opt(_int(0)),
    "tiles_seen": _opt(_int(0)),
    "replacements": _opt(_list(_choice(_REPLACEMENTS), "'flower' / 'kong'")),
    "chain": _opt(_list(_choice(CHAIN_KINDS), ", ".join(f"'{k}'" for k in CHAIN_KINDS))),
    "robbing_kong": _bool,
    "kong_discarder": _opt(_seat),
    "heaven": _bool,
    "earth": _bool,
    "human": _bool,
    "winners": _int(1, 3),
    "flower_win": _flower_win,
    "flower_loser": _opt(_seat),
    "flowers_others": _list(_int(0, 8), "flower counts"),
    "ting_others": _int(0, 3),
    "heaven_earth_ting_others": _int(0, 3),
    "hand_number": _opt(_int(0)),
    "fanxue": _int(0),
    "fanxue_payers": _opt(_list(_seat, "seats 0-3")),
    "juejue": _int(1),
}
assert tuple(_CHECKS) == FIELDS

#: alias -> (field, how the value maps); see the module docstring
_Alias = Callable[[str, Any, str, bool], dict[str, Any]]


def _same(name: str) -> _Alias:
    def alias(key: str, v: Any, ruleset: str, self_drawn: bool) -> dict[str, Any]:
        return {name: _CHECKS[name](key, v)}

    return alias


def _first_turn(key: str, v: Any, ruleset: str, self_drawn: bool) -> dict[str, Any]:
    if v is None:
        return {}
    return {str(_choice(_FIRST_TURNS)(key, v)): True}


#: rule sets whose 地和 (``blessing_of_earth``) is also won on the dealer's first discard
#: and which have no 人和 (Zung Jung v3.3; a v3.3 variant built under another name adds
#: its name here)
EARTH_ON_DISCARD: set[str] = {"zung-jung-v3.3"}


def _blessing_of_earth(key: str, v: Any, ruleset: str, self_drawn: bool) -> dict[str, Any]:
    if not _bool(key, v):
        return {}
    if ruleset in EARTH_ON_DISCARD and not self_drawn:
        return {"earth": True}
    return {"human": True}


def _blessing_of_man(key: str, v: Any, ruleset: str, self_drawn: bool) -> dict[str, Any]:
    if not _bool(key, v):
        return {}
    if ruleset in EARTH_ON_DISCARD:
        raise InvalidHandError(f"{ruleset} has no pattern for blessing_of_man (人和)")
    return {"earth": True}


def _flag(name: str) -> _Alias:
    def alias(key: str, v: Any, ruleset: str, self_drawn: bool) -> dict[str, Any]:
        return {name: True} if _bool(key, v) else {}

    return alias


ALIASES: dict[str, _Alias] = {
    "dealer_streak": _same("streak"),
    "heavenly": _flag("heaven"),
    "earthly": _flag("earth"),
    "first_turn": _first_turn,
    "blessing_of_heaven": _flag("heaven"),
    "blessing_of_earth": _blessing_of_earth,
    "blessing_of_man": _blessing_of_man,
}


def nearest(key: str, known: tuple[str, ...] | list[str]) -> str:
    """' (did you mean …?)' with the nearest known name, or ''."""
    near = difflib.get_close_matches(key, known, n=1, cutoff=0.5)
    return f" (did you mean {near[0]!r}?)" if near else ""


def context_from_json(
    obj: Mapping[str, Any], *, ruleset: str = "", self_drawn: bool = False
) -> WinContext:
    """The record from a context object (fields by name, aliases accepted); raise
    :class:`~scoring.errors.InvalidHandError` for an unknown key (naming the nearest field)
    or a value of the wrong type. ``ruleset`` and ``self_drawn`` resolve the aliases whose
    meaning depends on them (``blessing_of_earth``, ``blessing_of_man``)."""
    if not obj:
        return EMPTY
    values: dict[str, Any] = {}
    facts: dict[str, Any] = {}  # from aliases: must agree with the fields given
    for key, v in obj.items():
        check = _CHECKS.get(key)
        if check is not None:
            values[key] = check(key, v)
            continue
        alias = ALIASES.get(key)
        if alias is not None:
            for name, value in alias(key, v, ruleset, self_drawn).items():
                if facts.get(name, value) != value:
                    raise InvalidHandError(f"context {key!r} contradicts another key for {name!r}")
                facts[name] = value
            continue
        if not isinstance(key, str):
            raise InvalidHandError(f"context keys are strings, got {key!r}")
        raise InvalidHandError(f"unknown context key {key!r}{nearest(key, [*FIELDS, *ALIASES])}")
    for name, value in facts.items():
        if name in values and values[name] != value:
            raise InvalidHandError(
                f"context {name!r} is {values[name]!r} but an alias says {value!r}"
            )
        values[name] = value
    if values.get("chain") is not None:
        _check_chain(values)
    return WinContext(**values)


def _check_chain(values: dict[str, Any]) -> None:
    """``chain`` against ``replacements`` (derived from it when not given) and
    ``kong_discarder`` (given only for a chain that starts with a kong on a discard)."""
    chain: tuple[str, ...] = values["chain"]
    if "kong-discard" in chain[1:]:
        raise InvalidHandError(
            "context 'chain': 'kong-discard' can only come first (a claim starts the turn)"
        )
    coarse = replacements_of(chain)
    given = values.get("replacements")
    if given is not None and given != coarse:
        raise InvalidHandError(
            f"context 'replacements' {list(given)} differs from 'chain' {list(chain)}"
        )
    values["replacements"] = coarse
    if values.get("kong_discarder") is not None and chain[:1] != ("kong-discard",):
        raise InvalidHandError(
            "context 'kong_discarder' is given but 'chain' does not start with 'kong-discard'"
        )
