"""The server package's shape (issue 39): no function over 60 lines and no class over 25
methods in ``server/`` (a sign to split), checked on every change."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "server"
MAX_FUNCTION_LINES = 60
MAX_METHODS = 25


def _trees() -> list[tuple[str, ast.Module]]:
    return [
        (str(p.relative_to(SERVER.parent)), ast.parse(p.read_text(encoding="utf-8")))
        for p in sorted(SERVER.rglob("*.py"))
    ]


def long_functions(trees: list[tuple[str, ast.Module]]) -> list[str]:
    return [
        f"{path}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for path, tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]


def big_classes(trees: list[tuple[str, ast.Module]]) -> list[str]:
    return [
        f"{path}:{node.lineno} {node.name} ({n} methods)"
        for path, tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and (n := sum(isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef) for b in node.body))
        > MAX_METHODS
    ]


def test_no_function_is_over_60_lines() -> None:
    assert long_functions(_trees()) == []


def test_no_class_has_over_25_methods() -> None:
    assert big_classes(_trees()) == []


def test_the_checks_see_a_long_function_and_a_big_class() -> None:
    """The checks count what they should: a function of 61 lines and a class of 26
    methods (nested too) are each found; one line and one method fewer are not."""

    def module(lines: int, methods: int) -> list[tuple[str, ast.Module]]:
        body = "\n".join(f"        x{i} = {i}" for i in range(lines - 1))
        defs = "\n".join(f"        def m{i}(self): pass" for i in range(methods))
        src = f"def outer():\n    def f():\n{body}\n    class C:\n{defs}\n"
        return [("m.py", ast.parse(src))]

    assert long_functions(module(61, 1)) == ["m.py:1 outer (64 lines)", "m.py:2 f (61 lines)"]
    assert big_classes(module(2, 26)) == ["m.py:4 C (26 methods)"]
    assert long_functions(module(60, 1)) == ["m.py:1 outer (63 lines)"]
    assert big_classes(module(2, 25)) == []
