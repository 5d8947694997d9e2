"""The room's state, typed: what each key of the state a room keeps in Redis holds.

A room's state is a plain dict (msgpack stores it as one, ``server/storage/patches.py`` diffs
it, the commit caches it) and stays one at run time; these ``TypedDict`` declarations are
its shape, for the type checker. The room logic reads and writes every key through them, so
a misspelt key, a seat read as a number or an option read as the wrong type fails
``mypy --strict`` instead of a game. The stored form is what :mod:`server.room.stored`
turns an older version's state into at load; the shape here is that current form.

Conventions of the stored form (kept from before these types): a seat's decisions are keyed
by the seat's number as a string (``"0"`` .. ``"3"``, msgpack map keys); times are ms since
the epoch (the commit's ``now``, never a clock read here); keys marked ``NotRequired`` were
added by later versions or are only written once needed, and a reader takes their absence
as empty.

A state is never changed in place once built: each operation copies what it changes
(``rooms.copy_state``) and shares the rest (tests/server_tests/test_rooms_copy.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, NotRequired, TypeAlias, TypedDict

#: any value msgpack stores and the wire carries: what the room keeps without looking
#: inside (the house rules and settlement options the table checks)
Json: TypeAlias = "bool | int | float | str | bytes | Sequence[Json] | Mapping[str, Json] | None"
#: a JSON object (a map of names to values)
JsonObject: TypeAlias = dict[str, "Json"]
#: the table's JSON (``table.GameState.to_json``, its actions, events and legal actions):
#: made and read by the table, which the room reaches through ``server/room/game.py`` only
GameJSON: TypeAlias = JsonObject

#: a room's life: the lobby, a game in play, the game over (its summary in ``history``, a
#: rematch goes back to the lobby), closed (for good)
Status: TypeAlias = Literal["lobby", "playing", "finished", "closed"]
#: what an open decision is, as the engine names it (``table.decisions``): the seat's own
#: turn, or its answer to a claim (or robbing) window
DecisionKind: TypeAlias = Literal["turn", "claim"]


class Seat(TypedDict):
    """One of the four seats, taken by a player or a bot."""

    #: the player's id; None for a bot
    player: str | None
    #: the name the table shows: the player's, or "Bot N" (N the seat's number + 1)
    name: str
    bot: bool
    #: in the lobby, the player is ready to start (a bot always is)
    ready: bool
    #: when the seated player's last connection closed (ms); None: present
    away: int | None
    #: the server plays the seat (a bot, or a player away past the grace period or gone)
    auto: bool
    #: the player's own play settings (``game_room.TOGGLES``), once they set any
    toggles: NotRequired[dict[str, bool]]


class Pause(TypedDict):
    """Who paused the game (``host.pause_game``) and when (ms)."""

    player: str
    name: str
    since: int


class Pending(TypedDict):
    """A seat's open decision: what the table asks it, since when, and whether the server
    answers for it."""

    kind: DecisionKind
    #: when it was asked (ms; kept while the engine's id is unchanged, moved on by a pause)
    since: int
    #: the engine's id of the decision (``table.decisions``): an answer carries it as its
    #: ``seq``
    id: int
    #: the seat is not asked: the server passes for it (a player in a claim window with no
    #: other legal answer, or one who said "no claims" and cannot win; a seat a bot plays)
    auto: bool
    #: the action the server answers with, by the player's own setting (``auto_win``'s
    #: win, ``auto_discard``'s only discard)
    act: NotRequired[GameJSON]


class Options(TypedDict):
    """The room's settings for its games (``server/room/options.py``: defaults and checks;
    docs/protocol.md, ``create_room``)."""

    #: "one_round", "two_rounds", "four_rounds" or "hands" (with ``hands``)
    length: str
    hands: int | None
    #: 0: no timer
    turn_seconds: int
    claim_seconds: int
    stakes: int
    public: bool
    hand_pause_ms: int
    #: None: the server's default
    bot_delay_ms: int | None
    window_ms: int | None
    #: the table's house rules (docs/table.md) and the rule set's settlement options (its
    #: rules doc), as the host gave them; the table checks them
    house_rules: JsonObject | None
    settlement: JsonObject | None


class RoomHead(TypedDict):
    """What a room is, the same in its state and in its public record (:class:`Lobby`)."""

    id: str
    #: the code friends join with (``rooms.new_code``)
    code: str
    ruleset: str
    options: Options
    #: the host's player id
    host: str
    status: Status
    #: how many games the room has started
    game_no: int
    #: the archive's id of the game in play (or the last one)
    game_id: NotRequired[str]


class RoomState(RoomHead):
    """A room: its lobby, members and seats, its options, the game in play and each seat's
    open decision."""

    #: when the room was created (ms)
    created: int
    #: four seats, None where nobody sits
    seats: list[Seat | None]
    #: player id -> name, for everyone in the room (seated or watching)
    members: dict[str, str]
    #: the table's state (``table.GameState.to_json``); None before the first game
    game: GameJSON | None
    #: seat -> its open decision (the engine's: ``table.decisions``), one per seat asked
    pending: dict[str, Pending]
    #: when the next hand is dealt by itself (ms); None: not waiting for one
    next_hand_at: int | None
    #: the summary of the room's last finished game (one at most: ``game.summary``)
    history: list[GameJSON]
    #: who paused the game, or None
    pause: NotRequired[Pause | None]
    #: the players the host removed, for the room's whole life
    kicked: NotRequired[list[str]]
    #: spectator -> when their last connection closed (ms), during a game
    spectators_away: NotRequired[dict[str, int]]
    #: the recorded randomness of the claim windows' timing, per game (hex)
    window_seed: NotRequired[str]


class LobbySeat(TypedDict):
    """A seat as the lobby shows it to everyone (``lobby.public_lobby``)."""

    player: str | None
    name: str
    bot: bool
    ready: bool
    #: the seated player has no connection
    away: bool
    auto: bool


class Spectator(TypedDict):
    player: str
    name: str


class Lobby(RoomHead):
    """A room's public record, the same for every member (docs/protocol.md, ``lobby``)."""

    seats: list[LobbySeat | None]
    spectators: list[Spectator]
    paused: Pause | None


class Clock(TypedDict):
    """A countdown everyone may see (``clocks`` on the wire): a seat's turn, or an away
    seat's grace until a bot plays it."""

    seat: int
    kind: str
    at: int


class Entry(TypedDict):
    """A room's log entry: what one commit changed (``facts.build_entry``), kept in the
    room's log (``server/storage/store.py``) and the source of every frame its connections
    are sent (``server/room/frames.py``)."""

    #: when it was committed (ms)
    t: int
    #: the change (``Change.kind``: "play", "tick", "join", ...)
    kind: str
    #: who made it (None: the server itself)
    actor: str | None
    #: the table actions applied, in order (the replay log)
    actions: NotRequired[list[GameJSON]]
    #: the table events, unredacted (each seat is sent its own view of them)
    events: NotRequired[list[GameJSON]]
    lobby: NotRequired[Lobby]
    chat: NotRequired[JsonObject]
    notice: NotRequired[JsonObject]
    #: while a game is played: it is, each pending seat's legal actions and deadline (ms),
    #: and the public clocks
    playing: NotRequired[bool]
    legal: NotRequired[dict[str, list[GameJSON]]]
    deadlines: NotRequired[dict[str, int]]
    clocks: NotRequired[list[Clock]]
    #: the client sequence number of the request that made it (idempotency: the commit's)
    cseq: NotRequired[int]
