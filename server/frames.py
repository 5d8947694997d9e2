"""What each connection is shown of a room, computed purely: visible events, quiet decisions, and the ``events`` and ``snapshot`` messages built from :mod:`protocol` types.

Nothing here does I/O; the one thing kept between calls is the last frame built for a seat
its entry does not name (:func:`events_frame`: the other such seats get the same bytes).
:mod:`server.fanout` decides who gets which frame and :mod:`server.transport` writes it.
"""

from __future__ import annotations

from typing import Any

from protocol import messages as m
from protocol.codec import encode
from server import facts, game, game_room, rooms

JSON = dict[str, Any]

#: the optional ``events`` fields taken from the log entry as they are
EVENTS_OPTIONAL = ("lobby", "chat", "notice")


def visible_events(entry: JSON, seat: int | None) -> list[JSON]:
    """The events of log entry ``entry`` as ``seat`` (None: a spectator) may see them
    (``game.view_event``; the ones it may not see left out)."""
    out = []
    for e in entry.get("events") or []:
        seen = game.view_event(e, seat)
        if seen is not None:
            out.append(seen)
    return out


def _view_class(event: JSON, seat: int | None) -> int | None:
    """Which seats see ``event`` alike (``game.view_event``, the engine's one redaction
    rule: what a seat sees of an event depends only on whether it is the event's owner
    (``_owner``) or the seat it names (``seat``: whose timeout-pass it hides)): the seat
    itself when the event names it, -1 for every seat it does not name (they all see the
    same), None for a spectator. ``tests/server_tests/test_events_frame.py`` checks this
    against ``game.view_event`` for every seat over played games."""
    if seat is None or seat == event.get("_owner") or seat == event.get("seat"):
        return seat
    return -1


def _unnamed(entry: JSON, seat: int | None) -> bool:
    """Whether ``seat`` sees the entry like every other seat its events do not name
    (:func:`_view_class` -1 for each event) and has no legal actions and no deadline of
    its own: then its frame is theirs."""
    if seat is None:
        return False
    for e in entry.get("events") or ():
        if seat == e.get("_owner") or seat == e.get("seat"):
            return False
    key = str(seat)
    return not (entry.get("legal") or {}).get(key) and key not in (entry.get("deadlines") or {})


#: the frame of the last entry framed for a seat it does not name (:func:`_unnamed`):
#: ((entry, room, v, prev), frame). The caller frames one entry for every seat view, then
#: the next: the seats the entry does not name get these bytes, built once. Identity-checked
#: and replaced whole (a reader in another thread sees the old pair or the new one).
_UNNAMED: list[tuple[tuple[Any, ...], bytes] | None] = [None]


class EntryFrames:
    """What delivering one log entry computes once per seat view and shares among the
    connections with that view: the encoded frame (per seat, or per seat and ``prev`` for a
    sparse connection), the seat's visible events and whether the entry is :func:`quiet`
    for the seat."""

    __slots__ = ("events", "frames", "quiet")

    def __init__(self) -> None:
        self.frames: dict[object, bytes] = {}
        self.quiet: dict[int | None, bool] = {}
        self.events: dict[int | None, list[JSON]] = {}

    def visible(self, entry: JSON, seat: int | None) -> list[JSON]:
        ev = self.events.get(seat)
        if ev is None:
            ev = self.events[seat] = visible_events(entry, seat)
        return ev


def quiet(entry: JSON, before: JSON, seat: int | None, events: list[JSON] | None = None) -> bool:
    """Whether log entry ``entry`` changes nothing ``seat`` (None: a spectator) can see,
    given the entry before it: no lobby, chat or notice, no event that seat may see
    (``events``: :func:`visible_events` of the seat when the caller has them), and the
    seat's legal actions (none and empty alike: :func:`events_frame` sends both as ``[]``),
    deadline and the playing flag as ``before`` had them. In a claim window, a pass is quiet
    for every seat but the one that passed until the last answer (sparse delivery does not
    send it: the others learn neither that nor when someone answered); the server's pass
    for a seat it did not ask (``legal`` empty in ``before``: no choice) is quiet for that
    seat too — its own ``answered`` tells it nothing it did not know."""
    for name in EVENTS_OPTIONAL:
        if entry.get(name) is not None:
            return False
    if entry.get("playing") != before.get("playing"):
        return False
    unasked = False
    if seat is not None:
        key = str(seat)
        had = (before.get("legal") or {}).get(key)
        if ((entry.get("legal") or {}).get(key) or []) != (had or []):
            return False
        if (entry.get("deadlines") or {}).get(key) != (before.get("deadlines") or {}).get(key):
            return False
        unasked = had == []  # in the window, not asked
    seen = visible_events(entry, seat) if events is None else events
    if unasked and seen:
        return all(e.get("type") == "answered" and e.get("seat") == seat for e in seen)
    return not seen


def events_frame(
    room: str,
    v: int,
    entry: JSON,
    seat: int | None,
    prev: int | None = None,
    events: list[JSON] | None = None,
) -> bytes:
    """The encoded ``events`` frame of log entry ``v`` for ``seat`` (None: spectators):
    its events redacted by the engine's ``view_event`` for that seat (``events``: the
    caller's :func:`visible_events` of the seat), and that seat's legal actions and
    deadline; ``prev`` for a sparse connection.

    The wire dict of :class:`protocol.messages.Events` is built directly (same keys, same
    order, None left out: ``tests/server_tests/test_events_frame.py`` compares it with
    ``m.Events(...).to_wire()``): four of these per action. The seats the entry does not
    name and that have no legal actions of their own (:func:`_unnamed`: in a claim window
    without a choice, the seats a discard is not about) all get the same bytes: built for
    the first of them, reused for the others."""
    memo = None
    if _unnamed(entry, seat):  # (``events``, when given, are the seat's: the same as theirs)
        memo = (entry, room, v, prev)
        last = _UNNAMED[0]
        if last is not None:
            k = last[0]
            if k[0] is entry and k[1] == room and k[2] == v and k[3] == prev:
                return last[1]
    if events is None:
        events = visible_events(entry, seat)
    key = str(seat) if seat is not None else None
    legal = None
    deadline = None
    if entry.get("playing"):
        legal = (entry.get("legal") or {}).get(key, []) if key is not None else []
        deadline = (entry.get("deadlines") or {}).get(key) if key is not None else None
    wire: JSON = {"type": m.Events.type, "room": room, "seq": v, "events": events}
    for name in EVENTS_OPTIONAL:
        x = entry.get(name)
        if x is not None:
            wire[name] = x
    if legal is not None:
        wire["legal"] = legal
    if deadline is not None:
        wire["deadline"] = deadline
    if prev is not None:
        wire["prev"] = prev
    frame = encode(wire)
    if memo is not None:
        _UNNAMED[0] = (memo, frame)
    return frame


def snapshot(
    room: str,
    version: int,
    state: JSON,
    player: str,
    re: int | None,
    grace_ms: int,
    bot_delay_ms: int,
    answers: game_room.Answers | None = None,
) -> tuple[m.Snapshot, int | None]:
    """The ``snapshot`` of room state ``state`` at ``version`` for ``player`` (a member), and
    the player's seat (None: a spectator). ``answers``: the answers held for the open claim
    window; only the seat's own counts (answered: no legal actions, no deadline)."""
    seat = rooms.seat_of(state, player)
    view = legal = None
    deadline = None
    if state.get("game") is not None:
        view = game.view(state["game"], seat)
        legal = facts.seat_legal(state, seat, answers)
        deadline = facts.seat_deadline(state, seat, grace_ms, bot_delay_ms, answers)
    msg = m.Snapshot(
        room=room,
        seq=version,
        lobby=rooms.public_lobby(state),
        you={
            "player": player,
            "seat": seat,
            "spectator": seat is None,
            **({"toggles": game_room.toggles_of(state, seat)} if seat is not None else {}),
        },
        game=view,
        legal=legal,
        deadline=deadline,
        re=re,
    )
    return msg, seat
