"""``mahjong-loadtest`` end to end as an operator runs it: a real server, the bare-websockets
baseline in the same run, the JSON report with the ratio, and the PNG chart."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from test_loadtest_game import server_url  # noqa: F401  (the real-server fixture)


def test_cli_report_has_ratio_and_chart(server_url: tuple[str, int], tmp_path: Path) -> None:  # noqa: F811
    url, pid = server_url
    out, png = tmp_path / "run.json", tmp_path / "run.png"
    p = subprocess.run(
        [
            sys.executable, "-m", "loadtest.cli", "--url", url, "--rooms", "2",
            "--duration", "4", "--ruleset", "mcr", "--baseline", "--server-pid", str(pid),
            "--json", str(out), "--chart", str(png), "--quiet",
        ],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr[-2000:]
    rep = json.loads(out.read_text())
    game, base = rep["game"], rep["baseline"]
    assert game["errors_total"] == 0 and game["disconnects"] == 0
    assert game["actions"] > 0 and base["actions"] > 0
    ratio = game["actions_per_s"] / base["actions_per_s"]
    assert abs(rep["ratio_game_over_baseline"] - ratio) < 0.001 + ratio * 0.01
    assert game["cpu_us_per_action"][str(pid)] > 0
    assert len(game["series"]) >= 2 and len(base["series"]) >= 2
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
