"""Where the team's shared reference data (``shared/``: seeds and parsed rule tables) is.

It lives beside the repository (``<repo>/../shared``). A clone made elsewhere (a CI run in a
temporary directory: ``git clone -q . "$d"``) finds it beside the repository it was cloned
from, when that is a local path, and a git worktree beside the repository that holds it;
``MAHJONG_SHARED`` names it explicitly. The package data
tests compare ``scoring/data`` against it, so a missing ``shared/`` is a test failure (with
this message), never a skip.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _git(*args: str) -> str:
    """What ``git -C <repo> args`` prints ("" when git cannot say)."""
    try:
        return subprocess.run(
            ["git", "-C", str(REPO), *args], capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _candidates() -> list[Path]:
    out = []
    if os.environ.get("MAHJONG_SHARED"):
        out.append(Path(os.environ["MAHJONG_SHARED"]))
    out.append(REPO.parent / "shared")
    origin = _git("config", "--get", "remote.origin.url")
    if origin and "://" not in origin and ":" not in origin.split("/")[0]:
        out.append(Path(origin).resolve().parent / "shared")
    # a git worktree elsewhere: beside the repository that holds it
    common = _git("rev-parse", "--path-format=absolute", "--git-common-dir")
    if common:
        out.append(Path(common).parent.parent / "shared")
    return out


def shared_dir() -> Path:
    """The ``shared/`` directory (raises FileNotFoundError naming the places looked at)."""
    places = _candidates()
    for p in places:
        if (p / "rules").is_dir():
            return p
    raise FileNotFoundError(f"shared/ not found (looked at {', '.join(map(str, places))})")
