"""The terminal client in three languages: every message in all three (every key used, every
error and note code of the protocol and every rule set worded), the language from the locale
or ``--lang``, and a finished hand's breakdown, the lobby and the summary in each, with the
pattern names the browser shows (clients/web/src/i18n/names.json)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_tests.test_render_words import play_until_a_hand_ends, text_of
from clients.cli import render
from clients.cli.catalogue import MESSAGES
from clients.cli.i18n import (
    LANGS,
    error_text,
    from_locale,
    hint_note,
    lang,
    ruleset_name,
    set_lang,
    words_of,
)
from clients.cli.main import build_parser
from clients.cli.tiles import TileStyle
from clients.hans import CLI_PATH as HANS
from protocol.codes import ErrorCode, HintNote
from scoring import ruleset_names

LATIN = re.compile(r"[A-Za-z]{2,}")
TILE_CODES = {"we", "ws", "ww", "wn", "dr", "dg", "dw"}


@pytest.fixture
def zh() -> Iterator[None]:
    yield
    set_lang("en")


#: key families looked up by a code or a name made at run time (``tr(f"act_{kind}")``): the
#: prefix, and the set of its codes (None: any, checked by its use in the source)
FAMILIES: dict[str, set[str] | None] = {
    "error.": {c.value for c in ErrorCode},
    "note.": {c.value for c in HintNote},
    "ruleset.": set(ruleset_names()),
    "room_status.": {"lobby", "playing", "finished", "closed"},
    "reason.": None,
    "act_": None,
    "how_": None,
    "log_how_": None,
    "len_": None,
    "host_": None,
    "setting_": None,
}
SOURCES = sorted((Path(__file__).parents[2] / "clients" / "cli").glob("*.py"))


def words(key: str, language: str) -> str:
    return words_of(key, language)  # type: ignore[arg-type]


@pytest.mark.parametrize("language", LANGS)
def test_every_message_is_in_each_language_with_no_field_it_lacks_in_english(
    language: str,
) -> None:
    for key in MESSAGES:
        en, w = words(key, "en"), words(key, language)
        assert w.strip() or key == "col_english", (key, language)
        fields = set(re.findall(r"{(\w+)}", w))
        assert fields <= set(re.findall(r"{(\w+)}", en)), (key, language)
        if language != "en":  # no English word but the keys and codes named
            rest = re.sub(r"{\w+}|\[[^\]]*\]|Enter|Tab|Esc|Ctrl|Home|End|--new-player", "", w)
            assert not LATIN.search(rest), (key, language, w)


def test_every_key_is_used_and_every_code_of_the_protocol_is_worded() -> None:
    code = "\n".join(p.read_text(encoding="utf-8") for p in SOURCES if p.name != "catalogue.py")
    for key in MESSAGES:
        family = next((f for f in FAMILIES if key.startswith(f)), None)
        if family is None:
            assert f'"{key}"' in code or f"'{key}'" in code, f"unused key {key}"
        else:
            assert family.rstrip("_.") in code or family in code, family
    for family, codes in FAMILIES.items():
        if codes is not None:
            assert {k[len(family) :] for k in MESSAGES if k.startswith(family)} == codes, family
    assert set(json.loads(HANS.read_text(encoding="utf-8"))) == set(MESSAGES)


@pytest.mark.parametrize("language", LANGS)
def test_errors_and_notes_by_code_with_the_servers_words_as_fallback(
    language: str, zh: None
) -> None:
    set_lang(language)  # type: ignore[arg-type]
    assert error_text("room_full", "Room is full") == words("error.room_full", language)
    assert error_text("a_code_from_a_newer_server", "its words") == "its words"
    note = hint_note("below_minimum", 8, "ready, but no wait reaches 8")
    assert "8" in note and (note == "ready, but no wait reaches 8") == (language == "en")
    assert hint_note(None, 8, "an older server's note") == "an older server's note"
    assert hint_note("newer", 8, "a newer note") == "a newer note"
    assert ruleset_name("mcr") == words("ruleset.mcr", language)


@pytest.mark.parametrize(
    ("env", "want"),
    [
        ({"LANG": "zh_TW.UTF-8"}, "zh-Hant"),
        ({"LANG": "zh_HK.UTF-8"}, "zh-Hant"),
        ({"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh-Hans"),
        ({"LC_MESSAGES": "zh_SG", "LANG": "en_GB.UTF-8"}, "zh-Hans"),
        ({"LANG": "en_US.UTF-8", "LANGUAGE": "zh_TW"}, "en"),
        ({"LANGUAGE": "zh_TW:en"}, "zh-Hant"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_language_comes_from_the_locale(env: dict[str, str], want: str) -> None:
    assert from_locale(env) == want


def test_lang_on_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    assert build_parser().parse_args(["--lang", "zh-Hans"]).lang == "zh-Hans"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--lang", "fr"])


@pytest.mark.parametrize("language", LANGS)
def test_the_breakdown_lobby_and_summary_in_each_language(language: str, zh: None) -> None:
    r, _, _ = play_until_a_hand_ends("mcr", 2)
    set_lang(language)  # type: ignore[arg-type]
    assert lang() == language
    res = r.results[-1]
    shown = text_of(render.breakdown(r, TileStyle(plain=True)), width=200)
    header = text_of(render.header(r, now_ms=0), width=200)
    lobby = text_of(render.lobby_panel(r, None), width=200)
    prompt = text_of(render.prompt(r, now_ms=0, host=True), width=200)
    if res.get("type") != "hand_drawn":
        items = [it for w in res["winners"] for it in w["score"]["items"]]
        assert items
        for it in items:
            from clients.cli.i18n import pattern_name

            assert pattern_name("mcr", it["id"], "?") in shown
            assert (it["en"] in shown) == (language == "en"), it
    if language == "en":
        assert "Hand 1" in shown and "Room" in header
    else:
        assert "第 1 局" in shown and "房" in header
        assert prompt.strip() and "next hand" not in prompt
        for text in (shown, header, lobby, prompt):
            # (the rule set's code, the room code and tile codes are codes, not English)
            words = set(LATIN.findall(text)) - {"mcr", r.code, *TILE_CODES}
            names = {r.name_of(i) for i in range(4)}
            assert not {w for w in words if not any(w in n for n in names)}, (text, words)


@pytest.mark.parametrize("ruleset", ["hk-tw16", "mcr", "tw16-tai"])
@pytest.mark.parametrize("language", ["zh-Hant", "zh-Hans"])
def test_the_log_of_a_hand_in_chinese(ruleset: str, language: str, zh: None) -> None:
    """Every narration line of a hand (draws, flowers, discards, claims, kongs, payments, the
    win or the draw) in Chinese: names, tile codes and the room's codes aside."""
    set_lang(language)  # type: ignore[arg-type]
    for seed in (1, 2, 3):
        r, _, _ = play_until_a_hand_ends(ruleset, seed)
        names = {w for i in range(4) for w in LATIN.findall(r.name_of(i))}
        assert r.log
        for line in r.log:
            words = set(LATIN.findall(line)) - {*TILE_CODES, *names, r.code}
            assert not words, (line, words)


@pytest.mark.parametrize("language", LANGS)
def test_the_help_panel_words_the_hints_note_by_its_code(language: str, zh: None) -> None:
    set_lang(language)  # type: ignore[arg-type]
    wait = {"tile": "5p", "unseen": 3, "by_discard": False, "by_self_draw": False}
    hints = {"shanten": 0, "minimum": 8, "discards": [], "waits": [wait]}
    note = {"note": "ready, but no wait reaches 8", "note_code": "below_minimum"}
    shown = text_of(render.server_hints({**hints, **note}, TileStyle(plain=True)), width=200)
    assert words("note.below_minimum", language).format(minimum=8) in shown
    # an older server: its note as it is
    old = {**hints, "note": "ready, but no wait reaches 8"}
    assert "ready, but no wait reaches 8" in text_of(
        render.server_hints(old, TileStyle(plain=True)), width=200
    )
    if language != "en":
        words_seen = set(LATIN.findall(shown))
        assert not words_seen, shown
