"""The benchmarks and scripts that BENCHMARKS.md and the docs give as commands still import
what they use from the project: a module moved or a name renamed breaks them at once, here,
not months later when someone measures (``bench_hotpath.py`` imported ``commits._boundary``
for a while after it had gone, and the screenshots script a name that had moved).

Only the imports of the project's own packages are checked, statically (the scripts are not
run: most start servers or take minutes).
"""

from __future__ import annotations

import ast
import importlib

import pytest

from tests.docs_tests.docs_model import ROOT

OURS = frozenset(
    {"server", "table", "protocol", "scoring", "bots", "loadtest", "clients", "benchmarks"}
    | {"mahjong_native", "scripts", "cli_tests", "server_tests"}
)
TOOLS = sorted(
    p.relative_to(ROOT).as_posix()
    for folder in ("benchmarks", "scripts")
    for p in (ROOT / folder).glob("*.py")
)


def unresolved(source: str) -> list[str]:
    """The project's names that ``source`` imports and that do not exist."""
    missing: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] not in OURS:
                continue
            try:
                mod = importlib.import_module(node.module)
            except ImportError as exc:
                missing.append(f"{node.module} ({exc})")
                continue
            for alias in node.names:
                if hasattr(mod, alias.name):
                    continue
                try:  # a submodule: from server.room import game
                    importlib.import_module(f"{node.module}.{alias.name}")
                except ImportError:
                    missing.append(f"{node.module}.{alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in OURS:
                    try:
                        importlib.import_module(alias.name)
                    except ImportError as exc:
                        missing.append(f"{alias.name} ({exc})")
    return missing


@pytest.mark.parametrize("path", TOOLS)
def test_a_tools_imports_of_the_project_resolve(path: str) -> None:
    missing = unresolved((ROOT / path).read_text("utf-8"))
    assert not missing, f"{path} imports what the project no longer has: {missing}"


@pytest.mark.parametrize(
    "source, found",
    [
        ("from server.flow.commits import _boundary", ["server.flow.commits._boundary"]),
        ("from server.commits import Commits", ["server.commits (No module named"]),
        ("import server.nowhere", ["server.nowhere (No module named"]),
        ("from server.room import game\nimport json\nfrom os import path", []),
    ],
)
def test_the_check_finds_a_name_or_module_that_is_gone(source: str, found: list[str]) -> None:
    got = unresolved(source)
    assert len(got) == len(found)
    assert all(g.startswith(f) for g, f in zip(got, found, strict=True)), got


def test_there_are_tools_to_check() -> None:
    assert {"benchmarks/bench_hotpath.py", "scripts/action_path.py"} <= set(TOOLS)
