"""The state machine: ``apply(state, action) -> (new_state, events)``.

Pure: no clocks, no randomness (the wall seed and timeouts are inputs carried by actions), no
I/O. States are immutable; :func:`apply` works on a private mutable copy and returns a new
state, so an action that raises a :class:`~table.errors.TableError` changes nothing.

Sequence numbers: ``state.seq`` names the current decision point. Every action carries the
``seq`` it was made against; any other value is rejected as stale. ``seq`` advances after
every accepted action except the answers inside a claim / robbing window that leave the window
open, so the three seats prompted after a discard all answer against the same ``seq``.

Winning hands are judged and valued only by the shared scoring engine (``scoring``): the
table builds the full :class:`scoring.Hand` with its context and asks the rule set.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Literal, TypeVar, cast

import scoring
from scoring.context import WinContext
from scoring.decompose import Arrangement, Wait, is_standard_complete
from scoring.engine import Item, RuleSet, ScoreResult
from scoring.engine import Payment as ScorePayment
from scoring.errors import ScoringError
from scoring.hand import Hand, Meld, MeldKind, Relative, WinInfo
from scoring.settlement import (
    fanxue_owed,
    fanxue_record,
    instant_settler,
    multi_win_bonus,
    settle_hand,
)
from scoring.tiles import Tile
from scoring.tiles import Wind as ScoringWind
from table import events as E
from table.errors import (
    BadActionError,
    BadConfigError,
    ClaimNotAllowedError,
    GameOverError,
    IllegalActionError,
    NotAWinningHandError,
    NotWaitingForSeatError,
    NotYourTurnError,
    StaleSequenceError,
    TileNotInHandError,
    UnknownRulesetError,
    WrongPhaseError,
)
from table.model import (
    Action,
    ActionType,
    Claim,
    Event,
    GameConfig,
    GameState,
    HandState,
    Payment,
    Phase,
    SeatState,
)
from table.params import GameParams
from table.wall import Deal
from table.wire import Wind as WindCode
from table.wire import to_wire

__all__ = [
    "apply",
    "completes",
    "drawable",
    "get_scoring_ruleset",
    "new_game",
    "ready_discards",
    "tile_total",
    "win_check",
]

MIN_SEED_BYTES = 16


# -- scoring bridge ------------------------------------------------------------------------


@functools.cache
def get_scoring_ruleset(name: str, patterns: tuple[tuple[str, Any], ...] = ()) -> RuleSet[Any]:
    """The scoring rule set, with a room's pattern house rules (``house_rules.patterns``)."""
    if patterns:
        return _with_patterns(name, patterns)
    try:
        return scoring.get_ruleset(name)
    except ScoringError as e:
        raise UnknownRulesetError(str(e)) from None


@functools.lru_cache(maxsize=256)
def _with_patterns(name: str, patterns: tuple[tuple[str, Any], ...]) -> RuleSet[Any]:
    try:
        return scoring.get_ruleset(name).with_patterns(dict(patterns))
    except ScoringError as e:
        raise BadConfigError(str(e)) from None


@functools.lru_cache(maxsize=65536)
def _waits(name: str, counts: tuple[int, ...], n_melds: int) -> tuple[Tile, ...]:
    return tuple(get_scoring_ruleset(name).waits(counts, n_melds))


@functools.lru_cache(maxsize=32768)
def completes(name: str, concealed: tuple[Tile, ...], melds: tuple[Meld, ...], tile: Tile) -> bool:
    """Whether ``tile`` completes ``concealed`` (the hand *without* the win tile) with the
    declared ``melds`` under rule set ``name``: the rule set's ``is_complete``.

    Memoised (a pure function of immutable values; bounded): in a claim window the same
    question is asked for a seat's legal actions after every answer of the window and again
    when the seat answers (its win, or the 過水 check of its pass); the self-draw check asks
    it about the hand before the draw. (Asking for the whole set of winning tiles instead
    costs the special shapes' tests on all 34 kinds per hand: more than the few questions
    a hand is asked before it changes.)"""
    c = _counts(concealed)
    c[tile] += 1
    return get_scoring_ruleset(name).is_complete(c, len(melds), melds=melds)


def _without(tiles: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    """``tiles`` with one ``tile`` taken out (order kept)."""
    i = tiles.index(tile)
    return tiles[:i] + tiles[i + 1 :]


def _related(c: Sequence[int]) -> list[int]:
    """Tile kinds that could complete a standard shape with counts ``c``: the held kinds
    and their suit neighbours within two."""
    out: set[int] = set()
    for i in range(34):
        if c[i]:
            if i < 27:
                base = i - i % 9
                for d in (-2, -1, 0, 1, 2):
                    j = i + d
                    if base <= j < base + 9:
                        out.add(j)
            else:
                out.add(i)
    return sorted(out)


def _isolated(c: Sequence[int]) -> int:
    """Tiles with no other copy and no suit neighbour within two."""
    n = 0
    for i in range(34):
        if c[i] != 1:
            continue
        if i < 27:
            pos = i % 9
            if any(0 <= pos + d <= 8 and c[i + d] for d in (-2, -1, 1, 2)):
                continue
        n += 1
    return n


@functools.lru_cache(maxsize=65536)
def ready_discards(name: str, counts: tuple[int, ...], n_melds: int) -> tuple[Tile, ...]:
    """The discards that leave a ready hand (for 叮 and its legal actions).

    Same answer as asking the rule set's ``waits`` after each discard, computed faster:
    standard shapes can only be completed by a held kind or a suit neighbour, so only those
    are tried with the standard test; the rule set's special shapes are tried on all 34.
    """
    rs = get_scoring_ruleset(name)
    if sum(counts) + 3 * n_melds != rs.hand_size + 1:
        return ()
    c = list(counts)
    out: list[Tile] = []
    # In a ready standard hand every tile but a single-wait tile has a copy or a suit
    # neighbour within two; so with more than two isolated tiles no discard can work.
    candidates = _related(c) if _isolated(c) <= 2 else []
    for d in range(34):
        if not c[d]:
            continue
        c[d] -= 1
        found = False
        for t in candidates:
            if c[t] >= 4:
                continue
            c[t] += 1
            found = is_standard_complete(c)
            c[t] -= 1
            if found:
                break
        if not found and rs.shapes:
            for t in range(34):
                if c[t] >= 4:
                    continue
                c[t] += 1
                found = any(sh.complete(c, n_melds) for sh in rs.shapes)
                c[t] -= 1
                if found:
                    break
        c[d] += 1
        if found:
            out.append(Tile(d))
    return tuple(out)


def _counts(tiles: Sequence[Tile]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def _remove(tiles: tuple[Tile, ...], tile: Tile, n: int = 1) -> tuple[Tile, ...]:
    out = list(tiles)
    for _ in range(n):
        out.remove(tile)
    return tuple(out)


def _insert(tiles: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    return tuple(sorted((*tiles, tile)))


def drawable(hand: HandState, params: GameParams) -> int:
    """Tiles that can still be drawn normally (the exhaustive-draw point is 0)."""
    return max(0, hand.remaining - params.dead_wall)


def tile_total(hand: HandState) -> int:
    """Every tile accounted for: hands, melds, flowers, rivers and the wall (conservation)."""
    n = hand.remaining
    for s in hand.seats:
        n += len(s.concealed) + len(s.flowers) + len(s.discards)
        n += sum(len(m.tiles) for m in s.melds)
    return n


# -- the working copy ------------------------------------------------------------------------

_T = TypeVar("_T", HandState, SeatState)


# ``dataclasses.replace`` for the two value types the engine rebuilds on every action,
# written out: one constructor call with every field (the given one or the old one). Compiled,
# that is a native call reading native fields (a generated replacer setting each slot through
# its descriptor cost ~24 Python-level calls); neither has a ``__post_init__`` to run.
# tests/table/test_table_caches.py checks each field (any other key is ignored).
def _replace_hand(h: HandState, kw: dict[str, Any]) -> HandState:
    return HandState(
        kw.get("number", h.number),
        kw.get("wall", h.wall),
        kw.get("front", h.front),
        kw.get("back", h.back),
        kw.get("salt", h.salt),
        kw.get("commitment", h.commitment),
        kw.get("dice", h.dice),
        kw.get("seats", h.seats),
        kw.get("turn", h.turn),
        kw.get("discarder", h.discarder),
        kw.get("discard", h.discard),
        kw.get("pending", h.pending),
        kw.get("claims", h.claims),
        kw.get("chain", h.chain),
        kw.get("chain_kong_from", h.chain_kong_from),
        kw.get("interrupted", h.interrupted),
        kw.get("discards_made", h.discards_made),
        kw.get("chase", h.chase),
    )


def _replace_seat(s: SeatState, kw: dict[str, Any]) -> SeatState:
    return SeatState(
        kw.get("concealed", s.concealed),
        kw.get("melds", s.melds),
        kw.get("flowers", s.flowers),
        kw.get("discards", s.discards),
        kw.get("drawn", s.drawn),
        kw.get("draws", s.draws),
        kw.get("ting", s.ting),
        kw.get("ting_tile", s.ting_tile),
        kw.get("ting_kind", s.ting_kind),
        kw.get("ting_at", s.ting_at),
        kw.get("ting_concealed", s.ting_concealed),
        kw.get("missed_win", s.missed_win),
        kw.get("tsumogiri", s.tsumogiri),
        kw.get("sets_paid", s.sets_paid),
    )


_REPLACE: dict[type, Any] = {HandState: _replace_hand, SeatState: _replace_seat}


def _sr(obj: _T, **kw: Any) -> _T:
    return _fast_replace(obj, kw)


def _fast_replace(obj: _T, kw: dict[str, Any]) -> _T:
    """``dataclasses.replace`` for our frozen value types (the engine only sets fields to
    values of the right types; the names are not checked)."""
    return _REPLACE[type(obj)](obj, kw)  # type: ignore[no-any-return]


#: per event definition: whether it has an owner (``EventData.owner``: secret or private),
#: None when the class defines its own ``owner`` / ``secret`` (then they are called)
_OWNED: dict[type, bool | None] = {}


def _event(ev: E.EventData) -> Event:
    """The event of a definition: its JSON form, owner and secret fields."""
    cls = type(ev)
    owned = _OWNED[cls] if cls in _OWNED else _owned(cls)
    if owned is None:
        return Event(ev.TYPE, to_wire(ev), ev.owner(), ev.secret())
    owner: int | None = getattr(ev, "seat", None) if owned else None
    return Event(ev.TYPE, to_wire(ev), owner, ev.SECRET)


def _owned(cls: type) -> bool | None:
    base = E.EventData
    if getattr(cls, "owner", None) is not base.owner or getattr(cls, "secret", None) is not (
        base.secret
    ):
        out: bool | None = None
    else:
        out = bool(getattr(cls, "SECRET", ()) or getattr(cls, "PRIVATE", False))
    _OWNED[cls] = out
    return out


class _W:
    """Mutable working copy of a GameState used inside one apply()."""

    def __init__(self, st: GameState) -> None:
        self.st = st
        self.p = st.params
        self._rs: RuleSet[Any] | None = None
        self.seq = st.seq
        self.phase = st.phase
        self.dealer = st.dealer
        self.round_index = st.round_index
        self.hands_played = st.hands_played
        self.streak = st.streak
        self.scores = list(st.scores)
        self.ledger = st.ledger
        self.last_result = st.last_result
        self.h: HandState | None = st.hand
        #: fields :meth:`set` gave the hand and not yet built into ``h`` (built when the hand
        #: is read, or once at :meth:`freeze` with the seats: one new hand per action)
        self.hk: dict[str, Any] = {}
        self.seats: list[SeatState] = list(st.hand.seats) if st.hand else []
        self.events: list[Event] = []
        self.bump = True

    @property
    def rs(self) -> RuleSet[Any]:
        """The scoring rule set (looked up when first needed: most actions score nothing)."""
        rs = self._rs
        if rs is None:
            cfg = self.st.config
            rs = self._rs = get_scoring_ruleset(cfg.ruleset, cfg.patterns)
        return rs

    # hand helpers
    @property
    def hand(self) -> HandState:
        h = self.h
        if h is None:
            raise WrongPhaseError("no hand in play")
        if self.hk:
            h = self.h = _replace_hand(h, self.hk)
            self.hk = {}
        return h

    def set(self, **kw: Any) -> None:
        """Set fields of the hand (as ``dataclasses.replace``; built when next read)."""
        if self.h is None:
            raise WrongPhaseError("no hand in play")
        if self.hk:
            self.hk.update(kw)
        else:
            self.hk = kw

    def emit(self, ev: E.EventData) -> None:
        """Record an event (its JSON form, owner and secret fields from its definition)."""
        self.events.append(_event(ev))

    def pay(self, payer: int, payee: int, amount: int, reason: str) -> None:
        if amount == 0 or payer == payee:
            return
        p = Payment(self.hands_played, payer, payee, amount, reason)
        self.ledger = (*self.ledger, p)
        self.scores[payer] -= amount
        self.scores[payee] += amount
        self.emit(E.Payment(hand=p.hand, payer=payer, payee=payee, amount=amount, reason=reason))

    def _scores(self) -> tuple[int, int, int, int]:
        """The scores, as the state's own tuple when no payment changed them (so its JSON is
        shared with the state before's: ``GameState.to_json``)."""
        sc, old = self.scores, self.st.scores
        if sc[0] == old[0] and sc[1] == old[1] and sc[2] == old[2] and sc[3] == old[3]:
            return old
        return (sc[0], sc[1], sc[2], sc[3])

    def freeze(self) -> GameState:
        hand = self.h
        if hand is not None:
            kw = self.hk
            ws, hs = self.seats, hand.seats
            if ws[0] is not hs[0] or ws[1] is not hs[1] or ws[2] is not hs[2] or ws[3] is not hs[3]:
                kw = {**kw, "seats": (ws[0], ws[1], ws[2], ws[3])}
            if kw:
                hand = _replace_hand(hand, kw)
        return GameState(
            config=self.st.config,
            params=self.p,
            seq=self.seq + (1 if self.bump else 0),
            phase=self.phase,
            dealer=self.dealer,
            round_index=self.round_index,
            hands_played=self.hands_played,
            streak=self.streak,
            scores=self._scores(),
            ledger=self.ledger,
            hand=hand,
            last_result=self.last_result,
        )


# -- new game ------------------------------------------------------------------------------------


def new_game(config: GameConfig | str) -> GameState:
    """A new game waiting for its first ``start_hand``."""
    cfg = GameConfig(config) if isinstance(config, str) else config
    params = cfg.params()
    cfg.settlement_options()  # validate (BadConfigError)
    rs = get_scoring_ruleset(cfg.ruleset, cfg.patterns)
    if rs.hand_size != params.hand_size:
        raise UnknownRulesetError(
            f"rule set {cfg.ruleset!r}: scoring hand size {rs.hand_size} != table "
            f"parameters {params.hand_size}"
        )
    return GameState(
        config=cfg,
        params=params,
        seq=0,
        phase=Phase.BETWEEN_HANDS,
        dealer=cfg.first_dealer,
        round_index=0,
        hands_played=0,
        streak=0,
        scores=(0, 0, 0, 0),
        ledger=(),
        hand=None,
    )


# -- apply -----------------------------------------------------------------------------------


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply one action; return the new state and the events it caused.

    Raises a :class:`~table.errors.TableError` (and changes nothing) when the action is
    illegal.
    """
    if not isinstance(action, Action):
        raise BadActionError("not an Action")
    if state.phase is Phase.GAME_OVER:
        raise GameOverError("the game is over")
    if action.seq != state.seq:
        raise StaleSequenceError(
            f"action made against seq {action.seq}; the table is at seq {state.seq}"
        )
    if action.seat is not None and (
        isinstance(action.seat, bool) or action.seat not in (0, 1, 2, 3)
    ):
        raise BadActionError(f"seat must be 0-3, got {action.seat!r}")
    phase = state.phase
    t = action.type
    if (phase is Phase.CLAIM or phase is Phase.ROB) and (
        t is ActionType.PASS or t is ActionType.TIMEOUT
    ):
        quick = _pass_open(state, action)
        if quick is not None:
            return quick
    w = _W(state)
    if phase is Phase.BETWEEN_HANDS:
        if t is not ActionType.START_HAND:
            raise WrongPhaseError(f"{t.value}: no hand in play (waiting for start_hand)")
        _start_hand(w, action)
    elif t is ActionType.START_HAND:
        raise WrongPhaseError("start_hand: a hand is in play")
    elif phase is Phase.TURN:
        _turn_action(w, action)
    else:
        _answer(w, action)
    return w.freeze(), w.events


def _pass_open(state: GameState, a: Action) -> tuple[GameState, list[Event]] | None:
    """A pass (or a claim window's timeout) that leaves its window open, without the working
    copy: only the window's ``pending`` changes and ``seq`` stays. None when the answer is
    anything else -- the window closes, the seat is not asked, or the seat could win on the
    tile (then its pass sets 過水: the 過水 check is the scoring's) --: :func:`apply`'s
    general path then answers it (the same result as here, tests/table/test_table_caches.py)."""
    h = state.hand
    seat = a.seat
    if h is None or seat is None or seat not in h.pending:
        return None
    pending = tuple([x for x in h.pending if x != seat])
    if not pending:
        return None  # the window closes
    if state.params.missed_win:
        tile = h.discard
        if (
            tile is not None
            and h.discarder is not None
            and seat != h.discarder
            and completes(state.config.ruleset, h.seats[seat].concealed, h.seats[seat].melds, tile)
        ):
            return None  # it may be a win passed: 過水 (the general path's scoring decides)
    events: list[Event] = []
    if a.type is ActionType.TIMEOUT:
        events.append(_event(E.Timeout(seat=seat, default="pass")))
    events.append(_event(E.Answered(seat=seat, answer="pass")))
    hand = _replace_hand(h, {"pending": pending})
    new = GameState(
        config=state.config,
        params=state.params,
        seq=state.seq,
        phase=state.phase,
        dealer=state.dealer,
        round_index=state.round_index,
        hands_played=state.hands_played,
        streak=state.streak,
        scores=state.scores,
        ledger=state.ledger,
        hand=hand,
        last_result=state.last_result,
    )
    return new, events


# -- start of a hand -----------------------------------------------------------------------------


_WINDS: tuple[WindCode, ...] = ("we", "ws", "ww", "wn")


def _wind(w: ScoringWind) -> WindCode:
    """A scoring ``Wind`` as its wire code."""
    return _WINDS[w.index]


def _winner(
    seat: int, hand: Hand, res: ScoreResult, pays: list[Payment], found: list[ScorePayment]
) -> E.WinnerJSON:
    """A winner of ``hand_won``: each payment with the settlement's arithmetic (``parts``)."""
    return E.WinnerJSON(
        seat=seat,
        hand=hand.to_json(),
        score=res.to_json(),
        payments=[{**p.to_json(), **f.explained()} for p, f in zip(pays, found, strict=True)],
    )


def _start_hand(w: _W, a: Action) -> None:
    if a.seat is not None:
        raise NotYourTurnError("start_hand is a system action (seat must be null)")
    if a.seed is None or len(a.seed) < MIN_SEED_BYTES:
        raise BadActionError(f"start_hand needs a seed of at least {MIN_SEED_BYTES} bytes")
    p = w.p
    try:
        deal = Deal(a.seed, p.flowers, a.wall)
    except ValueError as e:
        raise BadActionError(str(e)) from None
    wall = deal.wall
    front = 0
    order = [(w.dealer + i) % 4 for i in range(4)]
    seats = [SeatState() for _ in range(4)]
    w.hk = {}
    w.h = HandState(
        number=w.hands_played,
        wall=wall,
        front=0,
        back=0,
        salt=deal.salt,
        commitment=deal.commitment,
        dice=deal.dice,
        seats=(seats[0], seats[1], seats[2], seats[3]),
        turn=w.dealer,
    )
    w.emit(
        E.HandStarted(
            hand=w.hands_played,
            round_wind=_wind(w.st.round_wind),
            dealer=w.dealer,
            streak=w.streak,
            seat_winds=[_wind(w.st.seat_wind(s)) for s in range(4)],
            commitment=deal.commitment,
            dice=list(deal.dice),
            tiles=len(wall),
        )
    )
    for s in order:
        n = p.hand_size + (1 if s == w.dealer else 0)
        tiles = wall[front : front + n]
        front += n
        seats[s] = SeatState(concealed=tuple(sorted(tiles)), drawn=tiles[-1])
        w.emit(E.Dealt(seat=s, count=n, tiles=[str(t) for t in tiles]))
    w.seats = seats
    w.set(front=front)
    if p.flowers:
        for s in order:
            flowers = [t for t in w.seats[s].concealed if t.is_flower]
            while flowers:
                for f in flowers:
                    w.seats[s] = _sr(
                        w.seats[s],
                        concealed=_remove(w.seats[s].concealed, f),
                        flowers=(*w.seats[s].flowers, f),
                    )
                    w.emit(E.Flower(seat=s, tile=str(f)))
                new: list[Tile] = []
                for _ in flowers:
                    t = _take_back(w)
                    new.append(t)
                    w.seats[s] = _sr(w.seats[s], concealed=_insert(w.seats[s].concealed, t))
                    w.emit(
                        E.Draw(
                            seat=s, replacement=True, wall_left=drawable(w.hand, w.p), tile=str(t)
                        )
                    )
                if s == w.dealer:
                    w.seats[s] = _sr(w.seats[s], drawn=new[-1])
                flowers = [t for t in new if t.is_flower]
        for s in order:
            _flower_sets(w, s)
    if p.instant:
        d = sorted(deal.dice)
        if d[0] == d[2]:
            _instant(w, E.Instant(kind="wei-dice", seat=w.dealer))
        elif d in ([1, 2, 3], [4, 5, 6]):
            _instant(w, E.Instant(kind="one-two-three", seat=w.dealer))
    for s in range(4):
        if s != w.dealer:
            w.seats[s] = _sr(w.seats[s], drawn=None)
    w.phase = Phase.TURN
    w.set(turn=w.dealer)


def _others(seat: int) -> list[int]:
    return [(seat + i) % 4 for i in (1, 2, 3)]


def _take_back(w: _W) -> Tile:
    h = w.hand
    t = h.wall[len(h.wall) - 1 - h.back]
    w.set(back=h.back + 1)
    return t


_FLOWER_SETS: tuple[tuple[Literal["one-flower-set", "one-grass"], range], ...] = (
    ("one-flower-set", range(34, 38)),
    ("one-grass", range(38, 42)),
)


def _flower_sets(w: _W, seat: int) -> None:
    """Instant payments for a complete set of seasons (一台花) or plants (一台草), each once;
    after 一台花 no 一台草 is collected (先花，不能再收草 — both at the deal: only 一台花)."""
    if not w.p.instant:
        return
    s = w.seats[seat]
    fl = set(s.flowers)
    for kind, group in _FLOWER_SETS:
        if kind in s.sets_paid or not all(Tile(i) in fl for i in group):
            continue
        if kind == "one-grass" and "one-flower-set" in s.sets_paid:
            continue
        w.seats[seat] = s = _sr(s, sets_paid=(*s.sets_paid, kind))
        _instant(w, E.Instant(kind=kind, seat=seat))


def _instant(w: _W, ev: E.Instant | E.InstantLaugh | E.InstantSlay) -> None:
    """An instant payment / automatic penalty (即收 / 即罰) the table detected: an
    ``instant`` event, valued and paid by the scoring rule set's ``instant_payments`` (the
    table never values anything itself; without it the event carries no payment)."""
    w.emit(ev)
    event = to_wire(ev)
    settler = instant_settler(w.rs)
    if settler is None:
        return
    # valued with the room's settlement options (per_fan), as mahjong-score values them
    for p in settler(event, len(w.seats), dict(w.st.config.settlement)):
        w.pay(p.payer, p.payee, p.amount, str(event["kind"]))


# -- drawing -------------------------------------------------------------------------------------


def _draw(w: _W, seat: int, replacement: bool) -> bool:
    """Draw for ``seat`` (flowers replaced automatically). False if the hand ended drawn."""
    h = w.hand
    turn = {"turn": seat, "discard": None, "discarder": None, "pending": (), "claims": ()}
    if replacement:
        if h.remaining <= 0:
            _exhaustive(w)
            return False
        tile = h.wall[len(h.wall) - 1 - h.back]
        w.set(back=h.back + 1, **turn)
    else:
        if h.remaining <= w.p.dead_wall:
            _exhaustive(w)
            return False
        tile = h.wall[h.front]
        w.set(front=h.front + 1, chain=(), chain_kong_from=None, **turn)
        s0 = w.seats[seat]
        w.seats[seat] = _sr(s0, draws=s0.draws + 1, missed_win=False)
    w.phase = Phase.TURN
    left = h.remaining - 1  # (the tiles left after this draw: the hand is built at the end)
    while True:
        s = w.seats[seat]
        w.seats[seat] = _sr(s, concealed=_insert(s.concealed, tile), drawn=tile)
        w.emit(
            E.Draw(
                seat=seat,
                replacement=replacement,
                wall_left=max(0, left - w.p.dead_wall),
                tile=str(tile),
            )
        )
        if not tile.is_flower:
            return True
        s = w.seats[seat]
        w.seats[seat] = _sr(
            s, concealed=_remove(s.concealed, tile), flowers=(*s.flowers, tile), drawn=None
        )
        w.emit(E.Flower(seat=seat, tile=str(tile)))
        w.set(chain=(*w.hand.chain, "flower"))
        _flower_sets(w, seat)
        if w.hand.remaining <= 0:
            _exhaustive(w)
            return False
        tile = _take_back(w)
        left = w.hand.remaining
        replacement = True


def _after_draw(w: _W, seat: int) -> None:
    """After 叮 the hand is fixed: a drawn tile that cannot win is discarded at once."""
    s = w.seats[seat]
    if w.phase is Phase.TURN and s.ting and s.drawn is not None and self_win_kind(w, seat) is None:
        _discard(w, seat, s.drawn, ting=False, auto=True)


def _exhaustive(w: _W) -> None:
    w.emit(E.HandDrawn(hand=w.hands_played, reason="wall"))
    _end_hand(w, winners=[])


# -- turn actions ------------------------------------------------------------------------------


def _turn_action(w: _W, a: Action) -> None:
    h = w.hand
    t = a.type
    if a.seat != h.turn:
        if t in (ActionType.PASS, ActionType.PUNG, ActionType.CHOW, ActionType.KONG):
            raise WrongPhaseError(f"{t.value}: there is no discard to claim")
        raise NotYourTurnError(f"it is seat {h.turn}'s turn")
    seat = h.turn
    s = w.seats[seat]
    if t is ActionType.TIMEOUT:
        tile = s.drawn if s.drawn is not None else s.concealed[-1]
        w.emit(E.Timeout(seat=seat, default="discard"))
        _discard(w, seat, tile, ting=False, auto=True)
    elif t in (ActionType.DISCARD, ActionType.TING):
        if a.tile is None:
            raise BadActionError(f"{t.value} needs a tile")
        _discard(w, seat, a.tile, ting=t is ActionType.TING, auto=False)
    elif t is ActionType.CONCEALED_KONG:
        _concealed_kong(w, seat, a.tile)
    elif t is ActionType.ADDED_KONG:
        _added_kong(w, seat, a.tile)
    elif t is ActionType.WIN:
        kind = self_win_kind(w, seat)
        if kind is None:
            raise NotAWinningHandError(_why_not_self_win(w, seat))
        _finish_self_win(w, seat, kind)
    else:
        raise WrongPhaseError(f"{t.value}: there is no discard to claim")


def _discard(w: _W, seat: int, tile: Tile, ting: bool, auto: bool) -> None:
    s = w.seats[seat]
    if tile.is_flower or tile not in s.concealed:
        raise TileNotInHandError(f"seat {seat} holds no {tile}")
    if s.ting and tile != s.drawn:
        raise IllegalActionError("after 叮 the hand is fixed: only the drawn tile may go")
    concealed = _remove(s.concealed, tile)
    p = w.p
    h = w.hand
    ting_fields: dict[str, Any] = {}
    if ting:
        if not p.ting:
            raise IllegalActionError(f"{p.ruleset} has no 叮")
        if s.ting:
            raise IllegalActionError("叮 already declared")
        if not _waits(p.ruleset, tuple(_counts(concealed)), len(s.melds)):
            raise IllegalActionError(f"discarding {tile} does not leave a ready hand")
        if seat == w.dealer and s.draws == 0 and not h.interrupted:
            kind = "heaven"
        elif seat != w.dealer and s.draws == 1 and not h.interrupted and not s.melds:
            kind = "earth"
        else:
            kind = "normal"
        ting_fields = {
            "ting": True,
            "ting_tile": tile,
            "ting_kind": kind,
            "ting_at": s.draws,
            "ting_concealed": all(m.concealed or m.is_kong for m in s.melds),
        }
    tsumogiri = s.tsumogiri
    if s.drawn is not None and tile == s.drawn:
        tsumogiri = (*tsumogiri, tile)
    w.seats[seat] = _sr(
        s,
        concealed=concealed,
        discards=(*s.discards, tile),
        drawn=None,
        tsumogiri=tsumogiri,
        **ting_fields,
    )
    w.emit(E.Discard(seat=seat, tile=str(tile), auto=auto))
    if ting:
        w.emit(E.Ting(seat=seat, tile=str(tile), kind=ting_fields["ting_kind"]))
    # 追 / 自追 (hk-tw16 automatic penalties)
    ct, cfirst, cn = h.chase
    if cn > 0 and ct == tile and seat == (cfirst + cn) % 4:
        chase = (int(tile), cfirst, cn + 1)
    else:
        chase = (int(tile), seat, 1)
    if p.instant:
        if chase[2] == 4:
            _instant(w, E.Instant(kind="chase", seat=chase[1], tile=str(tile)))
            chase = (-1, -1, 0)
        if tsumogiri.count(tile) == 4 and tsumogiri[-1] == tile and tile == s.drawn:
            _instant(w, E.Instant(kind="self-chase", seat=seat, tile=str(tile)))
    w.set(
        chase=chase,
        discards_made=h.discards_made + 1,
        discarder=seat,
        discard=tile,
        pending=tuple(_others(seat)),
        claims=(),
    )
    w.phase = Phase.CLAIM


def _concealed_kong(w: _W, seat: int, tile: Tile | None) -> None:
    s = w.seats[seat]
    if tile is None:
        raise BadActionError("concealed_kong needs a tile")
    if s.ting:
        raise IllegalActionError("no kong after 叮")
    if s.concealed.count(tile) < 4:
        raise TileNotInHandError(f"seat {seat} does not hold four {tile}")
    if w.hand.remaining <= 0:
        raise IllegalActionError("no tile left for the replacement draw")
    exposed = any(not m.concealed for m in s.melds)
    heaven = s.draws == 0 and not w.hand.interrupted
    w.seats[seat] = _sr(
        s,
        concealed=_remove(s.concealed, tile, 4),
        melds=(*s.melds, Meld.kong(tile, concealed=True)),
        drawn=None,
    )
    w.emit(E.Kong(seat=seat, concealed=True, tile=str(tile)))
    if w.p.instant and not exposed:
        _instant(w, E.Instant(kind="hidden-kong-pay", seat=seat, heaven=heaven))
    w.set(interrupted=True, chain=(*w.hand.chain, "kong"))
    if _draw(w, seat, replacement=True):
        _after_draw(w, seat)


def _added_kong(w: _W, seat: int, tile: Tile | None) -> None:
    s = w.seats[seat]
    if tile is None:
        raise BadActionError("added_kong needs a tile")
    if s.ting:
        raise IllegalActionError("no kong after 叮")
    if tile not in s.concealed:
        raise TileNotInHandError(f"seat {seat} holds no {tile}")
    if not any(m.kind is MeldKind.PUNG and m.first == tile and not m.concealed for m in s.melds):
        raise IllegalActionError(f"seat {seat} has no exposed pung of {tile}")
    if w.hand.remaining <= 0:
        raise IllegalActionError("no tile left for the replacement draw")
    if w.p.robbing_kong:
        w.emit(E.KongDeclared(seat=seat, tile=str(tile), added=True))
        w.set(discarder=seat, discard=tile, pending=tuple(_others(seat)), claims=())
        w.phase = Phase.ROB
        return
    _complete_added_kong(w, seat, tile)


def _complete_added_kong(w: _W, seat: int, tile: Tile) -> None:
    s = w.seats[seat]
    melds = list(s.melds)
    for i, m in enumerate(melds):
        if m.kind is MeldKind.PUNG and m.first == tile and not m.concealed:
            melds[i] = Meld.kong(tile, added=True, claimed=m.claimed, source=m.source)
            break
    w.seats[seat] = _sr(s, concealed=_remove(s.concealed, tile), melds=tuple(melds), drawn=None)
    w.emit(E.Kong(seat=seat, tile=str(tile), added=True))
    w.set(
        interrupted=True,
        chain=(*w.hand.chain, "kong"),
        discard=None,
        discarder=None,
        pending=(),
        claims=(),
    )
    if _draw(w, seat, replacement=True):
        _after_draw(w, seat)


# -- claim / robbing windows -------------------------------------------------------------------


def _answer(w: _W, a: Action) -> None:
    h = w.hand
    seat = a.seat
    if seat is None or seat not in h.pending:
        if seat is not None and seat == h.discarder:
            raise NotYourTurnError("the claim window is for the other seats")
        raise NotWaitingForSeatError(f"no answer pending from seat {seat}")
    t = a.type
    robbing = w.phase is Phase.ROB
    claim: Claim | None = None
    if t is ActionType.TIMEOUT or t is ActionType.PASS:
        if w.p.missed_win and _discard_win_error(w, seat) is None:
            w.seats[seat] = _sr(w.seats[seat], missed_win=True)
        if t is ActionType.TIMEOUT:
            w.emit(E.Timeout(seat=seat, default="pass"))
    elif t is ActionType.WIN:
        err = _discard_win_error(w, seat)
        if err is not None:
            raise NotAWinningHandError(err)
        claim = Claim(seat, t)
    elif robbing:
        raise ClaimNotAllowedError(f"{t.value}: only win or pass while a kong may be robbed")
    elif t in (ActionType.PUNG, ActionType.KONG, ActionType.CHOW):
        _check_claim(w, seat, t, a.tile)
        claim = Claim(seat, t, a.tile if t is ActionType.CHOW else None)
    else:
        raise WrongPhaseError(f"{t.value}: answer the claim window with a claim, win or pass")
    pending = tuple([x for x in h.pending if x != seat])
    claims = (*h.claims, claim) if claim else h.claims
    w.emit(E.Answered(seat=seat, answer=cast(E.AnswerKind, claim.type.value if claim else "pass")))
    if pending:
        w.set(pending=pending, claims=claims)
        w.bump = False
        return
    # the window closes: every way of closing it sets the hand's pending and claims to ()
    if robbing:
        _resolve_rob(w, claims)
    else:
        _resolve_claims(w, claims)


def _check_claim(w: _W, seat: int, t: ActionType, first: Tile | None) -> None:
    h = w.hand
    s = w.seats[seat]
    tile = h.discard
    assert tile is not None and h.discarder is not None  # a claim window has a discard
    if s.ting:
        raise ClaimNotAllowedError("after 叮 only a win may be claimed")
    if t is ActionType.PUNG:
        if s.concealed.count(tile) < 2:
            raise TileNotInHandError(f"pung needs two {tile} in hand")
    elif t is ActionType.KONG:
        if s.concealed.count(tile) < 3:
            raise TileNotInHandError(f"kong needs three {tile} in hand")
        if h.remaining <= 0:
            raise ClaimNotAllowedError("no tile left for the replacement draw")
    else:
        if not w.p.chow:
            raise ClaimNotAllowedError(f"{w.p.ruleset} has no chow")
        if seat != (h.discarder + 1) % 4:
            raise ClaimNotAllowedError("a chow may only be claimed from the previous player")
        if first is None:
            raise BadActionError("chow needs the lowest tile of the chow")
        tiles = _chow_tiles(first)
        if tiles is None or tile not in tiles:
            raise ClaimNotAllowedError(f"no chow from {first} uses {tile}")
        need = list(tiles)
        need.remove(tile)
        for x in need:
            if x not in s.concealed:
                raise TileNotInHandError(f"chow needs {x} in hand")


def _chow_tiles(first: Tile) -> tuple[Tile, Tile, Tile] | None:
    b, c = first.shifted(1), first.shifted(2)
    if b is None or c is None:
        return None
    return (first, b, c)


def _turn_order_from(seat: int) -> list[int]:
    return _others(seat)


def _resolve_claims(w: _W, claims: tuple[Claim, ...]) -> None:
    """Close a claim window with its ``claims``."""
    h = w.hand
    assert h.discarder is not None and h.discard is not None
    order = _turn_order_from(h.discarder)
    by_seat = {c.seat: c for c in claims}
    wins = [s for s in order if s in by_seat and by_seat[s].type is ActionType.WIN]
    if wins:
        _finish_discard_win(w, wins[: w.p.max_winners], robbing=False)
        return
    chosen: Claim | None = None
    for s in order:
        c = by_seat.get(s)
        if c is not None and c.type in (ActionType.PUNG, ActionType.KONG):
            chosen = c
            break
    if chosen is None:
        for s in order:
            c = by_seat.get(s)
            if c is not None and c.type is ActionType.CHOW:
                chosen = c
                break
    if chosen is None:
        nxt = (h.discarder + 1) % 4
        if _draw(w, nxt, replacement=False):
            _after_draw(w, nxt)
        return
    _execute_claim(w, chosen)


def _execute_claim(w: _W, c: Claim) -> None:
    h = w.hand
    tile, discarder = h.discard, h.discarder
    assert tile is not None and discarder is not None
    ds = w.seats[discarder]
    w.seats[discarder] = _sr(ds, discards=ds.discards[:-1])
    s = w.seats[c.seat]
    src = Relative.between(c.seat, discarder)
    if c.type is ActionType.CHOW:
        assert c.tile is not None
        tiles = _chow_tiles(c.tile)
        assert tiles is not None
        concealed = s.concealed
        for x in tiles:
            if x != tile:
                concealed = _remove(concealed, x)
        meld = Meld.chow(c.tile, claimed=tile, source=src)
    elif c.type is ActionType.PUNG:
        concealed = _remove(s.concealed, tile, 2)
        meld = Meld.pung(tile, claimed=tile, source=src)
    else:
        concealed = _remove(s.concealed, tile, 3)
        meld = Meld.kong(tile, claimed=tile, source=src)
    w.seats[c.seat] = _sr(s, concealed=concealed, melds=(*s.melds, meld), drawn=None)
    w.emit(
        E.Claimed(
            seat=c.seat,
            claim=cast(E.ClaimKind, c.type.value),
            from_=discarder,
            meld=meld.to_json(),
        )
    )
    w.phase = Phase.TURN
    w.set(
        turn=c.seat,
        discard=None,
        discarder=None,
        pending=(),
        claims=(),
        interrupted=True,
        chase=(-1, -1, 0),
        chain=(),
        chain_kong_from=None,
    )
    if c.type is ActionType.KONG:
        w.set(chain=("kong",), chain_kong_from=discarder)
        if _draw(w, c.seat, replacement=True):
            _after_draw(w, c.seat)


def _resolve_rob(w: _W, claims: tuple[Claim, ...]) -> None:
    """Close a robbing window with its ``claims`` (wins)."""
    h = w.hand
    assert h.discarder is not None and h.discard is not None
    wins = [s for s in _turn_order_from(h.discarder) if any(c.seat == s for c in claims)]
    if wins:
        _finish_discard_win(w, wins[: w.p.max_winners], robbing=True)
        return
    _complete_added_kong(w, h.discarder, h.discard)


# -- wins ------------------------------------------------------------------------------------


def _visible(w: _W, tile: Tile) -> int:
    n = 0
    for s in w.seats:
        n += s.discards.count(tile)
        for m in s.melds:
            if not m.concealed:
                n += m.tiles.count(tile)
    return n


def _build_hand(
    w: _W,
    seat: int,
    win_tile: Tile,
    *,
    self_drawn: bool,
    discarder: int | None,
    robbing: bool = False,
    winners: int = 1,
    flower_win: str | None = None,
    flower_loser: int | None = None,
) -> Hand:
    h = w.hand
    s = w.seats[seat]
    in_hand = self_drawn or flower_win is not None  # the win tile is among the concealed
    concealed = _remove(s.concealed, win_tile) if in_hand else s.concealed
    left = drawable(h, w.p)
    if self_drawn:
        last = left == 0
        visible = _visible(w, win_tile)
    else:
        last = left == 0 and not robbing
        visible = _visible(w, win_tile) - (0 if robbing else 1)
    dealer = w.dealer
    first_turn: str | None = None
    if not h.interrupted:
        if self_drawn and seat == dealer and s.draws == 0:
            first_turn = "heaven"  # 天胡: the dealer wins with its dealt hand
        elif self_drawn and seat != dealer and s.draws == 1:
            first_turn = "human"  # 人胡: a non-dealer self-draws on its first draw
        elif not self_drawn and not robbing and discarder == dealer and h.discards_made == 1:
            first_turn = "earth"  # 地胡: a non-dealer wins on the dealer's first discard
    instant = s.ting and (s.draws - s.ting_at) <= (1 if self_drawn else 0)
    kong_discarder = (
        h.chain_kong_from
        if self_drawn and w.p.kong_discarder_pays and h.chain_kong_from is not None
        else None
    )
    fw_value = dict(w.p.flower_win_ids).get(flower_win) if flower_win else None
    fanxue, fanxue_payers = 0, None
    if self_drawn and w.p.fanxue:
        owed = fanxue_owed(w.last_result, seat)
        if owed is not None:
            fanxue, payers = owed
            fanxue_payers = tuple(payers)
    others = _others(seat)
    ctx = WinContext(
        seat=seat,
        dealer=seat == dealer,
        dealer_seat=dealer,
        streak=w.streak,
        discarder=discarder,
        discarder_is_dealer=discarder == dealer if discarder is not None else False,
        ting=s.ting,
        ting_timing=s.ting_kind if s.ting else None,
        ting_concealed=s.ting_concealed,
        ting_instant=instant,
        tiles_left=left,
        tiles_seen=h.discards_made - (0 if self_drawn or robbing else 1),
        replacements=tuple(h.chain) if self_drawn else (),
        robbing_kong=robbing,
        kong_discarder=kong_discarder,
        heaven=first_turn == "heaven",
        earth=first_turn == "earth",
        human=first_turn == "human",
        winners=winners,
        flower_win=fw_value,
        flower_loser=flower_loser,
        flowers_others=tuple(len(w.seats[o].flowers) for o in others),
        ting_others=sum(1 for o in others if w.seats[o].ting),
        heaven_earth_ting_others=sum(
            1 for o in others if w.seats[o].ting_kind in ("heaven", "earth")
        ),
        hand_number=h.number,
        fanxue=fanxue,
        fanxue_payers=fanxue_payers,
    )
    flowers = s.flowers
    if flower_loser is not None and w.p.robbed_flowers_in_hand:
        flowers = flowers + w.seats[flower_loser].flowers  # the robbed flower(s): all eight
    return Hand(
        ruleset=w.p.ruleset,
        concealed=concealed,
        melds=s.melds,
        win_tile=win_tile,
        flowers=tuple(sorted(flowers)),
        win=WinInfo(
            self_drawn=self_drawn,
            last_tile=last,
            kong_replacement=self_drawn and "kong" in h.chain,
            robbing_kong=robbing,
            fourth_tile=visible >= 3,
        ),
        seat_wind=w.st.seat_wind(seat),
        round_wind=w.st.round_wind,
        context=ctx,
    )


def _score(w: _W, hand: Hand) -> ScoreResult | None:
    try:
        return w.rs.score(hand)
    except ScoringError:
        return None


def _flower_score(w: _W, hand: Hand, kind: str) -> ScoreResult | None:
    """Score a flower win. The scoring rule set is asked (with the ``flower_win`` context
    key); if it cannot value the tiles (a flower win needs no complete hand), the result is
    the rule set's own row for the flower win — its value from the scoring pattern table,
    nothing else counted (不再計牌型番數)."""
    res = _score(w, hand)
    if res is not None:
        return res
    pat = w.rs.by_id.get(str(hand.context.flower_win)) or w.rs.by_id.get(kind)
    if pat is None:
        return None
    item = Item(pat.id, pat.name, pat.en, pat.points, 1)
    return ScoreResult(
        ruleset=w.rs.name,
        total=item.total,
        minimum_met=True,
        items=(item,),
        arrangement=Arrangement("flowers", (), None, Wait.SPECIAL),
        waits=(),
        extras={"flower_win": kind},
    )


def _flower_win(w: _W, seat: int) -> tuple[str, int | None] | None:
    """The flower win open to ``seat`` now, and who pays as the loser (None: all)."""
    kinds = dict(w.p.flower_win_ids)
    fw = _flower_win_any(w, seat)
    if fw is None or fw[0] not in kinds:
        return None
    return fw


def _flower_win_any(w: _W, seat: int) -> tuple[str, int | None] | None:
    if not w.p.flower_wins:
        return None
    h = w.hand
    s = w.seats[seat]
    if "flower" not in h.chain:
        return None
    n = len(s.flowers)
    holders = {o: len(w.seats[o].flowers) for o in _others(seat)}
    if n == 8:
        return ("eight-flowers", None)
    if n == 7:
        for o, k in holders.items():
            if k == 1:
                return ("seven-robs-one", o)
        return ("seven-flowers", None)
    if n == 1:
        for o, k in holders.items():
            if k == 7:
                return ("one-robs-seven", o)
    return None


def self_win_kind(w: _W, seat: int) -> str | None:
    """'self' (a complete hand on the drawn tile), a flower-win id, or None."""
    h = w.hand
    if w.phase is not Phase.TURN or h.turn != seat:
        return None
    if _self_win_error(w, seat) is None:
        return "self"
    fw = _flower_win(w, seat)
    if fw is not None and _flower_result(w, seat, fw[0]) is not None:
        return fw[0]
    return None


def _flower_result(w: _W, seat: int, kind: str) -> tuple[Hand, ScoreResult] | None:
    s = w.seats[seat]
    fw = _flower_win(w, seat)
    loser = fw[1] if fw else None
    win_tile = s.drawn if s.drawn is not None else s.concealed[-1]
    # 七搶一 / 一搶七 are won on another player's flower(s), like a win on a discard
    hand = _build_hand(
        w,
        seat,
        win_tile,
        self_drawn=loser is None,
        discarder=loser,
        flower_win=kind,
        flower_loser=loser,
    )
    res = _flower_score(w, hand, kind)
    return None if res is None else (hand, res)


def may_self_win(state: GameState, seat: int) -> bool:
    """A cheap necessary condition for ``self_win_kind`` (of the turn seat ``seat``) not
    being None: a drawn tile that completes the hand (memoised), or flower wins in the rule
    set. False: no win, without the working copy or the scoring (the legal actions of a turn)."""
    if state.params.flower_wins:
        return True
    h = state.hand
    if h is None:
        return False
    s = h.seats[seat]
    tile = s.drawn
    return tile is not None and completes(
        state.config.ruleset, _without(s.concealed, tile), s.melds, tile
    )


def _self_win_error(w: _W, seat: int) -> str | None:
    s = w.seats[seat]
    tile = s.drawn
    if tile is None:
        return "no drawn tile to win on (after a claim, discard)"
    if s.ting and w.p.ting_tile_barred and tile == s.ting_tile:
        return f"no win on {tile}, the tile discarded with 叮"
    if not completes(w.st.config.ruleset, _without(s.concealed, tile), s.melds, tile):
        return "the hand is not complete"  # (the concealed tiles include the drawn one)
    res = _score(w, _build_hand(w, seat, tile, self_drawn=True, discarder=None))
    if res is None:
        return "the hand is not complete"
    if not res.minimum_met:
        return f"the hand scores {res.total}, under the minimum of {w.rs.minimum}"
    return None


def _why_not_self_win(w: _W, seat: int) -> str:
    return _self_win_error(w, seat) or "not a win"


def _discard_win_error(w: _W, seat: int) -> str | None:
    """Why ``seat`` may not win on the discard / kong tile under claim (None: it may)."""
    h = w.hand
    tile = h.discard
    if tile is None or h.discarder is None or seat == h.discarder:
        return "nothing to win on"
    s = w.seats[seat]
    if not completes(w.st.config.ruleset, s.concealed, s.melds, tile):
        return "the hand is not complete"
    if w.p.missed_win and s.missed_win:
        return "過水: you passed a win since your last draw"
    if s.ting and w.p.ting_tile_barred and tile == s.ting_tile:
        return f"no win on {tile}, the tile discarded with 叮"
    robbing = w.phase is Phase.ROB
    res = _score(
        w, _build_hand(w, seat, tile, self_drawn=False, discarder=h.discarder, robbing=robbing)
    )
    if res is None:
        return "the hand is not complete"
    if not res.minimum_met:
        return f"the hand scores {res.total}, under the minimum of {w.rs.minimum}"
    return None


def win_check(state: GameState, seat: int) -> bool:
    """Whether ``seat`` may declare a win now (self-draw, discard, robbing or flower win)."""
    if state.hand is None or state.phase in (Phase.BETWEEN_HANDS, Phase.GAME_OVER):
        return False
    w = _W(state)
    if state.phase is Phase.TURN:
        return self_win_kind(w, seat) is not None
    return seat in state.hand.pending and _discard_win_error(w, seat) is None


def _pay(w: _W, pays: list[ScorePayment]) -> list[Payment]:
    """Make the payments :func:`scoring.settlement.settle_hand` found for one winner."""
    out = []
    for p in pays:
        w.pay(p.payer, p.payee, p.amount, p.reason)
        out.append(Payment(w.hands_played, p.payer, p.payee, p.amount, p.reason))
    return out


def _settle(
    w: _W, wins: list[tuple[int, ScoreResult]], payer: int | None
) -> list[list[ScorePayment]]:
    """The rule set's settlement of the winners with the room's settlement options (the
    pure :func:`scoring.settlement.settle_hand`, which ``mahjong-score`` calls too);
    ``payer`` is the discarder / the robbed kong's owner / the flower win's loser, None on
    a self-draw."""
    return settle_hand(
        w.rs,
        wins,
        payer=payer,
        dealer=w.dealer,
        streak=w.streak,
        options=dict(w.st.config.settlement),
    )


def _win_instants(w: _W, seat: int, discarder: int | None) -> None:
    """三叮一笑 and 天誅地滅 (hk-tw16): instant items that come with a win."""
    if not w.p.instant:
        return
    me = w.seats[seat]
    others = _others(seat)
    ting = [o for o in others if w.seats[o].ting]
    if len(ting) == 3 and not me.ting:
        _instant(w, E.InstantLaugh(kind="three-ting-one-laugh", winner=seat, ting_seats=ting))
    special = ("heaven", "earth")
    if not (me.ting and me.ting_kind in special) and any(
        w.seats[o].ting and w.seats[o].ting_kind in special for o in others
    ):
        _instant(w, E.InstantSlay(kind="heaven-earth-slay", winner=seat, discarder=discarder))


def _finish_self_win(w: _W, seat: int, kind: str) -> None:
    s = w.seats[seat]
    payer: int | None = None
    if kind == "self":
        assert s.drawn is not None
        hand = _build_hand(w, seat, s.drawn, self_drawn=True, discarder=None)
        res = _score(w, hand)
    else:
        fw = _flower_win(w, seat)
        assert fw is not None
        payer = fw[1]
        fr = _flower_result(w, seat, kind)
        assert fr is not None  # checked by self_win_kind
        hand, res = fr
    assert res is not None  # checked by self_win_kind
    (found,) = _settle(w, [(seat, res)], payer)
    pays = _pay(w, found)
    _win_instants(w, seat, None)
    w.emit(
        E.HandWon(
            hand=w.hands_played,
            how="self_drawn" if kind == "self" else "flowers",
            tile=str(hand.win_tile),
            discarder=payer,
            winners=[_winner(seat, hand, res, pays, found)],
        )
    )
    _end_hand(w, [seat])


def _finish_discard_win(w: _W, winners: list[int], robbing: bool) -> None:
    h = w.hand
    tile, discarder = h.discard, h.discarder
    assert tile is not None and discarder is not None
    scored = []
    for seat in winners:
        hand = _build_hand(
            w,
            seat,
            tile,
            self_drawn=False,
            discarder=discarder,
            robbing=robbing,
            winners=len(winners),
        )
        res = _score(w, hand)
        assert res is not None  # checked when the claim was made
        scored.append((seat, hand, res))
    settled = _settle(w, [(seat, res) for seat, _, res in scored], discarder)
    out = []
    for (seat, hand, res), found in zip(scored, settled, strict=True):
        pays = _pay(w, found)
        _win_instants(w, seat, discarder)
        out.append(_winner(seat, hand, res, pays, found))
    w.emit(
        E.HandWon(
            hand=w.hands_played,
            how="robbing_kong" if robbing else "discard",
            tile=str(tile),
            discarder=discarder,
            winners=out,
        )
    )
    record = None
    multi_bonus = multi_win_bonus([res for _, _, res in scored])
    if w.p.fanxue and len(winners) > 1 and multi_bonus > 0:
        record = fanxue_record(w.last_result, discarder, winners, multi_bonus)
    _end_hand(w, winners, record)


# -- 反雪 (hk-tw16): scoring.settlement (fanxue_record, fanxue_owed, MULTI_WIN_IDS) ----------------


# -- end of a hand, game progression ---------------------------------------------------------------


def _end_hand(w: _W, winners: list[int], fanxue: dict[str, Any] | None = None) -> None:
    """``fanxue``: the 反雪 record this hand leaves for the next one (:func:`fanxue_record`);
    a record not renewed by this hand expires with it."""
    h = w.hand
    p = w.p
    w.emit(
        E.HandEnded(
            hand=w.hands_played,
            result="win" if winners else "draw",
            winners=winners,
            commitment=h.commitment,
            salt=h.salt.hex(),
            wall=[str(t) for t in h.wall],
            hands=[[str(t) for t in s.concealed] for s in w.seats],
            scores=list(w.scores),
        )
    )
    keep = (winners and w.dealer in winners and p.dealer_keeps_on_win) or (
        not winners and p.dealer_keeps_on_draw
    )
    w.hands_played += 1
    if keep:
        w.streak += 1
    else:
        w.streak = 0
        w.dealer = (w.dealer + 1) % 4
        if w.dealer == w.st.config.first_dealer:
            w.round_index += 1
    result: dict[str, Any] = {"hand": h.number, "winners": winners}
    if fanxue:
        result["fanxue"] = fanxue
    w.last_result = result
    w.set(pending=(), claims=())
    over = w.hands_played >= p.max_hands if p.max_hands is not None else w.round_index >= p.rounds
    if over:
        w.phase = Phase.GAME_OVER
        w.emit(E.GameOver(hands=w.hands_played, scores=list(w.scores)))
    else:
        w.phase = Phase.BETWEEN_HANDS
        w.emit(
            E.NextHand(
                hand=w.hands_played,
                dealer=w.dealer,
                streak=w.streak,
                round_wind=_WINDS[w.round_index % 4],
            )
        )
