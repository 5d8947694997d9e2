"""The browser client in each language (English, 繁體中文, 简体中文): the first visit takes the
browser's language (the context's locale), ``<html lang>`` matches, and on every screen — home,
invite (a room's link before a name), lobby, table, a claim prompt, the win dialog and the end
of the game — a Chinese page holds no English text node but player names, room codes and tile
codes (a scan of every text node of the page; the language switch, which names each language
in its own words, aside). The switch changes the language on the spot and is remembered.
Claim, win and end-of-game are the server's own frames of golden games (scenes.py)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from clients.names import NAMES_PATH
from tests.web_tests import scenes
from tests.web_tests.test_browser import add_bot, create_room, sit_ready

pytestmark = pytest.mark.timeout(300)

LANGS = {"en": "en-US", "zh-Hant": "zh-TW", "zh-Hans": "zh-CN"}
TILE_CODE = r"\b(?:[1-9][mps]|w[eswn]|d[rgw]|f[1-8])\b"

# every text node's text with the element it is in (those under the language switch aside)
TEXTS = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('[data-testid=lang], script, style, noscript')) continue;
    const text = n.textContent.trim();
    if (text) out.push(text);
  }
  return out;
}"""
NAMES = """() => {
  const s = window.mahjong.state, out = [s.name, ...((s.invite && s.invite.players) || [])];
  for (const r of Object.values(s.rooms)) {
    out.push(r.lobby.code);
    for (const seat of r.lobby.seats) if (seat) out.push(seat.name);
    for (const sp of r.lobby.spectators) out.push(sp.name);
  }
  return out.filter(Boolean);
}"""


def english_in(page: Any, extra: tuple[str, ...] = ()) -> list[str]:
    """The text nodes of the page that still hold an English word once the player names,
    room codes, the room's link and tile codes are taken out."""
    allowed = sorted({*page.evaluate(NAMES), *extra}, key=len, reverse=True)
    bad = []
    for text in page.evaluate(TEXTS):
        rest = text
        for a in allowed:
            rest = rest.replace(a, " ")
        rest = re.sub(TILE_CODE, " ", re.sub(r"https?://\S+", " ", rest))  # and the room's link
        if re.search(r"[A-Za-z]{2,}", rest):
            bad.append(text)
    return bad


def check(page: Any, lang: str, screen: str, extra: tuple[str, ...] = ()) -> None:
    assert page.evaluate("document.documentElement.lang") == lang, screen
    assert page.get_by_test_id("lang").first.input_value() == lang, screen
    if lang != "en":
        assert english_in(page, extra) == [], (lang, screen)


def shown_names(page: Any, lang: str) -> None:
    """The win dialog's pattern names: in Chinese the page's script from names.json, no
    gloss; in English the rules' Chinese name with the English gloss below."""
    zh = page.locator("[data-testid=patterns] .zh").all_inner_texts()
    en = page.locator("[data-testid=patterns] .en").all_inner_texts()
    assert zh, "no pattern shown"
    data = json.loads(NAMES_PATH.read_text(encoding="utf-8"))["patterns"]
    if lang == "en":
        glosses = {n[0] for rs in data.values() for n in rs.values()}
        assert len(en) == len(zh) and set(en) <= glosses and not set(en) & set(zh), (zh, en)
    else:
        k = 1 if lang == "zh-Hant" else 2
        assert set(zh) <= {n[k] for rs in data.values() for n in rs.values()}, zh
        assert en == [], en


def new_page(browser: Any, locale: str) -> Any:
    ctx = browser.new_context(viewport={"width": 1366, "height": 900}, locale=locale)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    return page


def show_scene(page: Any, frames: list[dict[str, Any]]) -> None:
    """The page (online, in no room) given one seat's frames of a golden game."""
    page.evaluate("fs => { for (const f of fs) window.mahjong.receive(f); }", frames)
    page.get_by_test_id("table").wait_for()


@pytest.mark.parametrize("lang", list(LANGS))
def test_every_screen_in_each_language(browser: Any, base_url: str, lang: str) -> None:
    page = new_page(browser, LANGS[lang])
    page.goto(base_url + "/")
    page.wait_for_function("() => window.mahjong && window.mahjong.state.status === 'online'")
    check(page, lang, "home")
    # a room, its link opened by a friend who has no name yet (the invite), the lobby
    code = create_room(page, base_url, "Ann")
    check(page, lang, "lobby")
    friend = new_page(browser, LANGS[lang])
    friend.goto(f"{base_url}/r/{code}")
    friend.wait_for_function("() => window.mahjong && window.mahjong.state.status === 'online'")
    friend.get_by_test_id("invite-facts").wait_for()  # the room's rule set, length, timers
    check(friend, lang, "invite", (code,))
    friend.context.close()
    # the table
    for s in (1, 2, 3):
        add_bot(page, s)
    sit_ready(page, 0)
    page.get_by_test_id("start").click()
    page.get_by_test_id("table").wait_for()
    page.get_by_test_id("hand").wait_for()
    check(page, lang, "table")
    page.context.close()
    # a claim prompt, the win dialog, the end of the game: a fresh page given the frames
    for scene in ("claim-pung", "win"):
        p = new_page(browser, LANGS[lang])
        p.goto(base_url + "/")
        p.evaluate("() => localStorage.setItem('mahjong.name', 'Ann')")
        p.reload()
        p.wait_for_function("() => window.mahjong && window.mahjong.state.status === 'online'")
        frames = (
            scenes.claim("pung") if scene == "claim-pung" else scenes.to_the_end("robbing_kong")
        )
        show_scene(p, frames)
        if scene == "claim-pung":
            p.get_by_test_id("claim").wait_for()
            check(p, lang, "claim")
        else:
            p.get_by_test_id("result").wait_for()
            check(p, lang, "win")
            shown_names(p, lang)
            p.get_by_test_id("result-close").click()
            p.get_by_test_id("game-over").wait_for()
            check(p, lang, "game over")
        p.context.close()


def test_the_switch_changes_the_language_and_it_is_remembered(browser: Any, base_url: str) -> None:
    page = new_page(browser, "en-US")
    page.goto(base_url + "/")
    page.wait_for_function("() => window.mahjong && window.mahjong.state.status === 'online'")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.get_by_test_id("create").inner_text() == "Create room"
    page.get_by_test_id("lang").select_option("zh-Hans")
    assert page.evaluate("document.documentElement.lang") == "zh-Hans"
    assert page.get_by_test_id("create").inner_text() == "创建房间"
    page.reload()  # remembered over the browser's own language
    page.get_by_test_id("create").wait_for()
    assert page.evaluate("document.documentElement.lang") == "zh-Hans"
    assert page.get_by_test_id("create").inner_text() == "创建房间"
    page.get_by_test_id("lang").select_option("zh-Hant")
    assert page.get_by_test_id("create").inner_text() == "開房"
    page.context.close()
