"""The browser client's reducer fixtures (clients/web/test/fixtures/) are what
tests/web_tests/make_web_fixtures.py makes of today's engine and server views."""

from __future__ import annotations

import pytest

from web_tests.make_web_fixtures import GAMES, OUT, REPLAY_GAMES, render, render_replay


@pytest.mark.parametrize("name", GAMES)
def test_committed_fixtures_are_up_to_date(name: str) -> None:
    committed = (OUT / f"{name}.json").read_text()
    assert committed == render(name), (
        f"{name}.json is stale: run `python tests/web_tests/make_web_fixtures.py` and review the diff"
    )


@pytest.mark.parametrize("name", REPLAY_GAMES)
def test_committed_replay_fixtures_are_up_to_date(name: str) -> None:
    committed = (OUT / "replay" / f"{name}.json").read_text()
    assert committed == render_replay(name), (
        f"replay/{name}.json is stale: run `python tests/web_tests/make_web_fixtures.py`"
    )
