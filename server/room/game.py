"""The one place where the server calls into the pure table engine (``table/``).

Everything the server needs from the game goes through these functions, on plain JSON
values (what the engine's ``to_json()`` gives), so the rest of the server never touches
engine types and the room state stored in Redis is plain msgpack-able data:

* ``new_game(ruleset, options)`` -> state JSON (before the first hand);
* ``start_hand_action(state, seed)`` -> the system action that deals the next hand with a
  wall seed the server drew (``server.flow.entropy``), or None when no hand is waiting to be dealt;
* ``apply(state, action)`` -> (state, events), raising :class:`GameError` with the engine's
  stable code and changing nothing;
* ``view(state, seat)`` / ``view_event(event, seat)`` -> what that seat (None: a spectator)
  may see: the ONLY sources of game data sent to clients;
* ``legal(state, seat)``, ``pending(state)`` (who must decide now: "turn" or "claim", with
  the engine's identity of each open decision),
  ``timeout_action(state, seat)``, ``bot_action(state, seat, rng)``, ``finished(state)``,
  ``summary(state)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping

import bots
import scoring
import table as t
from bots.hints import hints as hints_of
from server.room import memos
from server.room.jsonread import num, obj
from server.room.state import DecisionKind, GameJSON, Options

LENGTH_ROUNDS = {"one_round": 1, "two_rounds": 2, "four_rounds": 4}

#: how the shell has a bot decide within its time budget: ``(the seat's view, its legal
#: actions, rng) -> the action``, or None when the decision took too long (the bot pool:
#: server/flow/bot_pool.py). The room logic is given one and imports no pool of its own.
Chooser = Callable[[GameJSON, list[GameJSON], random.Random], GameJSON | None]


class GameError(Exception):
    """An action the engine rejected; ``code`` is the engine's stable code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def available() -> bool:
    """The table engine is importable (always: a static import of this module)."""
    return True


def warm_up() -> None:
    """Load every playable rule set (scoring tables, bot rules) now, in the calling thread,
    before requests and worker threads need them: at server start."""
    for name in t.playable_rulesets():
        scoring.get_ruleset(name)


def rulesets() -> list[str]:
    """Rule sets a room can be created with: game parameters and a scoring rule set."""
    return list(t.playable_rulesets())


def _wrap(exc: Exception) -> GameError:
    return GameError(str(getattr(exc, "code", "illegal-action")), str(exc))


# What is worked out from a game state's JSON (parsed, legal actions) is remembered by the
# dict's identity, per room (server/room/memos.py: a room's latest two states); ``room`` is the
# room's id (None: a caller outside a room, e.g. a test). State JSON is never mutated in
# place (rooms.py always builds new dicts).


def parsed_state(state: GameJSON, room: str | None = None) -> t.GameState:
    """``state`` parsed (remembered: ``memos.PARSED``), e.g. for :func:`step`."""
    return _parsed(state, room)[0]


def _parsed(state: GameJSON, room: str | None) -> tuple[t.GameState, bool]:
    """The parsed state, and whether ``state`` is its ``to_json()`` (``memos.PARSED``)."""
    hit = memos.PARSED.get(room, state)
    if hit is not None:
        return hit
    try:
        st = t.GameState.from_json(state)
    except t.TableError as exc:
        raise _wrap(exc) from None
    memos.PARSED.put(room, state, (st, False))
    return st, False


def check_config(
    ruleset: str, house_rules: GameJSON | None, settlement: GameJSON | None
) -> str | None:
    """Why the table refuses these house rules / settlement options (None: it accepts)."""
    try:
        t.GameConfig.from_json(
            {"ruleset": ruleset, "house_rules": house_rules, "settlement": settlement}
        )
    except t.TableError as exc:
        return str(exc)
    return None


def new_game(ruleset: str, options: Options) -> GameJSON:
    length = options["length"]
    rounds = LENGTH_ROUNDS.get(length)
    hands = options["hands"] if length == "hands" else None
    try:
        cfg = t.GameConfig(
            ruleset,
            rounds=rounds,
            max_hands=hands,
            house_rules=tuple(sorted((options.get("house_rules") or {}).items())),
            settlement=tuple(sorted((options.get("settlement") or {}).items())),
        )
        return dict(t.new_game(cfg).to_json())
    except t.TableError as exc:
        raise _wrap(exc) from None
    except (KeyError, ValueError) as exc:
        raise GameError("unknown-ruleset", str(exc)) from None


def start_hand_action(state: GameJSON, seed_hex: str) -> GameJSON | None:
    if state.get("phase") != t.Phase.BETWEEN_HANDS.value:
        return None
    a = t.Action(t.ActionType.START_HAND, None, num(state["seq"]), seed=bytes.fromhex(seed_hex))
    return dict(a.to_json())


def apply(
    state: GameJSON, action: GameJSON, parsed: t.Action | None = None, room: str | None = None
) -> tuple[GameJSON, list[GameJSON]]:
    """``action`` applied to ``state``: (the new state, the events). ``parsed``: the action
    already parsed (the server's own, from :func:`server_action`), so it is not parsed
    again. ``room``: the room's id, under which the states are remembered."""
    old, own = _parsed(state, room)
    new, events = step(old, action, parsed)
    return _json_of(state, old, own, new, room), events


def step(
    old: t.GameState, action: GameJSON, parsed: t.Action | None = None
) -> tuple[t.GameState, list[GameJSON]]:
    """:func:`apply` on a parsed state, without the new state's JSON (:func:`state_json`
    makes it, once for a run of steps: a claim window's close applies up to three answers)."""
    try:
        a = parsed if parsed is not None else t.Action.from_json(action)
        if a.wall is not None:
            raise t.BadActionError("a preset wall is not accepted from clients")
        new, events = t.apply(old, a)
    except t.TableError as exc:
        raise _wrap(exc) from None
    return new, [e.to_json() for e in events]


def state_json(
    state: GameJSON, old: t.GameState, new: t.GameState, room: str | None = None
) -> GameJSON:
    """The JSON of ``new``, a state :func:`step` made (in one step or more) from ``old``,
    the parsed ``state``: what :func:`apply` returns, sharing what did not change."""
    if new is old:
        return state
    return _json_of(state, old, _parsed(state, room)[1], new, room)


def _json_of(
    state: GameJSON, old: t.GameState, own: bool, new: t.GameState, room: str | None
) -> GameJSON:
    # the JSON of what the actions left unchanged (wall, config, ledger, most seats) is shared
    # with the old state's JSON: never changed in place (see the note above parsed_state)
    h0, h1 = old.hand, new.hand
    if (
        own
        and new.seq == old.seq
        and h0 is not None
        and h1 is not None
        and h1.seats is h0.seats
        and h1.claims is h0.claims
    ):
        # answers that leave their window open and change no seat: only the window's
        # pending seats change (the engine keeps ``seq`` exactly for such answers), so the
        # JSON is the state's with a new ``pending`` (equal to ``new.to_json()``: checked in
        # tests/server_tests/test_game_legal_cache.py)
        out = {**state, "hand": {**obj(state["hand"]), "pending": list(h1.pending)}}
    else:
        out = new.to_json((old, state))  # (a new dict, as each event's to_json())
    memos.PARSED.put(room, out, (new, True))
    _carry_legal(state, old, out, new, room)
    return out


def complete_action(state: GameJSON, action: GameJSON, seat: int) -> GameJSON:
    """A client's action with its seat filled in. Its ``seq`` names the decision it answers
    (``table.decisions``); the engine refuses it as stale when that decision is no longer
    open."""
    return {**action, "seat": seat}


def table_seq(state: GameJSON) -> int:
    return num(state["seq"])


def view(state: GameJSON, seat: int | None, room: str | None = None) -> GameJSON:
    return dict(t.view(parsed_state(state, room), seat))


def hints(state: GameJSON, seat: int | None, room: str | None = None) -> GameJSON:
    """The hints for ``seat`` (``bots.hints``), computed from that seat's view only."""
    return hints_of(view(state, seat, room)).to_json()


def view_event(event: GameJSON, seat: int | None) -> GameJSON | None:
    """The stored event JSON as ``seat`` may see it (``table.view_event_json``); None when
    that seat may not see the event at all."""
    return t.view_event_json(event, seat)


def open_events(entries: Iterable[Mapping[str, object]]) -> list[list[GameJSON]]:
    """The events of each log entry that has any, each as its owner saw it (every hand open):
    a finished game's steps for the replay viewers (``game_log.log.events``). The entries
    are a room's log or the archive's copy of it: what is not a list of events is none."""
    out: list[list[GameJSON]] = []
    for entry in entries:
        events = entry.get("events")
        if not isinstance(events, list):
            continue
        seen = (view_event(e, _owner(e)) for e in events if isinstance(e, dict))
        step = [e for e in seen if e is not None]
        if step:
            out.append(step)
    return out


def _owner(event: GameJSON) -> int | None:
    """The seat an event belongs to (``_owner``, stored with it), None: everyone's."""
    owner = event.get("_owner")
    return owner if isinstance(owner, int) else None


def legal(state: GameJSON, seat: int, room: str | None = None) -> list[GameJSON]:
    """``seat``'s legal actions (a shared list: not to be changed by the caller),
    remembered (``memos.LEGAL``)."""
    known = memos.LEGAL.setdefault(room, state, dict)
    out = known.get(seat)
    if out is None:
        out = known[seat] = t.legal_actions_json(parsed_state(state, room), seat)
    return out


def known_legal(
    state: GameJSON, by_seat: dict[int, list[GameJSON]], room: str | None = None
) -> None:
    """Remember legal actions computed elsewhere for ``state`` (a bot worker process that
    made it, server/flow/bot_worker.py), so :func:`legal` does not compute them again."""
    memos.LEGAL.setdefault(room, state, dict).update(by_seat)


def _carry_legal(
    before: GameJSON, old: t.GameState, after: GameJSON, new: t.GameState, room: str | None
) -> None:
    """An answer that leaves a claim or robbing window open (the same ``seq``: only the
    window's pending seats and claims changed, and the answering seat) leaves every other
    seat's legal actions as they were: the ones known for ``before`` are known for
    ``after`` (tests/server_tests/test_game_legal_cache.py checks them against the engine)."""
    h0, h1 = old.hand, new.hand
    if (
        h0 is None
        or h1 is None
        or new.seq != old.seq
        or new.phase is not old.phase
        or new.phase not in (t.Phase.CLAIM, t.Phase.ROB)
        or h1.discard != h0.discard
        or h1.discarder != h0.discarder
    ):
        return
    known = memos.LEGAL.get(room, before)
    if not known:
        return
    carried = {
        seat: known[seat]
        for seat in h1.pending
        if seat in known and h1.seats[seat] is h0.seats[seat]
    }
    if carried:
        memos.LEGAL.setdefault(room, after, dict).update(carried)


def pending(state: GameJSON) -> dict[int, tuple[DecisionKind, int]]:
    """The open decisions, as the engine names them (``table.decisions``): seat -> (kind,
    id). ``kind`` is "turn" or "claim" (a robbing window is timed like a claim window);
    ``id`` stays the same exactly as long as that decision is open, and an answer to it must
    carry it as its ``seq``."""
    # (read from the JSON: no parsed state needed)
    try:
        return {
            seat: ("turn" if kind is t.DecisionKind.TURN else "claim", id_)
            for seat, (kind, id_) in t.decisions_json(state).items()
        }
    except (KeyError, TypeError, ValueError) as exc:
        raise GameError("bad-state", f"not a game state: {exc!r}") from None


def claim_open_in(st: t.GameState, seat: int, decision: int) -> bool:
    """Whether ``seat`` is asked in the claim (or robbing) window ``decision`` open in
    ``st`` (``pending`` would say ("claim", decision) for it): ``table.asked_in_window``."""
    return t.asked_in_window(st, seat, decision)


def server_action(state: GameJSON, seat: int, timeout: bool) -> tuple[GameJSON, t.Action]:
    """The server's own action for ``seat``, as JSON and parsed (for :func:`apply`): its
    pass for a seat that has no other choice in a claim window, or its timeout."""
    return server_action_at(num(state["seq"]), seat, timeout)


def server_action_at(seq: int, seat: int, timeout: bool) -> tuple[GameJSON, t.Action]:
    """:func:`server_action` for the state whose ``seq`` is ``seq``."""
    kind = t.ActionType.TIMEOUT if timeout else t.ActionType.PASS
    a = t.Action(kind, seat, seq)
    return a.to_json(), a


def pass_action(state: GameJSON, seat: int) -> GameJSON:
    """The server's pass for a seat that has no other choice in a claim window."""
    return server_action(state, seat, False)[0]


def timeout_action(state: GameJSON, seat: int) -> GameJSON:
    return server_action(state, seat, True)[0]


def fast_action(legal_actions: list[GameJSON]) -> GameJSON:
    """A legal action chosen in constant time (the fallback when the bot is too slow): a
    win when offered, else pass a claim, else discard the tile just drawn (or the last
    discard offered)."""
    by_type: dict[str, GameJSON] = {}
    for a in legal_actions:
        by_type.setdefault(str(a.get("type")), a)
    for kind in ("win", "pass"):
        if kind in by_type:
            return by_type[kind]
    discards = [a for a in legal_actions if a.get("type") == "discard"]
    if discards:
        return discards[-1]
    return legal_actions[0]


def bot_action(
    state: GameJSON,
    seat: int,
    rng: random.Random,
    choose: Chooser | None = None,
    room: str | None = None,
) -> GameJSON:
    """The real bot's action (``bots.choose``) for ``seat``, decided from that seat's view
    and legal actions only. With ``choose`` (the shell's: a time budget in the bot pool),
    a decision that takes longer falls back to :func:`fast_action` (the slow decision
    finishes in the background and is dropped)."""
    legal_actions = legal(state, seat, room)
    if not legal_actions:
        return timeout_action(state, seat)
    seen = view(state, seat, room)
    if choose is None:
        return dict(bots.choose(seen, legal_actions, rng))
    action = choose(seen, legal_actions, rng)
    return action if action is not None else fast_action(legal_actions)


def finished(state: GameJSON) -> bool:
    return state.get("phase") == "game_over"


def between_hands(state: GameJSON) -> bool:
    return state.get("phase") == "between_hands"


def summary(state: GameJSON) -> GameJSON:
    """The end-of-game summary: final scores and the whole ledger (all public)."""
    return {
        "ruleset": obj(state["config"])["ruleset"],
        "hands_played": state.get("hands_played"),
        "scores": state.get("scores"),
        "ledger": state.get("ledger"),
        "last_result": state.get("last_result"),
    }
