"""The one place where the server calls into the pure table engine (``table/``).

Everything the server needs from the game goes through these functions, on plain JSON
values (what the engine's ``to_json()`` gives), so the rest of the server never touches
engine types and the room state stored in Redis is plain msgpack-able data:

* ``new_game(ruleset, options)`` -> state JSON (before the first hand);
* ``start_hand_action(state, seed)`` -> the system action that deals the next hand with a
  wall seed made by the server (``secrets``), or None when no hand is waiting to be dealt;
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

import concurrent.futures
import contextlib
import multiprocessing
import os
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

import bots
import scoring
import table as t
from bots.hints import hints as hints_of
from server import memtrace

JSON = dict[str, Any]
T = TypeVar("T")

LENGTH_ROUNDS = {"one_round": 1, "two_rounds": 2, "four_rounds": 4}


class GameError(Exception):
    """An action the engine rejected; ``code`` is the engine's stable code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class GameUnavailable(GameError):
    """Kept for callers that guard against a missing engine: the engine is imported
    statically now (``table``, ``bots`` and ``scoring`` are parts of this package), so it is
    never raised."""

    def __init__(self, message: str = "the table engine is not installed") -> None:
        super().__init__("engine-unavailable", message)


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


# Recent (state JSON, parsed GameState) pairs: one action needs the same state parsed for
# apply, legal actions of up to three seats, the bot and the deadlines, and the server keeps
# each room's latest state in memory between actions (server/commits.py), so the next action
# finds it here too. Entries are keyed by the dict's identity and hold a reference to it, so
# an id is never reused while cached; state JSON is never mutated in place (rooms.py always
# builds new dicts). Bounded (LRU) and locked: timer ticks run in worker threads.
# An entry's third element says whether the JSON is the state's own ``to_json()`` form (made
# here by :func:`apply`), not a dict read from elsewhere (the store): only then may the next
# state's JSON be made by copying it (:func:`apply`).
_PARSED: OrderedDict[int, tuple[JSON, t.GameState, bool]] = OrderedDict()
#: two per room the server keeps hot (commits.STATE_CACHE_ROOMS = 2048: a room's latest state and
#: the one before it); at 512, a server with 1,000 rooms in play parsed the state of nearly
#: every action again (paced 1,000-room run: 506 → 418 µs of CPU per action with 4,096;
#: memory ~11 KB per room, BENCHMARKS.md)
_PARSED_MAX = 4096
_PARSED_LOCK = threading.Lock()


def parsed_state(state: JSON) -> t.GameState:
    """``state`` parsed (remembered: see ``_PARSED``), e.g. for :func:`step`."""
    return _parsed(state)[0]


def _parsed(state: JSON) -> tuple[t.GameState, bool]:
    """The parsed state, and whether ``state`` is its ``to_json()`` (see ``_PARSED``)."""
    key = id(state)
    with _PARSED_LOCK:
        hit = _PARSED.get(key)
        if hit is not None and hit[0] is state:
            _PARSED.move_to_end(key)
            return hit[1], hit[2]
    try:
        st = t.GameState.from_json(state)
    except t.TableError as exc:
        raise _wrap(exc) from None
    _remember(state, st, False)
    return st, False


def _remember(state: JSON, parsed: t.GameState, own: bool) -> None:
    with _PARSED_LOCK:
        _PARSED[id(state)] = (state, parsed, own)
        _PARSED.move_to_end(id(state))
        while len(_PARSED) > _PARSED_MAX:
            _PARSED.popitem(last=False)


def forget_states() -> None:
    """Forget every remembered parsed state and legal-action list (``_PARSED``, ``_LEGAL``).
    A bot worker process does after each tick (server/bot_worker.py): the states it is sent
    arrive unpickled, new objects no later task is sent again, so what it remembered of them
    could never be found again and only held them (up to the 4,096 + 1,024 entries sized
    for the server: ~70 MB in a worker; docs/memory.md)."""
    with _PARSED_LOCK:
        _PARSED.clear()
        _LEGAL.clear()


def remembered_states() -> tuple[int, int]:
    """(parsed states, legal-action lists) remembered now: see :func:`forget_states`."""
    with _PARSED_LOCK:
        return len(_PARSED), len(_LEGAL)


def check_config(ruleset: str, house_rules: JSON | None, settlement: JSON | None) -> str | None:
    """Why the table refuses these house rules / settlement options (None: it accepts)."""
    try:
        t.GameConfig.from_json(
            {"ruleset": ruleset, "house_rules": house_rules, "settlement": settlement}
        )
    except t.TableError as exc:
        return str(exc)
    return None


def new_game(ruleset: str, options: JSON) -> JSON:
    length = options.get("length")
    rounds = LENGTH_ROUNDS.get(str(length))
    hands = options.get("hands") if length == "hands" else None
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


def start_hand_action(state: JSON, seed_hex: str) -> JSON | None:
    if state.get("phase") != t.Phase.BETWEEN_HANDS.value:
        return None
    a = t.Action(t.ActionType.START_HAND, None, int(state["seq"]), seed=bytes.fromhex(seed_hex))
    return dict(a.to_json())


def apply(state: JSON, action: JSON, parsed: t.Action | None = None) -> tuple[JSON, list[JSON]]:
    """``action`` applied to ``state``: (the new state, the events). ``parsed``: the action
    already parsed (the server's own, from :func:`server_action`), so it is not parsed
    again."""
    old, own = _parsed(state)
    new, events = step(old, action, parsed)
    return _json_of(state, old, own, new), events


def step(
    old: t.GameState, action: JSON, parsed: t.Action | None = None
) -> tuple[t.GameState, list[JSON]]:
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


def state_json(state: JSON, old: t.GameState, new: t.GameState) -> JSON:
    """The JSON of ``new``, a state :func:`step` made (in one step or more) from ``old``,
    the parsed ``state``: what :func:`apply` returns, sharing what did not change."""
    if new is old:
        return state
    return _json_of(state, old, _parsed(state)[1], new)


def _json_of(state: JSON, old: t.GameState, own: bool, new: t.GameState) -> JSON:
    # the JSON of what the actions left unchanged (wall, config, ledger, most seats) is shared
    # with the old state's JSON: never changed in place (see the module note above _PARSED)
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
        out = {**state, "hand": {**state["hand"], "pending": list(h1.pending)}}
    else:
        out = new.to_json((old, state))  # (a new dict, as each event's to_json())
    _remember(out, new, True)
    _carry_legal(state, old, out, new)
    return out


def complete_action(state: JSON, action: JSON, seat: int) -> JSON:
    """A client's action with its seat filled in. Its ``seq`` names the decision it answers
    (``table.decisions``); the engine refuses it as stale when that decision is no longer
    open."""
    return {**action, "seat": seat}


def table_seq(state: JSON) -> int:
    return int(state["seq"])


def view(state: JSON, seat: int | None) -> JSON:
    return dict(t.view(parsed_state(state), seat))


def hints(state: JSON, seat: int | None) -> JSON:
    """The hints for ``seat`` (``bots.hints``), computed from that seat's view only."""
    return hints_of(view(state, seat)).to_json()


def view_event(event: JSON, seat: int | None) -> JSON | None:
    """The stored event JSON as ``seat`` may see it (``table.view_event_json``); None when
    that seat may not see the event at all."""
    return t.view_event_json(event, seat)


def open_events(entries: list[JSON]) -> list[list[JSON]]:
    """The events of each log entry that has any, each as its owner saw it (every hand open):
    a finished game's steps for the replay viewers (``game_log.log.events``)."""
    out: list[list[JSON]] = []
    for entry in entries:
        seen = (view_event(e, e.get("_owner")) for e in entry.get("events") or ())
        step = [e for e in seen if e is not None]
        if step:
            out.append(step)
    return out


#: (state dict id, seat) -> (the state, its legal actions): one commit asks for a seat's
#: legal actions twice (the room logic deciding who is asked, then the log entry's
#: ``legal``); the same rules as ``_PARSED`` (identity-checked, bounded, locked)
_LEGAL: OrderedDict[tuple[int, int], tuple[JSON, list[JSON]]] = OrderedDict()
_LEGAL_MAX = 1024


def legal(state: JSON, seat: int) -> list[JSON]:
    """``seat``'s legal actions (a shared list: not to be changed by the caller)."""
    key = (id(state), seat)
    with _PARSED_LOCK:
        hit = _LEGAL.get(key)
        if hit is not None and hit[0] is state:
            return hit[1]
    out = t.legal_actions_json(parsed_state(state), seat)
    with _PARSED_LOCK:
        _LEGAL[key] = (state, out)
        while len(_LEGAL) > _LEGAL_MAX:
            _LEGAL.popitem(last=False)
    return out


def known_legal(state: JSON, by_seat: dict[int, list[JSON]]) -> None:
    """Remember legal actions computed elsewhere for ``state`` (a bot worker process that
    made it, server/bot_worker.py), so :func:`legal` does not compute them again."""
    with _PARSED_LOCK:
        for seat, out in by_seat.items():
            _LEGAL[(id(state), seat)] = (state, out)
        while len(_LEGAL) > _LEGAL_MAX:
            _LEGAL.popitem(last=False)


def _carry_legal(before: JSON, old: t.GameState, after: JSON, new: t.GameState) -> None:
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
    with _PARSED_LOCK:
        for seat in h1.pending:
            hit = _LEGAL.get((id(before), seat))
            if hit is not None and hit[0] is before and h1.seats[seat] is h0.seats[seat]:
                _LEGAL[(id(after), seat)] = (after, hit[1])
        while len(_LEGAL) > _LEGAL_MAX:
            _LEGAL.popitem(last=False)


def pending(state: JSON) -> dict[int, tuple[str, int]]:
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


def server_action(state: JSON, seat: int, timeout: bool) -> tuple[JSON, t.Action]:
    """The server's own action for ``seat``, as JSON and parsed (for :func:`apply`): its
    pass for a seat that has no other choice in a claim window, or its timeout."""
    return server_action_at(int(state["seq"]), seat, timeout)


def server_action_at(seq: int, seat: int, timeout: bool) -> tuple[JSON, t.Action]:
    """:func:`server_action` for the state whose ``seq`` is ``seq``."""
    kind = t.ActionType.TIMEOUT if timeout else t.ActionType.PASS
    a = t.Action(kind, seat, seq)
    return a.to_json(), a


def pass_action(state: JSON, seat: int) -> JSON:
    """The server's pass for a seat that has no other choice in a claim window."""
    return server_action(state, seat, False)[0]


def timeout_action(state: JSON, seat: int) -> JSON:
    return server_action(state, seat, True)[0]


#: the pool the real bot decides in when a time budget is given (see :func:`bot_action`):
#: worker processes (:func:`configure_bots`), so a decision never holds the server's
#: interpreter lock, or with ``processes`` 0 worker threads of the server process
_BOT_POOL: concurrent.futures.Executor | None = None
_BOT_POOL_LOCK = threading.Lock()
_BOT_PROCESSES = 0


def configure_bots(processes: int) -> None:
    """Decide the bots' budgeted decisions in ``processes`` worker processes (0: in two
    worker threads of this process, which share its interpreter lock with the event loop).
    The processes start with the first bot move (which waits the ~1 s they take to load the
    rule sets, once): a server that never hosts a bot never starts them."""
    global _BOT_PROCESSES
    if max(0, processes) == _BOT_PROCESSES and _BOT_POOL is not None:
        return  # (a server started again in the same process: the same pool)
    stop_bots()
    _BOT_PROCESSES = max(0, processes)


#: how much lower the bot worker processes' scheduling priority is than the server's
#: (``nice``): on a busy machine the server's event loop gets the CPU first
BOT_NICE = 10


def _init_worker() -> None:
    """Each bot worker process, first: a lower priority, a watch on its server process, the
    rule sets loaded."""
    with contextlib.suppress(OSError):
        os.nice(BOT_NICE)
    threading.Thread(
        target=_exit_with_parent, args=(os.getppid(),), name="parent-watch", daemon=True
    ).start()
    memtrace.install_handler()  # PYTHONTRACEMALLOC set: SIGUSR1 writes a snapshot
    warm_up()


def _exit_with_parent(parent: int, every_s: float = 1.0) -> None:
    """Ends this worker process once its server process is gone: a server killed with
    SIGKILL cannot shut its pool down, and its idle workers would otherwise live on (the
    orphan is re-parented, so its parent id changes)."""
    while os.getppid() == parent:
        time.sleep(every_s)
    os._exit(0)


def _warm_worker() -> int:
    """A no-op task: waits until a worker process is up (and says which)."""
    return os.getpid()


def in_bot_process(fn: Callable[..., T], *args: Any) -> concurrent.futures.Future[T] | None:
    """Run ``fn(*args)`` (picklable: a module-level function) in a bot worker process; None
    when bots decide in threads (``configure_bots(0)``) or the pool is broken (the caller
    runs it itself)."""
    if not _BOT_PROCESSES:
        return None
    try:
        return _bot_pool().submit(fn, *args)
    except concurrent.futures.BrokenExecutor:
        drop_bot_pool()
        return None


def drop_bot_pool() -> None:
    """Forget a broken pool (a worker process died): the next use starts a new one."""
    global _BOT_POOL
    with _BOT_POOL_LOCK:
        if _BOT_POOL is not None:
            _BOT_POOL.shutdown(wait=False, cancel_futures=True)
        _BOT_POOL = None


def _choose_seeded(view: JSON, legal_actions: list[JSON], seed: int) -> JSON:
    """:func:`bots.choose` in a bot worker process (the caller's rng is not sent: a seed
    drawn from it is)."""
    return dict(bots.choose(view, legal_actions, random.Random(seed)))


def _bot_pool() -> concurrent.futures.Executor:
    global _BOT_POOL
    with _BOT_POOL_LOCK:
        if _BOT_POOL is None:
            if _BOT_PROCESSES:
                # spawn, not fork: the server process runs threads and an event loop
                ctx = multiprocessing.get_context("spawn")
                _BOT_POOL = concurrent.futures.ProcessPoolExecutor(
                    _BOT_PROCESSES, mp_context=ctx, initializer=_init_worker
                )
            else:
                _BOT_POOL = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="bot")
        return _BOT_POOL


def stop_bots() -> None:
    """Drop queued bot decisions (at shutdown); a running one finishes on its own."""
    global _BOT_POOL
    with _BOT_POOL_LOCK:
        if _BOT_POOL is not None:
            _BOT_POOL.shutdown(wait=False, cancel_futures=True)
            _BOT_POOL = None


def fast_action(legal_actions: list[JSON]) -> JSON:
    """A legal action chosen in constant time (the fallback when the bot is too slow): a
    win when offered, else pass a claim, else discard the tile just drawn (or the last
    discard offered)."""
    by_type: dict[str, JSON] = {}
    for a in legal_actions:
        by_type.setdefault(str(a.get("type")), a)
    for kind in ("win", "pass"):
        if kind in by_type:
            return by_type[kind]
    discards = [a for a in legal_actions if a.get("type") == "discard"]
    if discards:
        return discards[-1]
    return legal_actions[0]


def bot_action(state: JSON, seat: int, rng: random.Random, budget_s: float | None = None) -> JSON:
    """The real bot's action (``bots.choose``) for ``seat``, decided from that seat's view
    and legal actions only. With ``budget_s``, a decision that takes longer falls back to
    :func:`fast_action` (the slow decision finishes in the background and is dropped)."""
    legal_actions = legal(state, seat)
    if not legal_actions:
        return timeout_action(state, seat)
    seen = view(state, seat)
    if budget_s is None:
        return dict(bots.choose(seen, legal_actions, rng))
    fut: concurrent.futures.Future[Any]
    try:
        if _BOT_PROCESSES:
            fut = _bot_pool().submit(_choose_seeded, seen, legal_actions, rng.getrandbits(64))
        else:
            fut = _bot_pool().submit(bots.choose, seen, legal_actions, rng)
        action = dict(fut.result(timeout=budget_s))
        if _BOT_PROCESSES:
            BOT_STATS["in_processes"] += 1
        return action
    except concurrent.futures.TimeoutError:
        BOT_STATS["fallbacks"] += 1
        return fast_action(legal_actions)
    except concurrent.futures.BrokenExecutor:
        # a worker process died: a new pool next time
        BOT_STATS["fallbacks"] += 1
        drop_bot_pool()
        return fast_action(legal_actions)


#: counters read by the server's metrics
BOT_STATS = {"fallbacks": 0, "in_processes": 0}


def finished(state: JSON) -> bool:
    return state.get("phase") == "game_over"


def between_hands(state: JSON) -> bool:
    return state.get("phase") == "between_hands"


def summary(state: JSON) -> JSON:
    """The end-of-game summary: final scores and the whole ledger (all public)."""
    return {
        "ruleset": state["config"]["ruleset"],
        "hands_played": state.get("hands_played"),
        "scores": state.get("scores"),
        "ledger": state.get("ledger"),
        "last_result": state.get("last_result"),
    }
