"""Installable (issue 38): the page links a web app manifest with icons the server serves,
and a service worker keeps the app's shell, so the app opened without a network shows
itself, says it is offline and retries — and is back online by itself when the network
returns — instead of a blank page."""

from __future__ import annotations

import json
import urllib.request
from typing import Any


def test_the_manifest_and_its_icons_are_served(base_url: str) -> None:
    with urllib.request.urlopen(base_url + "/manifest.webmanifest") as r:
        assert r.headers["Content-Type"] == "application/manifest+json"
        manifest = json.load(r)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {i["sizes"] for i in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        with urllib.request.urlopen(base_url + icon["src"]) as r:
            assert r.status == 200 and r.headers["Content-Type"] == icon["type"]
    with urllib.request.urlopen(base_url + "/") as r:
        assert '<link rel="manifest" href="/manifest.webmanifest"' in r.read().decode()


def test_opened_offline_the_app_says_so_and_retries(browser: Any, base_url: str) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.goto(base_url + "/")
    page.wait_for_function("() => window.mahjong && window.mahjong.state.status === 'online'")
    # the service worker took the page and kept the shell
    page.wait_for_function(
        "async () => { await navigator.serviceWorker.ready;"
        " return !!navigator.serviceWorker.controller"
        " && (await caches.keys()).length > 0; }",
        timeout=15_000,
    )
    ctx.set_offline(True)
    page.reload()
    # the page starts "connecting" (a banner without data-offline) and turns to "offline"
    # when its first try fails: wait for the offline banner itself, not the first banner
    banner = page.locator('[data-testid="banner"][data-offline="true"]')
    banner.wait_for(timeout=15_000)
    assert "offline" in banner.inner_text()
    assert page.get_by_test_id("retry-now").is_visible()
    # not a blank page: the home screen is there, its name field too
    assert page.get_by_test_id("name").is_visible()
    ctx.set_offline(False)
    page.wait_for_function("() => window.mahjong?.state.status === 'online'", timeout=20_000)
    assert not page.get_by_test_id("banner").count()
    ctx.close()
