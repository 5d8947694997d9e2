"""A new version while a page is open (docs/web.md "A new version"): the page was loaded from
one build of the client; the server is restarted serving another (a second real build, with
another build id); the page reconnects, the welcome says the new build, and the page offers
"a new version is available — reload"; after the reload it runs the new bundle and offers
nothing. Two real builds (vite), two server processes on the same port and data."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from server.net.web import BUILD_FILE, DEFAULT_ROOT
from tests.web_tests.conftest import ROOT, free_port, serving

pytestmark = pytest.mark.timeout(300)
WEB = ROOT / "clients" / "web"


@pytest.fixture(scope="module")
def second_build() -> Iterator[Path]:
    """The client built again into a temporary directory, with build id ``test-build-b``."""
    assert shutil.which("npx") and (WEB / "node_modules").is_dir(), "needs Node.js and npm ci"
    out = Path(tempfile.mkdtemp(prefix="mahjong-build-b-"))
    env = {**os.environ, "MAHJONG_WEB_OUT": str(out), "MAHJONG_WEB_BUILD_ID": "test-build-b"}
    subprocess.run(["npx", "vite", "build", "--logLevel", "error"], cwd=WEB, env=env, check=True)
    yield out
    shutil.rmtree(out, ignore_errors=True)


def build_of(page: Any) -> str:
    found: str = page.evaluate(
        "() => fetch('/' + 'build-id.txt').then(r => r.text()).then(t => t.trim())"
    )
    return found


def test_a_page_of_an_older_build_offers_a_reload(browser: Any, second_build: Path) -> None:
    first = (DEFAULT_ROOT / BUILD_FILE).read_text().strip()
    assert (second_build / BUILD_FILE).read_text().strip() == "test-build-b" != first
    port = free_port()
    data = tempfile.mkdtemp(prefix="mahjong-web-builds-")
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    try:
        with serving(port, data=data) as url:
            page.goto(url + "/")
            page.evaluate("() => localStorage.setItem('mahjong.name', 'Reloader')")
            page.reload()
            page.wait_for_function("() => window.mahjong?.state.status === 'online'")
            assert page.evaluate("() => window.mahjong.state.serverBuild") == first
            expect(page.get_by_test_id("new-version")).to_have_count(0)
        # the server is upgraded: the same port and data, another build of the client
        with serving(port, web_root=second_build, data=data):
            banner = page.get_by_test_id("new-version")
            expect(banner).to_be_visible(timeout=30_000)
            assert "new version" in banner.inner_text()
            page.get_by_test_id("reload").click()
            page.wait_for_function("() => window.mahjong?.state.status === 'online'")
            assert page.evaluate("() => window.mahjong.state.serverBuild") == "test-build-b"
            expect(page.get_by_test_id("new-version")).to_have_count(0)
            assert build_of(page) == "test-build-b"
    finally:
        page.context.close()
        shutil.rmtree(data, ignore_errors=True)
