"""The replay viewer counts every move from the step it is at: clicks and keys that come
faster than the page redraws (a held arrow key, a double click) each move one step on.

The viewer once took a key's move from the step it had last been drawn at, so a key pressed
right after a click undid it (`test_archive_pages` saw ArrowLeft after two clicks land on 0,
not 1). Here the clicks and keys are sent in one task, before any redraw, so that happens
every time, not now and then. The log is a golden game's (clients/web/test/fixtures/replay),
opened from a file on the My games page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.timeout(120)
FIXTURE = Path(__file__).resolve().parents[2] / "clients/web/test/fixtures/replay/ting_instant.json"

#: clicks on the viewer's buttons and key presses, all in one task (no redraw between them)
BURST = """(moves) => {
  for (const m of moves) {
    if (m.startsWith("key:")) {
      document.dispatchEvent(new KeyboardEvent("keydown", {key: m.slice(4), bubbles: true}));
    } else {
      document.querySelector(`[data-testid=${m}]`).click();
    }
  }
}"""


@pytest.mark.parametrize(
    ("moves", "step"),
    [
        (["next-step", "next-step", "key:ArrowRight"], 3),
        (["key:ArrowRight", "key:ArrowRight", "key:ArrowRight", "key:ArrowLeft"], 2),
        (["next-step", "next-step", "next-step", "prev-step", "key:ArrowLeft"], 1),
    ],
)
def test_moves_faster_than_a_redraw_each_count(
    browser: Any, base_url: str, tmp_path: Path, moves: list[str], step: int
) -> None:
    log = tmp_path / "game.json"
    log.write_text(json.dumps(json.loads(FIXTURE.read_text("utf-8"))["log"]))
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(base_url + "/my")
    page.get_by_test_id("log-file").set_input_files(str(log))
    replay = page.get_by_test_id("replay")
    expect(replay).to_have_attribute("data-step", "0")
    page.evaluate(BURST, moves)
    expect(replay).to_have_attribute("data-step", str(step))
    page.wait_for_timeout(200)  # and it stays there (no late move from an older draw)
    expect(replay).to_have_attribute("data-step", str(step))
    page.context.close()
