"""Self-play: drive complete games with simple players, and ``mahjong-sim``.

``mahjong-sim --ruleset R --games N [--seed S] [--json]`` plays N complete games with the
legal-random players and prints a statistics table: hands, wins (self-drawn / on a discard /
robbing a kong / flower wins), multiple winners, exhaustive draws, how often each pattern was
scored, average and maximum hand value, which tiles dealt in, and hands/s.

The wall seeds come from a ``random.Random(S)`` instance so a run is reproducible; the server
uses :mod:`secrets` instead.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.tiles import Tile
from table.engine import apply, new_game
from table.errors import TableError
from table.game_state import GameState
from table.model import Action, ActionType, Event, GameConfig, Phase
from table.player import RandomPlayer

__all__ = ["GameRecord", "Stats", "main", "play_game"]

Check = Callable[[GameState, Action, GameState, list[Event]], None]


@dataclass
class GameRecord:
    initial: GameState
    actions: list[Action]
    final: GameState
    events: list[Event]


def play_game(
    config: GameConfig | str,
    rng: random.Random,
    *,
    timeout_rate: float = 0.0,
    check: Check | None = None,
    max_actions: int = 200_000,
) -> GameRecord:
    """Play one complete game with :class:`RandomPlayer` s sharing ``rng``.

    Claim-window answers come in a random order; with ``timeout_rate`` the server's
    ``timeout`` is sent instead of a player's choice. ``check`` sees every transition.
    """
    state = new_game(config)
    initial = state
    player = RandomPlayer(rng)
    actions: list[Action] = []
    events: list[Event] = []
    for _ in range(max_actions):
        if state.phase is Phase.GAME_OVER:
            break
        hand = state.hand
        if state.phase is Phase.BETWEEN_HANDS:
            action: Action | None = Action(
                ActionType.START_HAND, None, state.seq, seed=rng.randbytes(32)
            )
        else:
            assert hand is not None
            seat = hand.turn if state.phase is Phase.TURN else rng.choice(hand.pending)
            if timeout_rate and rng.random() < timeout_rate:
                action = Action(ActionType.TIMEOUT, seat, state.seq)
            else:
                action = player.choose(state, seat)
        if action is None:
            raise RuntimeError(f"no action for the table at seq {state.seq} ({state.phase})")
        new, ev = apply(state, action)
        if check is not None:
            check(state, action, new, ev)
        actions.append(action)
        events.extend(ev)
        state = new
    else:
        raise RuntimeError("game did not finish")
    return GameRecord(initial, actions, state, events)


@dataclass
class Stats:
    ruleset: str
    games: int = 0
    hands: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    winners_per_win: Counter[int] = field(default_factory=Counter)
    draws: int = 0
    patterns: Counter[str] = field(default_factory=Counter)
    pattern_names: dict[str, str] = field(default_factory=dict)
    values: list[int] = field(default_factory=list)
    deal_in: Counter[str] = field(default_factory=Counter)
    instant: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def add(self, rec: GameRecord) -> None:
        self.games += 1
        for e in rec.events:
            if e.type == "hand_ended":
                self.hands += 1
                if e.data["result"] == "draw":
                    self.draws += 1
            elif e.type == "hand_won":
                how = str(e.data["how"])
                self.wins[how] += 1
                winners = e.data["winners"]
                self.winners_per_win[len(winners)] += 1
                if how in ("discard", "robbing_kong"):
                    self.deal_in[str(e.data["tile"])] += 1
                for w in winners:
                    sc = w["score"]
                    self.values.append(int(sc["total"]))
                    for it in sc["items"]:
                        self.patterns[it["id"]] += 1
                        self.pattern_names[it["id"]] = f"{it['name']} {it.get('en', '')}".strip()
            elif e.type == "instant":
                self.instant[str(e.data["kind"])] += 1

    def to_json(self) -> dict[str, Any]:
        n_wins = sum(self.wins.values())
        return {
            "ruleset": self.ruleset,
            "games": self.games,
            "hands": self.hands,
            "wins": dict(self.wins),
            "wins_total": n_wins,
            "winners_per_win": {str(k): v for k, v in sorted(self.winners_per_win.items())},
            "draws": self.draws,
            "avg_value": round(sum(self.values) / len(self.values), 2) if self.values else 0,
            "max_value": max(self.values) if self.values else 0,
            "patterns": dict(self.patterns.most_common()),
            "deal_in_tiles": dict(self.deal_in.most_common()),
            "instant_payments": dict(self.instant),
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands / self.seconds, 1) if self.seconds else 0,
        }

    def table(self) -> str:
        j = self.to_json()
        hands = max(1, self.hands)
        n_patterns = max(1, len(self.values))
        lines = [
            f"rule set {self.ruleset}: {self.games} games, {self.hands} hands "
            f"in {self.seconds:.1f}s ({j['hands_per_second']} hands/s)",
            "",
            f"{'result':<24}{'count':>8}{'% hands':>10}",
        ]
        for how, n in sorted(self.wins.items()):
            lines.append(f"{'win: ' + how:<24}{n:>8}{100 * n / hands:>9.2f}%")
        lines.append(f"{'exhaustive draw':<24}{self.draws:>8}{100 * self.draws / hands:>9.2f}%")
        for k, n in sorted(self.winners_per_win.items()):
            lines.append(f"{f'{k} winner(s) on a win':<24}{n:>8}")
        lines.append("")
        lines.append(f"hand value: average {j['avg_value']}, maximum {j['max_value']}")
        lines.append("")
        lines.append(f"wins scored: {len(self.values)}")
        lines.append(f"{'pattern':<40}{'count':>8}{'% wins':>9}")
        for pid, n in self.patterns.most_common():
            name = f"{pid} {self.pattern_names.get(pid, '')}"[:39]
            lines.append(f"{name:<40}{n:>8}{100 * n / n_patterns:>8.2f}%")
        if self.deal_in:
            total = sum(self.deal_in.values())
            lines.append("")
            lines.append(f"{'tile that dealt in':<24}{'count':>8}{'% deal-ins':>12}")
            for code, n in sorted(self.deal_in.items(), key=lambda kv: Tile.parse(kv[0])):
                lines.append(f"{code:<24}{n:>8}{100 * n / total:>11.2f}%")
        if self.instant:
            lines.append("")
            lines.append(
                "instant payments / penalties: "
                + ", ".join(f"{r} {n}" for r, n in sorted(self.instant.items()))
            )
        return "\n".join(lines)


def run(ruleset: str, games: int, seed: int, **kw: Any) -> Stats:
    rng = random.Random(seed)
    stats = Stats(ruleset)
    t0 = time.perf_counter()
    for _ in range(games):
        stats.add(play_game(ruleset, rng, **kw))
    stats.seconds = time.perf_counter() - t0
    return stats


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="mahjong-sim", description="Play complete games with simple players; statistics."
    )
    ap.add_argument("--ruleset", "-r", required=True)
    ap.add_argument("--games", "-n", type=int, default=10)
    ap.add_argument("--seed", "-s", type=int, default=0)
    ap.add_argument("--hands", type=int, default=None, help="N hands per game instead of rounds")
    ap.add_argument("--json", action="store_true", help="print the statistics as JSON")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    config = GameConfig(args.ruleset, max_hands=args.hands)
    try:
        config.params()
        rng = random.Random(args.seed)
        stats = Stats(args.ruleset)
        t0 = time.perf_counter()
        for _ in range(args.games):
            stats.add(play_game(config, rng))
        stats.seconds = time.perf_counter() - t0
    except TableError as e:
        print(f"mahjong-sim: {e.code}: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(stats.to_json(), ensure_ascii=False, indent=2))
    else:
        print(stats.table())
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
