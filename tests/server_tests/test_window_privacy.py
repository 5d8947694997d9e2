"""No prompt without a choice, and nobody can tell: a seat whose only answer to a discard is
"pass" is not asked (no legal actions, no deadline); the server passes for it at a time
drawn exactly as a bot's answer is. A player's answer is held, not committed, and every
window closes in one commit (the discard and the close: two commits per window, whoever
could claim) at the latest of the drawn times and the answers. So what the other seats
receive during a claim window — the number of commits and frames, their times — is the
same whether that seat could have claimed (and was a bot that passed) or could not (and
was passed for).

Room logic (``server.room.rooms``) with an injected clock; frames built by ``server.room.frames``
for an observer seat, sparse and dense."""

from __future__ import annotations

import hashlib
import random

import table
from server.flow.entropy import new_game_id
from server.room import facts, frames, game_room, rooms, schedule
from server.room.game_room import Seeds
from server.room.options import validate_options
from server.room.stored import older
from server.room.windows import window_delay

GRACE_MS = 60_000
BOT_DELAY_MS = 600
WINDOW_MS = 1000
OBSERVER = 0
WATCHED = 2  # a human seat (no-choice windows) in one room, a bot in the other

JSON = dict


def _room(seed: int, watched_is_bot: bool) -> JSON:
    opts = validate_options(
        "mcr",
        {
            "length": "hands",
            "hands": 2,
            "hand_pause_ms": 0,
            "turn_seconds": 20,
            "claim_seconds": 10,
            "window_ms": WINDOW_MS,
        },
    )
    s = rooms.new_room("r_1", "ABCDEF", "p0", "P0", "mcr", opts, 0).state
    for i in range(4):
        p = f"p{i}"
        if i:
            s = rooms.join(s, p, p.upper()).state
        if (i == WATCHED and watched_is_bot) or i in (1, 3):
            s = rooms.add_bot(s, "p0", i).state
        else:
            s = rooms.sit(s, p, i).state
            s = rooms.ready(s, p, True).state
    n = iter(range(1, 100))

    def wall_seed() -> str:
        return hashlib.sha256(f"{seed}:{next(n)}".encode()).hexdigest()

    return game_room.start(s, "p0", 1000, Seeds(wall_seed, new_game_id)).state


def _play(seed: int, watched_is_bot: bool) -> list[tuple[bool, list[tuple[int, int, str]]]]:
    """Every claim window opened by another seat's discard: (whether the watched seat had a
    choice, [(ms after the discard, the observer's frame size, what the commit was)]). The
    human seats answer at once: their answers are held (``game_room.answer``)."""
    s = _room(seed, watched_is_bot)
    rng = random.Random(seed)
    player = table.RandomPlayer(rng, claim_rate=0.0)
    now = 1000
    windows: list[tuple[bool, list[tuple[int, int, str]]]] = []
    current: tuple[int, bool, list[tuple[int, int, str]]] | None = None
    answers: game_room.Answers = {}
    version = 1
    for _ in range(3000):
        if s["status"] != "playing":
            break
        kinds = older(s)["pending_kinds"]
        held = game_room.held_answers(s, answers)
        humans = [
            int(k)
            for k in kinds
            if int(k) != WATCHED or not watched_is_bot
            if k not in older(s)["pending_auto"] and not s["seats"][int(k)]["bot"]
            if int(k) not in held
        ]
        if humans:  # a human with a decision acts at once (it passes in claim windows)
            seat = min(humans)
            st = table.GameState.from_json(s["game"])
            a = player.choose(st, seat)
            assert a is not None
            if kinds[str(seat)] == "claim":
                a = table.Action(table.ActionType.PASS, seat, st.seq)
            out = game_room.answer(
                s,
                f"p{seat}",
                {k: v for k, v in a.to_json().items() if k != "seat"},
                now,
                answers,
                GRACE_MS,
                BOT_DELAY_MS,
            )
            if isinstance(out, game_room.Held):
                assert kinds[str(seat)] == "claim"
                answers = {**answers, out.seat: out.record}
                assert out.deadline == schedule.next_deadline(s, GRACE_MS, BOT_DELAY_MS, answers)
                continue  # held: no commit
            ch = out
        else:  # the room's own deadlines: the window's close, bots, deals
            now = max(now, schedule.next_deadline(s, GRACE_MS, BOT_DELAY_MS, answers) or now)
            ch = game_room.tick(s, now, GRACE_MS, BOT_DELAY_MS, rng, answers=answers)
            assert ch is not None
        entry = facts.build_entry(ch, now, GRACE_MS, BOT_DELAY_MS)
        version += 1
        size = len(frames.events_frame("r_1", version, entry, OBSERVER))
        before = s
        s = ch.state
        if game_room.window_key(s) != game_room.window_key(before):
            answers = {}  # (the close applied them; the store deletes them)
        types = [e["type"] for e in ch.events]
        if "discard" in types and s["game"]["phase"] == "claim":
            discarder = s["game"]["hand"]["discarder"]
            if discarder != WATCHED and current is not None:
                windows.append((current[1], current[2]))
            current = None
            if discarder not in (WATCHED, OBSERVER):
                choice = bool(table.legal_actions(table.GameState.from_json(s["game"]), WATCHED))
                choice = choice and any(
                    a.type is not table.ActionType.PASS
                    for a in table.legal_actions(table.GameState.from_json(s["game"]), WATCHED)
                )
                current = (now, choice, [])
                if not watched_is_bot:
                    # the seat with no choice is not asked, and has no deadline
                    assert (str(WATCHED) in older(s)["pending_auto"]) == (not choice)
                    if not choice:
                        assert entry["legal"][str(WATCHED)] == []
                        assert str(WATCHED) not in entry["deadlines"]
            continue
        if current is not None and before["game"]["phase"] == "claim":
            # the close: one commit with every seat's answer, in turn order, at the latest
            # drawn time of the automatic answers (the humans answered at once)
            seats = [
                int(k) for k, kind in older(before)["pending_kinds"].items() if kind == "claim"
            ]
            d = before["game"]["hand"]["discarder"]
            order = sorted(seats, key=lambda i: (i - d - 1) % 4)
            assert [a["seat"] for a in ch.actions][: len(order)] == order
            auto = [
                i
                for i in seats
                if before["seats"][i]["bot"] or str(i) in older(before)["pending_auto"]
            ]
            k = str(WATCHED)
            if auto:
                assert now - older(before)["pending_since"][k] == max(
                    window_delay(
                        before["window_seed"], older(before)["pending_ids"][k], i, WINDOW_MS
                    )
                    for i in auto
                )
            seen = frames.visible_events(entry, OBSERVER)
            assert all(e["type"] != "answered" or e["seat"] == OBSERVER for e in seen)
            current[2].append((now - current[0], size, "close"))
            assert s["game"]["phase"] != "claim" or s["game"]["seq"] != before["game"]["seq"]
            windows.append((current[1], current[2]))
            current = None
    return windows


def test_every_window_is_two_commits_whoever_could_claim():
    """In both rooms every window opened by a discard closes in exactly one commit after it,
    whether the watched seat could claim (a bot that passed) or not (passed for), at a time
    in the drawn range."""
    seen: dict[str, list[int]] = {"passed for": [], "bot, could claim": [], "bot": []}
    for seed in range(3):
        for choice, w in _play(seed, watched_is_bot=False):
            assert [who for _, _, who in w] == ["close"]
            if not choice:
                seen["passed for"] += [t for t, _, _ in w]
        for choice, w in _play(seed, watched_is_bot=True):
            assert [who for _, _, who in w] == ["close"]
            seen["bot, could claim" if choice else "bot"] += [t for t, _, _ in w]
    for key, ts in seen.items():
        assert ts, f"no window where the watched seat was {key}"
        assert int(0.4 * WINDOW_MS) <= min(ts) and max(ts) <= WINDOW_MS, key
