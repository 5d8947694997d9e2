"""Every event the table emits, as a typed, frozen definition.

The engine builds one of these for each thing that happens (``_W.emit``); its JSON form is
:func:`table.wire.to_wire` of it. Which seat may see what is part of the definition: a field
marked ``Secret`` is seen only by the event's owner (the seat in its ``seat`` field),
``PRIVATE`` events only by their owner at all (answers in a claim window). ``table.views``
applies exactly these rules; the schema and docs/protocol.md are generated from these
classes (``python -m protocol.schema``).

The nested shapes a winning hand carries (the scored hand and its breakdown) are the
scoring engine's JSON (``Hand.to_json``, ``ScoreResult.to_json``); they are described here
for the schema.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal

from table.wire import (
    Doc,
    MaxLen,
    Omit,
    Open,
    Range,
    Seat,
    Secret,
    Shape,
    TileCode,
    Wind,
    WireName,
)

__all__ = ["EVENT_CLASSES", "EVENT_TYPES", "AnswerKind", "ClaimKind", "EventData"]

ClaimKind = Literal["chow", "pung", "kong"]
AnswerKind = Literal["pass", "chow", "pung", "kong", "win"]


@dataclass(frozen=True, slots=True, kw_only=True)
class EventData:
    """The base of every event definition."""

    TYPE: ClassVar[str] = ""
    DOC: ClassVar[str] = ""
    #: the whole event is seen only by its owner
    PRIVATE: ClassVar[bool] = False
    #: the names of the fields only the owner sees (from the ``Secret`` markers)
    SECRET: ClassVar[tuple[str, ...]] = ()

    def owner(self) -> int | None:
        """The seat that owns the event (sees its secret fields), or None."""
        return getattr(self, "seat", None) if (self.SECRET or self.PRIVATE) else None

    def secret(self) -> tuple[str, ...]:
        return self.SECRET


# -- nested shapes ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class MeldJSON:
    """A meld: ``from`` is where the claimed tile came from, relative to the melder."""

    kind: Literal["chow", "pung", "kong"]
    tiles: list[TileCode]
    concealed: Annotated[bool | None, Omit, Doc("a concealed kong")] = None
    added: Annotated[bool | None, Omit, Doc("a kong added to an exposed pung")] = None
    claimed: Annotated[TileCode | None, Omit, Doc("the claimed tile")] = None
    from_: Annotated[
        Literal["left", "opposite", "right"] | None,
        Omit,
        WireName("from"),
        Doc("whose discard: left (the previous seat), opposite or right"),
    ] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class WinFlagsJSON:
    self_drawn: bool
    last_tile: bool
    kong_replacement: bool
    robbing_kong: bool
    fourth_tile: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class WinContextJSON:
    """The typed win context (``scoring.context.WinContext``): every field by its name, and
    ``first_turn`` summing up ``heaven`` / ``earth`` / ``human``. docs/architecture.md."""

    seat: Annotated[Seat | None, Doc("the winner's seat")]
    dealer: Annotated[bool, Doc("the winner is the dealer")]
    dealer_seat: Seat | None
    streak: Annotated[int, Range(0, None), Doc("the dealer's run (連n)")]
    discarder: Annotated[Seat | None, Doc("who discarded (or was robbed)")]
    discarder_is_dealer: bool
    ting: Annotated[bool, Doc("the winner had declared 叮")]
    ting_timing: Literal["normal", "heaven", "earth"] | None
    ting_concealed: bool
    ting_instant: Annotated[bool, Doc("即食: the win comes at once after the 叮")]
    tiles_left: Annotated[int, Range(0, None)] | None
    tiles_seen: Annotated[int | None, Doc("tiles discarded before the win")]
    replacements: Annotated[
        list[Literal["flower", "kong"]] | None, Doc("replacement draws before a self-draw")
    ]
    chain: Annotated[
        list[Literal["kong-discard", "added-kong", "concealed-kong", "flower"]] | None,
        Omit,
        Doc("the same chain by cause (包 is decided from it); absent: not given"),
    ] = None
    robbing_kong: bool
    kong_discarder: Annotated[
        Seat | None, Doc("包: the discarder of the kong that started the chain")
    ]
    heaven: Annotated[bool, Doc("the dealer wins with its dealt hand")]
    earth: Annotated[bool, Doc("a non-dealer wins on the dealer's first discard")]
    human: Annotated[bool, Doc("a non-dealer self-draws on its first draw")]
    winners: Annotated[int, Range(1, 3)]
    flower_win: Annotated[str | None, Doc("an instant flower win, as the rule set names it")]
    flower_loser: Seat | None
    flowers_others: Annotated[list[int], Doc("the others' flowers, in turn order")]
    ting_others: Annotated[int, Range(0, 3)]
    heaven_earth_ting_others: Annotated[int, Range(0, 3)]
    hand_number: int | None
    fanxue: Annotated[int, Range(0, None), Doc("反雪 owed to the winner")]
    fanxue_payers: list[Seat] | None
    juejue: Annotated[int, Range(1, None), Doc("絕絕 n")]
    first_turn: Literal["heaven", "earth", "human"] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoredHandJSON:
    """The winning hand as the scoring engine took it (the input of ``mahjong-score``)."""

    ruleset: str
    concealed: list[TileCode]
    melds: list[MeldJSON]
    flowers: list[TileCode]
    win_tile: TileCode
    win: WinFlagsJSON
    seat_wind: Wind
    round_wind: Wind
    context: Annotated[
        WinContextJSON | None,
        Omit,
        Doc("the win's context (dealer, 叮, timing, …): docs/architecture.md"),
    ] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreItemJSON:
    id: str
    name: Annotated[str, Doc("the pattern's Chinese name")]
    en: Annotated[str, Doc("its English gloss")]
    points: Annotated[int, Doc("the value of one")]
    count: int
    house: Annotated[
        bool | None, Omit, Doc("true: the room's value (house_rules.patterns), not the table's")
    ] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BlockJSON:
    kind: Literal["chow", "pung", "kong", "pair", "knitted", "single"]
    tiles: list[TileCode]
    concealed: bool
    melded: Annotated[bool | None, Omit, Doc("a declared meld")] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ArrangementJSON:
    shape: str
    blocks: list[BlockJSON]
    win_block: Annotated[
        int | None, Doc("the block the winning tile completed; null: a special shape")
    ]
    wait: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreJSON:
    """The scoring engine's breakdown of a win."""

    ruleset: str
    total: int
    minimum_met: bool
    error: None
    items: list[ScoreItemJSON]
    arrangement: ArrangementJSON
    waits: list[TileCode]
    extras: Annotated[dict[str, Any] | None, Omit, Open] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PartJSON:
    """One term of a payment's arithmetic (``scoring.engine.Part``): ``value`` × ``times``."""

    kind: Annotated[
        str,
        Doc(
            "base (底), points (the hand's value in the rule set's unit), dealer (莊), "
            "streak (連n拉n), fanxue (反雪)"
        ),
    ]
    value: int
    times: Annotated[int | None, Omit, Doc("absent: 1 (e.g. per_fan, unit)")] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PaymentJSON:
    """A ledger line: ``payer`` pays ``payee`` ``amount`` for ``reason`` in hand ``hand``."""

    hand: int
    payer: Seat
    payee: Seat
    amount: int
    reason: str
    parts: Annotated[
        list[PartJSON] | None,
        Omit,
        Doc(
            "hand_won only: the settlement's arithmetic, amount = ⌈Σ value × times / share⌉ "
            "(absent: the rule set gives none)"
        ),
    ] = None
    share: Annotated[
        int | None, Omit, Doc("with parts: the sum is split this many ways, rounded up")
    ] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class WinnerJSON:
    seat: Seat
    hand: Annotated[dict[str, Any], Shape(ScoredHandJSON)]
    score: Annotated[dict[str, Any], Shape(ScoreJSON)]
    payments: Annotated[list[dict[str, Any]], Shape(PaymentJSON)]


# -- the events ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class HandStarted(EventData):
    TYPE = "hand_started"
    DOC = "a hand is dealt (first of the deal's events)"
    hand: Annotated[int, Doc("the hand's number in the game, from 0")]
    round_wind: Wind
    dealer: Seat
    streak: Annotated[int, Doc("the dealer's consecutive deals beyond the first")]
    seat_winds: list[Wind]
    commitment: Annotated[str, Doc("SHA-256 (hex) of the salt and the wall: section 6")]
    dice: list[int]
    tiles: Annotated[int, Doc("tiles in the wall before the deal")]


@dataclass(frozen=True, slots=True, kw_only=True)
class Dealt(EventData):
    TYPE = "dealt"
    DOC = "one per seat at the deal"
    SECRET = ("tiles",)
    seat: Seat
    count: int
    tiles: Annotated[list[TileCode], Secret, Omit] = field(default_factory=list)


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw(EventData):
    TYPE = "draw"
    DOC = "a seat draws (also the replacement draws for flowers and kongs)"
    SECRET = ("tile",)
    seat: Seat
    replacement: Annotated[bool, Doc("from the tail: for a flower or a kong")]
    wall_left: Annotated[int, Doc("tiles still drawable normally")]
    tile: Annotated[TileCode | None, Secret, Omit] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Flower(EventData):
    TYPE = "flower"
    DOC = "a flower is exposed (a replacement draw follows)"
    seat: Seat
    tile: TileCode


@dataclass(frozen=True, slots=True, kw_only=True)
class Discard(EventData):
    TYPE = "discard"
    DOC = "a discard (opens a claim window)"
    seat: Seat
    tile: TileCode
    auto: Annotated[bool, Doc("discarded by the server: a timeout, or after 叮")]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ting(EventData):
    TYPE = "ting"
    DOC = "叮 declared with the discard just before it (same seat and tile)"
    seat: Seat
    tile: TileCode
    kind: Literal["heaven", "earth", "normal"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Answered(EventData):
    TYPE = "answered"
    DOC = "your own answer in a claim or robbing window (sent to you only)"
    PRIVATE = True
    SECRET = ("answer",)
    seat: Seat
    answer: Annotated[AnswerKind, Secret]


@dataclass(frozen=True, slots=True, kw_only=True)
class Claimed(EventData):
    TYPE = "claimed"
    DOC = "a chow, pung or kong on a discard is executed"
    seat: Seat
    claim: ClaimKind
    from_: Annotated[Seat, WireName("from"), Doc("the discarder")]
    meld: Annotated[dict[str, Any], Shape(MeldJSON)]


@dataclass(frozen=True, slots=True, kw_only=True)
class KongDeclared(EventData):
    TYPE = "kong_declared"
    DOC = "an added kong is declared and may be robbed (a robbing window opens)"
    seat: Seat
    tile: TileCode
    added: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Kong(EventData):
    TYPE = "kong"
    DOC = "a concealed kong (its tile hidden from the others) or a completed added kong"
    seat: Seat
    concealed: Annotated[bool | None, Omit] = None
    tile: Annotated[
        TileCode | None, Omit, Secret, Doc("only the owner sees it, for a concealed kong")
    ] = None
    added: Annotated[bool | None, Omit] = None

    def owner(self) -> int | None:
        return self.seat if self.concealed else None

    def secret(self) -> tuple[str, ...]:
        return ("tile",) if self.concealed else ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Timeout(EventData):
    TYPE = "timeout"
    DOC = "the server acted for a seat whose time ran out (a claim window's: to that seat only)"
    seat: Seat
    default: Literal["discard", "pass"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Payment(EventData):
    TYPE = "payment"
    DOC = "a ledger line"
    hand: int
    payer: Seat
    payee: Seat
    amount: int
    reason: Annotated[str, MaxLen(64), Doc("a pattern id, a settlement reason or an instant kind")]


@dataclass(frozen=True, slots=True, kw_only=True)
class Instant(EventData):
    TYPE = "instant"
    DOC = (
        "an instant payment or penalty the table detected (hk-tw16); its payments follow. "
        "Three forms, by kind: a seat's (below), three-ting-one-laugh, heaven-earth-slay"
    )
    kind: Literal[
        "wei-dice",
        "one-two-three",
        "one-flower-set",
        "one-grass",
        "chase",
        "self-chase",
        "hidden-kong-pay",
    ]
    seat: Seat
    tile: Annotated[TileCode | None, Omit, Doc("chase, self-chase: the tile")] = None
    heaven: Annotated[bool | None, Omit, Doc("hidden-kong-pay: before the first discard")] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class InstantLaugh(EventData):
    TYPE = "instant"
    DOC = "三叮一笑: the winner had not declared 叮 while the three others had"
    kind: Literal["three-ting-one-laugh"]
    winner: Seat
    ting_seats: list[Seat]


@dataclass(frozen=True, slots=True, kw_only=True)
class InstantSlay(EventData):
    TYPE = "instant"
    DOC = "天誅地滅: a win against a heavenly or earthly 叮"
    kind: Literal["heaven-earth-slay"]
    winner: Seat
    discarder: Annotated[Seat | None, Doc("null on a self-draw")]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandWon(EventData):
    TYPE = "hand_won"
    DOC = "a win, with each winner's scored hand, breakdown and payments"
    hand: int
    how: Literal["self_drawn", "discard", "robbing_kong", "flowers"]
    tile: TileCode
    discarder: Annotated[Seat | None, Doc("null on a self-draw")]
    winners: list[WinnerJSON]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandDrawn(EventData):
    TYPE = "hand_drawn"
    DOC = "the wall ran out"
    hand: int
    reason: Literal["wall"]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEnded(EventData):
    TYPE = "hand_ended"
    DOC = "end of every hand: everything revealed"
    hand: int
    result: Literal["win", "draw"]
    winners: list[Seat]
    commitment: str
    salt: Annotated[str, Doc("hex")]
    wall: list[TileCode]
    hands: Annotated[list[list[TileCode]], Doc("every seat's concealed tiles")]
    scores: list[int]
    concealed_kongs: Annotated[
        list[list[TileCode]] | None,
        Omit,
        Doc("every seat's concealed kongs, now shown: the tile of each, in meld order"),
    ] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class NextHand(EventData):
    TYPE = "next_hand"
    DOC = "the game goes on: who deals the next hand, and the seat winds from now on"
    hand: int
    dealer: Seat
    streak: int
    round_wind: Wind
    seat_winds: Annotated[
        list[Wind] | None, Omit, Doc("each seat's wind for the next hand (as in hand_started)")
    ] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameOver(EventData):
    TYPE = "game_over"
    DOC = (
        "the last hand ended (the room's game_over notice with the summary follows); the "
        "dealer, streak and winds stay as the last hand had them"
    )
    hands: int
    scores: list[int]


#: every event definition, in the order of the reference (three forms of ``instant``)
EVENT_CLASSES: tuple[type[EventData], ...] = (
    HandStarted,
    Dealt,
    Draw,
    Flower,
    Discard,
    Ting,
    Answered,
    Claimed,
    KongDeclared,
    Kong,
    Timeout,
    Payment,
    Instant,
    InstantLaugh,
    InstantSlay,
    HandWon,
    HandDrawn,
    HandEnded,
    NextHand,
    GameOver,
)

#: event type -> its definitions (one, or several forms)
EVENT_TYPES: dict[str, tuple[type[EventData], ...]] = {}
for _c in EVENT_CLASSES:
    EVENT_TYPES[_c.TYPE] = (*EVENT_TYPES.get(_c.TYPE, ()), _c)
