"""Pattern names in English, Traditional and Simplified Chinese for both clients, made from the rule data.

The rule data names each pattern once, in the script its source used (``taiwan_16_tai.json``
in Simplified, hk-tw16 and MCR in Traditional, riichi in Japanese). This module converts every
name both ways with OpenCC (Traditional ↔ Simplified; Japanese shinjitai → Traditional first),
then applies :data:`OVERRIDES`, the reviewed list of mahjong terms the conversion gets wrong,
and writes one file both clients read, so no name is ever typed twice and no browser converts
anything::

    python -m clients.names --write     # regenerate clients/web/src/i18n/names.json
    python -m clients.names --check     # exit 1 when the committed copy differs (CI)

The file also lists the rule sets and the server's error codes (``protocol.codes``), which the
catalogues of both clients must translate (clients/web/test/i18n.test.ts, tests/cli).
OpenCC is a development dependency only: the clients read the generated file.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from clients.generated import write_or_check

__all__ = [
    "LANGS",
    "NAMES_PATH",
    "OVERRIDES",
    "TERMS",
    "build",
    "convert",
    "main",
]

NAMES_PATH = Path(__file__).resolve().parent / "web" / "src" / "i18n" / "names.json"
#: the order of the names in each entry of the file
LANGS = ("en", "zh-Hant", "zh-Hans")

#: Rule sets whose data names patterns in Japanese (converted to Traditional first).
JAPANESE = frozenset({"riichi"})

#: The reviewed overrides: (where, wrong, right, why). ``where`` is ``ja`` (the Japanese name
#: before any conversion), ``zh-Hant`` or ``zh-Hans`` (the converted name). Each pair is
#: replaced wherever it occurs, in this order.
OVERRIDES: tuple[tuple[str, str, str, str], ...] = (
    ("ja", "ダブル立直", "雙立直", "double riichi: the katakana has no Chinese conversion"),
    ("ja", "赤ドラ", "赤寶牌", "red-five dora"),
    ("ja", "裏ドラ", "裏寶牌", "uradora"),
    ("ja", "ドラ", "寶牌", "dora, the bonus tiles (寶牌 in Chinese riichi terms)"),
    ("ja", "十三面待ち", "十三面聽", "the 13-sided wait: 待ち is 聽 at a Chinese table"),
    ("ja", "対々和", "對對和", "々 repeats the character before it; Chinese writes it twice"),
    ("zh-Hant", "麼", "么", "么 (yāo, 'one') in 么九, 斷么, 十三么: OpenCC makes it 麼"),
    (
        "zh-Hant",
        "幺",
        "么",
        "the Traditional tables write yāo 么 (斷么九, 十三么), as their rule data does",
    ),
    (
        "zh-Hant",
        "喫",
        "吃",
        "吃, the claim (上 in Hong Kong): OpenCC makes a lone 吃 the archaic 喫",
    ),
    ("zh-Hant", "臺", "台", "台, the unit of the 台 table, as its players write it"),
    ("zh-Hans", "么", "幺", "Simplified writes yāo 幺: 断幺九, 十三幺, 全带幺"),
)

#: Mahjong terms that must come out of the conversion as written here, each (Traditional,
#: Simplified): the test converts both ways and compares (tests/cli/test_names.py).
TERMS: tuple[tuple[str, str], ...] = (
    ("槓", "杠"),
    ("暗槓", "暗杠"),
    ("槓上開花", "杠上开花"),
    ("搶槓", "抢杠"),
    ("碰碰和", "碰碰和"),
    ("吃", "吃"),
    ("聽牌", "听牌"),
    ("獨聽", "独听"),
    ("莊家", "庄家"),
    ("連莊", "连庄"),
    ("斷么九", "断幺九"),
    ("十三么", "十三幺"),
    ("門前清", "门前清"),
    ("發", "发"),
    ("對對和", "对对和"),
    ("海底撈月", "海底捞月"),
    ("台", "台"),
    ("食胡", "食胡"),
)


class Converter(Protocol):
    """An OpenCC converter (one configuration: s2t, t2s, jp2t)."""

    def convert(self, text: str) -> str: ...


def _converters() -> dict[str, Converter]:
    import opencc  # a development dependency: only the generator converts

    out: dict[str, Converter] = {c: opencc.OpenCC(c) for c in ("s2t", "t2s", "jp2t")}
    return out


def _fix(where: str, text: str) -> str:
    for w, wrong, right, _why in OVERRIDES:
        if w == where:
            text = text.replace(wrong, right)
    return text


def convert(
    name: str, japanese: bool = False, cc: dict[str, Converter] | None = None
) -> tuple[str, str]:
    """A pattern's name in Traditional and in Simplified Chinese."""
    cc = cc or _converters()
    base = cc["jp2t"].convert(_fix("ja", name)) if japanese else name
    hant = _fix("zh-Hant", cc["s2t"].convert(base))
    hans = _fix("zh-Hans", cc["t2s"].convert(hant if japanese else base))
    return hant, hans


def _items(ruleset: Any) -> Iterator[tuple[str, str, str]]:
    """(id, name, English) of every pattern the rule set can score."""
    from scoring.engine import Item

    for row in ruleset.patterns:
        yield row.id, row.name, row.en
    extra = getattr(ruleset, "chicken", None)  # Zung Jung's chicken hand is not a row
    if isinstance(extra, Item):
        yield extra.id, extra.name, extra.en


def build() -> dict[str, object]:
    """The file's content."""
    import scoring.rulesets  # noqa: F401  (registers the rule sets)
    from protocol.codes import ErrorCode, HintNote
    from scoring.engine import get_ruleset, ruleset_names

    cc = _converters()
    patterns: dict[str, dict[str, list[str]]] = {}
    for rs in sorted(ruleset_names()):
        out: dict[str, list[str]] = {}
        for pid, name, en in _items(get_ruleset(rs)):
            hant, hans = convert(name, rs in JAPANESE, cc)
            out[pid] = [en or pid, hant, hans]
        patterns[rs] = out
    return {
        "generated": "by python -m clients.names --write from the rule data; do not edit",
        "langs": list(LANGS),
        "rulesets": sorted(patterns),
        "error_codes": sorted(c.value for c in ErrorCode),
        "hint_notes": sorted(c.value for c in HintNote),
        "patterns": patterns,
    }


def render() -> str:
    """The file's text (sorted keys: a stable diff)."""
    return json.dumps(build(), ensure_ascii=False, indent=0, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = render()
    done = write_or_check({NAMES_PATH: text}, "clients.names", args)
    if done is not None:
        return done
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
