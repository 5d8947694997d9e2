"""What each seat may see, and what it may do.

:func:`view` and :func:`view_event` (:func:`view_event_json` for an event's JSON form) are
the only functions that turn table state and events into something sent to a client. A seat sees its own concealed tiles and drawn tile,
everyone's exposed melds, flowers, rivers and tile counts, the wall's size and its
commitment — never another seat's concealed tiles (concealed kongs of others included), the
wall, or anything about another seat's answer in a claim window (not even that it
answered, until the window closes). A spectator (``seat=None``) sees only the
public part. When the hand is over, the wall, salt and all hands are revealed (that is what
the commitment is for).

:func:`legal_actions` lists every action a seat may send now (except ``timeout``, which
only the server sends).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.hand import MeldKind
from scoring.tiles import Tile
from table.codec import TILE_CODE
from table.game_state import GameState
from table.model import EVENT_META_KEYS, Action, ActionType, Event, Phase
from table.scoring_bridge import completes, ready_discards
from table.state import drawable
from table.tile_math import others, tile_counts
from table.wins import discard_win_error, may_self_win, self_win_kind
from table.working import WorkingCopy

__all__ = [
    "legal_actions",
    "legal_actions_json",
    "view",
    "view_event",
    "view_event_json",
]


def _hidden_from(etype: str, data: Mapping[str, Any], owner: int | None, seat: int | None) -> bool:
    """Whether ``seat`` (None: a spectator) may not see the event *at all*: another seat's
    answer in a claim window -- given (``answered``) or the server's pass for a seat that ran
    out of time (``timeout`` with ``default: pass``). The one rule for every form of an event
    (``data`` may be ``Event.data`` or the stored JSON, whose data keys are at the top)."""
    if etype == "answered":
        return owner != seat
    if etype == "timeout" and data.get("default") == "pass":
        return data.get("seat") != seat
    return False


def view_event(event: Event, seat: int | None) -> dict[str, Any] | None:
    """The event as ``seat`` (None: a spectator) may see it; None when it may not see the
    event at all: another seat's answer in a claim window (not even *that* it answered --
    the window's outcome, ``claimed`` / ``hand_won`` / the next draw, is all the others
    learn; the answering seat gets its own confirmation). The rule itself is
    :func:`view_event_json`'s (one implementation for both forms of an event)."""
    return view_event_json(event.to_json(), seat)


def view_event_json(event: Mapping[str, Any], seat: int | None) -> dict[str, Any] | None:
    """:func:`view_event` of an event given in its JSON form (``Event.to_json()``, as the
    server stores it), without rebuilding the event (the server redacts each stored event
    for every receiving seat). This is the one place where an event is redacted."""
    etype = str(event["type"])
    owner = event.get("_owner")
    if (etype == "answered" or etype == "timeout") and _hidden_from(etype, event, owner, seat):
        return None
    # nothing to redact (most events): a copy is the same dict as the one built below when
    # "type" comes first (as in every ``Event.to_json()``) and is a string
    if (
        "_owner" not in event
        and "_secret" not in event
        and next(iter(event)) == "type"
        and etype is event["type"]
    ):
        return dict(event)
    secret = () if owner is None or owner == seat else (event.get("_secret") or ())
    out = {"type": etype}
    for k, v in event.items():
        if k not in EVENT_META_KEYS and k not in secret:
            out[k] = v
    return out


def view(state: GameState, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` (None: a spectator) may see it, with its legal actions."""
    out: dict[str, Any] = {
        "seq": state.seq,
        "ruleset": state.config.ruleset,
        "phase": state.phase.value,
        "you": seat,
        "dealer": state.dealer,
        "round_wind": str(state.round_wind),
        "hands_played": state.hands_played,
        "streak": state.streak,
        "scores": list(state.scores),
        "hand": None,
        "legal_actions": [],
    }
    h = state.hand
    if h is None:
        return out
    over = state.phase in (Phase.BETWEEN_HANDS, Phase.GAME_OVER)
    seats = []
    for i, s in enumerate(h.seats):
        mine = seat == i
        melds = []
        for m in s.melds:
            if m.concealed and not (mine or over):
                melds.append({"kind": "kong", "concealed": True, "tiles": None})
            else:
                melds.append(m.to_json())
        entry: dict[str, Any] = {
            "seat": i,
            "wind": str(state.seat_wind(i)),
            "melds": melds,
            "flowers": [str(t) for t in s.flowers],
            "discards": [str(t) for t in s.discards],
            "concealed_count": len(s.concealed),
            "ting": s.ting,
            "ting_tile": str(s.ting_tile) if s.ting_tile is not None else None,
            "concealed": [str(t) for t in s.concealed] if (mine or over) else None,
        }
        if mine:
            entry["drawn"] = str(s.drawn) if s.drawn is not None else None
            entry["missed_win"] = s.missed_win
        seats.append(entry)
    hand: dict[str, Any] = {
        "number": h.number,
        "commitment": h.commitment,
        "dice": list(h.dice),
        "wall_left": drawable(h, state.params),
        "turn": h.turn,
        "discarder": h.discarder,
        "discard": str(h.discard) if h.discard is not None else None,
        "pending": _pending_seen(state.phase, tuple(h.pending), h.discarder, seat),
        "seats": seats,
    }
    if over:
        hand["wall"] = [str(t) for t in h.wall]
        hand["salt"] = h.salt.hex()
    out["hand"] = hand
    if seat is not None:
        out["legal_actions"] = legal_actions_json(state, seat)
    return out


def _pending_seen(
    phase: Phase, pending: tuple[int, ...], discarder: int | None, seat: int | None
) -> list[int]:
    """Who the table waits for, as ``seat`` may know it: in a claim window every other seat
    of the window counts as not answered until it closes (answers are private), ``seat``
    itself as it is."""
    if phase in (Phase.CLAIM, Phase.ROB) and discarder is not None:
        return [i for i in others(discarder) if i != seat or i in pending]
    return list(pending)


def legal_actions(state: GameState, seat: int, *, ting: bool = True) -> list[Action]:
    """Every action ``seat`` may send now (``timeout`` excluded: only the server sends it).

    ``ting=False`` leaves out the 叮 discards (the costliest part: a readiness search after
    each possible discard); the simple player asks for them separately when it wants one."""
    seq = state.seq
    return [Action(t, seat, seq, tile) for t, tile in _legal(state, seat, ting)]


def legal_actions_json(state: GameState, seat: int, *, ting: bool = True) -> list[dict[str, Any]]:
    """:func:`legal_actions` in JSON form (each ``Action.to_json()``), built directly: what
    the server sends with every events frame."""
    seq = state.seq
    out: list[dict[str, Any]] = []
    for t, tile in _legal(state, seat, ting):
        # (``_value_``: the plain attribute, without the Enum ``value`` descriptor)
        if tile is None:
            out.append({"type": t._value_, "seat": seat, "seq": seq})
        else:
            out.append({"type": t._value_, "seat": seat, "seq": seq, "tile": TILE_CODE[tile]})
    return out


def _legal(state: GameState, seat: int, ting: bool) -> list[tuple[ActionType, Tile | None]]:
    """The legal actions as (type, tile) pairs (the one implementation of the rules above)."""
    h = state.hand
    if h is None or state.phase in (Phase.BETWEEN_HANDS, Phase.GAME_OVER):
        return []
    p = state.params
    s = h.seats[seat]
    out: list[tuple[ActionType, Tile | None]] = []
    if state.phase is Phase.TURN:
        if seat != h.turn:
            return []
        if may_self_win(state, seat) and self_win_kind(WorkingCopy(state), seat) is not None:
            out.append((ActionType.WIN, None))
        if s.ting:
            if s.drawn is not None:
                out.append((ActionType.DISCARD, s.drawn))
            return out
        kinds = sorted(set(s.concealed))
        discard = ActionType.DISCARD
        out.extend([(discard, t) for t in kinds])
        if p.ting and ting:
            ready = ready_discards(p.ruleset, tuple(tile_counts(s.concealed)), len(s.melds))
            out.extend([(ActionType.TING, t) for t in ready])
        if h.remaining > 0:
            # four of a kind needs at least three tiles more than there are kinds
            if len(s.concealed) - len(kinds) >= 3:
                for t in kinds:
                    if s.concealed.count(t) == 4:
                        out.append((ActionType.CONCEALED_KONG, t))
            for m in s.melds:
                if m.kind is MeldKind.PUNG and not m.concealed and m.first in s.concealed:
                    out.append((ActionType.ADDED_KONG, m.first))
        return out
    if seat not in h.pending:
        return []
    out.append((ActionType.PASS, None))
    tile = h.discard
    # the win check (scoring) only when the tile completes the hand at all (memoised)
    if (
        tile is not None
        and completes(state.config.ruleset, s.concealed, s.melds, tile)
        and discard_win_error(WorkingCopy(state), seat) is None
    ):
        out.append((ActionType.WIN, None))
    if state.phase is Phase.ROB or s.ting:
        return out
    assert tile is not None and h.discarder is not None
    n = s.concealed.count(tile)
    if n >= 2:
        out.append((ActionType.PUNG, None))
    if n >= 3 and h.remaining > 0:
        out.append((ActionType.KONG, None))
    if p.chow and seat == (h.discarder + 1) % 4:
        for first, need in _CHOWS[tile]:
            if need[0] in s.concealed and need[1] in s.concealed:
                out.append((ActionType.CHOW, first))
    return out


def _chows(tile: Tile) -> tuple[tuple[Tile, tuple[Tile, Tile]], ...]:
    """The chows a discarded ``tile`` can complete: (lowest tile, the two tiles needed)."""
    out = []
    for d in (-2, -1, 0):
        first = tile.shifted(d)
        if first is None:
            continue
        b, c2 = first.shifted(1), first.shifted(2)
        if b is None or c2 is None:
            continue
        need = [x for x in (first, b, c2) if x != tile]
        out.append((Tile(first), (need[0], need[1])))
    return tuple(out)


_CHOWS = {t: _chows(t) for t in Tile}
