"""A room's options: their defaults and the check of what a host asks for (`create_room`).

The options are the room's settings for its games (length, timers, stakes, the table's
house rules and the rule set's settlement), stored in the room's state and shown in its
lobby (docs/protocol.md, ``create_room``).
"""

from __future__ import annotations

from protocol.codes import ErrorCode
from server.room import game
from server.room.rooms import JSON, RoomError

LENGTHS = {"one_round": 1, "two_rounds": 2, "four_rounds": 4}
#: the values of the ``length`` option: a number of rounds, or "hands" (with ``hands``)
LENGTH_NAMES = (*LENGTHS, "hands")
DEFAULT_OPTIONS: JSON = {
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


def validate_options(ruleset: str, options: JSON | None) -> JSON:
    known = game.rulesets()
    if ruleset not in known:
        raise RoomError(
            ErrorCode.BAD_RULESET,
            f"unknown rule set {ruleset!r}",
            {"known": known},
        )
    out = dict(DEFAULT_OPTIONS)
    for key, value in (options or {}).items():
        if key not in DEFAULT_OPTIONS:
            raise RoomError(ErrorCode.BAD_OPTIONS, f"unknown option {key!r}")
        out[key] = value

    def bad(msg: str) -> RoomError:
        return RoomError(ErrorCode.BAD_OPTIONS, msg)

    def is_int(v: object) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    if out["length"] not in LENGTH_NAMES:
        raise bad("length must be one_round, two_rounds, four_rounds or hands")
    if out["length"] == "hands":
        if not is_int(out["hands"]) or not 1 <= out["hands"] <= 64:
            raise bad("hands must be an int 1..64 when length is 'hands'")
    elif out["hands"] is not None:
        raise bad("hands is only allowed with length 'hands'")
    for key, lo, hi in (("turn_seconds", 3, 600), ("claim_seconds", 2, 120)):
        v = out[key]
        if not is_int(v) or not (v == 0 or lo <= v <= hi):
            raise bad(f"{key} must be 0 (off) or an int {lo}..{hi}")
    if not is_int(out["stakes"]) or not 0 <= out["stakes"] <= 1_000_000:
        raise bad("stakes must be an int 0..1000000")
    if not isinstance(out["public"], bool):
        raise bad("public must be a bool")
    if not is_int(out["hand_pause_ms"]) or not 0 <= out["hand_pause_ms"] <= 60_000:
        raise bad("hand_pause_ms must be an int 0..60000")
    bd = out["bot_delay_ms"]
    if bd is not None and (not is_int(bd) or not 0 <= bd <= 10_000):
        raise bad("bot_delay_ms must be an int 0..10000")
    wm = out["window_ms"]
    if wm is not None and (not is_int(wm) or not 0 <= wm <= 5_000):
        raise bad("window_ms must be an int 0..5000")
    for key in ("house_rules", "settlement"):
        v = out[key]
        if v is not None and (not isinstance(v, dict) or not all(isinstance(k, str) for k in v)):
            raise bad(f"{key} must be a map of names to values")
    problem = game.check_config(ruleset, out["house_rules"], out["settlement"])
    if problem is not None:
        raise bad(problem)
    return out
