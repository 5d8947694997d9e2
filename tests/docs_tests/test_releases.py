"""Releases: CHANGELOG.md's newest release is the version of every file that carries one,
and a release has each kind of heading once, in order."""

from __future__ import annotations

import json
import re
import tomllib

from tests.docs_tests.docs_model import ROOT, fail


def test_release_versions_agree() -> None:
    """CHANGELOG.md's newest release is the version of pyproject.toml, uv.lock and the web
    client (package.json and its package-lock.json); a release has each heading once."""
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    releases = re.findall(r"^## (\d+\.\d+\.\d+) — \d{4}-\d{2}-\d{2}$", text, re.M)
    if not releases:
        fail(["CHANGELOG.md: no release: a release is a heading ## X.Y.Z — YYYY-MM-DD"])
    newest = releases[0]
    py = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]
    web = json.loads((ROOT / "clients/web/package.json").read_text("utf-8"))["version"]
    lock = json.loads((ROOT / "clients/web/package-lock.json").read_text("utf-8"))
    uv = re.search(
        r'name = "mahjong-table"\nversion = "([^"]+)"', (ROOT / "uv.lock").read_text("utf-8")
    )
    problems = []
    for where, version in (
        ("pyproject.toml [project] version", py),
        ("clients/web/package.json version", web),
        ("clients/web/package-lock.json version", lock["version"]),
        ('clients/web/package-lock.json packages[""].version', lock["packages"][""]["version"]),
        ("uv.lock's mahjong-table (bash scripts/lock)", uv.group(1) if uv else None),
    ):
        if version != newest:
            problems.append(f"{where} is {version}; CHANGELOG.md's newest release is {newest}")
    for body in re.split(r"^## ", text, flags=re.M)[1:]:
        name = body.splitlines()[0]
        kinds = re.findall(r"^### (.*)$", body, re.M)
        for kind in kinds:
            if kind not in ("Added", "Changed", "Fixed", "Removed"):
                problems.append(
                    f"CHANGELOG.md {name}: ### {kind}: the kinds are Added, Changed, Fixed, "
                    "Removed (name the area at the start of the line instead)"
                )
        for kind in sorted({k for k in kinds if kinds.count(k) > 1}):
            problems.append(f"CHANGELOG.md {name}: ### {kind} appears twice: merge them")
        order = [k for k in ("Added", "Changed", "Fixed", "Removed") if k in kinds]
        if len(set(kinds)) == len(kinds) and kinds != order:
            problems.append(f"CHANGELOG.md {name}: the headings go in the order {order}")
    fail(problems)
