"""The generated data both clients use: the pattern names (clients/names.py) — the committed
file is what the rule data and OpenCC make today, the reviewed mahjong terms come out right both
ways, and no name holds a character the overrides exist to keep out — and the tile art's glyph
outlines (clients/glyphs.py), what Noto Sans CJK makes today."""

from __future__ import annotations

import json

import pytest

from clients import glyphs
from clients.names import NAMES_PATH, OVERRIDES, TERMS, build, convert, render


def test_the_committed_names_are_what_the_rule_data_makes() -> None:
    assert NAMES_PATH.read_text(encoding="utf-8") == render(), (
        "clients/web/src/i18n/names.json is stale: run python -m clients.names --write"
    )


@pytest.mark.parametrize(("hant", "hans"), TERMS)
def test_a_mahjong_term_converts_right_both_ways(hant: str, hans: str) -> None:
    assert convert(hant) == (hant, hans)
    assert convert(hans) == (hant, hans)


def test_every_override_corrects_something_and_is_reviewed() -> None:
    for where, wrong, right, why in OVERRIDES:
        assert where in ("ja", "zh-Hant", "zh-Hans") and wrong != right and why
    names = build()["patterns"]
    hant = "".join(n[1] for rs in names.values() for n in rs.values())
    hans = "".join(n[2] for rs in names.values() for n in rs.values())
    for ch in "麼臺杠々幺喫":
        assert ch not in hant, ch
    for ch in "槓聽莊麼々":
        assert ch not in hans, ch
    assert "ドラ" not in hant + hans and "ダブル" not in hant + hans


def test_every_rule_set_and_error_code_is_listed() -> None:
    import scoring.rulesets  # noqa: F401
    from protocol.codes import ErrorCode
    from scoring.engine import get_ruleset, ruleset_names

    data = json.loads(NAMES_PATH.read_text(encoding="utf-8"))
    assert data["rulesets"] == sorted(ruleset_names())
    assert data["error_codes"] == sorted(c.value for c in ErrorCode)
    for rs in ruleset_names():
        ids = {row.id for row in get_ruleset(rs).patterns}
        assert ids <= set(data["patterns"][rs]), rs


def test_the_committed_glyphs_are_the_fonts() -> None:
    assert glyphs.FONT.is_file(), "apt-get install fonts-noto-cjk (scripts/test installs it)"
    assert glyphs.GLYPHS_PATH.read_text(encoding="utf-8") == glyphs.render(), (
        "clients/web/src/tiles/glyphs.ts is stale: run python -m clients.glyphs --write"
    )
