"""The client's screens in 繁體中文 and 简体中文, driven by keys against a real ``mahjong-server``:
the connect form, the lobby (with a server error), the create form, the room before the
game, a decision in play (prompt, help panel, hints) and a finished hand (result, seats,
log). No screen shows an English word: only player names, the room code, the rule set's id,
tile codes and key names are in Latin letters. The same run in English checks the check: the
scan finds English words in each pane it must reach."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from textual.widgets import Input, RichLog

from cli_tests.helpers import (
    create_room_from_the_form,
    play_with_keys,
    screen_text,
    wait_for,
)
from cli_tests.test_replay_and_help import finished_game_log
from clients.cli.app import MahjongApp
from clients.cli.i18n import Lang, lang, set_lang, words_of
from clients.cli.lobby_screen import ConnectScreen, LobbyScreen
from clients.cli.replay import Replay, ReplayApp
from clients.cli.table_screen import TableScreen

pytestmark = pytest.mark.timeout(120)

LATIN = re.compile(r"[A-Za-z]{2,}")
#: words in Latin letters that are not English: key names, tile codes (--plain), the scheme
ALLOWED = {
    *("Enter", "Tab", "Esc", "Ctrl", "PgUp", "PgDn", "ws"),
    *("we", "ws", "ww", "wn", "dr", "dg", "dw"),
}


@pytest.fixture
def in_lang(request: pytest.FixtureRequest) -> Iterator[Lang]:
    set_lang(request.param)
    yield request.param
    set_lang("en")


def english_on(app: MahjongApp, allowed: set[str]) -> dict[str, set[str]]:
    """Every English word on the screen, by the widget that shows it."""
    out: dict[str, set[str]] = {}
    for w in app.screen.query("*"):
        if not w.display or not w.is_on_screen or w.children:
            continue
        if isinstance(w, RichLog):
            text = "\n".join(strip.text for strip in w.lines)
        else:
            text = screen_text(w)
        found = set(LATIN.findall(text)) - allowed
        if found:
            out[f"{type(w).__name__}#{w.id}: {text[:200]!r}"] = found
    return out


def allowed_in(app: MahjongApp) -> set[str]:
    names = {app.player_name}
    r = app.model.room
    if r is not None:
        names |= {r.code, r.ruleset, *(r.name_of(i) for i in range(4))}
        names |= {str(x.get("name")) for x in r.lobby.get("spectators") or []}
    words = {w for n in names for w in LATIN.findall(n)}
    codes = [*app.model.rulesets, "room_not_found"]  # rule set ids, the error's code
    return ALLOWED | words | {w for c in codes for w in LATIN.findall(c)}


def check(app: MahjongApp, widgets: set[str], extra: frozenset[str] = frozenset()) -> None:
    """No English on the screen in Chinese; in English (the check of the check) English in
    each of ``widgets``, the ones the scan must reach."""
    found = english_on(app, allowed_in(app) | extra)
    if lang() == "en":
        seen = {k.split(":")[0].split("#")[1] for k in found}
        assert widgets <= seen, (widgets - seen, found)
    else:
        assert found == {}


@pytest.mark.parametrize("in_lang", ["zh-Hant", "zh-Hans", "en"], indirect=True)
async def test_every_screen_in_chinese(mahjong_server, tmp_path, in_lang: Lang) -> None:
    app = MahjongApp(mahjong_server.url, "Alice", plain=True, token_file=tmp_path / "t.json")
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen), what="connect")
        await pilot.pause(0.1)
        check(app, {"title", "connect"})
        await pilot.click("#connect")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        await wait_for(pilot, lambda: bool(app.model.rulesets), what="the welcome")
        # a server error, in words by its code
        app.screen.query_one("#code", Input).value = "ZZZZZZ"
        app.screen.query_one("#code", Input).focus()
        await pilot.press("enter")
        want = words_of("error.room_not_found", in_lang)
        await wait_for(pilot, lambda: want in app.status, what=f"the error {want}")
        await pilot.pause(0.2)
        check(app, {"status", "who"}, frozenset({"ZZZZZZ"}))
        await create_room_from_the_form(pilot, app, hands=1)
        table = app.screen
        assert isinstance(table, TableScreen)
        r = app.model.room
        assert r is not None
        await pilot.press("s")  # sit
        await wait_for(pilot, lambda: r.seat is not None, what="a seat")
        await pilot.press("a")  # add bots to the three empty seats
        await wait_for(pilot, lambda: all(r.seats()), what="three bots")
        await pilot.press("r")  # ready
        await wait_for(pilot, lambda: r.seats()[r.seat]["ready"], what="ready")
        await pilot.pause(0.2)
        check(app, {"lobby", "prompt", "log"})
        await pilot.press("g")
        await wait_for(pilot, lambda: app.model.room.status == "playing", what="the start")
        room = app.model.room
        await wait_for(pilot, room.can_act, what="our first decision")
        await wait_for(pilot, lambda: room.hints is not None, what="the hints")
        await pilot.press("end", "enter")  # a discard proposed: the prompt asks to confirm
        await pilot.pause(0.3)
        check(app, {"prompt", "help", "seats", "header"})
        await pilot.press("escape")
        await play_with_keys(pilot, app, lambda: bool(room.results))
        await pilot.pause(0.3)
        check(app, {"result", "log", "seats"})


@pytest.mark.parametrize("in_lang", ["zh-Hant", "zh-Hans", "en"], indirect=True)
async def test_the_replay_in_chinese(in_lang: Lang) -> None:
    log = finished_game_log(5)
    app = ReplayApp(Replay(log), plain=True)
    # (the rule set id, the keys, the players; "replay" is the room code a replay shows)
    allowed = ALLOWED | {"zung", "jung", "Home", "End", "replay", *log["seats"]}
    async with app.run_test(size=(160, 50)) as pilot:
        for keys in (("right",), ("right",) * 20, ("end",)):
            await pilot.press(*keys)
            await pilot.pause(0.1)
            found: dict[str, set[str]] = {}
            for w in app.screen.query("*"):
                if w.display and not w.children:
                    lines = w.lines if isinstance(w, RichLog) else [screen_text(w)]
                    text = "\n".join(getattr(x, "text", x) for x in lines)
                    if words := set(LATIN.findall(text)) - allowed:
                        found[str(w.id)] = words
            if in_lang == "en":
                assert {"header", "keys", "log"} <= set(found), found
            else:
                assert found == {}
