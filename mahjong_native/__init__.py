"""Which implementation of the hot paths runs: the compiled modules or the pure Python.

The pure sources (``table/*.py``, ``scoring/*.py``, ``bots/shanten.py``) are the single
source and the reference. ``mahjong_native.build`` compiles the modules named in
:data:`MODULES` from exactly those files with mypyc and puts the extension modules under
``mahjong_native/_build/`` — not next to the ``.py`` files, which they would otherwise shadow
— together with ``manifest.json`` (each module's file and the SHA-256 of the source it was
compiled from).

:func:`install` (run when this module is imported, which ``table``, ``scoring`` and ``bots``
do first thing) puts a finder in front of the import system that loads those modules from ``_build/`` when all of these hold:

* ``MAHJONG_PURE`` is not set to a true value (``1``, ``true``, ``yes``);
* the build exists for this interpreter (the manifest's ABI tag is this one's);
* every compiled module's source is unchanged since the build (a stale build is never used:
  the compiled and pure code could disagree). A stale or missing build falls back to the
  pure modules (``MAHJONG_REQUIRE_COMPILED=1`` turns that into an ImportError).

It is all or nothing: the compiled modules call each other's native classes directly, so a
mix of compiled and pure modules of one build is never loaded. :func:`implementation` says
which one this process runs, from the modules actually imported.

Stdlib only; typed for ``mypy --strict``.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import types
from collections.abc import Sequence
from pathlib import Path

__all__ = [
    "BUILD_DIR",
    "MODULES",
    "SHARED_LIB",
    "active",
    "implementation",
    "install",
    "status",
]

#: The modules compiled, all in one mypyc group (one shared library). Everything else in the
#: packages stays pure Python: package ``__init__`` files (they install the finder), the
#: typed event/wire definitions and the errors (read by introspection), the rule tables'
#: row type (``scoring/rows.py``), the CLIs and simulators.
MODULES: tuple[str, ...] = (
    "table.codec",
    "table.model",
    "table.state",
    "table.game_state",
    "table.params",
    "table.wall",
    "table.tile_math",
    "table.scoring_bridge",
    "table.working",
    "table.rule_flow",
    "table.instant_payments",
    "table.flows",
    "table.wins",
    "table.hand_end",
    "table.turn",
    "table.claims",
    "table.deal",
    "table.engine",
    "table.views",
    "table.decisions",
    "scoring.tiles",
    "scoring.hand",
    "scoring.shapes",
    "scoring.decompose",
    "scoring.engine",
    "scoring.rulesets.mcr",
    "scoring.rulesets.mcr.data",
    "scoring.rulesets.mcr.shapes",
    "scoring.rulesets.mcr.combos",
    "scoring.rulesets.mcr.features",
    "scoring.rulesets.mcr.table",
    "scoring.rulesets.zung_jung",
    "scoring.rulesets.tw16_tai",
    "scoring.rulesets.hk_tw16",
    "scoring.rulesets.hk_tw16.shapes",
    "scoring.rulesets.hk_tw16.features",
    "scoring.rulesets.hk_tw16.feature_tables",
    "scoring.rulesets.hk_tw16.block_search",
    "scoring.rulesets.hk_tw16.events",
    "scoring.rulesets.hk_tw16.patterns",
    "scoring.rulesets.hk_tw16.groups",
    "scoring.rulesets.riichi",
    "scoring.riichi.dora",
    "scoring.riichi.fu",
    "scoring.riichi.limits",
    "bots.shanten",
    "server.room.windows",
    "server.room.jsonread",
    "server.room.memos",
    "server.storage.patches",
    "server.room.held_answers",
    "server.room.schedule",
    "server.room.facts",
    "server.room.frames",
    "server.room.game_room",
    "server.room.game",
)

#: The mypyc group's shared library (a top-level module name, resolved by the finder).
SHARED_LIB = "mahjong_core__mypyc"

BUILD_DIR = Path(__file__).resolve().parent / "_build"
_ROOT = Path(__file__).resolve().parent.parent
_TRUE = ("1", "true", "yes", "on")


def source_path(module: str, root: Path = _ROOT) -> Path:
    """The ``.py`` file of a module of :data:`MODULES` under ``root`` (``__init__.py`` for a
    package)."""
    base = root.joinpath(*module.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def abi_tag() -> str:
    """The extension suffix of this interpreter (a build is only for the one it was made by)."""
    return importlib.machinery.EXTENSION_SUFFIXES[0]


class _Status:
    def __init__(self) -> None:
        self.wanted = False  # MAHJONG_PURE not set
        self.usable = False  # a complete, fresh build for this interpreter
        self.reason = ""  # why not usable
        self.files: dict[str, Path] = {}  # module -> extension file


def status(build_dir: Path = BUILD_DIR, root: Path = _ROOT, switch: bool = True) -> _Status:
    """Whether the compiled modules can be used here, and if not why (``switch=False``: the
    build alone, whatever ``MAHJONG_PURE`` says)."""
    st = _Status()
    st.wanted = os.environ.get("MAHJONG_PURE", "").strip().lower() not in _TRUE
    if switch and not st.wanted:
        st.reason = "MAHJONG_PURE is set"
        return st
    manifest = build_dir / "manifest.json"
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        st.reason = "no compiled build (mahjong_native/_build/manifest.json)"
        return st
    if data.get("abi") != abi_tag():
        st.reason = f"the build is for {data.get('abi')}, this interpreter is {abi_tag()}"
        return st
    sources: dict[str, str] = data.get("sources", {})
    files: dict[str, str] = data.get("files", {})
    for mod in (*MODULES, SHARED_LIB):
        f = files.get(mod)
        if f is None or not (build_dir / f).is_file():
            st.reason = f"the build has no {mod}"
            return st
        st.files[mod] = build_dir / f
    for mod in MODULES:
        src = source_path(mod, root)
        try:
            fresh = sources.get(mod) == source_hash(src)
        except OSError:
            fresh = False
        if not fresh:
            st.reason = f"the build is stale: {src.name} ({mod}) changed since it was compiled"
            return st
    st.usable = True
    return st


class _Finder(importlib.abc.MetaPathFinder):
    """Loads the modules of :data:`MODULES` (and the group's library) from the build."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files
        self.sources = {m: source_path(m) for m in MODULES}

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        f = self.files.get(fullname)
        if f is None:
            return self._pure_in_compiled_package(fullname)
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(f))
        src = self.sources.get(fullname)
        if src is not None and src.name == "__init__.py":  # a package: its other modules
            return importlib.util.spec_from_file_location(
                fullname, str(f), loader=loader, submodule_search_locations=[str(src.parent)]
            )
        return importlib.util.spec_from_file_location(fullname, str(f), loader=loader)

    def _pure_in_compiled_package(self, fullname: str) -> importlib.machinery.ModuleSpec | None:
        """A pure module of a compiled package (the package's ``__path__`` is the build's)."""
        parent, _, leaf = fullname.rpartition(".")
        init = self.sources.get(parent)
        if init is None or init.name != "__init__.py":
            return None
        src = init.parent / f"{leaf}.py"
        if not src.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, str(src))


_installed: _Status | None = None


def install() -> bool:
    """Select the implementation once per process; True when the compiled one is used."""
    global _installed
    if _installed is not None:
        return _installed.usable
    st = status()
    _installed = st
    if st.usable:
        sys.meta_path.insert(0, _Finder(st.files))
    elif st.wanted and os.environ.get("MAHJONG_REQUIRE_COMPILED", "").lower() in _TRUE:
        raise ImportError(f"MAHJONG_REQUIRE_COMPILED is set but {st.reason}")
    return st.usable


def active() -> bool:
    """True when this process selected the compiled modules."""
    return install()


def implementation() -> str:
    """``"compiled"`` or ``"pure"``, from the modules of :data:`MODULES` actually imported
    (``"mixed"`` would be a bug; ``"none"`` if none is imported yet)."""
    kinds = set()
    for mod in MODULES:
        m = sys.modules.get(mod)
        if m is None:
            continue
        f = getattr(m, "__file__", "") or ""
        kinds.add("pure" if f.endswith(".py") else "compiled")
    if not kinds:
        return "none"
    return kinds.pop() if len(kinds) == 1 else "mixed"


def describe() -> str:
    """One line for logs and the pytest header."""
    st = _installed or status()
    if st.usable:
        return f"compiled (mypyc, {len(MODULES)} modules from mahjong_native/_build)"
    return f"pure Python ({st.reason})"


install()
