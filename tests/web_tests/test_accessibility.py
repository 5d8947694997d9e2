"""Accessibility (issue 38): axe-core (``axe-playwright-python``, the engine shipped inside
the package) finds no serious or critical violation on the home page, an invite link's page,
the lobby, the table, a claim prompt, the win dialog and the end of the game, in the three
viewports (phone upright, phone on its side, desktop); every tile image and control has a
name in the page's language; motion stops under ``prefers-reduced-motion``; at 200 % zoom a
desktop's table and dialogs still fit and work."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from . import scenes
from .geometry import VIEWPORTS, problems
from .test_geometry import online, show_scene
from .test_play_test import make_room

SERIOUS = ("serious", "critical")
AXE = Axe()


def violations(page: Any) -> list[str]:
    """The serious and critical violations axe finds on the page as it is now."""
    res = AXE.run(page)
    out = []
    for v in res.response["violations"]:
        if v.get("impact") in SERIOUS:
            where = [
                (n["target"], (n.get("any") or [{}])[0].get("message", "")[:160])
                for n in v["nodes"][:3]
            ]
            out.append(f"{v['id']} ({v['impact']}): {v['help']} at {where}")
    return out


def _home(page: Any, base_url: str) -> None:
    online(page, base_url)


def _invite(page: Any, base_url: str) -> None:
    host = page.context.browser.new_context().new_page()
    code = make_room(host, base_url, "Host", bots=False)
    page.goto(f"{base_url}/r/{code}")
    page.get_by_test_id("invite-code").wait_for()
    host.context.close()


def _lobby(page: Any, base_url: str) -> None:
    make_room(page, base_url, "Ann")


def _scene(name: str, wait: str) -> Callable[[Any, str], None]:
    def show(page: Any, base_url: str) -> None:
        show_scene(page, base_url, SCENES[name])
        page.get_by_test_id(wait).first.wait_for()

    return show


def _game_over(page: Any, base_url: str) -> None:
    show_scene(page, base_url, SCENES["win"])
    page.get_by_test_id("result-close").click()
    page.get_by_test_id("game-over").wait_for()


SCENES = scenes.all_scenes()
SCREENS: dict[str, Callable[[Any, str], None]] = {
    "home": _home,
    "invite": _invite,
    "lobby": _lobby,
    "table": _scene("turn-16", "hand"),
    "claim": _scene("claim-pung", "claim"),
    "win": _scene("win", "result"),
    "game-over": _game_over,
}


@pytest.fixture(params=list(VIEWPORTS))
def page(request: Any, browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport=VIEWPORTS[request.param], reduced_motion="reduce")
    p = ctx.new_page()
    p.set_default_timeout(15_000)
    yield p
    ctx.close()


@pytest.mark.parametrize("screen", list(SCREENS))
def test_no_serious_violation(page: Any, base_url: str, screen: str) -> None:
    SCREENS[screen](page, base_url)
    page.wait_for_timeout(250)  # dialogs settle
    assert violations(page) == []


def test_reduced_motion_stops_the_fades_and_the_rising_tile(browser: Any, base_url: str) -> None:
    """Dialogs fade and a selected tile rises (150-250 ms), except under
    ``prefers-reduced-motion: reduce``."""
    seen = {}
    for motion in ("no-preference", "reduce"):
        ctx = browser.new_context(viewport=VIEWPORTS["desktop"], reduced_motion=motion)
        p = ctx.new_page()
        show_scene(p, base_url, SCENES["win"])
        p.get_by_test_id("result").wait_for()
        seen[motion] = p.evaluate(
            "() => [getComputedStyle(document.querySelector('.overlay')).animationName,"
            " getComputedStyle(document.querySelector('.tile')).transitionDuration]"
        )
        ctx.close()
    assert seen["no-preference"][0] != "none"
    assert seen["reduce"][0] == "none"
    assert all(d in ("0s", "0s, 0s") for d in seen["reduce"][1].split(", "))


#: a 1366×768 desktop at 200 % zoom: a 683×384 CSS-pixel window at twice the pixel ratio
ZOOMED = {"width": 683, "height": 384}


@pytest.mark.parametrize("scene", ["turn-16", "turn-win", "claim-chow", "claim-win", "win", "draw"])
def test_at_200_percent_zoom_every_state_fits(browser: Any, base_url: str, scene: str) -> None:
    """At 200 % zoom each table state passes the geometry tests' checks (tests/web_tests/
    geometry.py): every control and tile of yours inside the window without scrolling, under
    nothing else, no sideways scroll, touch targets ≥ 44 px, claim tiles ≥ 0.8 × the hand's;
    a dialog (the win, the drawn hand) may scroll, each control reached by scrolling. (At
    354bfb2 the 16-tile hand and Discard lay below the window and the claim sheet covered
    the hand.)"""
    ctx = browser.new_context(viewport=ZOOMED, device_scale_factor=2)
    p = ctx.new_page()
    dialog = scene in ("win", "draw")
    show_scene(p, base_url, SCENES[scene])
    p.get_by_test_id("result" if dialog else "hand").wait_for()
    assert problems(p, fit=not dialog) == []
    ctx.close()


def test_a_desktop_at_200_percent_zoom_still_plays(browser: Any, base_url: str) -> None:
    """200 % zoom on a 1366×768 desktop: the hand and Discard are on the screen without
    scrolling and work, and the win dialog's button can be reached."""
    ctx = browser.new_context(viewport=ZOOMED, device_scale_factor=2)
    p = ctx.new_page()
    show_scene(p, base_url, SCENES["turn-16"])
    p.get_by_test_id("hand").wait_for()
    assert p.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    p.evaluate("() => { window.acted = []; window.mahjong.act = (r, a) => window.acted.push(a); }")
    tiles = p.locator("[data-testid=hand] button.tile")
    assert tiles.count() >= 14
    discard = p.get_by_test_id("discard")
    for el in (tiles.first, tiles.last, discard):  # before any click scrolls the page
        box = el.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 384 + 0.5
    tiles.last.click()
    assert discard.is_visible() and discard.is_enabled()
    discard.click()
    assert p.evaluate("() => window.acted.length") == 1
    show_scene(p, base_url, SCENES["win"])
    close = p.get_by_test_id("result-close")
    close.scroll_into_view_if_needed()
    close.click()
    ctx.close()
