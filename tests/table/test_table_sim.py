"""mahjong-sim: plays complete games and prints its statistics."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from table_testlib import PLAYABLE

from table.sim import main


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_sim_json(ruleset: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["--ruleset", ruleset, "--games", "2", "--seed", "7", "--hands", "3", "--json"]) == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2 and out["hands"] == 6
    assert out["wins_total"] + out["draws"] == 6  # one hand_won per won hand
    assert out["hands_per_second"] > 0
    # same seed, same games
    assert (
        main(["--ruleset", ruleset, "--games", "2", "--seed", "7", "--hands", "3", "--json"]) == 0
    )
    again = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in again.items() if "second" not in k} == {
        k: v for k, v in out.items() if "second" not in k
    }


def test_sim_table_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--ruleset", PLAYABLE[0], "--games", "1", "--hands", "2"]) == 0
    text = capsys.readouterr().out
    assert f"rule set {PLAYABLE[0]}: 1 games, 2 hands" in text and "exhaustive draw" in text
    assert main(["--ruleset", "nope", "--games", "1"]) == 2
    assert "unknown-ruleset" in capsys.readouterr().err


def test_console_script_runs() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "table.sim", "-r", PLAYABLE[0], "-n", "1", "--hands", "1", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(r.stdout)["hands"] == 1
