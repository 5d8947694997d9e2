"""The shell of the clients' generators (``python -m clients.names``, ``clients.glyphs``, ``clients.hans``): write their files, or check that they are current."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path


def write_or_check(files: Mapping[Path, str], module: str, args: Sequence[str]) -> int | None:
    """``--write``: write each file's text (0); ``--check``: 1 when any file differs from
    its text, naming it and the command that writes it, else 0; neither: None (the caller's
    default)."""
    if "--write" in args:
        for path, text in files.items():
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        return 0
    if "--check" in args:
        stale = 0
        for path, text in files.items():
            if path.read_text(encoding="utf-8") != text:
                print(f"{path} is stale: run python -m {module} --write", file=sys.stderr)
                stale += 1
        return 1 if stale else 0
    return None
