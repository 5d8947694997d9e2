"""The lock check (scripts/lock.py --check, which scripts/test runs first): it passes on the
committed lock and fails, naming the file to refresh, on each way the lock can go stale."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _copy(tmp: Path) -> Path:
    for name in ("pyproject.toml", "uv.lock", "README.md"):
        shutil.copy2(ROOT / name, tmp / name)
    shutil.copytree(ROOT / "requirements", tmp / "requirements")
    return tmp


def _check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "lock.py"), "--check", "--root", str(root)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _edit(path: str, old: str, new: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        text = (root / path).read_text("utf-8")
        assert old in text, f"{old!r} not in {path}"
        (root / path).write_text(text.replace(old, new, 1), "utf-8")

    return apply


def test_the_committed_lock_is_current(tmp_path: Path) -> None:
    res = _check(_copy(tmp_path))
    assert res.returncode == 0, res.stderr
    assert "match pyproject.toml" in res.stdout


STALE: list[tuple[str, Callable[[Path], None], str]] = [
    (
        "a new runtime dependency",
        _edit("pyproject.toml", '"msgpack>=1.0",', '"msgpack>=1.0",\n  "attrs>=20",'),
        "uv.lock does not match pyproject.toml",
    ),
    (
        "a range the locked version leaves",
        _edit("pyproject.toml", '"msgpack>=1.0",', '"msgpack>=1.0,<1.0.1",'),
        "uv.lock does not match pyproject.toml",
    ),
    (
        "a new build requirement",
        _edit(
            "pyproject.toml",
            'build = ["setuptools>=77",',
            'build = ["cython>=3", "setuptools>=77",',
        ),
        "uv.lock does not match pyproject.toml",
    ),
    (
        "an export edited by hand",
        _edit("requirements/serve.txt", "websockets==", "websockets>="),
        "requirements/serve.txt is not uv.lock's export",
    ),
    (
        "an export missing",
        lambda root: (root / "requirements" / "build.txt").unlink(),
        "requirements/build.txt is not uv.lock's export",
    ),
]


@pytest.mark.parametrize(("what", "change", "message"), STALE, ids=[s[0] for s in STALE])
def test_a_stale_lock_fails_the_check(
    tmp_path: Path, what: str, change: Callable[[Path], None], message: str
) -> None:
    root = _copy(tmp_path)
    change(root)
    res = _check(root)
    assert res.returncode == 1, f"{what}: the check passed\n{res.stdout}{res.stderr}"
    assert message in res.stderr
