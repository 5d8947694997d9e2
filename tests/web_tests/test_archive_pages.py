"""The archive in the browser (issue 41), axe-checked: two players (Ann and Bob, each in a browser) and two
bots play one-hand games in a private room until two have been played and one of them was
won; then Ann's "My games" lists every one, each game's page shows its standings and its
hands, the replay of the won hand shows the same breakdown and payments as the live win
dialog did, a link to a moment opens the replay there, a saved log file replays the same,
and a stranger with the link is refused. The pages fit a phone both ways up.

The two players play through their own page's client (``window.mahjong``): a small in-page
player answers every prompt at once (a win when offered, else a pass, else the discard the
server's hints rank best), so a game takes seconds; the bots play their own seats."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .test_accessibility import violations
from .test_browser import (
    DESKTOP,
    PHONE,
    add_bot,
    create_room,
    join_by_link,
    new_page,
    shot,
    sit_ready,
)

pytestmark = pytest.mark.timeout(240)

#: the in-page player (installed once per page): answers the prompt of each frame once
AUTO = """() => {
  if (window.__auto) return;
  window.__auto = true;
  const c = window.mahjong;
  let busy = false, acted = 0;
  const best = (hs) => hs.slice().sort((a, b) => a.shanten - b.shanten || b.useful - a.useful)[0];
  const tick = async () => {
    const r = Object.values(c.state.rooms)[0];
    if (busy || !r || !r.legal || !r.legal.length || r.seq <= acted) return;
    if ((c.lastActionAck[r.room] || 0) > r.seq) return;
    busy = true; acted = r.seq;
    try {
      const legal = r.legal;
      let a = legal.find((x) => x.type === "win") || legal.find((x) => x.type === "pass");
      const discards = legal.filter((x) => x.type === "discard");
      if (!a && discards.length) {
        const h = await c.request({ type: "hints", room: r.room });
        const b = h.discards && h.discards.length ? best(h.discards) : null;
        a = (b && discards.find((d) => d.tile === b.tile)) || discards[discards.length - 1];
      }
      await c.act(r.room, a || legal[0]);
    } catch (e) { acted = 0; } finally { busy = false; setTimeout(tick, 0); }
  };
  c.subscribe(() => setTimeout(tick, 0));
  setInterval(tick, 150);
}"""

ROOM = "() => Object.values(window.mahjong.state.rooms)[0]"


def play_one(ann: Any, bob: Any) -> dict[str, Any]:
    """Start a game, let it be played, and read Ann's live result dialog: the game's id,
    whether the hand was won, the dialog's texts."""
    ann.get_by_test_id("start").click()
    for p in (ann, bob):
        p.get_by_test_id("table").wait_for()
        p.evaluate(AUTO)
    result = ann.get_by_test_id("result")
    result.wait_for(timeout=90_000)
    ann.wait_for_function(f"() => ({ROOM})().summary !== null", timeout=30_000)
    live = {
        "game_id": ann.evaluate(f"() => ({ROOM})().summary.game_id"),
        "won": result.get_by_test_id("winner").count() > 0,
        "title": result.get_by_test_id("result-title").first.inner_text(),
        "payments": result.get_by_test_id("payments").inner_text(),
    }
    if live["won"]:
        live["patterns"] = result.get_by_test_id("patterns").all_inner_texts()
        live["pay_lines"] = result.get_by_test_id("pay-lines").inner_text()
    return live


def rematch(ann: Any, bob: Any) -> None:
    """Back to the lobby (a new game when it starts), both ready again."""
    ann.evaluate(f"() => window.mahjong.request({{type: 'rematch', room: ({ROOM})().room}})")
    for p in (ann, bob):
        p.wait_for_function(f"() => ({ROOM})().lobby.status === 'lobby'")
        p.evaluate(
            f"() => window.mahjong.request({{type: 'ready', room: ({ROOM})().room, ready: true}})"
        )
    ann.wait_for_function(f"() => ({ROOM})().lobby.seats.every((s) => s && s.ready)")


def open_game(page: Any, url: str, timeout: float = 20) -> None:
    """Open a game's page, again until the archive has it (it is written seconds after)."""
    end = time.monotonic() + timeout
    while True:
        page.goto(url)
        page.wait_for_selector("[data-testid=game-page], [data-testid=archive-error]")
        if page.get_by_test_id("game-page").count():
            return
        assert page.get_by_test_id("archive-error").get_attribute("data-status") == "404"
        assert time.monotonic() < end, "the game was never archived"
        page.wait_for_timeout(300)


def fits(page: Any) -> None:
    """No sideways scrolling: the page is as wide as the screen."""
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")


def check_replay_of_win(page: Any, base_url: str, live: dict[str, Any]) -> None:
    """The replay at the end of the won hand shows the live dialog's breakdown and payments;
    stepping moves the address's moment; every hand is open from the deal."""
    gid = live["game_id"]
    open_game(page, f"{base_url}/g/{gid}?hand=1&step=0")
    replay = page.get_by_test_id("replay")
    assert replay.get_attribute("data-step") == "0"
    # all four hands open: 13 or 14 faces each, no backs
    for seat in range(4):
        hand = page.locator(
            f"[data-testid=replay-seat][data-seat='{seat}'] [data-testid=replay-hand]"
        )
        faces = hand.locator("[data-tile]:not([data-tile=back])").count()
        assert faces >= 13, (seat, faces)
    page.get_by_test_id("next-step").click()
    page.get_by_test_id("next-step").click()
    expect(replay).to_have_attribute("data-step", "2")
    assert page.url.endswith(f"/g/{gid}?hand=1&step=2")
    page.keyboard.press("ArrowLeft")
    expect(replay).to_have_attribute("data-step", "1")
    # the end of the hand: the win, as the live dialog showed it
    open_game(page, f"{base_url}/g/{gid}?hand=1&step=9999")
    shown = page.get_by_test_id("replay-result")
    shown.wait_for()
    assert shown.get_by_test_id("result-title").first.inner_text() == live["title"]
    assert shown.get_by_test_id("patterns").all_inner_texts() == live["patterns"]
    assert shown.get_by_test_id("pay-lines").inner_text() == live["pay_lines"]
    assert shown.get_by_test_id("payments").inner_text() == live["payments"]
    shot(page, "replay-desktop")
    assert violations(page) == []


def check_phone(browser: Any, base_url: str, ann_state: Any, gid: str) -> None:
    """The game page and the replay on a phone upright and on its side: nothing sideways."""
    for viewport in (PHONE, {"width": 844, "height": 390}):
        ctx = browser.new_context(viewport=viewport, storage_state=ann_state)
        page = ctx.new_page()
        name = "phone" if viewport == PHONE else "phone-side"
        open_game(page, f"{base_url}/g/{gid}")
        fits(page)
        shot(page, f"game-page-{name}")
        open_game(page, f"{base_url}/g/{gid}?hand=1&step=5")
        page.get_by_test_id("replay").wait_for()
        fits(page)
        shot(page, f"replay-{name}")
        page.goto(f"{base_url}/my")
        page.get_by_test_id("my-game").first.wait_for()
        fits(page)
        ctx.close()


def test_my_games_the_game_page_and_the_replay(browser: Any, base_url: str, tmp_path: Path) -> None:
    ann = new_page(browser)
    code = create_room(ann, base_url, "Ann")  # private (not listed), one hand
    bob = new_page(browser)
    join_by_link(bob, base_url, code, "Bob")
    add_bot(ann, 2)
    add_bot(ann, 3)
    sit_ready(ann, 0)
    sit_ready(bob, 1)
    games = [play_one(ann, bob)]
    while len(games) < 2 or not any(g["won"] for g in games):
        assert len(games) < 8, "no hand was won in eight games"
        rematch(ann, bob)
        games.append(play_one(ann, bob))
    ids = [g["game_id"] for g in games]
    assert len(set(ids)) == len(ids)

    # My games: every game, newest first, reachable from the home screen
    ann.get_by_test_id("result-close").click()
    ann.get_by_test_id("leave-end").click()
    ann.get_by_test_id("my-games-link").click()
    ann.wait_for_url("**/my")
    end = time.monotonic() + 20
    while ann.get_by_test_id("my-game").count() < len(ids):
        assert time.monotonic() < end, "My games never listed every game"
        ann.wait_for_timeout(300)
        ann.reload()
        ann.get_by_test_id("my-games").wait_for()
    rows = ann.get_by_test_id("my-game")
    assert [rows.nth(i).get_attribute("data-game") for i in range(rows.count())] == ids[::-1]
    assert "Ann (you)" in rows.first.inner_text() and "place " in rows.first.inner_text()
    shot(ann, "my-games-desktop")
    assert violations(ann) == []

    # each game's page: standings and one hand, its result as the live dialog said it
    for g in games:
        open_game(ann, f"{base_url}/g/{g['game_id']}")
        assert "Ann (you)" in ann.get_by_test_id("standings").inner_text()
        hands = ann.get_by_test_id("hand")
        assert hands.count() == 1
        assert hands.first.get_by_test_id("result-title").first.inner_text() == g["title"]
        assert hands.first.get_by_test_id("payments").inner_text() == g["payments"]
        if g["won"]:
            shot(ann, "game-page-desktop")
            assert violations(ann) == []
            assert hands.first.get_by_test_id("patterns").all_inner_texts() == g["patterns"]
            assert hands.first.get_by_test_id("pay-lines").inner_text() == g["pay_lines"]

    won = next(g for g in games if g["won"])
    check_replay_of_win(bob, base_url, won)

    # the game log the game-over dialog saves replays the same in the viewer (from a file)
    log = ann.evaluate(
        "async (id) => (await (await fetch('/api/games/' + id + '/log', {headers: "
        "{Authorization: 'Bearer ' + localStorage.getItem('mahjong.token')}})).json()).game_log",
        won["game_id"],
    )
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(log))
    ann.goto(base_url + "/my")
    ann.get_by_test_id("log-file").set_input_files(str(saved))
    ann.get_by_test_id("next-hand").click()  # one hand: stays at its start? then to its end
    ann.get_by_test_id("replay").wait_for()
    ann.get_by_test_id("prev-step").click()
    for _ in range(400):
        if ann.get_by_test_id("replay-result").count():
            break
        ann.keyboard.press("ArrowRight")
    assert (
        ann.get_by_test_id("replay-result").get_by_test_id("pay-lines").inner_text()
        == won["pay_lines"]
    )
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    ann.get_by_test_id("log-file").set_input_files(str(bad))
    ann.get_by_test_id("log-file-error").wait_for()

    check_phone(browser, base_url, ann.context.storage_state(), won["game_id"])

    # a stranger (a player of their own, not at this table) with the link: refused
    stranger = new_page(browser, DESKTOP)
    stranger.goto(base_url + "/")
    stranger.wait_for_function("() => window.mahjong && window.mahjong.state.status === 'online'")
    stranger.goto(f"{base_url}/g/{won['game_id']}")
    refused = stranger.get_by_test_id("archive-error")
    refused.wait_for()
    assert refused.get_attribute("data-status") == "403"
    assert "private room" in refused.inner_text()
    stranger.goto(f"{base_url}/g/no-such-game")
    assert stranger.get_by_test_id("archive-error").get_attribute("data-status") == "404"
    for p in (ann, bob, stranger):
        p.context.close()
