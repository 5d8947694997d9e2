"""The terminal client in three languages: every message in all three, the language from the
locale or ``--lang``, and a finished hand's breakdown, the lobby and the summary in each, with
the pattern names the browser shows (clients/web/src/i18n/names.json)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from cli_tests.test_render_words import play_until_a_hand_ends, text_of
from clients.cli import render
from clients.cli.i18n import LANGS, MESSAGES, RULESET_NAMES, from_locale, lang, set_lang
from clients.cli.main import build_parser
from clients.cli.tiles import TileStyle
from scoring import ruleset_names

LATIN = re.compile(r"[A-Za-z]{2,}")
TILE_CODES = {"we", "ws", "ww", "wn", "dr", "dg", "dw"}


@pytest.fixture
def zh() -> Iterator[None]:
    yield
    set_lang("en")


def test_every_message_is_in_all_three_languages_with_the_same_fields() -> None:
    for key, words in MESSAGES.items():
        assert len(words) == 3, key
        fields = [sorted(re.findall(r"{(\w+)}", w)) for w in words]
        assert set(fields[1]) <= set(fields[0]) and set(fields[2]) <= set(fields[0]), key
        assert words[0].strip() or key == "col_english", key
        for w in words[1:]:  # the Chinese ones: no English word but the keys named
            assert not LATIN.search(re.sub(r"{\w+}|\[[^\]]*\]|Enter", "", w)), (key, w)
    assert set(RULESET_NAMES) == set(ruleset_names())


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
