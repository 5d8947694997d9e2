"""The other implementation, in its own process, for the differential test.

Run as ``python native_worker.py`` with ``MAHJONG_PURE`` set or not; reads one JSON command a
line on stdin and answers one JSON line on stdout:

* ``{"op": "impl"}`` → ``{"impl": "compiled" | "pure"}``
* ``{"op": "new", "config": ...}`` → the new game's state JSON
* ``{"op": "apply", "action": ...}`` → the state after it, its events, each seat's view and
  legal actions, or ``{"error": code}`` (the state is kept)
* ``{"op": "score", "hand": ...}`` → ``scoring.score(hand)`` or ``{"error": ...}``
* ``{"op": "shanten", "ruleset": ..., "counts": [34 ints], "melds": n}`` → the shanten number
"""

from __future__ import annotations

import json
import sys
from typing import Any

import bots
import mahjong_native
import scoring
import table
from table import Action, GameConfig, GameState, TableError, apply, new_game


def snapshot(state: GameState, events: list[table.Event]) -> dict[str, Any]:
    """What both implementations must agree on after one step."""
    return {
        "state": state.to_json(),
        "events": [e.to_json() for e in events],
        "views": [table.view(state, s) for s in range(4)],
        "legal": [table.legal_actions_json(state, s) for s in range(4)],
        "decisions": {str(k): repr(v) for k, v in table.decisions(state).items()},
    }


def main() -> None:
    state: GameState | None = None
    for line in sys.stdin:
        cmd = json.loads(line)
        op = cmd["op"]
        out: Any
        if op == "impl":
            out = {"impl": mahjong_native.implementation()}
        elif op == "new":
            state = new_game(GameConfig.from_json(cmd["config"]))
            out = snapshot(state, [])
        elif op == "apply":
            assert state is not None
            try:
                state, events = apply(state, Action.from_json(cmd["action"]))
                out = snapshot(state, events)
            except TableError as e:
                out = {"error": e.code, "message": str(e)}
        elif op == "score":
            try:
                out = scoring.score(cmd["hand"])
            except scoring.ScoringError as e:
                out = {"error": type(e).__name__, "message": str(e)}
        elif op == "shanten":
            rules = bots.bot_rules(cmd["ruleset"]).shapes
            out = {"shanten": bots.shanten(cmd["counts"], cmd["melds"], rules)}
        else:
            raise ValueError(op)
        sys.stdout.write(json.dumps(out, sort_keys=True, default=str) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
