"""mahjong-score: bad input never crashes; JSONL keeps going; exit codes."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from scoring.cli import main


def run(argv: list[str], text: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(text), stdout=out)
    return code, out.getvalue()


BAD_LINES = [
    ("not json", "invalid-json"),
    ("[1, 2]", "invalid-hand"),
    ('{"ruleset": "nope", "concealed": [], "win_tile": "1m"}', "unknown-ruleset"),
    ('{"ruleset": "x", "concealed": ["1m", "0m"], "win_tile": "1m"}', "invalid-tile"),
    ('{"ruleset": "x", "concealed": ["1m","1m","1m","1m","1m"], "win_tile": "1m"}', "invalid-hand"),
    ('{"ruleset": "x"}', "invalid-hand"),
    ("[" * 100000, "invalid-json"),
]


def test_jsonl_reports_each_bad_line_and_continues() -> None:
    text = "\n".join(line for line, _ in BAD_LINES) + "\n"
    code, out = run(["--jsonl"], text)
    results = [json.loads(x) for x in out.splitlines()]
    assert code == 1
    assert [r["error_code"] for r in results] == [c for _, c in BAD_LINES]
    assert all(r["error"] for r in results)


def test_single_hand_error_and_text_mode() -> None:
    code, out = run([], '{"ruleset": "x", "concealed": ["9z"], "win_tile": "1m"}')
    assert code == 1
    assert "9z" in json.loads(out)["error"]
    code, out = run(["--text"], "{}")
    assert code == 1 and out.startswith("error (invalid-hand)")


def test_console_script_runs() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "scoring.cli", "--jsonl"],
        input="garbage\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert p.returncode == 1
    assert json.loads(p.stdout)["error_code"] == "invalid-json"
