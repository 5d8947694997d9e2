"""What each connection is shown of a room, computed purely: visible events, quiet decisions, and the ``events`` and ``snapshot`` messages built from :mod:`protocol` types.

Nothing here does I/O or keeps state between calls; :mod:`server.flow.fanout` decides who gets
which frame (sharing one per seat view: :class:`EntryFrames`) and :mod:`server.net.transport`
writes it.
"""

from __future__ import annotations

from protocol import messages as m
from protocol.codec import encode
from server.room import facts, game, game_room, rooms
from server.room.lobby import public_lobby
from server.room.rooms import game_of
from server.room.state import Entry, GameJSON, RoomState

#: the optional ``events`` fields taken from the log entry as they are
EVENTS_OPTIONAL = ("lobby", "chat", "notice")


def visible_events(entry: Entry, seat: int | None) -> list[GameJSON]:
    """The events of log entry ``entry`` as ``seat`` (None: a spectator) may see them
    (``game.view_event``; the ones it may not see left out)."""
    out = []
    for e in entry.get("events") or []:
        seen = game.view_event(e, seat)
        if seen is not None:
            out.append(seen)
    return out


def _view_class(event: GameJSON, seat: int | None) -> int | None:
    """Which seats see ``event`` alike (``game.view_event``, the engine's one redaction
    rule: what a seat sees of an event depends only on whether it is the event's owner
    (``_owner``) or the seat it names (``seat``: whose timeout-pass it hides)): the seat
    itself when the event names it, -1 for every seat it does not name (they all see the
    same), None for a spectator. ``tests/server_tests/test_events_frame.py`` checks this
    against ``game.view_event`` for every seat over played games."""
    if seat is None or seat == event.get("_owner") or seat == event.get("seat"):
        return seat
    return -1


def _unnamed(entry: Entry, seat: int | None) -> bool:
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


#: the seat view of every seat a log entry does not name (:func:`view_of`)
UNNAMED = -1


def view_of(entry: Entry, seat: int | None) -> int | None:
    """The view ``seat`` has of log entry ``entry``: :data:`UNNAMED` for a seat the entry
    does not name (:func:`_unnamed`: all such seats get the same frame), else the seat
    (None: spectators)."""
    return UNNAMED if _unnamed(entry, seat) else seat


class EntryFrames:
    """What delivering one log entry computes once per seat view and shares among the
    connections with that view: the encoded frame (per view, :func:`view_of`, and ``prev``
    for a sparse connection), the seat's visible events and whether the entry is
    :func:`quiet` for the seat."""

    __slots__ = ("events", "frames", "quiet")

    def __init__(self) -> None:
        self.frames: dict[object, bytes] = {}
        self.quiet: dict[int | None, bool] = {}
        self.events: dict[int | None, list[GameJSON]] = {}

    def visible(self, entry: Entry, seat: int | None) -> list[GameJSON]:
        ev = self.events.get(seat)
        if ev is None:
            ev = self.events[seat] = visible_events(entry, seat)
        return ev

    def frame(
        self, room: str, v: int, entry: Entry, seat: int | None, prev: int | None = None
    ) -> bytes:
        """:func:`events_frame` of log entry ``v`` for ``seat`` (and ``prev``), built once
        per view: the seats the entry does not name share one."""
        key = (view_of(entry, seat), prev)
        data = self.frames.get(key)
        if data is None:
            data = self.frames[key] = events_frame(
                room, v, entry, seat, prev, self.visible(entry, seat)
            )
        return data


def quiet(
    entry: Entry, before: Entry, seat: int | None, events: list[GameJSON] | None = None
) -> bool:
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
    if (entry.get("clocks") or []) != (before.get("clocks") or []):
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
    entry: Entry,
    seat: int | None,
    prev: int | None = None,
    events: list[GameJSON] | None = None,
) -> bytes:
    """The encoded ``events`` frame of log entry ``v`` for ``seat`` (None: spectators):
    its events redacted by the engine's ``view_event`` for that seat (``events``: the
    caller's :func:`visible_events` of the seat), and that seat's legal actions and
    deadline; ``prev`` for a sparse connection.

    The wire dict of :class:`protocol.messages.Events` is built directly (same keys, same
    order, None left out: ``tests/server_tests/test_events_frame.py`` compares it with
    ``m.Events(...).to_wire()``). The seats the entry does not name and that have no legal
    actions of their own (:func:`_unnamed`: in a claim window without a choice, the seats a
    discard is not about) get the same bytes (:meth:`EntryFrames.frame` builds them once)."""
    if events is None:
        events = visible_events(entry, seat)
    key = str(seat) if seat is not None else None
    legal = None
    deadline = None
    clocks = None
    if entry.get("playing"):
        legal = (entry.get("legal") or {}).get(key, []) if key is not None else []
        deadline = (entry.get("deadlines") or {}).get(key) if key is not None else None
        clocks = entry.get("clocks") or []
    wire: dict[str, object] = {"type": m.Events.type, "room": room, "seq": v, "events": events}
    for name in EVENTS_OPTIONAL:
        x = entry.get(name)
        if x is not None:
            wire[name] = x
    if legal is not None:
        wire["legal"] = legal
    if deadline is not None:
        wire["deadline"] = deadline
    if clocks is not None:
        wire["clocks"] = clocks
    if prev is not None:
        wire["prev"] = prev
    return encode(wire)


def snapshot(
    room: str,
    version: int,
    state: RoomState,
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
    clocks = None
    if state.get("game") is not None:
        view = game.view(game_of(state), seat, state["id"])
        legal = facts.seat_legal(state, seat, answers)
        deadline = facts.seat_deadline(state, seat, grace_ms, bot_delay_ms, answers)
        if state["status"] == "playing":
            clocks = facts.public_clocks(state, facts.room_deadlines(state, grace_ms, bot_delay_ms))
    msg = m.Snapshot(
        room=room,
        seq=version,
        lobby=dict(public_lobby(state)),
        you={
            "player": player,
            "seat": seat,
            "spectator": seat is None,
            **({"toggles": game_room.toggles_of(state, seat)} if seat is not None else {}),
        },
        game=view,
        legal=legal,
        deadline=deadline,
        clocks=None if clocks is None else [dict(c) for c in clocks],
        re=re,
    )
    return msg, seat
