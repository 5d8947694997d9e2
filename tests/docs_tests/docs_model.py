"""The repository's docs parsed once (markdown-it): headings, anchors, links, code spans,
shell lines, tables and prose blocks, each with the line it starts on."""

from __future__ import annotations

import ast
import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

ROOT = Path(__file__).resolve().parents[2]

#: the docs the checks read (CHANGELOG.md is history: it names what is gone on purpose)
DOC_GLOBS = ("README.md", "BENCHMARKS.md", "docs/*.md", "docs/rules/*.md")

#: fenced blocks whose lines are shell commands
SHELL_INFOS = frozenset({"sh", "bash", "shell", "console"})

_ANCHOR = re.compile(r"""<a\s+(?:id|name)=["']([^"']+)["']""")


@dataclass
class Link:
    line: int
    href: str
    text: str


@dataclass
class Table:
    line: int
    header: list[str]
    rows: list[list[str]]


@dataclass
class Block:
    """A paragraph, or a table's row, as markdown source: what the figure checks read."""

    line: int
    source: str


@dataclass
class Doc:
    path: str
    headings: list[str] = field(default_factory=list)
    #: the headings, and the bold words a paragraph opens with (`**Snapshots.**`)
    sections: list[str] = field(default_factory=list)
    anchors: set[str] = field(default_factory=set)
    links: list[Link] = field(default_factory=list)
    code_spans: list[tuple[int, str]] = field(default_factory=list)
    shell_lines: list[tuple[int, str]] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)


def fail(problems: list[str]) -> None:
    """Fail a check with every problem it found, one per line (no traceback: the lines say
    what to fix)."""
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def doc_paths() -> list[str]:
    out: list[str] = []
    for pattern in DOC_GLOBS:
        out.extend(sorted(p.relative_to(ROOT).as_posix() for p in ROOT.glob(pattern)))
    return out


def slug(text: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _plain(inline: Token) -> str:
    return "".join(c.content for c in inline.children or [] if c.type in ("text", "code_inline"))


def _line(tok: Token, default: int) -> int:
    return tok.map[0] + 1 if tok.map else default


def _lead(inline: Token) -> str | None:
    children = [c for c in inline.children or [] if c.type != "text" or c.content]
    if len(children) < 3 or children[0].type != "strong_open":
        return None
    text = ""
    for child in children[1:]:
        if child.type == "strong_close":
            return text.strip().rstrip(".:")
        text += child.content
    return None


def _inline(doc: Doc, tok: Token, line: int) -> None:
    link: Link | None = None
    for child in tok.children or []:
        if child.type == "code_inline":
            doc.code_spans.append((line, child.content))
        elif child.type == "html_inline":
            doc.anchors.update(_ANCHOR.findall(child.content))
        elif child.type == "link_open":
            link = Link(line, str(child.attrGet("href") or ""), "")
        elif child.type == "image":
            doc.links.append(Link(line, str(child.attrGet("src") or ""), child.content))
        if link is not None and child.type in ("text", "code_inline"):
            link.text += child.content
        if child.type == "link_close" and link is not None:
            doc.links.append(link)
            link = None


def _shell(doc: Doc, tok: Token, line: int) -> None:
    if tok.info.strip() not in SHELL_INFOS:
        return
    pending = ""
    for i, raw in enumerate(tok.content.splitlines()):
        text = raw.split(" #", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if tok.info.strip() == "console":
            text = text[2:] if text.startswith("$ ") else ""
        pending += " " + text.rstrip("\\")
        if not text.endswith("\\"):
            if pending.strip():
                doc.shell_lines.append((line + 1 + i, pending.strip()))
            pending = ""


@cache
def parse(path: str) -> Doc:
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    tokens = md.parse((ROOT / path).read_text("utf-8"))
    doc = Doc(path)
    seen: dict[str, int] = {}
    table: Table | None = None
    row: list[str] | None = None
    row_line = 1
    line = 1
    for i, tok in enumerate(tokens):
        line = _line(tok, line)
        if tok.type == "heading_open":
            text = _plain(tokens[i + 1])
            doc.headings.append(text)
            doc.sections.append(text)
            base = slug(text)
            n = seen.get(base, 0)
            seen[base] = n + 1
            doc.anchors.add(base if n == 0 else f"{base}-{n}")
        elif tok.type == "table_open":
            table = Table(line, [], [])
        elif tok.type == "tr_open":
            row = []
            row_line = line
        elif tok.type == "tr_close" and table is not None and row is not None:
            if table.header:
                table.rows.append(row)
            else:
                table.header = row
            doc.blocks.append(Block(row_line, " | ".join(row)))
        elif tok.type == "table_close" and table is not None:
            doc.tables.append(table)
            table = None
        elif tok.type == "html_block":
            doc.anchors.update(_ANCHOR.findall(tok.content))
        elif tok.type == "fence":
            _shell(doc, tok, line)
        elif tok.type == "inline":
            _inline(doc, tok, line)
            if table is not None and row is not None:
                row.append(tok.content)
            elif tokens[i - 1].type == "paragraph_open":
                doc.blocks.append(Block(line, tok.content))
                lead = _lead(tok)
                if lead:
                    doc.sections.append(lead)
    return doc


@cache
def project_scripts() -> frozenset[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    return frozenset(data["project"]["scripts"])


@cache
def compiled_modules() -> tuple[str, ...]:
    """``mahjong_native.MODULES``, read from its source (importing it installs the finder)."""
    tree = ast.parse((ROOT / "mahjong_native" / "__init__.py").read_text("utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == "MODULES"
            and node.value is not None
        ):
            value = ast.literal_eval(node.value)
            assert isinstance(value, tuple)
            return tuple(str(v) for v in value)
    raise AssertionError("mahjong_native/__init__.py has no MODULES")


def module_file(dotted: str) -> Path | None:
    """The source of a module of this repository (``server.room.game``), or None."""
    base = ROOT.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@cache
def top_level_names(path: Path) -> frozenset[str]:
    """What a module defines or imports at its top level (and ``__all__``)."""
    tree = ast.parse(path.read_text("utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)


@cache
def class_members(path: Path, cls: str) -> frozenset[str] | None:
    """The names a top-level class of a module defines in its body, or None if no class."""
    tree = ast.parse(path.read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            names: set[str] = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    names.add(item.target.id)
                elif isinstance(item, ast.Assign):
                    names.update(t.id for t in item.targets if isinstance(t, ast.Name))
            return frozenset(names)
    return None


def summary(path: Path) -> str | None:
    """A module's one job: its docstring's first paragraph on one line, as markdown."""
    doc = ast.get_docstring(ast.parse(path.read_text("utf-8")))
    if not doc:
        return None
    first = " ".join(doc.strip().split("\n\n", 1)[0].split())
    first = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", first)  # :func:`x` -> `x`
    return first.replace("``", "`")
