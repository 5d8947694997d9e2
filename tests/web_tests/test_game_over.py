"""The end of the game (issue 38): ranks, every hand in the ledger (a drawn hand too), the
chart of each player's running score over the hands ending at the final scores, Rematch and
Save game log — from the frames the server sends at the end of golden games."""

from __future__ import annotations

from typing import Any

import pytest

from . import scenes
from .test_geometry import show_scene


@pytest.mark.parametrize("name,hands", [("four_rounds", None), ("exhaustive_draw_dealer_keeps", 1)])
def test_ranks_ledger_chart_rematch_and_log(
    browser: Any, base_url: str, name: str, hands: int | None
) -> None:
    frames = scenes.to_the_end(name, max_hands=hands)
    summary = frames[-1]["notice"]["summary"]
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-US")
    page = ctx.new_page()
    show_scene(page, base_url, frames)
    if page.get_by_test_id("result").count():
        page.get_by_test_id("result-close").click()
    over = page.get_by_test_id("game-over")
    over.wait_for()
    # ranks: 1 for the best score, equal scores share a rank
    ranks = [int(x.rstrip(".")) for x in over.locator(".standings .rank").all_inner_texts()]
    scores = sorted(summary["scores"], reverse=True)
    assert ranks == [1 + sum(1 for s in scores if s > v) for v in scores]
    # every hand in the ledger, drawn ones too
    assert over.locator("[data-testid=ledger] tbody tr").count() == summary["hands_played"]
    # the chart: one line per seat, from 0 through every hand to the final score
    lines = over.locator("[data-testid=score-chart] svg[role=img] polyline")
    assert lines.count() == 4
    for seat in range(4):
        pts = [int(v) for v in lines.nth(seat).get_attribute("data-points").split(",")]
        assert len(pts) == summary["hands_played"] + 1
        assert pts[0] == 0 and pts[-1] == summary["scores"][seat]
    label = over.locator("[data-testid=score-chart] svg[role=img]").get_attribute("aria-label")
    assert "final scores" in label
    assert over.get_by_test_id("rematch").is_visible()
    assert over.get_by_test_id("save-log").is_visible()
    ctx.close()
