"""A room's options: their defaults and the check of what a host asks for (`create_room`).

The options are the room's settings for its games (length, timers, stakes, the table's
house rules and the rule set's settlement), stored in the room's state and shown in its
lobby (docs/protocol.md, ``create_room``).
"""

from __future__ import annotations

from protocol.codes import ErrorCode
from server.room import game
from server.room.rooms import RoomError
from server.room.state import Json, JsonObject, Options

LENGTHS = {"one_round": 1, "two_rounds": 2, "four_rounds": 4}
#: the values of the ``length`` option: a number of rounds, or "hands" (with ``hands``)
LENGTH_NAMES = (*LENGTHS, "hands")
DEFAULT_OPTIONS: Options = {
    "length": "four_rounds",  # or "hands" with hands=N
    "hands": None,
    "turn_seconds": 30,  # 0 = no turn timer
    "claim_seconds": 10,  # 0 = no claim timer
    "stakes": 1,  # currency units per point, shown in the ledger
    "public": False,
    "hand_pause_ms": 3000,  # pause after a hand before the next deal
    "bot_delay_ms": None,  # None: the server's default
    #: the longest a bot, or a seat with no choice, takes to answer a claim window (each
    #: answer drawn in [0.4x, 1x] of it: server/room/windows.py); None: 1000 ms, 0 when bots
    #: answer at once (bot_delay_ms 0)
    "window_ms": None,
    "house_rules": None,  # the table's house rules (docs/table.md), e.g. {"max_winners": 1}
    "settlement": None,  # the rule set's settlement options (its rules doc), e.g. {"per_fan": 2}
}


def _bad(msg: str) -> RoomError:
    return RoomError(ErrorCode.BAD_OPTIONS, msg)


def _whole(v: Json) -> int | None:
    """``v`` if it is an int (not a bool), else None."""
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _bounded(v: Json, lo: int, hi: int, what: str) -> int:
    n = _whole(v)
    if n is None or not lo <= n <= hi:
        raise _bad(what)
    return n


def _optional(v: Json, lo: int, hi: int, what: str) -> int | None:
    return None if v is None else _bounded(v, lo, hi, what)


def _timer(v: Json, lo: int, hi: int, key: str) -> int:
    n = _whole(v)
    if n is None or not (n == 0 or lo <= n <= hi):
        raise _bad(f"{key} must be 0 (off) or an int {lo}..{hi}")
    return n


def _names(v: Json, key: str) -> JsonObject | None:
    if v is None:
        return None
    if not isinstance(v, dict) or not all(isinstance(k, str) for k in v):
        raise _bad(f"{key} must be a map of names to values")
    return v


def validate_options(ruleset: str, options: JsonObject | None) -> Options:
    """The options a host asks for (any omitted: :data:`DEFAULT_OPTIONS`), checked:
    ``bad_options`` names the first one out of range, ``bad_ruleset`` an unknown rule set."""
    known = game.rulesets()
    if ruleset not in known:
        raise RoomError(
            ErrorCode.BAD_RULESET,
            f"unknown rule set {ruleset!r}",
            {"known": known},
        )
    given = options or {}
    for key in given:
        if key not in DEFAULT_OPTIONS:
            raise RoomError(ErrorCode.BAD_OPTIONS, f"unknown option {key!r}")
    d = DEFAULT_OPTIONS
    length = given.get("length", d["length"])
    if not isinstance(length, str) or length not in LENGTH_NAMES:
        raise _bad("length must be one_round, two_rounds, four_rounds or hands")
    hands = given.get("hands", d["hands"])
    if length == "hands":
        hands = _bounded(hands, 1, 64, "hands must be an int 1..64 when length is 'hands'")
    elif hands is not None:
        raise _bad("hands is only allowed with length 'hands'")
    turn = _timer(given.get("turn_seconds", d["turn_seconds"]), 3, 600, "turn_seconds")
    claim = _timer(given.get("claim_seconds", d["claim_seconds"]), 2, 120, "claim_seconds")
    stakes = _bounded(
        given.get("stakes", d["stakes"]), 0, 1_000_000, "stakes must be an int 0..1000000"
    )
    public = given.get("public", d["public"])
    if not isinstance(public, bool):
        raise _bad("public must be a bool")
    pause = given.get("hand_pause_ms", d["hand_pause_ms"])
    bots = given.get("bot_delay_ms", d["bot_delay_ms"])
    window = given.get("window_ms", d["window_ms"])
    out: Options = {
        "length": length,
        "hands": hands,
        "turn_seconds": turn,
        "claim_seconds": claim,
        "stakes": stakes,
        "public": public,
        "hand_pause_ms": _bounded(pause, 0, 60_000, "hand_pause_ms must be an int 0..60000"),
        "bot_delay_ms": _optional(bots, 0, 10_000, "bot_delay_ms must be an int 0..10000"),
        "window_ms": _optional(window, 0, 5_000, "window_ms must be an int 0..5000"),
        "house_rules": _names(given.get("house_rules", d["house_rules"]), "house_rules"),
        "settlement": _names(given.get("settlement", d["settlement"]), "settlement"),
    }
    problem = game.check_config(ruleset, out["house_rules"], out["settlement"])
    if problem is not None:
        raise _bad(problem)
    return out
