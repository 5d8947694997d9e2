"""``mahjong-score``: score hands given as JSON.

    mahjong-score < hand.json            one hand → one result (JSON)
    mahjong-score --jsonl < hands.jsonl  one hand per line → one result per line, same order
    mahjong-score --text < hand.json     a readable breakdown table
    mahjong-score --list                 the registered rule sets

A hand whose ``context`` gives the seats (``seat``, ``discarder``, ``dealer_seat``,
``streak``) also gets its ``payments`` and their ``net`` per seat, by the table's own
settlement code; ``settlement`` sets the rule set's options, ``{"winners": [hand, …]}``
settles several winners of one discard, ``{"ruleset": "hk-tw16", "instant": event}``
values an instant payment (see ``scoring/settlement.py``).

Bad input never crashes: the result's ``error`` says what is wrong (and ``error_code`` gives
its stable code: seats that contradict the win are ``discarder-is-winner``,
``self-drawn-with-discarder``, ``discard-without-discarder``, ``one-winner-only`` — see
``scoring/hand.py``); in ``--jsonl`` mode processing continues with the next line. The exit code
is 0 when every hand scored, 1 when some input was bad, 2 for usage errors.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from scoring.engine import get_ruleset, ruleset_names
from scoring.settlement import score_and_settle

__all__ = ["format_text", "main", "score_line"]


def _error(message: str, code: str) -> dict[str, Any]:
    return {
        "ruleset": None,
        "total": 0,
        "minimum_met": False,
        "error": message,
        "error_code": code,
        "items": [],
        "arrangement": None,
        "waits": [],
    }


def score_line(text: str) -> dict[str, Any]:
    """Parse one JSON document and score it; every failure becomes an ``error`` result."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        return _error(f"invalid JSON: {e}", "invalid-json")
    try:
        return score_and_settle(obj)
    except RecursionError:
        return _error("input nested too deeply", "invalid-input")
    except Exception as e:  # a bug must not kill a batch; report it on that line
        return _error(f"internal error: {type(e).__name__}: {e}", "internal-error")


def _en_gloss(ruleset: str, item: dict[str, Any]) -> str:
    return str(item.get("en") or "")


def _payments_text(result: dict[str, Any]) -> list[str]:
    lines = ["payments:"]
    for p in result["payments"]:
        lines.append(
            f"  seat {p['payer']} pays seat {p['payee']} {p['amount']:>6}  ({p['reason']})"
        )
    lines.append("net: " + "  ".join(f"seat {i} {v:+d}" for i, v in enumerate(result["net"])))
    return lines


def format_text(result: dict[str, Any]) -> str:
    """A readable breakdown table: Chinese name, English gloss, points × count; then the
    payments when the input gave the seats."""
    if result.get("error"):
        return f"error ({result.get('error_code')}): {result['error']}\n"
    if "items" not in result:  # several winners, or an instant payment
        parts = [format_text(r) for r in result.get("results", [])]
        return "".join(parts) + "\n".join(_payments_text(result)) + "\n"
    lines = []
    title = result["ruleset"]
    with contextlib.suppress(Exception):
        title = f"{get_ruleset(result['ruleset']).title} ({result['ruleset']})"
    lines.append(title)
    arr = result.get("arrangement") or {}
    blocks = arr.get("blocks", [])
    if blocks:
        lines.append(
            "arrangement: "
            + "  ".join(("" if b.get("concealed") else "*") + "".join(b["tiles"]) for b in blocks)
            + f"   [{arr.get('shape')}, wait: {arr.get('wait')}]"
        )
    if result.get("waits"):
        lines.append("waits: " + " ".join(result["waits"]))
    rows = [
        (i["name"], _en_gloss(result["ruleset"], i), i["points"], i["count"])
        for i in result["items"]
    ]
    w_name = max([4, *(_width(r[0]) for r in rows)])
    w_en = max([7, *(len(r[1]) for r in rows)])
    lines.append(
        f"{_pad('name', w_name)}  {'English'.ljust(w_en)}  {'points':>6}  {'×':>3}  {'value':>6}"
    )
    lines.append("-" * (w_name + w_en + 27))
    for name, en, pts, cnt in rows:
        lines.append(f"{_pad(name, w_name)}  {en.ljust(w_en)}  {pts:>6}  {cnt:>3}  {pts * cnt:>6}")
    lines.append("-" * (w_name + w_en + 27))
    lines.append(
        f"{_pad('total', w_name)}  {''.ljust(w_en)}  {'':>6}  {'':>3}  {result['total']:>6}"
    )
    if "han" in result:  # riichi: the hand's han and fu, and the limit reached
        fu = result.get("fu")
        lines.append(
            f"han {result['han']}, fu {'-' if fu is None else fu}"
            + (f", {result['limit']}" if result.get("limit") else "")
        )
    if not result.get("minimum_met", True):
        lines.append("(below the rule set's minimum to win)")
    if "payments" in result:
        lines.extend(_payments_text(result))
    return "\n".join(lines) + "\n"


def _width(s: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def _pad(s: str, width: int) -> str:
    return s + " " * (width - _width(s))


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    parser = argparse.ArgumentParser(prog="mahjong-score", description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--jsonl", action="store_true", help="one hand per line, one result per line")
    mode.add_argument("--text", action="store_true", help="a readable breakdown table")
    mode.add_argument("--list", action="store_true", help="list the registered rule sets")
    args = parser.parse_args(argv)
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    if args.list:
        for name in ruleset_names():
            out.write(f"{name}\t{get_ruleset(name).title}\n")
        return 0
    bad = False
    if args.jsonl:
        for line in inp:
            if not line.strip():
                continue
            r = score_line(line)
            bad = bad or bool(r.get("error"))
            out.write(json.dumps(r, ensure_ascii=False) + "\n")
            out.flush()
        return 1 if bad else 0
    r = score_line(inp.read())
    if args.text:
        out.write(format_text(r))
    else:
        out.write(json.dumps(r, ensure_ascii=False, indent=1) + "\n")
    return 1 if r.get("error") else 0


if __name__ == "__main__":
    raise SystemExit(main())
