"""The server's per-action code without sockets or Redis: process CPU per action.

    python benchmarks/bench_hotpath.py [--actions 4000] [--players-only] [--payload patch|state]
        [--answers held|committed] [--count carried|commits] [--profile]

Four seated players in one zung-jung room play the load test's policy
(``loadtest.rooms.pick_action``: win, else pass, else a random discard; the room and the
moves are ``loadtest.selfplay``'s, shared with the events-frame test) through the same
functions the server runs per action: ``game_room.play`` (room logic, ``table.apply`` and the
state JSON), the room's deadlines (``facts.room_deadlines``), ``facts.build_entry`` (the log
entry with each pending seat's legal actions), what the commit sends to Redis (``--payload patch``, the
default: as ``server/flow/commits.py`` does, a patch from the state before, ``patches.diff``, in
msgpack, and the whole state every ``--snapshot-every`` commits and at a hand boundary;
``--payload state``: msgpack of the whole state every commit, as at ``d1dd70d``), msgpack of
the entry, the events frame of each of the four seats
(``frames.EntryFrames.frame``, one per seat view, as the fan-out builds them) and the ack.

A player's answer to a claim window goes through ``game_room.answer`` with the answers held
so far, as the server takes it since held answers (``--answers held``, the default): it is
checked and held (the record packed for ``server/storage/answer.lua``, the player acked; no commit,
no frames), and the window closes in one commit, in the request of the last answer missing
or in the timer's tick (``game_room.tick`` with the held answers), applying every answer in
turn order. ``--answers committed``: each answer is its own ``game_room.play`` and commit,
the model before held answers.

An action is every table action a commit carries (``--count carried``, the default: the
answers a window's close applies, the server's automatic passes (server/room/windows.py) and
the players' own moves; deals excepted), as at ``d1dd70d`` (the base of the issue-23
target), where each commit carried one. ``--count commits`` counts one per commit (the
count of this script between 2026-12-01 and held answers, when a tick that closed a window
with several automatic passes counted once). ``--players-only`` times only the players' own
actions (the measure before 2026-12-02).
Deals are neither timed nor counted (as at ``d1dd70d``). Times are
process CPU (``time.process_time``), so other load on the machine matters less than for
wall-clock numbers; sockets, Redis and the event loop are not included (see
``mahjong-loadtest`` for those).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from loadtest.selfplay import ROOM, next_change, next_step, started_room
from protocol import messages as m
from protocol.codec import encode
from server.process.config import Config
from server.room import facts, frames, game, game_room, rooms
from server.room.commands import boundary
from server.room.state import GameJSON, RoomState
from server.storage import patches
from server.storage.store import pack

RULESET = "zung-jung"


def _room(now: int) -> rooms.Change:
    return started_room(RULESET, now, hands=64, turn_seconds=0)[1]


def _deal(ch: rooms.Change) -> bool:
    return any(a.get("type") == "start_hand" for a in ch.actions)


def run(
    n_actions: int,
    players_only: bool = False,
    payload: str = "patch",
    held: bool = True,
    count_carried: bool = True,
) -> dict[str, float]:
    game.warm_up()
    cfg = Config()
    since_snapshot = 0  # commits since the last whole state was written

    def commit_payload(base: RoomState, new: RoomState) -> bytes:
        nonlocal since_snapshot
        if (
            payload == "patch"
            and since_snapshot + 1 < cfg.snapshot_every
            and not boundary(base, new)
        ):
            since_snapshot += 1
            return pack(patches.diff(base, new))
        since_snapshot = 0
        return pack(new)

    grace_ms, bot_delay_ms = int(cfg.grace_seconds * 1000), cfg.bot_delay_ms

    def build_entry(
        ch: rooms.Change, now: int, ds: list[facts.Deadline] | None = None
    ) -> dict[str, Any]:
        return facts.build_entry(ch, now, grace_ms, bot_delay_ms, ds)

    rng = random.Random(1)
    spent: dict[str, float] = defaultdict(float)

    def timed(name: str, fn: Callable[..., Any], *args: Any) -> Any:
        t = time.process_time()
        out = fn(*args)
        spent[name] += time.process_time() - t
        return out

    def play(*args: Any) -> rooms.Change:
        ch: rooms.Change = timed("game_room.play (engine + state JSON)", game_room.play, *args)
        return ch

    def answer(
        state: RoomState, player: str, action: GameJSON, now: int, answers: game_room.Answers
    ) -> rooms.Change | game_room.Held:
        out: rooms.Change | game_room.Held = timed(
            "game_room.answer (engine + state JSON)",
            game_room.answer,
            state,
            player,
            action,
            now,
            answers,
            grace_ms,
            bot_delay_ms,
        )
        return out

    tick_spent = [0.0]

    def tick(state: RoomState, now: int, answers: game_room.Answers | None = None) -> Any:
        t = time.process_time()
        out = game_room.tick(state, now + 10**7, grace_ms, bot_delay_ms, rng, answers=answers)
        tick_spent[0] = time.process_time() - t
        return out

    now = 0
    ch = _room(now)
    entry = build_entry(ch, now)
    s = ch.state
    answers: game_room.Answers = {}
    actions = 0
    while actions < n_actions:
        now += 10
        if s["status"] != "playing":
            ch = _room(now)
            since_snapshot = 0  # a new room's first commit writes its whole state
            s, entry = ch.state, build_entry(ch, now)
            answers = {}
            continue
        if held:
            step, moved = next_step(s, entry, answers, rng, now, answer, tick)
            if isinstance(step, game_room.Held):
                # held, not committed (server/storage/answer.lua gets the record): the state, the
                # log and the frames are unchanged; the player is acked
                answers[step.seat] = step.record
                timed("pack held answer", pack, step.record)
                ack = m.Ack(room=ROOM, seq=actions, client_seq=actions, held=True, re=1)
                timed("ack frame", lambda a=ack: encode(a.to_wire()))
                continue
            ch = step
        else:
            ch, moved = next_change(s, entry, rng, now, play, tick)
        carried = sum(1 for a in ch.actions if a.get("type") != "start_hand")
        if not moved and (players_only or _deal(ch)):
            # a deal (pause 0), or (--players-only) an automatic answer: not timed
            commit_payload(s, ch.state)
            s, entry = ch.state, build_entry(ch, now)
            if game_room.window_key(s) is None:
                answers = {}
            continue
        if not moved:
            spent["game_room.tick (automatic answers, window closes)"] += tick_spent[0]
        ds = timed("deadlines", facts.room_deadlines, ch.state, grace_ms, bot_delay_ms)
        entry = timed("build_entry (legal actions)", build_entry, ch, now, ds)
        if payload == "patch":
            timed("commit payload (patch or state)", commit_payload, s, ch.state)
        else:
            timed("pack room state", pack, ch.state)
        timed("pack log entry", pack, entry)
        ef = frames.EntryFrames()  # (shared by the seats with one view, as in Feeds.deliver)
        for seat in range(4):
            timed("events frames (4 seats)", ef.frame, ROOM, actions, entry, seat)
        if moved:
            ack = m.Ack(room=ROOM, seq=actions, client_seq=actions, duplicate=False, re=1)
            timed("ack frame", lambda a=ack: encode(a.to_wire()))
        s = ch.state
        if game_room.window_key(s) is None:
            answers = {}
        actions += max(carried, 1) if count_carried else 1
    return {k: v / actions * 1e6 for k, v in spent.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actions", type=int, default=4000)
    ap.add_argument(
        "--players-only",
        action="store_true",
        help="time only the players' own actions, not the server's automatic answers",
    )
    ap.add_argument(
        "--payload",
        choices=("patch", "state"),
        default="patch",
        help="what a commit writes: a patch (the whole state at times), as the server does"
        " (default), or the whole state every time, as at d1dd70d",
    )
    ap.add_argument(
        "--answers",
        choices=("held", "committed"),
        default="held",
        help="a player's answer to a claim window is held and the window closes in one"
        " commit, as the server does since held answers (default), or each answer is its own"
        " commit, as before them",
    )
    ap.add_argument(
        "--count",
        choices=("carried", "commits"),
        default="carried",
        help="actions counted: every table action a commit carries (default; the deals"
        " excepted), or one per commit (the count before held answers)",
    )
    ap.add_argument("--profile", action="store_true", help="cProfile (by tottime) instead")
    args = ap.parse_args()
    opts = (args.answers == "held", args.count == "carried")
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.runcall(run, args.actions, args.players_only, args.payload, *opts)
        pstats.Stats(prof).sort_stats("tottime").print_stats(30)
        return
    per = run(args.actions, args.players_only, args.payload, *opts)
    import mahjong_native

    print(f"implementation: {mahjong_native.implementation()} ({mahjong_native.describe()})")
    for name, us in sorted(per.items(), key=lambda kv: -kv[1]):
        print(f"{name:34s} {us:8.1f} µs/action")
    print(f"{'total':34s} {sum(per.values()):8.1f} µs/action (process CPU)")


if __name__ == "__main__":
    main()
