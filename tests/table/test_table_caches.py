"""Differential tests for the engine's memoised win check (``table.scoring_bridge.completes``) and
the direct JSON form of the legal actions: the cached answers equal the uncached
computation (the rule set's ``is_complete`` tried on every tile kind; ``Action.to_json`` of
each legal action) over random hands and over every state of seeded random games."""

from __future__ import annotations

import inspect
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_testlib import PLAYABLE

from scoring.hand import Meld
from scoring.random_hands import random_complete
from scoring.tiles import KINDS, Tile
from table import (
    Action,
    ActionType,
    GameConfig,
    GameState,
    HandState,
    Phase,
    SeatState,
    TableError,
    legal_actions,
    legal_actions_json,
    replay,
)
from table.codec import replacer_source
from table.scoring_bridge import completes, get_scoring_ruleset
from table.sim import play_game
from table.state import replace_hand, replace_seat
from table.tile_math import tile_counts


def brute_win_tiles(ruleset: str, concealed: tuple[Tile, ...], melds: tuple[Meld, ...]) -> set[int]:
    """The uncached answer: every kind tried with the rule set's ``is_complete``."""
    rs = get_scoring_ruleset(ruleset)
    c = tile_counts(concealed)
    out = set()
    for t in range(34):
        c[t] += 1
        if rs.is_complete(c, len(melds), melds=melds):
            out.add(t)
        c[t] -= 1
    return out


def check_win_tiles(ruleset: str, concealed: tuple[Tile, ...], melds: tuple[Meld, ...]) -> bool:
    """The memoised :func:`completes` on every kind, computed and then from the cache,
    equals the brute force; whether the hand was ready."""
    want = brute_win_tiles(ruleset, concealed, melds)
    completes.cache_clear()
    for _ in range(2):
        got = {t for t in range(34) if completes(ruleset, concealed, melds, KINDS[t])}
        assert got == want
    return bool(want)


def _near_complete(rng: random.Random, ruleset: str) -> tuple[tuple[Tile, ...], tuple[Meld, ...]]:
    """A random complete hand of the rule set's size minus its win tile (a ready hand), with
    one tile swapped for a random one half of the time (mostly not ready)."""
    size = get_scoring_ruleset(ruleset).hand_size
    concealed, melds_json, _win = random_complete(rng, size // 3)
    tiles = sorted(Tile.parse(t) for t in concealed)
    if rng.random() < 0.5:
        tiles.pop(rng.randrange(len(tiles)))
        t = rng.choice(KINDS)
        if tiles.count(t) < 4:
            tiles.append(t)
        else:
            tiles.append(tiles[0])
    melds = tuple(Meld.from_json(m) for m in melds_json)
    return tuple(sorted(tiles)), melds


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_win_tiles_equal_is_complete_on_every_kind(ruleset: str) -> None:
    rng = random.Random(f"win-tiles-{ruleset}")
    ready = 0
    for _ in range(300):
        concealed, melds = _near_complete(rng, ruleset)
        ready += check_win_tiles(ruleset, concealed, melds)
    assert ready > 50  # the ready hands (with their waits) were exercised, not only misses


@pytest.mark.parametrize("ruleset", PLAYABLE)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts=st.lists(st.integers(0, 4), min_size=34, max_size=34), n_melds=st.integers(0, 1))
def test_win_tiles_hypothesis(ruleset: str, counts: list[int], n_melds: int) -> None:
    """Arbitrary tile counts (also wrong sizes, four of a kind, special shapes' tiles)."""
    size = get_scoring_ruleset(ruleset).hand_size - 3 * n_melds
    tiles: list[Tile] = []
    for i, n in enumerate(counts):
        tiles.extend([KINDS[i]] * n)
    tiles = tiles[: size + (1 if counts[0] == 4 else 0)]  # sometimes one too many
    melds = (Meld.from_json({"kind": "pung", "tiles": ["wn", "wn", "wn"], "from": "left"}),)
    check_win_tiles(ruleset, tuple(sorted(tiles)), melds[:n_melds])


def _states(ruleset: str, seed: str) -> list[GameState]:
    out: list[GameState] = []

    def keep(old: GameState, action: object, new: GameState, events: object) -> None:
        out.append(new)

    play_game(GameConfig(ruleset, max_hands=2), random.Random(seed), check=keep)
    return out


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_seated_hands_and_legal_actions_json(ruleset: str) -> None:
    """At every state of seeded games: each asked seat's cached win tiles equal the brute
    force (the discard under claim for the seats in the window, the drawn tile for the
    seat on turn), and the legal actions' direct JSON equals ``Action.to_json`` of each."""
    checked = wins = 0
    for g in range(2):
        for state in _states(ruleset, f"caches-{ruleset}-{g}"):
            h = state.hand
            for seat in range(4):
                acts = legal_actions(state, seat)
                assert legal_actions_json(state, seat) == [a.to_json() for a in acts]
                if h is None or state.phase in (Phase.BETWEEN_HANDS, Phase.GAME_OVER):
                    continue
                s = h.seats[seat]
                rs = get_scoring_ruleset(ruleset)
                if state.phase is Phase.TURN and seat == h.turn and s.drawn is not None:
                    rest = list(s.concealed)
                    rest.remove(s.drawn)
                    cached = completes(ruleset, tuple(rest), s.melds, s.drawn)
                    brute = rs.is_complete(tile_counts(s.concealed), len(s.melds), melds=s.melds)
                    assert cached == brute
                    wins += brute
                    checked += 1
                elif state.phase is not Phase.TURN and seat in h.pending:
                    assert h.discard is not None
                    c = tile_counts(s.concealed)
                    c[h.discard] += 1
                    cached = completes(ruleset, s.concealed, s.melds, h.discard)
                    assert cached == rs.is_complete(c, len(s.melds), melds=s.melds)
                    wins += cached
                    checked += 1
    assert checked > 100 and wins > 0


def test_the_engines_replace_sets_each_field_and_keeps_the_others() -> None:
    """``table.state.replace_hand`` / ``replace_seat`` (the engine's ``dataclasses.replace``)
    agrees with the constructor given every field, field by field, each field given the value of
    another game's hand, so a field added to the model and not to the replacer fails here."""
    a, b = (_a_hand(seed) for seed in (5, 6))
    for x, y in ((a, b), (a.seats[0], b.seats[1])):
        assert _replace(x, {}) == x
        # (the value types' fields: their constructor's parameters, in order)
        names = list(inspect.signature(type(x)).parameters)
        assert len(names) == (18 if isinstance(x, HandState) else 14)
        for name in names:
            other = getattr(y, name)
            got = _replace(x, {name: other})
            want = type(x)(**{n: other if n == name else getattr(x, n) for n in names})
            assert got == want
            assert getattr(got, name) == other  # (compiled: fixed tuples are unboxed)
            for n in names:
                if n != name:
                    assert getattr(got, n) == getattr(x, n)


def test_the_replacers_are_generated_from_the_fields_of_today() -> None:
    """The replacers in table/state.py are the text ``table.codec.replacer_source`` generates
    from the value types' constructors now: a field added to a type and not regenerated
    fails here (regenerate: paste the text this test prints)."""
    from pathlib import Path

    import table

    # (the source: compiled, ``table.state`` is the extension module; the package is pure)
    text = (Path(inspect.getfile(table)).parent / "state.py").read_text(encoding="utf-8")
    begin, end = "# --- generated: begin ---\n", "# --- generated: end ---"
    assert text.count(begin) == 1 and text.count(end) == 1
    generated = text[text.index(begin) + len(begin) : text.index(end)].strip()
    want = "\n\n".join(
        [
            replacer_source(HandState, "replace_hand"),
            replacer_source(SeatState, "replace_seat_fields"),
        ]
    ).strip()
    assert generated == want, want


def _replace(x: HandState | SeatState, kw: dict[str, Any]) -> HandState | SeatState:
    return replace_hand(x, kw) if isinstance(x, HandState) else replace_seat(x, **kw)


def _a_hand(seed: int):
    """A hand in play some way into a seeded game."""
    rec = play_game(GameConfig("zung-jung", max_hands=1), random.Random(seed))
    st_, _ = replay(rec.initial, rec.actions[: len(rec.actions) // 2])
    assert st_.hand is not None
    return st_.hand


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_the_quick_pass_equals_the_general_path(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``table.claims.pass_leaving_window_open`` (a pass or timeout that leaves its window open, without
    the working copy) gives the state, its JSON and the events the general path gives, at
    every pending seat of every window of seeded games; it declines (None) the rest."""
    from table import engine

    quick = engine.pass_leaving_window_open
    cases = []
    for state in _states(ruleset, f"quick-pass-{ruleset}"):
        h = state.hand
        if h is None or state.phase not in (Phase.CLAIM, Phase.ROB):
            continue
        for seat in range(4):
            for kind in (ActionType.PASS, ActionType.TIMEOUT):
                cases.append((state, Action(kind, seat, state.seq)))
    used = 0
    fast = []
    for state, a in cases:
        got = quick(state, a)
        used += got is not None
        fast.append(got)
    monkeypatch.setattr(engine, "pass_leaving_window_open", lambda state, a: None)
    for (state, a), got in zip(cases, fast, strict=True):
        try:
            want = engine.apply(state, a)
        except TableError:
            assert got is None
            continue
        if got is None:
            continue
        assert got[0] == want[0]
        assert got[0].to_json() == want[0].to_json()
        assert got[0].to_json((state, state.to_json())) == want[0].to_json()
        assert [e.to_json() for e in got[1]] == [e.to_json() for e in want[1]]
    assert used > 50


def _view_event_reference(event: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
    """``table.views.view_event_json`` as it was written before its shortcut for events
    with nothing to redact: the reference the shortcut must equal (keys in order)."""
    from table.views import _hidden_from

    etype = str(event["type"])
    owner = event.get("_owner")
    if _hidden_from(etype, event, owner, seat):
        return None
    secret = () if owner is None or owner == seat else (event.get("_secret") or ())
    out = {"type": etype}
    for k, v in event.items():
        if k not in ("type", "_owner", "_secret") and k not in secret:
            out[k] = v
    return out


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_view_event_json_equals_the_reference(ruleset: str) -> None:
    """Every event of seeded games, and odd stored forms of them (a null ``_owner``, a
    ``_secret`` without an owner, ``type`` not first or not a string), as each seat and a
    spectator see them: the same dict, keys in the same order."""
    from table import view_event_json

    events: list[dict[str, Any]] = []

    def keep(old: GameState, action: object, new: GameState, evs: Any) -> None:
        events.extend(e.to_json() for e in evs)

    play_game(GameConfig(ruleset, max_hands=2), random.Random(f"view-{ruleset}"), check=keep)
    odd: list[dict[str, Any]] = []
    for e in events[:200]:
        odd.append({**e, "_owner": None})
        odd.append({**e, "_secret": ["tile"]})
        odd.append({k: v for k, v in reversed(list(e.items()))})
        odd.append({**e, "type": _Str(e["type"])})
    odd.append({"type": "answered", "seat": 1, "answer": "pass"})
    odd.append({"type": "timeout", "seat": 2, "default": "pass"})
    for e in [*events, *odd]:
        for seat in (0, 1, 2, 3, None):
            got, want = view_event_json(e, seat), _view_event_reference(e, seat)
            assert got == want
            if want is not None:
                assert got is not None and list(got) == list(want)
                assert got is not e  # a new dict (the caller may keep it)


class _Str(str):
    """A ``type`` that is a str subclass (``str()`` of it is a new plain string)."""


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_may_self_win_is_necessary(ruleset: str) -> None:
    """``table.wins.may_self_win`` (the legal actions' shortcut on a turn) is never False
    when the turn seat may win (``self_win_kind``), at every turn of seeded games."""
    from table.wins import may_self_win, self_win_kind
    from table.working import WorkingCopy

    turns = wins = 0
    for state in _states(ruleset, f"may-self-win-{ruleset}"):
        h = state.hand
        if h is None or state.phase is not Phase.TURN:
            continue
        turns += 1
        if self_win_kind(WorkingCopy(state), h.turn) is not None:
            wins += 1
            assert may_self_win(state, h.turn)
    assert turns > 50


def test_the_value_types_compare_hash_and_print_as_dataclasses() -> None:
    """``Event``, ``SeatState``, ``HandState`` and ``GameState`` are plain classes with
    hand-written methods (native constructors when compiled) meaning what their frozen
    dataclasses meant: ``==`` and ``hash`` over the fields (a state's ``params`` and
    ``last_result`` left out), a dataclass's ``repr``."""
    from table import Event

    states = _states("zung-jung", "value-types")[:40]
    for st_ in states:
        again = GameState.from_json(st_.to_json())
        assert again == st_ and hash(again) == hash(st_) and again is not st_
        other = GameState(**{n: getattr(st_, n) for n in inspect.signature(GameState).parameters})
        assert other == st_
        assert other != GameState(
            **{
                n: (st_.seq + 1 if n == "seq" else getattr(st_, n))
                for n in inspect.signature(GameState).parameters
            }
        )
        assert other == GameState(
            **{
                n: ({"x": 1} if n == "last_result" else getattr(st_, n))
                for n in inspect.signature(GameState).parameters
            }
        )
        if st_.hand is not None:
            assert hash(st_.hand) == hash(HandState.from_json(st_.hand.to_json()))
            assert repr(st_.hand.seats[0]).startswith("SeatState(concealed=(")
    assert repr(states[0]).startswith("GameState(config=GameConfig(ruleset='zung-jung'")
    e = Event("draw", {"seat": 1, "tile": "5p"}, 1, ("tile",))
    assert e == Event("draw", {"seat": 1, "tile": "5p"}, 1, ("tile",)) != Event("draw", {})
    assert (
        repr(e) == "Event(type='draw', data={'seat': 1, 'tile': '5p'}, owner=1, secret=('tile',))"
    )
    with pytest.raises(TypeError):
        hash(e)  # (a dict in it, as with the dataclass)
    with pytest.raises(ValueError):
        Event("x", {"type": "y"})


def test_the_engines_events_take_owner_and_secret_from_the_definitions() -> None:
    """``table.working.make_event`` reads an event definition's owner and secret fields as
    ``EventData.owner`` / ``secret`` give them; a definition with its own (``Kong``) has
    them called, for every event class."""
    from table import events as E
    from table.working import event_has_owner

    own = 0
    for cls in E.EVENT_CLASSES:
        if cls.owner is E.EventData.owner and cls.secret is E.EventData.secret:
            assert event_has_owner(cls) == bool(cls.SECRET or cls.PRIVATE)
        else:
            own += 1
            assert event_has_owner(cls) is None  # (Kong: its owner and secret depend on the kong)
    assert own == 1

    class Odd(E.Answered):
        def owner(self) -> int | None:
            return None

    assert event_has_owner(Odd) is None
