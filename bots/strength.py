"""Bot strength: play complete games with the table engine and count who wins.

Two match-ups per rule set:

* ``bot-vs-random``: one bot and three of the table's random players (the bot's seat
  rotates game by game); an equal player would win 25 % of the hands that have a winner;
* ``bot-vs-bot``: four bots (self-play), next to ``random-vs-random`` (four random players)
  for the reference win and draw rates.

The bot decides from :func:`table.view` only (the same JSON a client receives), never from
the full state. Used by ``scripts/bot_strength.py`` and the tests (small runs).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bots.player import Bot

__all__ = ["MatchResult", "play_match"]


@dataclass
class MatchResult:
    ruleset: str
    matchup: str
    games: int = 0
    hands: int = 0
    draws: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # by role: bot seats first
    deal_ins: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    bot_decisions: int = 0
    bot_seconds: float = 0.0
    bot_times: list[float] = field(default_factory=list)
    seconds: float = 0.0
    illegal: int = 0

    def to_json(self) -> dict[str, Any]:
        won = max(1, self.hands - self.draws)
        return {
            "ruleset": self.ruleset,
            "matchup": self.matchup,
            "games": self.games,
            "hands": self.hands,
            "draws": self.draws,
            "draw_rate": round(self.draws / max(1, self.hands), 3),
            "wins_by_role": self.wins,
            "win_share_role0": round(self.wins[0] / won, 3),
            "win_rate_role0": round(self.wins[0] / max(1, self.hands), 3),
            "deal_ins_by_role": self.deal_ins,
            "net_points_by_role": self.points,
            "bot_ms_per_decision": round(1000 * self.bot_seconds / max(1, self.bot_decisions), 2),
            "bot_ms_p99": round(1000 * _pct(self.bot_times, 99), 2),
            "bot_ms_max": round(1000 * max(self.bot_times, default=0.0), 2),
            "seconds": round(self.seconds, 1),
            "illegal_actions": self.illegal,
        }


def play_match(
    ruleset: str,
    matchup: str,
    games: int,
    seed: int = 0,
    hands_per_game: int | None = 4,
) -> MatchResult:
    """Play ``games`` games of ``matchup`` (bot-vs-random, bot-vs-bot, random-vs-random)."""
    # imported here: the bots package itself (bots.choose) does not need the table engine
    from table import Action, ActionType, GameConfig, Phase, apply, new_game, view
    from table.player import RandomPlayer

    rng = random.Random(seed)
    res = MatchResult(ruleset, matchup)
    t0 = time.perf_counter()
    n_bots = {"bot-vs-random": 1, "bot-vs-bot": 4, "random-vs-random": 0}[matchup]
    for g in range(games):
        first_bot = g % 4
        roles = [(s - first_bot) % 4 for s in range(4)]  # role 0 = the (first) bot's seat
        bots = {s: Bot(random.Random(rng.random())) for s in range(4) if roles[s] < n_bots}
        randoms = RandomPlayer(random.Random(rng.random()))
        state = new_game(GameConfig(ruleset, max_hands=hands_per_game))
        for _ in range(100_000):
            if state.phase is Phase.GAME_OVER:
                break
            if state.phase is Phase.BETWEEN_HANDS:
                act = Action(ActionType.START_HAND, None, state.seq, seed=rng.randbytes(32))
            else:
                hand = state.hand
                assert hand is not None
                seat = hand.turn if state.phase is Phase.TURN else rng.choice(hand.pending)
                if seat in bots:
                    v = view(state, seat)
                    t1 = time.perf_counter()
                    choice = bots[seat].choose(v, v["legal_actions"])
                    dt = time.perf_counter() - t1
                    res.bot_seconds += dt
                    res.bot_times.append(dt)
                    res.bot_decisions += 1
                    if choice not in v["legal_actions"]:
                        res.illegal += 1
                    act = Action.from_json(dict(choice))
                else:
                    a = randoms.choose(state, seat)
                    assert a is not None
                    act = a
            state, events = apply(state, act)
            for e in events:
                _count(e.type, e.data, roles, res)
        else:
            raise RuntimeError("game did not finish")
        res.games += 1
    res.seconds = time.perf_counter() - t0
    return res


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100 * len(s)) - 1))]


def _count(typ: str, data: Any, roles: Sequence[int], res: MatchResult) -> None:
    if typ == "hand_ended":
        res.hands += 1
        if data.get("result") == "draw":
            res.draws += 1
    elif typ == "hand_won":
        disc = data.get("discarder")
        if disc is not None and data.get("how") in ("discard", "robbing_kong"):
            res.deal_ins[roles[disc]] += 1
        for w in data.get("winners", []):
            res.wins[roles[int(w["seat"])]] += 1
            for p in w.get("payments", []):
                res.points[roles[int(p["payee"])]] += int(p["amount"])
                res.points[roles[int(p["payer"])]] -= int(p["amount"])
