"""When things happen in a room by themselves: the deadlines of its open decisions, its claim window's close, the grace of a player away and the next deal.

A decision's deadline is a bot's move, a player's own setting, an automatic pass or a
timeout. Pure functions of the room's state (and the answers held for its claim window):
the commit computes them once per commit (``facts.room_deadlines``), the timer's tick
(``game_room.tick``) applies what is due. The timer's ``(at_ms, kind, seat)`` is
:data:`Deadline`.
"""

from __future__ import annotations

from server.room import memos
from server.room.held_answers import Answers, held_answers
from server.room.memos import Deadline as Deadline  # (at_ms, kind, seat): what happens by itself
from server.room.rooms import held, paused
from server.room.state import Pending, RoomState
from server.room.windows import DEFAULT_WINDOW_MS, window_delay


def window_hi(state: RoomState, bot_delay_ms: int) -> int:
    """The longest an automatic answer in a claim window waits in this room (ms)."""
    v = state["options"].get("window_ms")
    if v is not None:
        return int(v)
    return 0 if _bot_delay(state, bot_delay_ms) == 0 else DEFAULT_WINDOW_MS


def _bot_delay(state: RoomState, default_ms: int) -> int:
    v = state["options"].get("bot_delay_ms")
    return default_ms if v is None else int(v)


def committed_deadlines(
    state: RoomState, grace_ms: int, bot_delay_ms: int, answers: Answers | None = None
) -> list[Deadline]:
    """:func:`deadlines` of a room state that is no longer changed in place (a committed
        one, or the state a :func:`tick` starts from), remembered by the state's identity
    (``memos.DEADLINES``: the room's latest two states): the
        commit computes them (``facts.room_deadlines``) and the timer's tick of the same state
        finds them. The list is shared: not to be changed by the caller. With ``answers`` held
        for the open window, computed afresh (not remembered)."""
    if answers and held_answers(state, answers):
        return deadlines(state, grace_ms, bot_delay_ms, answers)
    known = memos.DEADLINES.setdefault(state.get("id"), state, dict)
    out = known.get((grace_ms, bot_delay_ms))
    if out is None:
        out = known[(grace_ms, bot_delay_ms)] = deadlines(state, grace_ms, bot_delay_ms)
    return out


def deadlines(
    state: RoomState, grace_ms: int, bot_delay_ms: int, answers: Answers | None = None
) -> list[Deadline]:
    """Everything that will happen by itself in this room: (at_ms, kind, seat).

    A claim window closes all at once (:func:`tick`): every seat in it is due at the same
    time, the latest of each automatic answer's drawn time (``server/room/windows.py``), each
    held answer (``answers``: kind "held", due at once) and each other asked player's claim
    timeout; a player asked without a timeout who has not answered holds the window open
    (no deadline)."""
    out: list[Deadline] = []
    if state["status"] != "playing" or held(state) is not None:
        return out
    away = _grace_deadlines(state, grace_ms, out)
    if away and paused(state):  # (a paused game has a seat whose player is away)
        return []
    deal = state.get("next_hand_at")
    if deal is not None:
        out.append((int(deal), "deal", -1))
        return out
    pending = state["pending"]
    if not pending:
        return out  # (no open decision: nothing else is due)
    seed = str(state.get("window_seed") or state.get("id", ""))
    hi = window_hi(state, bot_delay_ms)
    answered = held_answers(state, answers) if answers else {}
    window: list[tuple[int | None, str, int]] = []
    for k in sorted(pending) if len(pending) > 1 else pending:
        p = pending[k]
        i = int(k)
        t0 = p["since"]
        claim = p["kind"] == "claim"
        if claim and i in answered:
            window.append((t0, "held", i))
            continue
        at, what = _decision_due(state, i, p, seed, hi, bot_delay_ms)
        if claim:
            window.append((at, what, i))
        elif at is not None:
            out.append((at, what, i))
    if window:
        _close_window(window, out)
    return out


def _grace_deadlines(state: RoomState, grace_ms: int, out: list[Deadline]) -> bool:
    """The grace periods of the players away (appended to ``out``); whether any seat's
    player is away."""
    away = False
    for i, seat in enumerate(state["seats"]):
        since = seat.get("away") if seat else None
        if seat and since is not None:
            away = True
            if not seat["bot"] and not seat.get("auto"):
                out.append((int(since) + grace_ms, "grace", i))
    return away


def _decision_due(
    state: RoomState, i: int, p: Pending, seed: str, hi: int, bot_delay_ms: int
) -> tuple[int | None, str]:
    """When seat ``i``'s open decision ``p`` is taken for it, and how: a bot's move, the
    player's own setting ("act"), an automatic pass, or the timeout (None: no timeout, the
    seat is waited for)."""
    seat = state["seats"][i]
    t0 = p["since"]
    claim = p["kind"] == "claim"
    if seat and (seat["bot"] or seat.get("auto")):
        # a bot's answer to a claim window waits like a seat without a choice
        if claim:
            return t0 + window_delay(seed, p["id"], i, hi), "bot"
        return t0 + _bot_delay(state, bot_delay_ms), "bot"
    if "act" in p:
        # the player's own setting: on a turn at once, in a window when the others are
        at = t0 + window_delay(seed, p["id"], i, hi) if claim else t0
        return at, "act"
    if p["auto"]:
        return t0 + window_delay(seed, p["id"], i, hi), "pass"
    o = state["options"]
    secs = o["turn_seconds"] if not claim else o["claim_seconds"]
    return (t0 + secs * 1000 if secs else None), "timeout"


def _close_window(window: list[tuple[int | None, str, int]], out: list[Deadline]) -> None:
    """A claim window's seats, all due when its last one is (appended to ``out``); none
    while a seat asked without a timeout holds it open."""
    close: int | None = None
    for at, _, _ in window:
        if at is None:
            return  # a player asked without a timeout holds the window open
        if close is None or at > close:
            close = at
    assert close is not None
    for _, what, i in window:
        out.append((close, what, i))


def next_deadline(
    state: RoomState, grace_ms: int, bot_delay_ms: int, answers: Answers | None = None
) -> int | None:
    d = deadlines(state, grace_ms, bot_delay_ms, answers)
    return min(at for at, _, _ in d) if d else None
