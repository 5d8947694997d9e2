"""The browser client's reducer fixtures (clients/web/test/fixtures/) are what
tests/web_tests/make_web_fixtures.py makes of today's engine and server views."""

from __future__ import annotations

import pytest

from web_tests.make_web_fixtures import GAMES, OUT, render


@pytest.mark.parametrize("name", GAMES)
def test_committed_fixtures_are_up_to_date(name: str) -> None:
    committed = (OUT / f"{name}.json").read_text()
    assert committed == render(name), (
        f"{name}.json is stale: run `python tests/web_tests/make_web_fixtures.py` and review the diff"
    )
