"""No prompt without a choice, and nobody can tell: a seat whose only answer to a discard is
"pass" is not asked (no legal actions, no deadline); the server passes for it at a time
drawn exactly as a bot's answer is, each answer its own commit. So what the other seats
receive during a claim window — the number of commits and frames, their sizes, their times
— is the same whether that seat could have claimed (and was a bot that passed) or could
not (and was passed for).

Room logic (``server.rooms``) with an injected clock; frames built by ``server.frames``
for an observer seat, sparse and dense."""

from __future__ import annotations

import hashlib
import random

import table
from server import facts, frames, game_room, rooms
from server.windows import window_delay

GRACE_MS = 60_000
BOT_DELAY_MS = 600
WINDOW_MS = 1000
OBSERVER = 0
WATCHED = 2  # a human seat (no-choice windows) in one room, a bot in the other

JSON = dict


def _room(seed: int, watched_is_bot: bool) -> JSON:
    opts = rooms.validate_options(
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

    return game_room.start(s, "p0", 1000, wall_seed).state


def _play(seed: int, watched_is_bot: bool) -> list[tuple[bool, list[tuple[int, int, str]]]]:
    """Every claim window opened by another seat's discard: (whether the watched seat had a
    choice, [(ms after the discard, the observer's frame size, what the commit was)])."""
    s = _room(seed, watched_is_bot)
    rng = random.Random(seed)
    player = table.RandomPlayer(rng, claim_rate=0.0)
    now = 1000
    windows: list[tuple[bool, list[tuple[int, int, str]]]] = []
    current: tuple[int, bool, list[tuple[int, int, str]]] | None = None
    version = 1
    for _ in range(3000):
        if s["status"] != "playing":
            break
        kinds = s["pending_kinds"]
        humans = [
            int(k)
            for k in kinds
            if int(k) != WATCHED or not watched_is_bot
            if k not in s["pending_auto"] and not s["seats"][int(k)]["bot"]
        ]
        if humans:  # a human with a decision acts at once (it passes in claim windows)
            seat = min(humans)
            st = table.GameState.from_json(s["game"])
            a = player.choose(st, seat)
            assert a is not None
            if kinds[str(seat)] == "claim":
                a = table.Action(table.ActionType.PASS, seat, st.seq)
            ch = game_room.play(
                s, f"p{seat}", {k: v for k, v in a.to_json().items() if k != "seat"}, now
            )
        else:  # the room's own deadlines: bots, the server's passes, deals
            now = max(now, game_room.next_deadline(s, GRACE_MS, BOT_DELAY_MS) or now)
            ch = game_room.tick(s, now, GRACE_MS, BOT_DELAY_MS, rng)
            assert ch is not None
        entry = facts.build_entry(ch, now, GRACE_MS, BOT_DELAY_MS)
        version += 1
        size = len(frames.events_frame("r_1", version, entry, OBSERVER))
        before = s
        s = ch.state
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
                    assert (str(WATCHED) in s["pending_auto"]) == (not choice)
                    if not choice:
                        assert entry["legal"][str(WATCHED)] == []
                        assert str(WATCHED) not in entry["deadlines"]
                        k = str(WATCHED)
                        due = s["pending_since"][k] + window_delay(
                            s["window_seed"], s["pending_ids"][k], WATCHED, WINDOW_MS
                        )
                        assert (due, "pass", WATCHED) in game_room.deadlines(
                            s, GRACE_MS, BOT_DELAY_MS
                        )
            continue
        if current is not None and before["game"]["phase"] == "claim":
            actor = ch.actions[0]["seat"] if len(ch.actions) == 1 else -1
            if actor == WATCHED and ch.kind == "tick":
                # the watched seat's answer: a commit of its own, at the drawn time, and the
                # observer's frame of it tells nothing (answers are private)
                k = str(WATCHED)
                assert [a["seat"] for a in ch.actions] == [WATCHED]
                assert now - before["pending_since"][k] == window_delay(
                    before["window_seed"], before["pending_ids"][k], WATCHED, WINDOW_MS
                )
                seen = frames.visible_events(entry, OBSERVER)
                assert all(e["type"] != "answered" for e in seen)
            current[2].append((now - current[0], size, f"seat{actor}"))
            if s["game"]["phase"] != "claim" or s["game"]["seq"] != before["game"]["seq"]:
                windows.append((current[1], current[2]))
                current = None
    return windows


def test_a_seat_without_a_choice_is_passed_for_like_a_bot_that_passes():
    """In both rooms the watched seat's answer comes at the time drawn for it (checked at
    every answer in ``_play``), alone in its commit, invisible to the observer; here: both
    kinds of window occurred, and the times have the same range."""
    times: dict[str, list[int]] = {"passed for": [], "bot, could claim": [], "bot": []}
    for seed in range(3):
        for choice, w in _play(seed, watched_is_bot=False):
            if not choice:
                times["passed for"] += [t for t, _, who in w if who == f"seat{WATCHED}"]
        for choice, w in _play(seed, watched_is_bot=True):
            key = "bot, could claim" if choice else "bot"
            times[key] += [t for t, _, who in w if who == f"seat{WATCHED}"]
    for key, ts in times.items():
        assert ts, f"no window where the watched seat was {key}"
        assert int(0.4 * WINDOW_MS) <= min(ts) and max(ts) <= WINDOW_MS, key
