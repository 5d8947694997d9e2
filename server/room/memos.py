"""Values worked out from room and game states, remembered by each state's identity and bounded per room.

A room's state and its game's state (plain dicts) are never changed in place once made
(``server/room/rooms.py`` and ``server.room.game.apply`` build new ones), so what is computed from one
(its parsed ``GameState``, a seat's legal actions, the room's deadlines) can be found again
by the dict's identity: an entry holds a reference to its dict, so the id is not reused
while it is remembered, and a hit is checked with ``is``.

A :class:`StateMemo` keeps, for each room, the values of that room's ``per_room`` most
recently used states: a room's newer state pushes its oldest out. So what it holds follows
the number of rooms, not the traffic: a few busy rooms (all-bot rooms, whose every state a
bot worker process sends back whole, sharing nothing with the states before) no longer fill
it with thousands of their old states (docs/memory.md). The rooms themselves are bounded
(``rooms``, least recently used first). States of no room (``room`` None: tests and tools
that call ``server.room.game`` directly) share one bucket of ``loose`` states.

Locked: the rooms' timer ticks and hints run in worker threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

from server.room.state import GameJSON

if TYPE_CHECKING:
    from table import GameState

V = TypeVar("V")
#: something that will happen by itself in a room: (at_ms, kind, seat) (``server.room.game_room``)
Deadline = tuple[int, str, int]

#: the states each room keeps in a memo: its latest and the one before it (a commit reads
#: the state it starts from and makes the next; a snapshot may still read the one before)
PER_ROOM = 2
#: rooms a memo keeps: those whose latest state the server keeps in memory
#: (``server.flow.commits.STATE_CACHE_ROOMS``). (When the parsed states were one LRU of 512, a
#: server with 1,000 rooms in play parsed the state of nearly every action again: 506 µs of
#: CPU per action, against 418 with 4,096, in a paced 1,000-room run; ~11 KB per room.)
ROOMS = 2048
#: states of no room a memo keeps (``room`` None)
LOOSE = 4096


class StateMemo(Generic[V]):
    """Values computed from states, found again by the state's identity, per room."""

    def __init__(self, per_room: int = PER_ROOM, rooms: int = ROOMS, loose: int = LOOSE) -> None:
        self.per_room = per_room
        self.rooms = rooms
        self.loose = loose
        self._by_room: OrderedDict[str | None, OrderedDict[int, tuple[object, V]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, room: str | None, state: object) -> V | None:
        """The value remembered for ``state`` (this very object) in ``room``, or None."""
        with self._lock:
            return self._hit(room, state)

    def _hit(self, room: str | None, state: object) -> V | None:
        bucket = self._by_room.get(room)
        hit = bucket.get(id(state)) if bucket is not None else None
        if bucket is None or hit is None or hit[0] is not state:
            return None
        bucket.move_to_end(id(state))
        return hit[1]

    def put(self, room: str | None, state: object, value: V) -> None:
        """Remember ``value`` for ``state`` in ``room`` (the room's oldest state goes when it
        has ``per_room`` already)."""
        with self._lock:
            self._put(room, state, value)

    def setdefault(self, room: str | None, state: object, make: Callable[[], V]) -> V:
        """The value remembered for ``state``, or ``make()`` remembered now."""
        with self._lock:
            hit = self._hit(room, state)
            if hit is not None:
                return hit
            value = make()
            self._put(room, state, value)
            return value

    def _put(self, room: str | None, state: object, value: V) -> None:
        bucket = self._by_room.get(room)
        if bucket is None:
            bucket = self._by_room[room] = OrderedDict()
            while len(self._by_room) - (None in self._by_room) > self.rooms:
                oldest = next(k for k in self._by_room if k is not None)
                del self._by_room[oldest]
        else:
            self._by_room.move_to_end(room)
        bucket[id(state)] = (state, value)
        bucket.move_to_end(id(state))
        limit = self.loose if room is None else self.per_room
        while len(bucket) > limit:
            bucket.popitem(last=False)

    def clear(self) -> None:
        """Forget everything (a bot worker process after each tick: server/flow/bot_worker.py)."""
        with self._lock:
            self._by_room.clear()

    def states_by_room(self) -> dict[str | None, int]:
        """How many states each room has remembered now (for tests and docs/memory.md)."""
        with self._lock:
            return {room: len(bucket) for room, bucket in self._by_room.items()}

    def __len__(self) -> int:
        with self._lock:
            return sum(len(bucket) for bucket in self._by_room.values())


#: a game state's JSON -> (the parsed ``GameState``, whether the JSON is its own
#: ``to_json()``, made by ``server.room.game.apply``: only then may the next state's JSON be made
#: by copying it); one action needs the same state parsed for apply, the legal actions of up
#: to three seats, the bot and the deadlines, and the next action starts from it
PARSED: StateMemo[tuple[GameState, bool]] = StateMemo()
#: a game state's JSON -> seat -> its legal actions (``server.room.game.legal``): one commit asks
#: for them twice (who is asked, then the log entry's ``legal``)
LEGAL: StateMemo[dict[int, list[GameJSON]]] = StateMemo()
#: a committed room state -> (grace_ms, bot_delay_ms) -> its deadlines
#: (``server.room.schedule.committed_deadlines``): the commit computes them and the timer's tick
#: of the same state finds them
DEADLINES: StateMemo[dict[tuple[int, int], list[Deadline]]] = StateMemo()


def forget_all() -> None:
    """Forget what every memo of this module holds: a bot worker process after each tick
    (server/flow/bot_worker.py). The states it is sent arrive unpickled, new objects no later
    task is sent again, so what it remembered of them could never be found again."""
    for memo in (PARSED, LEGAL, DEADLINES):
        memo.clear()


def sizes() -> dict[str, int]:
    """How many states each memo holds now."""
    return {"parsed": len(PARSED), "legal": len(LEGAL), "deadlines": len(DEADLINES)}
