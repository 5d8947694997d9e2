"""Keyboard-only play (docs/web.md "At the table"): once the game starts, a whole hand is
played with keys alone — ←/→ and Enter to discard, a digit to claim, Space to pass, W to
win — against three bots on a real server, to the hand's end. A self-drawn win and each
kind of claim are then pressed in the golden games' states (scenes.py), where they are sure
to be on offer: the key sends exactly that action."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web_tests import scenes
from tests.web_tests.geometry import VIEWPORTS
from tests.web_tests.test_play_test import make_room, page_in, scene, spy_actions

pytestmark = pytest.mark.timeout(240)

STATE = """() => { const c = window.mahjong; const r = Object.values(c.state.rooms)[0];
  if (!r || !r.game) return null;
  const answered = c.lastActionAck[r.room] || 0;
  const legal = answered > r.seq ? [] : r.legal;
  return {seq: r.seq, types: legal.map(a => a.type), result: !!r.result,
          phase: r.game.phase, decision: legal.length ? legal[0].seq : null}; }"""


def test_a_whole_hand_with_the_keyboard_alone(browser: Any, base_url: str) -> None:
    page = page_in(browser, VIEWPORTS["desktop"])
    make_room(page, base_url, "Keys")
    page.get_by_test_id("ready").click()
    page.get_by_test_id("start").click()
    page.get_by_test_id("table").wait_for()
    page.evaluate("document.activeElement && document.activeElement.blur()")
    pressed: dict[str, int] = {}
    # the prompts answered (the next frame takes them away): a claim's decision number
    # stays for the claimer's discard, so a prompt is its number and what it offers
    # (a prompt still there a second after its key is pressed again: the key came before
    # the screen showed the prompt)
    done_for: dict[tuple[int, tuple[str, ...]], float] = {}
    end = time.monotonic() + 120
    while True:
        assert time.monotonic() < end, ("the hand did not end", pressed)
        s = page.evaluate(STATE)
        if s and (s["result"] or s["phase"] in ("between_hands", "game_over")):
            break
        prompt = (s["decision"], tuple(s["types"])) if s else None
        if not s or not s["types"] or time.monotonic() - done_for.get(prompt, -9) < 1:
            page.wait_for_timeout(30)
            continue
        types = s["types"]
        # the screen shows the prompt before its keys are pressed
        page.locator(
            "[data-testid=claim], [data-testid=discard], [data-testid=act-win]"
        ).first.wait_for()
        if "win" in types:
            key = "w"
        elif "pass" in types:
            claims = [t for t in types if t in ("chow", "pung", "kong")]
            # claim the first claim offered, pass the rest
            key = "1" if claims and not pressed.get("1") else " "
        elif "discard" in types:
            page.keyboard.press("ArrowLeft")  # the drawn tile (← from nothing: the last)
            key = "Enter"
        else:
            key = "k"
        page.keyboard.press(key)
        pressed[key] = pressed.get(key, 0) + 1
        done_for[prompt] = time.monotonic()
    page.get_by_test_id("result").wait_for()
    assert pressed.get("Enter", 0) >= 3, pressed  # it did discard, by keys
    assert page.evaluate("document.activeElement === document.body"), "a control got focus"
    page.context.close()


@pytest.mark.parametrize(
    ("state", "key", "sent"),
    [
        ("turn-win", "w", "win"),
        ("claim-chow", "1", "chow"),
        ("claim-pung", "1", "pung"),
        ("claim-kong", "k", "kong"),
        ("claim-win", "w", "win"),
        ("claim-pung", " ", "pass"),
    ],
)
def test_each_key_sends_its_action(
    browser: Any, base_url: str, state: str, key: str, sent: str
) -> None:
    frames = {
        "turn-win": scenes.self_drawn_win,
        "claim-chow": lambda: scenes.claim("chow"),
        "claim-pung": lambda: scenes.claim("pung"),
        "claim-kong": lambda: scenes.claim("kong"),
        "claim-win": lambda: scenes.claim("win"),
    }[state]()
    page = scene(browser, base_url, VIEWPORTS["desktop"], frames)
    spy_actions(page)
    page.keyboard.press(key)
    assert [a["type"] for a in page.evaluate("window.acted")] == [sent]
    page.context.close()
