"""The docs checked against the code: every path, module and command a doc names exists,
every link resolves, the compiled modules the docs list are ``mahjong_native.MODULES``, and
docs/server.md lists every module of ``server/`` (figures: test_figures.py; the release
versions: test_releases.py).

Each failure says what to change, in which doc and on which line.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

import pytest

from tests.docs_tests.docs_model import (
    ROOT,
    Doc,
    Table,
    class_members,
    compiled_modules,
    doc_paths,
    fail,
    module_file,
    parse,
    project_scripts,
    slug,
    summary,
    top_level_names,
)

DOCS = doc_paths()
PACKAGES = ("scoring", "table", "protocol", "server", "bots", "loadtest", "clients")
PACKAGES_ALL = (*PACKAGES, "mahjong_native", "benchmarks", "scripts", "tests")
BENCH = "BENCHMARKS.md"

#: a path: one or more directories, then a file name or a glob (or a trailing slash)
_PATH = re.compile(r"^[\w.-]+(?:/[\w.*-]+)*/?$")
_DOTTED = re.compile(r"^[a-z_]+(?:\.[A-Za-z_][\w]*)+$")
#: a doc or section named in prose: `docs/server.md "Snapshots"`, `BENCHMARKS.md, "Soak"`
_CITED_SECTION = re.compile(
    r"\[?((?:\.\./|docs/)?(?:rules/)?[\w-]+\.md)\]?(?:\([^)]*\))?,? \(?[\"“]([^\"”]+)[\"”]"
)


def _ignored(path: str) -> bool:
    """A path git ignores (made by a build or by hand: `server/webapp/`, `deploy/certs/`):
    docs name it, a checkout does not have it."""
    parts = path.rstrip("/").split("/")
    for raw in (ROOT / ".gitignore").read_text("utf-8").splitlines():
        pat = raw.strip().lstrip("/").rstrip("/")
        if not pat or pat.startswith("#"):
            continue
        if "/" in pat:
            pat_parts = pat.split("/")
            head = parts[: len(pat_parts)]
            if len(head) == len(pat_parts) and all(map(fnmatch.fnmatch, head, pat_parts)):
                return True
        elif any(fnmatch.fnmatch(part, pat) for part in parts):
            return True
    return False


def _repo_path(text: str) -> str | None:
    """The repository path a code span names (its first directory is one of the checkout's),
    or None when it is not one: `src/ui/host.tsx` (relative), `~/.config/…`, `./data`."""
    text = re.sub(r":\d+$", "", text.strip())
    if not _PATH.match(text) or "/" not in text.rstrip("/"):
        return None
    first = text.split("/", 1)[0]
    return text if first not in (".", "..") and (ROOT / first).is_dir() else None


def _exists(path: str) -> bool:
    if any(ch in path for ch in "*?["):
        return any(ROOT.glob(path))
    return (ROOT / path).exists() or _ignored(path)


@pytest.mark.parametrize("path", DOCS)
def test_named_paths_exist(path: str) -> None:
    """Every repository path a doc names in a code span (`server/room/game.py`) exists."""
    problems = []
    for line, text in parse(path).code_spans:
        named = _repo_path(text)
        if named is not None and not _exists(named):
            problems.append(f"{path}:{line}: `{text}` does not exist: fix the path or drop it")
    fail(problems)


def _message_names() -> frozenset[str]:
    from protocol.messages import CLIENT_MESSAGES, SERVER_MESSAGES

    return frozenset(CLIENT_MESSAGES) | frozenset(SERVER_MESSAGES)


def _module_problem(dotted: str) -> str | None:
    """Why a dotted name (`table.wins.may_self_win`) names nothing, or None."""
    parts = dotted.split(".")
    if parts[0] not in (*PACKAGES, "mahjong_native"):
        return None
    if parts[0] == "server" and len(parts) == 2 and parts[1] in _message_names():
        return None  # a protocol message (`server.welcome`)
    n = len(parts)
    while n > 0 and module_file(".".join(parts[:n])) is None:
        n -= 1
    path = module_file(".".join(parts[:n]))
    if path is None:
        return f"no module `{parts[0]}`"
    rest = parts[n:]
    if not rest:
        return None
    if rest[0] not in top_level_names(path):
        return f"`{'.'.join(parts[:n])}` defines no `{rest[0]}`"
    if len(rest) > 1:
        members = class_members(path, rest[0])
        if members is not None and rest[1] not in members:
            return f"class `{rest[0]}` of `{'.'.join(parts[:n])}` defines no `{rest[1]}`"
    return None


@pytest.mark.parametrize("path", DOCS)
def test_named_modules_exist(path: str) -> None:
    """Every dotted name of ours a doc names (`server.room.game`, `table.wins.may_self_win`)
    is a module, or a name a module defines."""
    problems = []
    for line, text in parse(path).code_spans:
        name = text.strip().rstrip("()")
        if _DOTTED.match(name) and not re.search(r"\.(py|md|json|lua|toml|txt|sh)$", name):
            why = _module_problem(name)
            if why:
                problems.append(f"{path}:{line}: `{text}`: {why}: fix the name or drop it")
    fail(problems)


_WRAPPERS = re.compile(
    r"^(?:[A-Z_][A-Z0-9_]*=\S*\s+|taskset -c \S+\s+|nice(?: -n)? \S+\s+|"
    r"(?:/usr/bin/)?time\s+|sudo\s+|exec\s+|\$\s+)+"
)


def _command_problem(segment: str) -> str | None:
    words = _WRAPPERS.sub("", segment.strip()).split()
    if not words:
        return None
    cmd = re.sub(r"^(?:\.venv/bin/|\./)", "", words[0])
    if cmd.startswith("mahjong-"):
        if cmd not in project_scripts():
            return f"`{cmd}` is no command of pyproject.toml's [project.scripts]"
    elif re.fullmatch(r"python3?", cmd) and len(words) > 1:
        if words[1] == "-m" and len(words) > 2 and words[2].split(".")[0] in PACKAGES_ALL:
            if module_file(words[2]) is None:
                return f"`python -m {words[2]}`: no such module"
        elif words[1].endswith(".py") and _repo_path(words[1]) and not _exists(words[1]):
            return f"`{words[1]}` does not exist"
    elif cmd == "bash" and len(words) > 1 and _repo_path(words[1]) and not _exists(words[1]):
        return f"`{words[1]}` does not exist"
    return None


@pytest.mark.parametrize("path", DOCS)
def test_named_commands_exist(path: str) -> None:
    """Every command a doc shows (in a shell block, or a code span that is a command):
    `mahjong-*` is a [project.scripts] entry, `python -m M` a module, `python F` / `bash F`
    a file."""
    doc = parse(path)
    problems = []
    lines = list(doc.shell_lines) + [
        (line, text)
        for line, text in doc.code_spans
        if re.match(r"^(?:\.venv/bin/)?(?:mahjong-|python3? |bash )", text)
    ]
    for line, text in lines:
        for segment in re.split(r"\||&&|;|\$\(|\(", text):
            why = _command_problem(segment)
            if why:
                problems.append(f"{path}:{line}: {why}: fix the command or drop it")
    fail(problems)


def _anchors(target: str) -> set[str]:
    return parse(target).anchors if target.endswith(".md") and target in DOCS else set()


@pytest.mark.parametrize("path", DOCS)
def test_links_resolve(path: str) -> None:
    """Every relative link and image of a doc (README.md's included) reaches a file of the
    repository, and its #anchor a heading or an `<a id>` of that file."""
    doc = parse(path)
    problems = []
    for link in doc.links:
        href = link.href
        if re.match(r"^[a-z]+:", href) or not href:
            continue
        file_part, _, anchor = href.partition("#")
        if file_part:
            target = (ROOT / path).parent.joinpath(file_part).resolve()
            try:
                rel = target.relative_to(ROOT).as_posix()
            except ValueError:
                problems.append(f"{path}:{link.line}: [{link.text}]({href}) leaves the repository")
                continue
            if not target.exists():
                problems.append(
                    f"{path}:{link.line}: [{link.text}]({href}): {rel} does not exist: fix the link"
                )
                continue
        else:
            rel = path
        if anchor and rel.endswith(".md") and anchor not in _anchors(rel):
            problems.append(
                f"{path}:{link.line}: [{link.text}]({href}): {rel} has no heading or anchor "
                f"#{anchor}: link one of its headings"
            )
    fail(problems)


def _section_names(target: str) -> list[str]:
    return [" ".join(h.lower().split()) for h in parse(target).sections]


@pytest.mark.parametrize("path", DOCS)
def test_cited_sections_exist(path: str) -> None:
    """A section named in prose (`docs/server.md "Snapshots"`, `BENCHMARKS.md, "Soak"`) is a
    heading of that doc, or the bold words a paragraph of it opens with (the name may be
    their beginning)."""
    problems = []
    for block in parse(path).blocks:
        for m in _CITED_SECTION.finditer(block.source):
            name, section = m.group(1), " ".join(m.group(2).split())
            target = _resolve_doc(path, name)
            if target is None:
                continue
            if not any(h.startswith(section.lower()) for h in _section_names(target)):
                heads = "; ".join(parse(target).headings[:40])
                problems.append(
                    f'{path}:{block.line}: names {name} "{section}", which is no section of '
                    f"{target}: name one of its headings ({heads}) or link a figure's row"
                )
    fail(problems)


def _resolve_doc(path: str, name: str) -> str | None:
    for base in ((ROOT / path).parent, ROOT, ROOT / "docs"):
        target = (base / name).resolve()
        if target.is_file():
            rel = target.relative_to(ROOT).as_posix()
            return rel if rel in DOCS else None
    return None


# --- compiled modules ---------------------------------------------------------------------


def _cell_names(cell: str) -> list[str]:
    return re.findall(r"`([\w./]+)`", cell)


def test_compiled_modules_listed() -> None:
    """docs/architecture.md's table of compiled modules is `mahjong_native.MODULES`, no
    sentence of the docs says one of them is not compiled, and docs/server.md's `compiled`
    column marks exactly the server's modules in it."""
    modules = set(compiled_modules())
    problems = [f"{line}: {claim}" for line, claim in _pure_claims(modules)]
    arch = parse("docs/architecture.md")
    tables = [t for t in arch.tables if t.header[:2] == ["package", "compiled modules"]]
    if len(tables) != 1:
        problems.append(
            "docs/architecture.md: keep one table with the header | package | compiled "
            'modules | in "Compiled hot paths" (one row per package)'
        )
        tables.append(Table(0, [], []))
    listed: set[str] = set()
    for row in tables[0].rows:
        pkg = _cell_names(row[0])[0]
        listed.update(f"{pkg}.{m}" if m != pkg else m for m in _cell_names(row[1]))
    for mod in sorted(modules - listed if tables[0].rows else ()):
        problems.append(
            f"docs/architecture.md:{tables[0].line}: the table of compiled modules lacks "
            f"`{mod}` (in mahjong_native.MODULES): add it to its package's row"
        )
    for mod in sorted(listed - modules):
        problems.append(
            f"docs/architecture.md:{tables[0].line}: the table of compiled modules lists "
            f"`{mod}`, which is not in mahjong_native.MODULES: remove it"
        )
    table = _server_table()
    if table.header[2:3] != ["compiled"]:
        problems.append(
            "docs/server.md: the module table's third column is | compiled | (yes or —)"
        )
    for row in table.rows if table.header[2:3] == ["compiled"] else ():
        for name in _cell_names(row[0]):
            mod = "server." + name.removesuffix(".py").replace("/", ".")
            marked = row[2].strip() == "yes"
            if marked != (mod in modules):
                want = "yes" if mod in modules else "—"
                problems.append(
                    f"docs/server.md:{table.line}: `{name}`'s compiled column must say {want} "
                    f"(mahjong_native.MODULES {'has' if mod in modules else 'has not'} `{mod}`)"
                )
    fail(problems)


_NOT_COMPILED = re.compile(
    r"\bnot (?:yet )?compiled|\bstays? pure\b|\bpure Python outside|not worth a module in the build"
)


def _pure_claims(modules: set[str]) -> list[tuple[str, str]]:
    """Sentences that say a module of `mahjong_native.MODULES` is not compiled."""
    out = []
    for path in DOCS:
        for block in parse(path).blocks:
            for sentence in re.split(r"(?<=[.;])\s+", block.source):
                if not _NOT_COMPILED.search(sentence):
                    continue
                for name in re.findall(r"`([\w/.]+)`", sentence):
                    mod = name.removesuffix(".py").replace("/", ".")
                    if mod in modules:
                        out.append(
                            (
                                f"{path}:{block.line}",
                                f"says `{name}` is not compiled, but mahjong_native.MODULES "
                                f"lists {mod}: correct the sentence",
                            )
                        )
    return out


# --- docs/server.md -----------------------------------------------------------------------


def _server_table() -> Table:
    doc = parse("docs/server.md")
    tables = [t for t in doc.tables if t.header[:2] == ["module", "job"]]
    if len(tables) != 1:
        fail(
            [
                "docs/server.md: keep one table with the header | module | job | compiled | "
                'in "How the server is built"'
            ]
        )
    return tables[0]


def test_server_modules_listed() -> None:
    """docs/server.md lists every module of server/ and of its layers' folders once
    (``room/game.py``; the archive has docs/archive.md), with its docstring's first paragraph
    as its job."""
    table = _server_table()
    rows = {}
    problems = []
    for row in table.rows:
        names = _cell_names(row[0])
        if len(names) != 1:
            problems.append(f"docs/server.md:{table.line}: one module per row: {row[0]}")
            continue
        if names[0] in rows:
            problems.append(f"docs/server.md:{table.line}: `{names[0]}` is listed twice")
        rows[names[0]] = row[1].strip()
    server = ROOT / "server"
    modules = sorted(
        p.relative_to(server).as_posix()
        for p in [*server.glob("*.py"), *server.glob("*/*.py")]
        if p.name != "__init__.py" and p.parent.name != "archive"
    )
    compiled = set(compiled_modules())
    for name in modules:
        job = summary(server / name)
        mark = "yes" if f"server.{name[:-3].replace('/', '.')}" in compiled else "—"
        if job is None:
            problems.append(f"server/{name} has no docstring: its first line says its one job")
        elif name not in rows:
            problems.append(
                f"docs/server.md:{table.line}: add the row | `{name}` | {job} | {mark} |"
            )
        elif rows[name] != job:
            problems.append(
                f"docs/server.md:{table.line}: `{name}`'s job must be its docstring's first "
                f"paragraph: | `{name}` | {job} | {mark} |"
            )
    for name in sorted(set(rows) - set(modules)):
        problems.append(f"docs/server.md:{table.line}: `{name}` is no module of server/: remove it")
    fail(problems)


def test_docs_found() -> None:
    assert "README.md" in DOCS and "docs/server.md" in DOCS and BENCH in DOCS
    assert isinstance(parse("README.md"), Doc) and slug("A b, c") == "a-b-c"
    assert Path(ROOT / "mahjong_native").is_dir()


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("table.wins.may_self_win", None),
        ("server.welcome", None),
        ("mahjong_native.MODULES", None),
        ("scoring.context.WinContext", None),
        ("table.engine.nope", "`table.engine` defines no `nope`"),
        ("server.nosuchmodule", "`server` defines no `nosuchmodule`"),
        ("redis.asyncio", None),
    ],
)
def test_module_names_resolved(name: str, problem: str | None) -> None:
    assert _module_problem(name) == problem
