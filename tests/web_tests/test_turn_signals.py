"""Turn signals (issue 38): with the server's clocks made short (a 5 s turn, a 3 s claim
window, a 4 s grace for an away seat: ``--grace-seconds``), a second browser sees the
countdown on the seat in turn, never one during a claim window, and an away player's
countdown until the bot takes the seat; after your own answer to a claim window, "waiting
for the table…"; the tab's title says it is your turn; the sound switch is off by default
and remembered."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import serving
from .test_browser import add_bot, join_by_link, new_page, sit_ready

GRACE_S = 4
TURN_S = 5


@pytest.fixture(scope="module")
def short_clock_url() -> Iterator[str]:
    with serving(extra=("--grace-seconds", str(GRACE_S))) as url:
        yield url


def create(page: Any, base_url: str, name: str) -> str:
    """A four-hand room with a 5 s turn and 3 s claim windows; bots think 300 ms. (Four
    hands: in a one-hand room a bot's win could end the game before the away seat's grace
    is looked for, and a finished game has no clocks: a CI run failed so.)"""
    page.goto(base_url + "/")
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("name").blur()
    page.wait_for_function("() => window.mahjong && window.mahjong.state.status === 'online'")
    page.get_by_test_id("length").select_option("hands")
    page.get_by_test_id("hands").fill("4")
    page.get_by_test_id("turn-seconds").fill(str(TURN_S))
    page.get_by_test_id("claim-seconds").fill("3")
    page.get_by_test_id("bot-delay").fill("300")
    page.get_by_test_id("hand-pause").fill("0")
    page.get_by_test_id("create").click()
    code: str = page.get_by_test_id("room-code").inner_text()
    page.wait_for_url("**/r/" + code)
    page.wait_for_function("() => Object.values(window.mahjong.state.rooms)[0].you.seat === 0")
    return code


ROOM = "Object.values(window.mahjong.state.rooms)[0]"


def clocks_shown(page: Any) -> list[tuple[int, str]]:
    """The seat clocks on the page: (seat, kind)."""
    out: list[tuple[int, str]] = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=seat-clock]')].map(e =>"
        " [Number(e.closest('[data-seat]').dataset.seat), e.dataset.kind])"
    )
    return [tuple(x) for x in out]  # type: ignore[misc]


def test_countdowns_for_everyone_none_in_a_claim_window_and_the_away_grace(
    browser: Any, short_clock_url: str
) -> None:
    url = short_clock_url
    ann = new_page(browser)
    code = create(ann, url, "Ann")
    bob = new_page(browser)
    join_by_link(bob, url, code, "Bob")
    for s in (2, 3):
        add_bot(ann, s)
    sit_ready(ann, 0)
    sit_ready(bob, 1)
    # a script on Bob's page records, at every frame, what it shows while a window is open
    ann.get_by_test_id("start").click()
    for p in (ann, bob):
        p.get_by_test_id("table").wait_for()

    # Ann (the dealer) is in turn: Bob sees her countdown, counting down from the turn time
    bob.wait_for_function(
        "() => [...document.querySelectorAll('[data-seat=\"0\"] [data-testid=seat-clock]')]"
        ".some(e => e.dataset.kind === 'turn')"
    )
    label = bob.locator('[data-seat="0"] [data-testid=seat-clock]').get_attribute("aria-label")
    secs = int(label.split()[0])
    assert 1 <= secs <= TURN_S, label
    assert ann.title().startswith("●")  # the tab says it is Ann's turn
    assert not bob.title().startswith("●")

    # during every claim window on Bob's page, no seat shows a clock; after Bob's own answer,
    # "waiting for the table…"
    bob.evaluate(
        "() => { window.windowClocks = []; const tick = () => {"
        f" const r = {ROOM}; const g = r && r.game;"
        " if (g && (g.phase === 'claim' || g.phase === 'rob'))"
        "   window.windowClocks.push(document.querySelectorAll('[data-testid=seat-clock]').length);"
        " requestAnimationFrame(tick); }; tick(); }"
    )
    # Ann lets her time run out: the server discards for her, a window opens for the others
    end = time.monotonic() + 40
    answered = False
    while time.monotonic() < end and not answered:
        p = bob.get_by_test_id("claim-pass")
        if p.count() and p.is_visible():
            p.click()
            bob.get_by_test_id("waiting-table").wait_for(timeout=3000)
            answered = True
        bob.wait_for_timeout(50)
        d = bob.get_by_test_id("discard")
        if d.count() and d.is_visible():  # Bob's own turn: discard to move on
            bob.locator("[data-testid=hand] button.tile").last.click()
            if d.is_enabled():
                d.click()
    samples = bob.evaluate("() => window.windowClocks")
    assert samples, "no claim window was open on Bob's page"
    assert max(samples) == 0, samples

    # Bob goes away: Ann sees his grace running, then the bot takes the seat and it stops
    bob.context.close()
    ann.wait_for_function(
        "() => [...document.querySelectorAll('[data-seat=\"1\"] [data-testid=seat-clock]')]"
        ".some(e => e.dataset.kind === 'grace')",
        timeout=10_000,
    )
    text = ann.locator('[data-seat="1"] [data-testid=seat-clock][data-kind=grace]').inner_text()
    assert "bot" in text
    ann.wait_for_function(
        f"() => {ROOM}.lobby.seats[1].auto === true", timeout=(GRACE_S + 6) * 1000
    )
    ann.wait_for_function(
        "() => ![...document.querySelectorAll('[data-seat=\"1\"] [data-testid=seat-clock]')]"
        ".some(e => e.dataset.kind === 'grace')"
    )
    ann.context.close()


def test_the_sound_switch_is_off_by_default_and_remembered(
    browser: Any, short_clock_url: str
) -> None:
    page = new_page(browser)
    create(page, short_clock_url, "Sol")
    for s in (1, 2, 3):
        add_bot(page, s)
    sit_ready(page, 0)
    page.get_by_test_id("start").click()
    page.get_by_test_id("table").wait_for()
    toggle = page.get_by_test_id("sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()  # the gesture that unlocks audio
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => localStorage.getItem('mahjong.sound')") == "on"
    page.evaluate("() => { window.mahjongSounds = []; }")
    page.wait_for_function("() => window.mahjongSounds.length > 0", timeout=15_000)
    page.reload()
    page.get_by_test_id("table").wait_for()
    assert page.get_by_test_id("sound-toggle").get_attribute("aria-pressed") == "true"
    page.context.close()
