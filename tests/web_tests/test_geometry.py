"""The browser client's layout in three viewports — a phone upright (390×844), a phone on its
side (844×390) and a laptop (1366×768) — in every state a player meets: the home and invite
pages, the host's lobby, your turn (a tile selected), the hints and the Auto panel open, the
connection banners, a claim prompt of each kind (chow, pung, kong, win), a self-drawn win and
a 16-tile hand on your turn, the win dialog, a drawn hand and the end of the game. In each,
``geometry.problems`` must find nothing: every control and tile of yours on the screen and
under nothing else, no sideways scrolling, touch targets ≥ 44 px, claim tiles ≥ 0.8 × the
hand's. Real server, Debian's chromium; the states that random deals rarely reach are the
server's own frames for the golden games (scenes.py).

``MAHJONG_WEB_SCREENSHOTS=docs/img`` also saves each state as ``docs/img/web-<state>-<viewport>.png``
(scripts/screenshots runs this).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.web_tests import scenes
from tests.web_tests.geometry import VIEWPORTS, overlap, problems
from tests.web_tests.test_browser import (
    add_bot,
    create_room,
    my_turn,
    sit_ready,
)

pytestmark = pytest.mark.timeout(300)
SHOTS = os.environ.get("MAHJONG_WEB_SCREENSHOTS")


def page_in(browser: Any, viewport: dict[str, int]) -> Any:
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    return page


def save(page: Any, state: str, vp: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"web-{state}-{vp}.png"))


def look(found: dict[str, list[str]], page: Any, state: str, vp: str, *, fit: bool = True) -> None:
    p = problems(page, fit=fit)
    if p:
        found[state] = p
    save(page, state, vp)


def online(page: Any, base_url: str, name: str = "Scene") -> None:
    page.goto(base_url + "/")
    page.evaluate("n => localStorage.setItem('mahjong.name', n)", name)
    page.reload()
    page.wait_for_function("() => window.mahjong && window.mahjong.state.status === 'online'")


def show_scene(page: Any, base_url: str, frames: list[dict[str, Any]]) -> None:
    """A fresh app (online, in no room) given one seat's frames of a golden game."""
    online(page, base_url)
    page.evaluate("fs => { for (const f of fs) window.mahjong.receive(f); }", frames)
    page.get_by_test_id("table").wait_for()


SCENE_STATES = {
    "claim-chow": "claim-chow",
    "claim-pung": "claim-pung",
    "claim-kong": "claim-kong",
    "claim-win": "claim-win",
    "turn-win": "act-win",
    "turn-16": "discard",
    "turn-late": "discard",
}


@pytest.fixture(scope="module")
def all_scenes() -> dict[str, list[dict[str, Any]]]:
    return scenes.all_scenes()


@pytest.mark.parametrize("vp", list(VIEWPORTS))
def test_every_state_fits(
    browser: Any, base_url: str, all_scenes: dict[str, list[dict[str, Any]]], vp: str
) -> None:
    viewport = VIEWPORTS[vp]
    found: dict[str, list[str]] = {}
    page = page_in(browser, viewport)

    # home, the host's lobby (every seat taken: a bot's Remove and each seat's Swap… menu)
    online(page, base_url, "Host")
    look(found, page, "home", vp, fit=False)
    code = create_room(page, base_url, "Host")
    for s in (1, 2, 3):
        add_bot(page, s)
    sit_ready(page, 0)
    look(found, page, "lobby-host", vp, fit=False)

    # the invite page a friend's link opens in a fresh browser
    friend = page_in(browser, viewport)
    friend.goto(f"{base_url}/r/{code}")
    friend.get_by_test_id("name").wait_for()
    friend.wait_for_function("() => window.mahjong?.state.status === 'online'")
    look(found, friend, "invite", vp, fit=False)
    friend.context.close()

    # your turn, a tile selected; the hints, the Auto panel
    page.get_by_test_id("start").click()
    page.get_by_test_id("table").wait_for()
    my_turn(page)
    page.locator("[data-testid=hand] button.tile").first.click()
    look(found, page, "turn", vp)
    page.get_by_test_id("hints-toggle").click()
    page.get_by_test_id("hints").wait_for()
    look(found, page, "hints", vp)
    page.get_by_test_id("hints-toggle").click()
    page.get_by_test_id("toggles-button").click()
    page.get_by_test_id("toggles").wait_for()
    look(found, page, "toggles", vp)
    page.get_by_test_id("toggles-button").click()

    # banners: the same player opened in another tab; then the connection lost
    other = page.context.new_page()
    other.goto(base_url + "/")
    page.get_by_test_id("banner").wait_for()
    look(found, page, "banner-tab", vp)
    other.close()
    page.route_web_socket("**/ws", lambda ws: ws.close())
    page.get_by_test_id("banner").get_by_role("button").click()
    page.wait_for_function("() => window.mahjong?.state.status === 'reconnecting'")
    look(found, page, "banner-reconnecting", vp)
    page.context.close()

    # the golden games' moments: each claim, a self-drawn win, a 16-tile hand, the dialogs
    for state, testid in SCENE_STATES.items():
        p = page_in(browser, viewport)
        show_scene(p, base_url, all_scenes[state])
        p.get_by_test_id(testid).first.wait_for()
        look(found, p, state, vp)
        p.context.close()
    for state in ("win", "draw"):
        p = page_in(browser, viewport)
        show_scene(p, base_url, all_scenes[state])
        p.get_by_test_id("result").wait_for()
        look(found, p, state, vp, fit=False)
        p.get_by_test_id("result-close").click()
        p.get_by_test_id("game-over").wait_for()
        look(found, p, f"game-over-{state}", vp, fit=False)
        p.context.close()
    assert not found, "\n".join(f"{vp} {s}: {p}" for s, ps in found.items() for p in ps)


#: each river's box and the felt's visible box, and how far the felt scrolls
_RIVERS = """() => {
  const f = document.querySelector('.felt');
  const box = (e) => { const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const rivers = {};
  for (const w of ['left', 'top', 'right', 'bottom']) {
    const r = document.querySelector(`[data-testid=river-${w}]`);
    rivers[w] = {box: box(r), tiles: r.children.length};
  }
  // tiles of two rivers drawn over each other, or a tile beyond the screen's edge
  const tiles = [...document.querySelectorAll('.river')].flatMap((r, k) =>
    [...r.children].map((e) => ({k, b: box(e)})));
  const vw = document.documentElement.clientWidth;
  const clashes = [];
  for (const [i, a] of tiles.entries()) {
    if (a.b.left < -0.5 || a.b.right > vw + 0.5) clashes.push(`off the screen: ${a.b.left}-${a.b.right}`);
    for (const c of tiles.slice(i + 1))
      if (a.k !== c.k && a.b.left < c.b.right - 0.5 && c.b.left < a.b.right - 0.5 &&
          a.b.top < c.b.bottom - 0.5 && c.b.top < a.b.bottom - 0.5)
        clashes.push(`rivers ${a.k} and ${c.k} overlap at ${Math.round(a.b.left)},${Math.round(a.b.top)}`);
  }
  return {felt: box(f), scrolls: f.scrollHeight - f.clientHeight, rivers, clashes};
}"""


#: a small phone on its side (667x375) besides the three viewports
_SMALL_SIDE = {"width": 667, "height": 375}


@pytest.mark.parametrize("vp", ["side", "small-side", "desktop", "phone"])
def test_every_river_shows_without_scrolling(
    browser: Any, base_url: str, all_scenes: dict[str, list[dict[str, Any]]], vp: str
) -> None:
    """Late in a hand (20-21 discards in each river), on a phone upright and on its side and
    on a desktop, all four rivers are wholly on the felt as shown, none needs the felt
    scrolled and no river's tiles are drawn over another's or past the screen's edge.
    Before: the felt scrolled 251 px on a phone on its side and 104 on a desktop (your river
    below its edge), and upright the rivers across and to each side overlapped by 18 px, the
    right one past the screen's edge (five tiles a row of 27 px in a third of 390 px)."""
    page = page_in(browser, _SMALL_SIDE if vp == "small-side" else VIEWPORTS[vp])
    show_scene(page, base_url, all_scenes["turn-late"])
    page.get_by_test_id("discard").wait_for()
    got = page.evaluate(_RIVERS)
    if vp in VIEWPORTS:  # (docs/img holds the three sizes)
        save(page, "turn-late", vp)
    felt = got["felt"]
    for where, r in got["rivers"].items():
        assert r["tiles"] >= 20, (where, r)
        b = r["box"]
        assert felt["top"] <= b["top"] and b["bottom"] <= felt["bottom"] + 0.5, (vp, where, got)
        assert felt["left"] <= b["left"] and b["right"] <= felt["right"] + 0.5, (vp, where, got)
    assert got["scrolls"] <= 0, (vp, got)
    assert not got["clashes"], (vp, got["clashes"][:5], len(got["clashes"]))
    found = problems(page)
    assert not found, (vp, found)
    page.context.close()


#: each claim button's words (the key and the claim's name) and tiles, as boxes; a tile's
#: box includes its outline (the claimed tile is raised 3 px and outlined 4 px out)
_CLAIM_BUTTONS = """() => [...document.querySelectorAll('.sheet-buttons button')].map((b) => {
  const r = document.createRange();
  const words = [...b.childNodes].filter((n) => !(n.classList && n.classList.contains('claim-tiles')));
  const boxes = words.flatMap((n) => { r.selectNodeContents(n); return [...r.getClientRects()]; })
    .filter((x) => x.width > 0);
  const tiles = [...b.querySelectorAll('.claim-tiles .tile')].map((t) => {
    const x = t.getBoundingClientRect(), o = parseFloat(getComputedStyle(t).outlineWidth) || 0,
      off = parseFloat(getComputedStyle(t).outlineOffset) || 0, w = o ? o + off : 0;
    return {top: x.top - w, bottom: x.bottom + w, left: x.left - w, right: x.right + w};
  });
  return {id: b.dataset.testid, words: boxes.map((x) => ({top: x.top, bottom: x.bottom,
    left: x.left, right: x.right})), tiles};
})"""


@pytest.mark.parametrize("vp", list(VIEWPORTS))
def test_a_claim_buttons_tiles_are_clear_of_its_words(
    browser: Any, base_url: str, all_scenes: dict[str, list[dict[str, Any]]], vp: str
) -> None:
    """On each claim button of each kind the tiles (the claimed one raised and outlined) do
    not cover its words (its key and the claim's name). Before: on a phone upright, where
    the tiles wrap under the words, the raised claimed tile's outline reached 7 px into
    the words' line."""
    page = page_in(browser, VIEWPORTS[vp])
    for kind in ("chow", "pung", "kong", "win"):
        show_scene(page, base_url, all_scenes[f"claim-{kind}"])
        page.get_by_test_id(f"claim-{kind}").first.wait_for()
        for b in page.evaluate(_CLAIM_BUTTONS):
            for w in b["words"]:
                for t in b["tiles"]:
                    assert not overlap(w, t), (vp, b["id"], w, t)
    page.context.close()
