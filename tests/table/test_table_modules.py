"""The table package's shape: small modules (≤ 500 lines), no import cycle among them, no
private name imported from another module, each importable alone; and the rule flows'
named points (table/rule_flow.py) are each reached in play."""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from table import GameConfig
from table import flows as flows_module
from table.model import Claim
from table.rule_flow import RuleFlow
from table.sim import play_game
from table.working import WorkingCopy

TABLE = Path(__file__).resolve().parents[2] / "table"
MODULES = sorted(p.stem for p in TABLE.glob("*.py") if p.stem != "__init__")


def _imports(module: str) -> list[tuple[str, list[str]]]:
    """The ``table.*`` modules ``module`` imports (at any level), with the names taken."""
    tree = ast.parse((TABLE / f"{module}.py").read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("table."):
                out.append((node.module.split(".")[1], [a.name for a in node.names]))
            elif node.module == "table":
                out.extend((a.name, []) for a in node.names if a.name in MODULES)
        elif isinstance(node, ast.Import):
            out.extend(
                (a.name.split(".")[1], []) for a in node.names if a.name.startswith("table.")
            )
    return out


@pytest.mark.parametrize("module", MODULES)
def test_module_is_small(module: str) -> None:
    n = len((TABLE / f"{module}.py").read_text(encoding="utf-8").splitlines())
    assert n <= 500, f"table/{module}.py has {n} lines"


def test_no_private_name_is_imported_across_modules() -> None:
    bad = [
        f"table/{m}.py imports {name} from table.{src}"
        for m in MODULES
        for src, names in _imports(m)
        for name in names
        if name.startswith("_")
    ]
    assert bad == []


def test_no_import_cycle() -> None:
    graph = {m: {src for src, _ in _imports(m) if src in MODULES} for m in MODULES}
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            assert state.get(n) != 1, "import cycle: " + " -> ".join([*path, n])
            if n not in state:
                visit(n)
        path.pop()
        state[m] = 2

    for m in MODULES:
        if m not in state:
            visit(m)


def test_each_module_imports_alone() -> None:
    """``python -c "import table.X"`` in a fresh interpreter, for every module."""
    for m in MODULES:
        done = subprocess.run(
            [sys.executable, "-c", f"import table.{m}"],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=TABLE.parent,
        )
        assert done.returncode == 0, f"table.{m}: {done.stderr[-2000:]}"


class _Recorder(RuleFlow):
    """A flow that counts the points it is called at."""

    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()

    def deal(self, w: WorkingCopy, dice: tuple[int, ...]) -> None:
        assert len(dice) == 3
        self.seen["deal"] += 1

    def draw(self, w: WorkingCopy, seat: int, replacement: bool) -> None:
        assert w.seats[seat].drawn is not None
        self.seen["draw"] += 1

    def flower(self, w: WorkingCopy, seat: int, dealt: bool) -> None:
        self.seen["flower"] += 1

    def discard(self, w: WorkingCopy, seat: int, drawn: bool) -> None:
        assert w.hand.discarder == seat and w.hand.discard is not None
        self.seen["discard"] += 1

    def kong(self, w: WorkingCopy, seat: int, concealed: bool, first_turn: bool) -> None:
        self.seen["concealed kong" if concealed else "added kong"] += 1

    def claim_window(self, w: WorkingCopy, claims: tuple[Claim, ...]) -> None:
        self.seen["claim_window"] += 1

    def win(self, w: WorkingCopy, seat: int, discarder: int | None) -> None:
        self.seen["win"] += 1

    def exhaustive_draw(self, w: WorkingCopy) -> None:
        self.seen["exhaustive_draw"] += 1


def test_every_rule_flow_point_is_reached(monkeypatch: pytest.MonkeyPatch) -> None:
    """A flow switched on by a game parameter (here ``flowers``) is called at each named
    point."""
    recorder = _Recorder()
    monkeypatch.setattr(flows_module, "FLOWS", (*flows_module.FLOWS, ("flowers", recorder)))
    points = {"deal", "draw", "flower", "discard", "concealed kong", "added kong"}
    points |= {"claim_window", "win", "exhaustive_draw"}
    for seed in range(40):
        play_game(GameConfig("hk-tw16", max_hands=4), random.Random(seed))
        if points <= set(recorder.seen):
            break
    assert sorted(points - set(recorder.seen)) == []
