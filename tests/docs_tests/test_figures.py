"""Figures in the docs: BENCHMARKS.md's table of current figures is well formed, a figure
quoted elsewhere is a link to its row carrying that row's value, and docs/architecture.md
quotes no figure but such links.

Each failure says what to change, in which doc and on which line.
"""

from __future__ import annotations

import os
import re

import pytest

from tests.docs_tests.docs_model import ROOT, doc_paths, fail, parse

DOCS = doc_paths()
BENCH = "BENCHMARKS.md"

#: a measured figure: a number (or range) with a unit of measurement, or a ratio with ×;
#: not a bound (a target: "p99 ≤ 10 ms")
_NUM = r"\d[\d,]*(?:\.\d+)?"
_NOT_BOUND = r"(?<![≤≥<>])(?<![≤≥<>] )"
_FIGURE = re.compile(
    rf"{_NOT_BOUND}(?<![\w.`/-])[~≈]?{_NUM}(?:\s?[–-]\s?{_NUM})?\s?"
    r"(?:×|µs\b|ms\b|s\b|%|KiB\b|KB\b|MB\b|GB\b|B\b|instructions\b|hands/s\b|actions/s\b|"
    r"commits/s\b|hellos/s\b|/s\b|minutes?\b|CPU-minutes\b|cores\b)"
    rf"|{_NOT_BOUND}(?<![\w.`/-])0\.\d+(?![\d.])"  # a bare ratio: 0.146, 0.22
)


def _figures_table() -> dict[str, list[str]]:
    doc = parse(BENCH)
    want = ["id", "what", "value", "build", "command", "commit", "date"]
    tables = [t for t in doc.tables if t.header == want]
    if len(tables) != 1:
        fail([f"{BENCH}: keep one table of current figures, | {' | '.join(want)} |"])
    rows: dict[str, list[str]] = {}
    problems = []
    for row in tables[0].rows:
        ids = re.findall(r"`([\w-]+)`", row[0])
        if not ids or f'<a id="{ids[0]}"></a>' not in row[0]:
            problems.append(f'{BENCH}: a figure\'s id cell is <a id="ID"></a>`ID`, not: {row[0]}')
        elif ids[0] in rows:
            problems.append(f"{BENCH}: the id {ids[0]} is used twice: give each row its own")
        else:
            rows[ids[0]] = row
    fail(problems)
    return rows


def test_figures_table() -> None:
    """Each row of BENCHMARKS.md's table: a unique id, compiled or pure, a commit, a date."""
    problems = []
    for fid, row in _figures_table().items():
        if row[3].strip() not in ("compiled", "pure"):
            problems.append(f"{BENCH}: {fid}: build must be compiled or pure, not {row[3]!r}")
        if not re.search(r"`[0-9a-f]{7,40}`", row[5]):
            problems.append(f"{BENCH}: {fid}: the commit cell names no commit (`abc1234`)")
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", row[6].strip()):
            problems.append(f"{BENCH}: {fid}: the date must be YYYY-MM-DD, not {row[6]!r}")
        if not row[4].strip():
            problems.append(f"{BENCH}: {fid}: the command is missing")
    fail(problems)


def _bench_link(href: str) -> str | None:
    file_part, _, anchor = href.partition("#")
    return anchor if file_part.endswith(BENCH) and anchor else None


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d[\d,]*(?:\.\d+)?", text)


@pytest.mark.parametrize("path", DOCS)
def test_quoted_figures_match_the_table(path: str) -> None:
    """A link to a figure's row carries that row's value: every number of the link's text
    is in the row's value cell, so no figure appears in two docs with two values."""
    links = [link for link in parse(path).links if _bench_link(link.href)]
    rows = _figures_table() if links else {}
    problems = []
    for link in links:
        fid = _bench_link(link.href)
        if fid is None or fid not in rows:
            continue  # test_links_resolve names an unknown anchor
        value = rows[fid][2]
        if link.text.strip("`") == fid:
            continue  # a pointer to the row: [`soak-2000`](BENCHMARKS.md#soak-2000)
        for number in _numbers(link.text):
            if number not in _numbers(value):
                problems.append(
                    f"{path}:{link.line}: [{link.text}]({link.href}) says {number}, but "
                    f"{BENCH}'s row {fid} says: {value.strip()}: quote the row's value"
                )
    fail(problems)


def _unlinked_figures(source: str) -> list[str]:
    text = re.sub(r"\[([^\]]*)\]\([^)]*BENCHMARKS\.md#[^)]*\)", " ", source)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"<[^>]+>", " ", text)
    return [" ".join(m.group(0).split()) for m in _FIGURE.finditer(text)]


@pytest.mark.parametrize("path", [d for d in DOCS if d != BENCH])
def test_figures_come_from_the_table(path: str) -> None:
    """docs/architecture.md quotes no figure but from BENCHMARKS.md's table (the design
    belongs there, the numbers in the table); in every other doc, a paragraph or table that
    cites BENCHMARKS.md or a benchmark quotes its figures as links to the table's rows."""
    problems = []
    bench = os.path.relpath(ROOT / BENCH, (ROOT / path).parent)
    for block in parse(path).blocks:
        cites = re.search(r"BENCHMARKS\.md|benchmarks/|bench_\w+\.py", block.source)
        if path != "docs/architecture.md" and not cites:
            continue
        for figure in _unlinked_figures(block.source):
            problems.append(
                f'{path}:{block.line}: the figure "{figure}" is not read from {BENCH}\'s '
                f"table: write it as a link to its row, [{figure}]({bench}#ID), with the "
                f"row's value (add a row if there is none), or drop it"
            )
    fail(problems)


@pytest.mark.parametrize(
    ("source", "figures"),
    [
        ("p99 5.05 ms and 0.146 of the baseline", ["5.05 ms", "0.146"]),
        ("[5.05 ms](../BENCHMARKS.md#soak-2000) at `--interval 20`", []),
        ("target p99 ≤ 10 ms, at most 2,000 rooms, Python 3.11", []),
        (
            "4.96–5.13 × and ~23 KiB and 12,932 commits/s",
            ["4.96–5.13 ×", "~23 KiB", "12,932 commits/s"],
        ),
    ],
)
def test_figures_found(source: str, figures: list[str]) -> None:
    """What counts as a figure: a number with a unit, or a bare ratio; not a bound, a code
    span, a count without a unit or a version."""
    assert _unlinked_figures(source) == figures
