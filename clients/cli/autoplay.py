"""``--bot``: let a bot play this seat from the client's own view and legal actions.

Uses the project's bot (:func:`bots.choose`, shanten/ukeire based) when the ``bots`` package
is installed; otherwise a plain fallback policy: win when possible, pass on claims, and
discard the drawn tile (or the first legal discard).
"""

from __future__ import annotations

import random
from typing import Any

from clients.cli.model import RoomState

JSON = dict[str, Any]


def choose(r: RoomState, rng: random.Random | None = None) -> JSON | None:
    """One of ``r.legal`` for this seat now, or None when there is nothing to do."""
    if not r.legal or r.game is None:
        return None
    try:
        from bots.player import choose as bot_choose
    except ImportError:
        return fallback(r)
    view = {**r.game, "you": r.seat, "legal_actions": list(r.legal)}
    try:
        a = dict(bot_choose(view, r.legal, rng))
    except Exception:
        return fallback(r)
    return a if a in r.legal else fallback(r)


def fallback(r: RoomState) -> JSON | None:
    by: dict[str, list[JSON]] = {}
    for a in r.legal:
        by.setdefault(str(a.get("type")), []).append(a)
    if "win" in by:
        return by["win"][0]
    if "pass" in by:
        return by["pass"][0]
    if "discard" in by:
        me = r.my_view() or {}
        drawn = me.get("drawn")
        for a in by["discard"]:
            if a.get("tile") == drawn:
                return a
        return by["discard"][-1]
    return r.legal[0]
