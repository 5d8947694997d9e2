"""Alternating A/B rounds for the side-by-side benchmarks: base and new take turns (base
first in odd rounds, new first in even ones), so the machine's drift hits both alike."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def alternate(rounds: int, base: Path, new: Path, run: Callable[[Path], T]) -> dict[str, list[T]]:
    """``run`` on each checkout once per round, in alternating order: {"base": [...], "new":
    [...]}, a result per round each."""
    runs: dict[str, list[T]] = {"base": [], "new": []}
    for r in range(rounds):
        order = [("base", base), ("new", new)]
        if r % 2:
            order.reverse()
        for label, tree in order:
            runs[label].append(run(tree))
        print(f"round {r + 1}/{rounds} done", file=sys.stderr)
    return runs
