"""Compare two directories of golden game logs with every hand's ``context`` removed.

    python scripts/compare_golden_without_context.py OLD_DIR NEW_DIR

Prints the files that differ beyond ``hand.context`` (exit 1), and per file the context keys
that were removed and added. Used when the win context's wire keys changed (issue 21).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def strip(obj: Any, removed: set[str], seen: list[dict[str, Any]]) -> Any:
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if k == "context" and isinstance(v, dict) and "ruleset" in obj:
                seen.append(v)
                continue
            out[k] = strip(v, removed, seen)
        return out
    if isinstance(obj, list):
        return [strip(v, removed, seen) for v in obj]
    return obj


def main(old_dir: str, new_dir: str) -> int:
    bad = 0
    for old in sorted(Path(old_dir).glob("*.jsonl")):
        new = Path(new_dir) / old.name
        a_ctx: list[dict[str, Any]] = []
        b_ctx: list[dict[str, Any]] = []
        a = [strip(json.loads(x), set(), a_ctx) for x in old.read_text("utf-8").splitlines()]
        b = [strip(json.loads(x), set(), b_ctx) for x in new.read_text("utf-8").splitlines()]
        same = a == b and len(a_ctx) == len(b_ctx)
        # the keys both forms have keep their values
        same = same and all(
            x[k] == y[k] for x, y in zip(a_ctx, b_ctx, strict=True) for k in x.keys() & y
        )
        ka = set().union(*a_ctx) if a_ctx else set()
        kb = set().union(*b_ctx) if b_ctx else set()
        print(
            f"{old.name}: {'same' if same else 'DIFFERS'} without context "
            f"({len(a_ctx)} contexts); removed {sorted(ka - kb)} added {sorted(kb - ka)}"
        )
        bad += not same
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
