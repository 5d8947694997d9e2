"""Suite-wide settings.

Hypothesis: on CI (``CI`` set) property tests run derandomized (the same examples every run,
no example database), so a CI result is reproducible; locally they explore new random
examples each run and keep failures in ``.hypothesis/``. A failure found locally is then
pinned with ``@example`` in its test.

Implementation: the pytest header says whether the compiled or the pure modules run
(``mahjong_native``); with ``MAHJONG_EXPECT_IMPL=compiled|pure`` (``scripts/test`` sets it)
the run stops at once when the other one was imported.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import leftovers
import pytest
from hypothesis import settings

import mahjong_native

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def _imported_implementation() -> str:
    import bots  # noqa: F401  (the compiled modules of every package, imported as tests do)
    import scoring
    import table  # noqa: F401

    scoring.ruleset_names()  # imports the rule sets
    return mahjong_native.implementation()


def pytest_report_header(config: pytest.Config) -> str:
    return f"mahjong implementation: {_imported_implementation()} — {mahjong_native.describe()}"


@pytest.fixture(scope="session", autouse=True)
def _implementation_is_the_expected_one() -> None:
    """Each run asserts which implementation it imported (MAHJONG_EXPECT_IMPL)."""
    got = _imported_implementation()
    assert got in ("compiled", "pure"), f"a mix of compiled and pure modules: {got}"
    want = os.environ.get("MAHJONG_EXPECT_IMPL")
    if want:
        assert got == want, (
            f"expected the {want} modules, imported {got}: {mahjong_native.describe()}"
        )


@pytest.fixture(autouse=True)
def _no_process_left_behind() -> Iterator[None]:
    """Whatever a test (or a function fixture) started and left running is stopped when the
    test ends, passed or failed (tests/leftovers.py)."""
    since = leftovers.mark()
    yield
    leftovers.reap(since)


@pytest.fixture(scope="session", autouse=True)
def _no_process_left_at_the_end() -> Iterator[None]:
    """The processes of module and session fixtures, should their teardown not have run."""
    yield
    leftovers.reap()
