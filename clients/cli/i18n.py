"""The terminal client's language: English, 繁體中文 or 简体中文 for its words and the pattern names.

``--lang`` picks it; by default it comes from the environment's locale (``LC_ALL``,
``LC_MESSAGES``, ``LANG``, ``LANGUAGE``: ``zh_TW``/``zh_HK``/``zh_MO``/``*Hant*`` are
Traditional, any other ``zh`` Simplified, anything else English). The words are in
:mod:`clients.cli.catalogue` (English and Traditional) and clients/cli/zh_hans.json
(Simplified, generated from the Traditional: ``python -m clients.hans``); the server's errors,
hint notes, payment reasons and rule sets are worded by their code (:func:`by_code`), the
server's own words kept for a code this client does not know. Pattern names are the ones the
browser shows, generated from the rule data at build time (clients/names.py,
clients/web/src/i18n/names.json): nothing is converted here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Literal

from clients.cli.catalogue import MESSAGES

__all__ = [
    "LANGS",
    "MESSAGES",
    "Lang",
    "by_code",
    "error_text",
    "from_locale",
    "has",
    "hint_note",
    "lang",
    "pattern_name",
    "pay_reason",
    "ruleset_name",
    "set_lang",
    "tr",
    "words_of",
]

Lang = Literal["en", "zh-Hant", "zh-Hans"]
LANGS: tuple[Lang, ...] = ("en", "zh-Hant", "zh-Hans")
NAMES = Path(__file__).resolve().parent.parent / "web" / "src" / "i18n" / "names.json"
HANS = Path(__file__).resolve().parent / "zh_hans.json"

_current: list[Lang] = ["en"]


def lang() -> Lang:
    """The current language."""
    return _current[0]


def set_lang(value: Lang) -> None:
    _current[0] = value


@cache
def _hans() -> dict[str, str]:
    """The generated 简体中文 words (clients/hans.py)."""
    words: dict[str, str] = json.loads(HANS.read_text(encoding="utf-8"))
    return words


def words_of(key: str, in_lang: Lang) -> str:
    """The words of ``key`` in ``in_lang``, fields not filled in."""
    if in_lang == "zh-Hans":
        return _hans()[key]
    return MESSAGES[key][LANGS.index(in_lang)]


def tr(key: str, **fields: object) -> str:
    """The message ``key`` in the current language, its fields filled in."""
    return words_of(key, _current[0]).format(**fields)


def has(key: str) -> bool:
    """The catalogue has ``key``."""
    return key in MESSAGES


def by_code(family: str, code: object, fallback: str, **fields: object) -> str:
    """The words for a code of a family (``error``, ``note``, ``reason``, ``room_status``,
    ``ruleset``): ``fallback`` (the server's own) for a code this client does not know."""
    key = f"{family}.{code}"
    return tr(key, **fields) if key in MESSAGES else fallback


def error_text(code: str, message: str) -> str:
    """A server error in words: by its ``error_code``, the server's message when it is new."""
    return by_code("error", code, message)


def hint_note(code: str | None, minimum: int, note: str) -> str:
    """The hints' note in words: by its ``note_code``, the server's note when it is new or
    absent (an older server)."""
    return by_code("note", code, note, minimum=minimum) if code else note


def from_locale(env: Mapping[str, str]) -> Lang:
    """The language the environment's locale asks for (English when it asks for none we have)."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var, "")
        if not value:
            continue
        tag = value.split(":")[0].split(".")[0].replace("_", "-").lower()
        if tag.startswith("zh"):
            return "zh-Hant" if re.search(r"-(hant|tw|hk|mo)\b", tag) else "zh-Hans"
        return "en"
    return "en"


@cache
def _patterns() -> dict[str, dict[str, list[str]]]:
    data = json.loads(NAMES.read_text(encoding="utf-8"))
    out: dict[str, dict[str, list[str]]] = data["patterns"]
    return out


def pattern_name(ruleset: str, pattern: str, fallback: str, in_lang: Lang | None = None) -> str:
    """A pattern's Chinese name: Simplified in 简体中文, else Traditional (``fallback``, the
    server's own, for a pattern the generated file does not know)."""
    names = _patterns().get(ruleset, {}).get(pattern)
    if not names:
        return fallback
    return names[2] if (in_lang or _current[0]) == "zh-Hans" else names[1]


def pay_reason(reason: object) -> str:
    """A payment's reason in words (English: the server's own). The 台 table's
    ``discard +dealer 1`` (the dealer's 台 added) is the reason and the dealer's part."""
    text = str(reason)
    if _current[0] == "en":
        return text
    head, _, extra = text.partition(" +")
    words = by_code("reason", head, head)
    dealer = re.fullmatch(r"dealer (\d+)", extra)
    if dealer:
        return words + tr("reason_dealer", n=dealer.group(1))
    return words + (" +" + extra if extra else "")


def ruleset_name(ruleset: str) -> str:
    return by_code("ruleset", ruleset, ruleset)
