"""The browser client against a real ``mahjong-server`` (embedded Redis), driven in Debian's
``/usr/bin/chromium`` through Playwright (never a downloaded browser). Short games: one hand,
zero bot delay, the shortest timers.

``MAHJONG_WEB_SCREENSHOTS=docs/img`` also saves the screenshots used in the docs.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

pytestmark = pytest.mark.timeout(240)

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
SHOTS = os.environ.get("MAHJONG_WEB_SCREENSHOTS")


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.wait_for_timeout(300)  # dialogs fade in over 200 ms
        page.screenshot(path=str(Path(SHOTS) / f"web-{name}.png"))


def new_page(browser: Any, viewport: dict[str, int] = DESKTOP) -> Any:
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    return page


def create_room(
    page: Any, base_url: str, name: str, *, bot_delay: int = 0, window_ms: int | None = None
) -> str:
    """Create a room through the form. ``window_ms`` (the room option the form does not
    show) is added to the options the form sends: with a bot delay, claim windows otherwise
    default to 1000 ms (each bot answer and each pass of a seat without a choice waits
    400-1000 ms: server/room/windows.py)."""
    page.goto(base_url + "/")
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("name").blur()
    page.wait_for_function("() => window.mahjong && window.mahjong.state.status === 'online'")
    if window_ms is not None:
        page.evaluate(
            "ms => { const c = window.mahjong; const create = c.create.bind(c);"
            " c.create = (rs, o) => create(rs, {...o, window_ms: ms}); }",
            window_ms,
        )
    page.get_by_test_id("length").select_option("hands")
    page.get_by_test_id("hands").fill("1")
    page.get_by_test_id("turn-seconds").fill("0")
    page.get_by_test_id("claim-seconds").fill("0")
    page.get_by_test_id("bot-delay").fill(str(bot_delay))
    page.get_by_test_id("hand-pause").fill("0")
    page.get_by_test_id("create").click()
    code: str = page.get_by_test_id("room-code").inner_text()
    page.wait_for_url("**/r/" + code)
    # the creator takes the first seat
    page.wait_for_function("() => Object.values(window.mahjong.state.rooms)[0].you.seat === 0")
    return code


def join_by_link(page: Any, base_url: str, code: str, name: str) -> None:
    """A first-time visitor opens the room's invite link, types a name and is in its lobby."""
    page.goto(f"{base_url}/r/{code}")
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("name").blur()
    page.get_by_test_id("room-code").wait_for()


def sit_ready(page: Any, seat: int) -> None:
    """Sit at ``seat`` (unless already there: a room's creator starts at seat 0), ready."""
    here = page.evaluate("() => Object.values(window.mahjong.state.rooms)[0].you.seat")
    if here != seat:
        page.get_by_test_id(f"sit-{seat}").click()
        page.wait_for_function(
            f"() => Object.values(window.mahjong.state.rooms)[0].you.seat === {seat}"
        )
    page.get_by_test_id("ready").click()
    page.wait_for_function(
        f"() => {{ const r = Object.values(window.mahjong.state.rooms)[0]; "
        f"return r && r.lobby.seats[{seat}] && r.lobby.seats[{seat}].ready; }}"
    )


def add_bot(page: Any, seat: int) -> None:
    page.get_by_test_id(f"add-bot-{seat}").click()
    page.get_by_test_id(f"remove-bot-{seat}").wait_for()


def step(page: Any) -> bool:
    """Make one move on ``page`` if the table waits for it (win when offered, else pass a
    claim, else discard the last tile: tap to select, Discard to confirm). A button that goes
    away meanwhile (the table moved on) is no move."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        for tid in ("claim-win", "act-win", "claim-pass"):
            b = page.get_by_test_id(tid)
            if b.count() and b.first.is_visible():
                b.first.click(timeout=1500)
                return True
        return discard_last(page)
    except PlaywrightError:
        return False


def discard_last(page: Any) -> bool:
    """Discard the last tile of the hand if the table asks us to discard: tap it to select
    it, then Discard (disabled while no tile is selected). A tap on the tile already
    selected discards it by itself, and Discard is then disabled: not clicked (waiting for
    it to be enabled would wait out the click's timeout)."""
    d = page.get_by_test_id("discard")
    if not (d.count() and d.is_visible()):
        return False
    tiles = page.locator("[data-testid=hand] button.tile")
    if not tiles.count():
        return False
    tiles.last.click(timeout=1500)
    if d.is_enabled():
        d.click(timeout=1500)
    return True


def discard_seq(page: Any) -> int | None:
    """The seq of the discard decision our legal actions offer (None: not asked to)."""
    seq: int | None = page.evaluate(
        "() => { const r = Object.values(window.mahjong.state.rooms)[0];"
        " const d = ((r && r.legal) || []).find(a => a.type === 'discard');"
        " return d ? d.seq : null; }"
    )
    return seq


def play_until(pages: list[Any], done: Callable[[], bool], limit: float = 150) -> None:
    end = time.monotonic() + limit
    while not done():
        assert time.monotonic() < end, "the game did not get there in time"
        moved = False
        for p in pages:
            moved = step(p) or moved
        if not moved:
            pages[0].wait_for_timeout(40)


def my_turn(page: Any, limit: float = 30) -> None:
    """Pass every claim until it is this page's turn to discard (no timers: the bots wait)."""
    end = time.monotonic() + limit

    while not (
        page.get_by_test_id("discard").count() and page.get_by_test_id("discard").is_visible()
    ):
        assert time.monotonic() < end and not result_shown(page), "no turn came"
        b = page.get_by_test_id("claim-pass")
        if b.count() and b.is_visible():
            step(page)
        page.wait_for_timeout(40)


def result_shown(page: Any) -> bool:
    return bool(page.get_by_test_id("result").count())


# ---------------------------------------------------------------------------------- tests


def test_four_friends_play_a_hand_by_the_link(browser: Any, base_url: str) -> None:
    """1. One creates a room, three join by its link, all play a whole hand; all four see the
    same outcome and payments."""
    host = new_page(browser)
    code = create_room(host, base_url, "Ann")
    shot(host, "lobby-desktop")
    friends = []
    for i, name in enumerate(("Bob", "Cat", "Dan"), start=1):
        p = new_page(browser, PHONE if i == 1 else DESKTOP)
        join_by_link(p, base_url, code, name)
        assert p.get_by_test_id("room-code").inner_text() == code
        friends.append(p)
    # the link opened the app with no room yet for a first-time visitor: join happened after
    # the name (the page shows the lobby of that room)
    sit_ready(host, 0)
    for i, p in enumerate(friends, start=1):
        sit_ready(p, i)
    host.get_by_test_id("start").click()
    pages = [host, *friends]
    for p in pages:
        p.get_by_test_id("table").wait_for()
    shot(host, "table-desktop")
    shot(friends[0], "table-phone")
    play_until(pages, lambda: all(result_shown(p) for p in pages))
    shot(host, "result-desktop")
    shot(friends[0], "result-phone")
    titles = [p.get_by_test_id("result").inner_text() for p in pages]
    payments = [p.get_by_test_id("payments").inner_text() for p in pages]
    assert len(set(payments)) == 1, payments
    assert len(set(titles)) == 1, titles
    for p in pages:
        p.context.close()


def test_one_player_and_three_bots_finish_a_game(browser: Any, base_url: str) -> None:
    """2. A person and three bots finish a whole (one-hand) game: the standings show."""
    page = new_page(browser)
    create_room(page, base_url, "Solo")
    for s in (1, 2, 3):
        add_bot(page, s)
    sit_ready(page, 0)
    page.get_by_test_id("start").click()
    page.get_by_test_id("table").wait_for()

    def finished() -> bool:
        if result_shown(page):
            page.get_by_test_id("result-close").click()
        return bool(page.get_by_test_id("game-over").count())

    play_until([page], finished)
    standings = page.get_by_test_id("standings").inner_text()
    for name in ("Solo", "Bot"):
        assert name in standings
    assert page.get_by_test_id("ledger").is_visible()
    shot(page, "game-over-desktop")
    page.context.close()


def test_reload_comes_back_to_the_same_seat_and_tiles(browser: Any, base_url: str) -> None:
    """3. A reload in the middle of a hand: the same seat, the same tiles."""
    page = new_page(browser)
    create_room(page, base_url, "Reloader")
    sit_ready(page, 2)
    for s in (0, 1, 3):
        add_bot(page, s)
    page.get_by_test_id("start").click()
    page.get_by_test_id("table").wait_for()
    # play a few turns, then wait until it is our turn again (no timers: nothing moves)
    for _ in range(2):
        my_turn(page)
        step(page)
        # the discard's own frame takes the Discard button away: until then my_turn would
        # find the turn just played (and the hand read before the reload hold its tile, the
        # hand after it the next turn's: a cause of the mismatch of 005bb11). A step that
        # played nothing leaves the button: then the turn is still ours, as before
        with contextlib.suppress(PlaywrightTimeoutError):
            page.get_by_test_id("discard").wait_for(state="hidden", timeout=5_000)
    my_turn(page)
    before = page.locator("[data-testid=hand] [data-tile]").evaluate_all(
        "els => els.map(e => e.dataset.tile)"
    )
    seat_before = page.evaluate("Object.values(window.mahjong.state.rooms)[0].you.seat")
    page.reload()
    my_turn(page)
    page.wait_for_function(  # the hand drawn from the snapshot, drawn tile included
        "n => document.querySelectorAll('[data-testid=hand] [data-tile]').length === n",
        arg=len(before),
    )
    after = page.locator("[data-testid=hand] [data-tile]").evaluate_all(
        "els => els.map(e => e.dataset.tile)"
    )
    seat_after = page.evaluate("Object.values(window.mahjong.state.rooms)[0].you.seat")
    assert (seat_after, sorted(after)) == (seat_before, sorted(before)) == (2, sorted(before))
    assert len(before) in (14, 17) or len(before) % 3 == 2
    page.context.close()


SECRET_VIEW_KEYS = ("concealed", "drawn", "wall", "salt")


def _leaks(frame: Any) -> list[str]:
    """What in a frame a spectator must not get while a hand is in play."""
    out = []
    if frame.get("type") == "snapshot" and frame.get("game"):
        hand = frame["game"].get("hand") or {}
        for k in ("wall", "salt"):
            if hand.get(k):
                out.append(f"snapshot hand.{k}")
        for s in hand.get("seats") or []:
            for k in ("concealed", "drawn"):
                if s.get(k):
                    out.append(f"snapshot seat {s['seat']} {k}")
    for e in frame.get("events") or []:
        if e.get("type") == "dealt" and e.get("tiles"):
            out.append("dealt tiles")
        if e.get("type") == "draw" and e.get("tile"):
            out.append("drawn tile")
        if e.get("type") == "kong" and e.get("concealed") and e.get("tile"):
            out.append("concealed kong tile")
    return out


def test_a_spectator_sees_no_hidden_tile(browser: Any, base_url: str) -> None:
    """4. Until the hand ends, no frame a spectator receives and nothing on its page holds a
    concealed tile, a drawn tile or the wall."""
    page = new_page(browser)
    frames: list[Any] = []

    def on_ws(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(msgpack.unpackb(payload)))

    page.on("websocket", on_ws)
    create_room(page, base_url, "Watcher", bot_delay=30, window_ms=30)
    page.get_by_test_id("stand").click()  # from the seat the creator is given: watch
    page.get_by_test_id("sit-0").wait_for()
    for s in (0, 1, 2, 3):
        add_bot(page, s)
    page.get_by_test_id("start").click()
    page.get_by_test_id("table").wait_for()
    ended = False
    checked = 0
    end = time.monotonic() + 120
    while not ended:
        assert time.monotonic() < end
        # the page: no hand of its own, no revealed tiles, only backs for the seats
        assert page.get_by_test_id("me").count() == 0
        assert page.locator(".revealed").count() == 0 or result_shown(page)
        for f in list(frames[checked:]):
            checked += 1
            if any(e.get("type") == "hand_ended" for e in f.get("events") or []):
                ended = True
                break
            assert not _leaks(f), (_leaks(f), f)
        page.wait_for_timeout(50)
    assert checked > 20  # it did watch a hand
    shot(page, "spectator-desktop")
    page.context.close()


def test_phone_upright_fits_and_every_control_is_reachable(browser: Any, base_url: str) -> None:
    """5. At 390×844 nothing scrolls sideways and every control of the table is reachable."""
    from playwright.sync_api import Error as PlaywrightError

    page = new_page(browser, PHONE)
    create_room(page, base_url, "Phone")
    shot(page, "lobby-phone")
    for s in (1, 2, 3):
        add_bot(page, s)
    sit_ready(page, 0)
    page.get_by_test_id("start").click()
    page.get_by_test_id("discard").wait_for()
    hand = page.locator("[data-testid=hand] button.tile")
    hand.first.click()
    for _ in range(2):
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        controls = page.locator("button, input, select, a")
        boxes = controls.evaluate_all(
            "els => els.map(e => {"
            " const r = e.getBoundingClientRect(); return [e.dataset.testid || e.textContent,"
            " r.left, r.right, r.width, r.height]; }).filter(b => b[3] > 0)"
        )
        # Chat and Leave, and Discard or the claim prompt's buttons, at least
        assert len(boxes) >= 3, boxes
        for label, left, right, w, h in boxes:
            assert left >= 0 and right <= PHONE["width"] + 0.5, (label, left, right)
            assert w > 0 and h > 0, label
        buttons = page.locator(".actions button, .bar button, .sheet button").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().height)"
        )
        assert min(buttons) >= 44, buttons  # tap targets
        shot(page, "table-phone-upright")
        # the claim prompt too: play on until one shows (or the hand ends)
        end = time.monotonic() + 60
        acted = None  # the discard decision answered (Discard stays visible until the next)
        while time.monotonic() < end and not page.get_by_test_id("claim").count():
            if result_shown(page):
                break
            seq = discard_seq(page)
            if seq is not None and seq != acted:
                with contextlib.suppress(PlaywrightError):  # the table moved on meanwhile
                    if discard_last(page):
                        acted = seq
            page.wait_for_timeout(30)
        if not page.get_by_test_id("claim").count():
            break
        shot(page, "claim-phone")
    page.context.close()


def test_a_server_error_shows_a_message_and_loses_nothing(browser: Any, base_url: str) -> None:
    """6. An action the table refuses (a decision that is not open): the server's error shows
    as a message; the table is unchanged."""
    page = new_page(browser)
    create_room(page, base_url, "Eager")
    sit_ready(page, 1)
    for s in (0, 2, 3):
        add_bot(page, s)
    page.get_by_test_id("start").click()
    page.get_by_test_id("table").wait_for()
    # the bots play at once and a seat with no choice is never asked; a claim we could
    # make is passed (without timers the table would wait for it for good) until the table
    # waits for our discard; then act for a decision that is not open: a discard naming a
    # decision the table has not reached (a client out of step)
    my_turn(page)
    page.wait_for_function(
        "() => { const r = Object.values(window.mahjong.state.rooms)[0];"
        " return r.game && r.game.hand && r.legal.some(a => a.type === 'discard'); }"
    )
    before = page.locator("[data-testid=hand] [data-tile]").evaluate_all(
        "els => els.map(e => e.dataset.tile)"
    )
    page.evaluate(
        "() => { const c = window.mahjong; const room = Object.keys(c.state.rooms)[0];"
        " const r = c.state.rooms[room]; const t = r.game.hand.seats[r.you.seat].concealed[0];"
        " const seq = Math.max(...r.legal.map(a => a.seq)) + 7;"
        " return c.act(room, {type: 'discard', seq, tile: t}); }"
    )
    toast = page.get_by_test_id("toast")
    toast.first.wait_for()
    text = toast.first.inner_text()
    assert text and ("turn" in text or "decision" in text or "seq" in text or "not" in text), text
    shot(page, "error-desktop")
    # nothing lost: still at the table, same seat, our tiles only changed by the game itself
    assert page.get_by_test_id("table").is_visible()
    after = page.locator("[data-testid=hand] [data-tile]").evaluate_all(
        "els => els.map(e => e.dataset.tile)"
    )
    assert len(after) >= len(before) - 1
    assert page.evaluate("Object.values(window.mahjong.state.rooms)[0].you.seat") == 1
    page.context.close()


def test_the_host_pauses_resumes_and_kicks_in_the_browser(browser: Any, base_url: str) -> None:
    """7. Host controls in the browser: the host pauses the game (the friend sees who paused
    it and cannot play), resumes it, then kicks the friend, whose page says so and leaves the
    room; a bot plays the friend's seat from then on."""
    host = new_page(browser)
    code = create_room(host, base_url, "Ann")
    friend = new_page(browser, PHONE)
    join_by_link(friend, base_url, code, "Bob")
    sit_ready(host, 0)
    sit_ready(friend, 1)
    for s in (2, 3):
        add_bot(host, s)
    host.get_by_test_id("start").click()
    for p in (host, friend):
        p.get_by_test_id("table").wait_for()
    host.get_by_test_id("pause").click()
    banner = friend.get_by_test_id("paused-banner")
    banner.wait_for()
    assert "Paused by Ann" in banner.inner_text()
    # (each page shows it when its own frame comes: the host's may come after the friend's)
    expect(host.get_by_test_id("pause")).to_have_text("Resume")
    # nobody is offered a move while the game is paused
    for p in (host, friend):
        assert not p.get_by_test_id("discard").is_visible()
    host.get_by_test_id("pause").click()
    banner.wait_for(state="detached")
    expect(host.get_by_test_id("pause")).to_have_text("Pause")
    host.on("dialog", lambda d: d.accept())  # "Remove Bob from the room?"
    host.get_by_test_id("members-toggle").click()
    host.get_by_test_id("kick-Bob").click()
    toast = friend.get_by_test_id("toast").filter(has_text="removed you")
    toast.wait_for()
    assert code in toast.inner_text()
    friend.get_by_test_id("table").wait_for(state="detached")
    host.wait_for_function(
        "() => { const r = Object.values(window.mahjong.state.rooms)[0]; "
        "return r && r.lobby.seats[1] && r.lobby.seats[1].bot; }"
    )
    for p in (host, friend):
        p.context.close()


def test_a_name_typed_while_the_first_hello_is_answered_is_the_name_used(
    browser: Any, base_url: str
) -> None:
    """8. The name is typed after the page's first hello went out but before its welcome came
    back (the client is not online yet, so typing does not reconnect by itself): once
    welcomed, the client says hello again under the typed name before it counts as online,
    so a room created next is created by "Ann", not by the default "player". The server's
    first welcome is held back (a WebSocket route in the page) until the name is typed."""
    page = new_page(browser)
    held: list[Any] = []
    routes: list[Any] = []
    released = [False]

    def route(ws: Any) -> None:
        first = not routes  # only the page's first connection is held back
        routes.append(ws)
        server = ws.connect_to_server()

        def to_page(message: Any) -> None:
            if first and not released[0]:
                held.append(message)
            else:
                ws.send(message)

        server.on_message(to_page)

    def release() -> None:
        released[0] = True
        for message in held:
            routes[0].send(message)

    page.route_web_socket("**/ws", route)
    page.goto(base_url + "/")
    page.wait_for_function("() => window.mahjong && window.mahjong.state.status === 'connecting'")
    deadline = time.monotonic() + 15
    while not held:  # the hello went out and the welcome came back, held
        assert time.monotonic() < deadline, "no welcome"
        page.wait_for_timeout(20)
    page.get_by_test_id("name").fill("Ann")
    page.get_by_test_id("name").blur()
    assert page.evaluate("() => window.mahjong.state.status") != "online"
    release()
    page.wait_for_function("() => window.mahjong?.state.status === 'online'")
    page.get_by_test_id("create").click()
    page.get_by_test_id("room-code").wait_for()
    page.wait_for_function(
        "() => { const r = Object.values(window.mahjong.state.rooms)[0];"
        " return r && r.lobby.seats[0] && r.lobby.seats[0].name === 'Ann'; }"
    )
    names = page.evaluate(
        "() => { const l = Object.values(window.mahjong.state.rooms)[0].lobby;"
        " return [...l.seats.filter(s => s).map(s => s.name), ...l.spectators.map(s => s.name)]; }"
    )
    assert names == ["Ann"]
    page.context.close()
