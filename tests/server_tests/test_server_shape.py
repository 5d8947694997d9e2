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


def _room_trees() -> list[tuple[str, ast.Module]]:
    """The modules of the room logic, ``server/room/`` (all of them: more than ten)."""
    room = [(path, tree) for path, tree in _trees() if path.startswith("server/room/")]
    assert len(room) > 10
    return room


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


def global_randomness(trees: list[tuple[str, ast.Module]]) -> list[str]:
    """Uses of the ``random`` module other than ``random.Random`` (a generator the caller
    gives, or seeds from an input): its module-level functions draw from a hidden global
    generator."""
    found = []
    for path, tree in trees:
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                found.append(f"{path}:{node.lineno} random.{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                found += [
                    f"{path}:{node.lineno} random.{a.name}"
                    for a in node.names
                    if a.name != "Random"
                ]
    return found


def test_the_room_draws_no_randomness_of_its_own() -> None:
    """The room logic (``server/room/``) is given its randomness (docs/server.md, "Layers"):
    ``.importlinter`` keeps ``secrets`` out of it, and this its use of ``random`` to the
    type of a generator it is given or one it seeds from its inputs."""
    assert global_randomness(_room_trees()) == []


def test_global_randomness_is_found() -> None:
    src = (
        "import random\nfrom random import shuffle\nx = random.choice([1])\ny = random.Random(1)\n"
    )
    assert global_randomness([("m.py", ast.parse(src))]) == [
        "m.py:2 random.shuffle",
        "m.py:3 random.choice",
    ]


def uses_of_any(trees: list[tuple[str, ast.Module]]) -> list[str]:
    """Every ``typing.Any`` in the modules: imported, named, or inside a type alias written
    as a string (``X: TypeAlias = "dict[str, Any]"``)."""
    found = []
    for path, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and any(a.name == "Any" for a in node.names):
                found.append(f"{path}:{node.lineno} import Any")
            elif isinstance(node, ast.Name) and node.id == "Any":
                found.append(f"{path}:{node.lineno} Any")
            elif isinstance(node, ast.Attribute) and node.attr == "Any":
                found.append(f"{path}:{node.lineno} .Any")
            elif (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            ):
                alias = ast.parse(node.value.value, mode="eval")
                if any(isinstance(n, ast.Name) and n.id == "Any" for n in ast.walk(alias)):
                    found.append(f"{path}:{node.lineno} Any in an alias")
    return sorted(found, key=lambda f: (f.split(":")[0], int(f.split(":")[1].split()[0])))


def test_the_room_logic_has_no_any() -> None:
    """``server/room/`` is typed through (issue 39): its state is ``RoomState``
    (server/room/state.py), the JSON it keeps without reading it is ``Json``, and nothing in
    it is ``Any``."""
    assert uses_of_any(_room_trees()) == []


def test_uses_of_any_are_found() -> None:
    src = (
        "from typing import Any, TypeAlias\nimport typing\nx: Any = 1\ny: typing.Any = 2\n"
        'Z: TypeAlias = "dict[str, Any]"\nW: TypeAlias = "dict[str, int]"\nAnything = 3\n'
    )
    assert uses_of_any([("m.py", ast.parse(src))]) == [
        "m.py:1 import Any",
        "m.py:3 Any",
        "m.py:4 .Any",
        "m.py:5 Any in an alias",
    ]
