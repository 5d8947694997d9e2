"""The game in a room: starting and playing it, and what happens by itself while it runs.

Pure functions over a room's state, like :mod:`server.room.rooms` (the lobby, members and
presence): :func:`start`, :func:`play` and :func:`rematch`; each open decision's clock
(:func:`refresh_pending`: a decision keeps its start time exactly while the engine's id for
it is unchanged), the automatic answers — bots, seats without a choice
(``server/room/windows.py``), a player's own settings (:func:`set_toggles`) —, and the
timer's :func:`tick` that applies what is due (when: ``server/room/schedule.py``). Time (``now`` in
ms) and randomness (wall seeds, bot choices) are arguments.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from protocol.codes import ErrorCode
from server.room import game
from server.room.held_answers import (
    Answers as Answers,
)
from server.room.held_answers import (
    Held as Held,
)
from server.room.held_answers import HeldAnswer
from server.room.held_answers import (
    close_window as close_window,
)
from server.room.held_answers import (
    held_answers as held_answers,
)
from server.room.held_answers import (
    holds_answers as holds_answers,
)
from server.room.held_answers import (
    window_key as window_key,
)
from server.room.held_answers import (
    window_needs_bot as window_needs_bot,
)
from server.room.lobby import game_id_of
from server.room.rooms import (
    Change,
    RoomError,
    copy_state,
    game_of,
    held,
    require_host,
    require_lobby,
    require_member,
    seat_at,
    seat_of,
)
from server.room.schedule import committed_deadlines, deadlines
from server.room.state import DecisionKind, GameJSON, Pending, RoomState

T = TypeVar("T")


#: a seated player's own play settings (kept in the room, so they survive a reconnect)
TOGGLES = ("auto_win", "no_claims", "auto_discard")


def toggles_of(state: RoomState, seat: int) -> dict[str, bool]:
    s = state["seats"][seat]
    have = (s.get("toggles") if s is not None else None) or {}
    return {k: bool(have.get(k, False)) for k in TOGGLES}


def set_toggles(state: RoomState, player: str, changes: dict[str, bool], now: int) -> Change:
    """The player's own play settings for their seat: ``auto_win`` (declare any legal win at
    once), ``no_claims`` (pass on everything but a win), ``auto_discard`` (discard the drawn
    tile when that is the only thing to do, e.g. after 叮)."""
    require_member(state, player)
    seat = seat_of(state, player)
    if seat is None:
        raise RoomError(ErrorCode.NOT_SEATED, "play settings belong to a seat")
    s = copy_state(state)
    seat_at(s, seat)["toggles"] = {**toggles_of(state, seat), **changes}
    if s["status"] == "playing" and s.get("game") is not None:
        refresh_pending(s, now)  # the settings apply to the decision open now
    return Change(s, "toggles", player, persist=True)


def _copy_game_step(state: RoomState) -> RoomState:
    """A copy of the room state for a game step (:func:`play`, :func:`tick`): only its
    top-level keys are set (the game, the pending maps, the status...), so the members and
    the seat dicts stay shared with ``state`` (``rooms.copy_state`` copies them too); a step that
    changes a seat replaces the list and that seat's dict. Unchanged, they cost the commit's
    patch (server/storage/patches.py) nothing."""
    return state.copy()


WallSeed = Callable[[], str]


@dataclass(frozen=True, slots=True)
class Seeds:
    """Where a game's randomness comes from, given by the shell (the room logic draws none
    of its own): ``wall_seed()`` for each deal's wall (and once for the claim windows'
    timing), ``game_id()`` for the game's id. The server's are the operating system's
    (``server.flow.entropy.OS_SEEDS``); a test's replay a fixed deal."""

    wall_seed: WallSeed
    game_id: Callable[[], str]


def rng_wall_seed(rng: random.Random) -> WallSeed:
    """Wall seeds drawn from ``rng`` when one is needed: a tick's deal when the caller gave
    no seeds (a test's seeded game, the same every run)."""
    return lambda: f"{rng.getrandbits(256):064x}"


def _deal_if_needed(s: RoomState, change: Change, now: int, wall_seed: WallSeed) -> None:
    action = game.start_hand_action(game_of(s), wall_seed())
    if action is None:
        return
    s["game"], events = game.apply(game_of(s), action, room=s["id"])
    change.actions.append(action)
    change.events.extend(events)
    refresh_pending(s, now)
    s["next_hand_at"] = None


def start(
    state: RoomState,
    player: str,
    now: int,
    seeds: Seeds,
) -> Change:
    """The host starts the game: the first hand is dealt from a wall made from
    ``seeds.wall_seed()`` (the OS's randomness; tests pass a fixed one to replay a deal). The
    game gets its id from ``seeds.game_id()`` (a rematch's game a new one)."""
    require_member(state, player)
    require_host(state, player)
    require_lobby(state)
    if state["status"] == "finished":
        raise RoomError(ErrorCode.GAME_NOT_STARTED, "use rematch to play again")
    for seat in state["seats"]:
        if seat is None or not seat["ready"]:
            raise RoomError(ErrorCode.NOT_READY, "every seat must be taken and ready")
    s = copy_state(state)
    try:
        s["game"] = game.new_game(s["ruleset"], s["options"])
    except game.GameError as exc:
        raise RoomError(ErrorCode.BAD_OPTIONS, exc.message, {"table_code": exc.code}) from None
    s["status"] = "playing"
    s["game_no"] += 1
    s["game_id"] = seeds.game_id()
    change = Change(s, "start", player, lobby_changed=True)
    _deal_if_needed(s, change, now, seeds.wall_seed)
    s["window_seed"] = seeds.wall_seed()  # the recorded randomness of the claim windows' timing
    return change


def rematch(state: RoomState, player: str) -> Change:
    require_member(state, player)
    if state["status"] != "finished":
        raise RoomError(ErrorCode.GAME_NOT_FINISHED, "the game is not finished")
    s = copy_state(state)
    s["status"] = "lobby"
    s["game"] = None
    s["pause"] = None
    for i, seat in enumerate(s["seats"]):
        if seat is None:
            continue
        if not seat["bot"] and seat.get("player") not in s["members"]:
            s["seats"][i] = None  # left during the game
        else:
            seat["ready"] = seat["bot"]
            seat["auto"] = seat["bot"]
            seat["away"] = None
    return Change(s, "rematch", player, lobby_changed=True)


def refresh_pending(s: RoomState, now: int) -> None:
    """Start the clock of every decision the table opened; a decision still open (the same
    id, as the engine names it: ``game.pending``) keeps its start time, and so its deadline.

    A claim window that closes and reopens in one step (a 叮 seat's automatic discard after
    the next draw) is a new decision with a new id for every seat asked, even a seat asked
    in both: it gets the whole claim time again."""
    old = s["pending"]
    decisions = game.pending(game_of(s))
    kinds = {str(seat): kind for seat, (kind, _) in decisions.items()}
    auto = _no_choice(s, kinds)
    acts = _auto_acts(s, kinds)
    new: dict[str, Pending] = {}
    for seat, (kind, decision) in decisions.items():
        k = str(seat)
        was = old.get(k)
        since = was["since"] if was is not None and was["id"] == decision else now
        p: Pending = {"kind": kind, "since": since, "id": decision, "auto": k in auto}
        act = acts.get(k)
        if act is not None:
            p["act"] = act
        new[k] = _same(was, p)
    # an unchanged map (or record) stays the same object: the commit's patch
    # (server/storage/patches.py) skips it at once, and nothing changes them in place (they
    # are only ever replaced)
    s["pending"] = _same(old, new)


def _same(old: T | None, new: T) -> T:
    """``old`` when it equals ``new`` (kept, so it stays shared), else ``new``."""
    return old if old is not None and old == new else new


def _no_choice(s: RoomState, kinds: dict[str, DecisionKind]) -> list[str]:
    """The seats of players in a claim window whose only legal answer is "pass" — or who
    said "no claims" and cannot win: the server passes for them (not asked, no deadline;
    server/room/windows.py). A seat a bot plays while its player is away is listed too: the
    bot answers for it (its deadline comes first), and a player who takes the seat back
    during the window (``join_room``, a resume) is not asked either."""
    out = []
    seats = s["seats"]
    for k, kind in kinds.items():
        if kind != "claim":
            continue
        seat = seats[int(k)]
        if seat is None or seat["bot"]:
            continue
        toggles = seat.get("toggles")
        no_claims = bool(toggles.get("no_claims", False)) if toggles else False
        for a in game.legal(game_of(s), int(k), s["id"]):
            t = a.get("type")
            if t != "pass" and (not no_claims or t == "win"):
                break  # a choice
        else:
            out.append(k)
    if len(out) > 1:
        out.sort()
    return out


def _auto_acts(s: RoomState, kinds: dict[str, DecisionKind]) -> dict[str, GameJSON]:
    """The actions the server takes at once for players who asked for it: a legal win
    (``auto_win``), the only possible discard (``auto_discard``)."""
    out: dict[str, GameJSON] = {}
    seats = s["seats"]
    for k, kind in kinds.items():
        seat = seats[int(k)]
        if seat is None or seat["bot"] or seat.get("auto") or not seat.get("toggles"):
            continue
        t = toggles_of(s, int(k))
        if not (t["auto_win"] or t["auto_discard"]):
            continue
        legal = game.legal(game_of(s), int(k), s["id"])
        wins = [a for a in legal if a.get("type") == "win"]
        if t["auto_win"] and wins:
            out[k] = wins[0]
        elif (
            t["auto_discard"]
            and kind == "turn"
            and len(legal) == 1
            and legal[0].get("type") == "discard"
        ):
            out[k] = legal[0]
    return out


def _after_game_step(s: RoomState, change: Change, now: int) -> None:
    refresh_pending(s, now)
    if game.finished(game_of(s)):
        s["status"] = "finished"
        summary = game.summary(game_of(s))
        gid = game_id_of(s)
        if gid is not None:
            summary["game_id"] = gid
        # the last game's summary only (the archive keeps every game): ten of them, as the
        # room kept before, grew each room's state for its first ten games (issue 34)
        s["history"] = [summary]
        change.lobby_changed = True
        change.notice = {"type": "game_over", "summary": summary}
        s["next_hand_at"] = None
    elif game.between_hands(game_of(s)):
        s["next_hand_at"] = now + s["options"]["hand_pause_ms"]


def play(state: RoomState, player: str, action: GameJSON, now: int) -> Change:
    require_member(state, player)
    if state["status"] != "playing":
        raise RoomError(ErrorCode.GAME_NOT_STARTED, "no game is being played")
    seat = seat_of(state, player)
    if seat is None:
        raise RoomError(ErrorCode.NOT_SEATED, "spectators cannot play")
    pause = held(state)
    if pause is not None:
        raise RoomError(ErrorCode.PAUSED, f"{pause['name']} paused the game")
    decision = action.get("seq")
    if not isinstance(decision, int) or isinstance(decision, bool):
        raise RoomError(
            ErrorCode.BAD_MESSAGE,
            "action.seq is required: the table seq of the decision it answers "
            "(the seq of the legal entry, or game.seq)",
        )
    full = game.complete_action(game_of(state), action, seat)
    try:
        new_game, events = game.apply(game_of(state), full, room=state["id"])
    except game.GameError as exc:
        raise RoomError(ErrorCode.ILLEGAL_ACTION, exc.message, {"table_code": exc.code}) from None
    s = _copy_game_step(state)
    s["game"] = new_game
    change = Change(s, "action", player, events=events, actions=[full])
    _after_game_step(s, change, now)
    return change


def tick(
    state: RoomState,
    now: int,
    grace_ms: int,
    bot_delay_ms: int,
    rng: random.Random,
    max_steps: int = 32,
    bot_choose: game.Chooser | None = None,
    wall_seed: WallSeed | None = None,
    answers: Answers | None = None,
) -> Change | None:
    """Apply everything due at ``now`` (timeouts, bot moves, grace expiry, next deal, the
    close of a claim window with the ``answers`` held for it). A deal's wall comes from
    ``wall_seed()`` (the server's: the OS's randomness), or from ``rng`` when none is given.

    Bot moves are the real bot's (``game.bot_action``), decided by ``bot_choose`` (the
    shell's bot pool, with its time budget; None: here, without one)."""
    s = _copy_game_step(state)
    change = Change(s, "tick", None)
    seed = wall_seed if wall_seed is not None else rng_wall_seed(rng)
    steps = 0
    while steps < max_steps:
        # (the first scan is of ``state`` itself, unchanged: its deadlines are known when it
        # was committed; ``s`` is changed in place by every step)
        if steps == 0:
            ds = committed_deadlines(state, grace_ms, bot_delay_ms, answers)
        else:
            ds = deadlines(s, grace_ms, bot_delay_ms)
        due = [d for d in ds if d[0] <= now]
        if not due:
            break
        _at, kind, i = min(due)
        steps += 1
        if _tick_step(s, change, now, kind, i, rng, bot_choose, seed, answers):
            break
    if steps == 0:
        return None
    return change


def _tick_step(
    s: RoomState,
    change: Change,
    now: int,
    kind: str,
    i: int,
    rng: random.Random,
    bot_choose: game.Chooser | None,
    wall_seed: WallSeed,
    answers: Answers | None,
) -> bool:
    """Apply the due ``kind`` of seat ``i`` to ``s`` (changed in place, told to
    ``change``); whether the tick stops there (a claim window closed: one per commit)."""
    if kind == "grace":
        seats = list(s["seats"])  # (the seats are shared with the state before: copied)
        seat = seat_at(s, i).copy()
        seat["auto"] = True
        seats[i] = seat
        s["seats"] = seats
        change.lobby_changed = True
        change.notice = {"type": "bot_took_over", "seat": i}
        return False
    if kind == "deal":
        s["next_hand_at"] = None
        _deal_if_needed(s, change, now, wall_seed)
        return False
    p = s["pending"].get(str(i))
    if p is not None and p["kind"] == "claim":
        # the whole window closes in this one commit, whoever could claim: the number
        # of commits does not tell whether a seat could (two per window: the discard
        # and the close)
        close_window(s, change, now, answers, rng, bot_choose)
        _after_game_step(s, change, now)
        return True
    parsed = None
    if kind == "bot":
        action = game.bot_action(game_of(s), i, rng, bot_choose, s["id"])
    elif kind == "act":
        action = dict(_act_of(p))
    else:  # the server's timeout: not parsed again
        action, parsed = game.server_action(game_of(s), i, timeout=True)
    s["game"], events = game.apply(game_of(s), action, parsed, s["id"])
    change.actions.append(action)
    change.events.extend(events)
    _after_game_step(s, change, now)
    return False


def _act_of(p: Pending | None) -> GameJSON:
    """The action of a decision the server answers by the player's own setting (``act``:
    the tick only calls it "act" then)."""
    act = None if p is None else p.get("act")
    if act is None:
        raise RoomError(ErrorCode.ILLEGAL_ACTION, "no automatic action for this seat")
    return act


def _asked_in_window(state: RoomState, seat: int) -> bool:
    """Whether the player in ``seat`` is asked in the claim window open in the room's game
    now (not paused; a seat a bot plays is not asked)."""
    if state["status"] != "playing" or held(state) is not None:
        return False
    p = state["pending"].get(str(seat))
    s = state["seats"][seat]
    return (
        p is not None
        and p["kind"] == "claim"
        and s is not None
        and not s["bot"]
        and not s.get("auto")
    )


def answer(
    state: RoomState,
    player: str,
    action: GameJSON,
    now: int,
    answers: Answers | None,
    grace_ms: int,
    bot_delay_ms: int,
) -> Change | Held:
    """A player's action (:func:`play`), or, for a player's answer to a claim window, the
    answer to hold outside the room's commits (:class:`Held`) until the window closes: it
    is checked against the engine now (bad input changes nothing) and closes the window at
    once — the returned change, one commit with every answer — when it was the last one
    missing and every other answer is due (and no bot has to decide: a bot decides in the
    timer's tick, off the event loop)."""
    require_member(state, player)
    seat = seat_of(state, player)
    if seat is None or not _asked_in_window(state, seat):
        return play(state, player, action, now)
    decision = action.get("seq")
    if not isinstance(decision, int) or isinstance(decision, bool):
        return play(state, player, action, now)  # (its error)
    answered = held_answers(state, answers)
    if seat in answered:
        raise RoomError(
            ErrorCode.ILLEGAL_ACTION,
            "you have answered this claim already",
            {"table_code": "not-waiting-for-seat"},
        )
    full = game.complete_action(game_of(state), action, seat)
    # checked now (applied when the window closes): one of the seat's legal actions (known
    # since the commit that opened the window) is accepted, anything else is asked of the
    # engine, which refuses it with its reason (or, in a form the list does not spell, takes it)
    if full not in game.legal(game_of(state), seat, state["id"]):
        try:
            game.apply(game_of(state), full, room=state["id"])
        except game.GameError as exc:
            raise RoomError(
                ErrorCode.ILLEGAL_ACTION, exc.message, {"table_code": exc.code}
            ) from None
    record: HeldAnswer = {"g": int(state.get("game_no") or 0), "a": full}
    both: Answers = {**(answers or {}), seat: record}
    ds = deadlines(state, grace_ms, bot_delay_ms, both)
    window = {int(k) for k, q in state["pending"].items() if q["kind"] == "claim"}
    close_at = next((at for at, _, i in ds if i in window), None)
    if close_at is not None and close_at <= now and not window_needs_bot(state, both):
        s = _copy_game_step(state)
        change = Change(s, "action", player)
        close_window(s, change, now, both, None, None)
        _after_game_step(s, change, now)
        return change
    return Held(seat, record, min(at for at, _, _ in ds) if ds else None)
