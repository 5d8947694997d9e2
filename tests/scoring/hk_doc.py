"""The appendix table of docs/rules/hk-tw16.md, generated from the rule set's data.

python tests/scoring/hk_doc.py     # prints it (paste over the old appendix)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scoring import get_ruleset
from scoring.rulesets.hk_tw16 import EVENT_RULES, table


def appendix() -> str:
    rs = get_ruleset("hk-tw16")
    lines = ["| id | 名 | value | English | excludes (data) |", "|---|---|---|---|---|"]
    for pid, d in table().items():
        if pid in EVENT_RULES:
            continue
        p = rs.by_id[pid]
        val = d.display if d.kind != "open-closed" else f"{d.open} / {d.closed} (明/暗)"
        ex = (
            ", ".join(sorted(p.excludes))
            if len(p.excludes) < 25
            else f"every hand fan ({len(p.excludes)} rows)"
        )
        if p.excludes_when:
            cond = sorted(set().union(*[ids for _, ids in p.excludes_when]))
            ex += (", " if ex else "") + "if the number is 1/9: " + ", ".join(cond)
        lines.append(f"| `{pid}` | {d.name} | {val} | {p.en} | {ex} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(appendix(), end="")
