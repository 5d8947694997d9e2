"""Build the compiled modules (mypyc) from the pure sources; used by ``setup.py``.

    python -m mahjong_native.build          # in place, for a checkout (scripts/_venv.sh)
    python -m mahjong_native.build --check  # exit 0 when the in-place build is usable

The modules of :data:`mahjong_native.MODULES` are compiled from their ``.py`` files as they
are (no copy, no edit) into one mypyc group. The extension modules are renamed into
``mahjong_native/_build/`` so that they never shadow the ``.py`` files; the finder of
:func:`mahjong_native.install` loads them under their own names. ``manifest.json`` records
the SHA-256 of each source compiled, so that an edited source never runs with an old build.

Where there is no C compiler (or no mypyc), nothing is built and the package installs and
runs as pure Python. The build is the default; ``MAHJONG_NO_COMPILE=1`` (or
``MAHJONG_COMPILE=0``) skips it.

    python -m mahjong_native.build --wanted  # exit 0 when a build is asked for and possible
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import Distribution, Extension
from setuptools.command.build_ext import build_ext

import mahjong_native as native

_PREFIX = "mahjong_native._build."
_GROUP = native.SHARED_LIB.removesuffix("__mypyc")
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")
#: the sources' hashes as :func:`extensions` found them before mypyc read them (what the
#: manifest records: a source edited during the build leaves the build stale)
_compiled_sources: dict[str, str] | None = None


def _warn(msg: str) -> None:
    print(f"mahjong_native: {msg}", file=sys.stderr)


def compiler() -> str | None:
    """The C compiler setuptools would run (``$CC`` or the interpreter's), if it is there."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(cc)
    return shutil.which(words[0]) if words else None


def wanted() -> bool:
    """The compiled build is asked for: always (the default), unless ``MAHJONG_NO_COMPILE=1``
    or ``MAHJONG_COMPILE=0`` turns it off (docs/architecture.md, "Compiled hot paths")."""
    if os.environ.get("MAHJONG_NO_COMPILE", "").strip().lower() in _TRUE:
        return False
    return os.environ.get("MAHJONG_COMPILE", "").strip().lower() not in _FALSE


def extensions(root: Path | None = None) -> list[Extension]:
    """The extension modules to build: every module of :data:`mahjong_native.MODULES`, or
    none when the build is turned off (:func:`wanted`) or mypyc or a C compiler is not
    available. Must run with ``root`` (the project root) as the working directory."""
    if not wanted():
        return []
    if compiler() is None:
        _warn("no C compiler found: pure Python only")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc (mypy) is not installed: pure Python only")
        return []
    root = root or Path.cwd()
    global _compiled_sources
    _compiled_sources = source_hashes(root)  # before mypyc reads them
    paths = [str(native.source_path(m, root).relative_to(root)) for m in native.MODULES]
    # one C file per module (multi_file), compiled in parallel (OptionalBuildExt): the one
    # 52 MB C file of a single-file group took the compiler 254 s on one core; the same
    # instructions per action (BENCHMARKS.md "build-cpu")
    exts: list[Extension] = mypycify(
        paths,
        opt_level="3",
        group_name=_GROUP,
        target_dir=str(root / "build" / "mypyc"),
        multi_file=True,
    )
    for ext in exts:
        ext.name = _PREFIX + ext.name
    return exts


def source_hashes(root: Path) -> dict[str, str]:
    """The SHA-256 of each compiled module's source, as it is now."""
    return {m: native.source_hash(native.source_path(m, root)) for m in native.MODULES}


def write_manifest(build_dir: Path, root: Path, sources: dict[str, str] | None = None) -> None:
    """Record what was built: each module's extension file and its source's hash
    (``sources``: the hashes taken before compiling — a source edited while the compiler
    ran must make the build stale, not be recorded as what was compiled)."""
    files: dict[str, str] = {}
    suffix = native.abi_tag()
    for mod in (*native.MODULES, native.SHARED_LIB):
        rel = "/".join(mod.split("."))
        if mod != native.SHARED_LIB and native.source_path(mod, root).name == "__init__.py":
            rel += "/__init__"  # a package's module
        files[mod] = rel + suffix
    data = {
        "abi": suffix,
        "files": files,
        "sources": sources if sources is not None else source_hashes(root),
    }
    build_dir.mkdir(parents=True, exist_ok=True)
    (build_dir / "manifest.json").write_text(json.dumps(data, indent=1) + "\n", "utf-8")


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to pure Python when the C build fails, and writes the
    manifest next to the extension modules when it succeeds."""

    def run(self) -> None:
        if not self.extensions:
            return
        root = Path.cwd()
        out = Path(self.build_lib)  # (setup.py's editable build copies from there)
        build_dir = out / "mahjong_native" / "_build"
        manifest = build_dir / "manifest.json"
        if manifest.exists():
            manifest.unlink()  # a half-finished build is never used
        sources = _compiled_sources or source_hashes(root)
        try:
            super().run()
        except Exception as e:  # no compiler, a compiler error: the pure modules still work
            _warn(f"the compiled modules were not built ({type(e).__name__}: {e}); pure Python")
            return
        write_manifest(build_dir, root, sources)

    def build_extension(self, ext: Extension) -> None:
        """Compile the extension's C files in parallel, one compiler per core (build_ext
        runs one compiler at a time within an extension: the group's library is one
        extension of ~40 files)."""
        compiler: Any = self.compiler
        serial = compiler.compile
        jobs = max(1, min(os.cpu_count() or 1, len(ext.sources)))

        def parallel(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            if jobs == 1 or len(sources) < 2:
                return list(serial(sources, *args, **kwargs))
            # the largest first, dealt round-robin: the compilers finish close together
            by_size = sorted(sources, key=lambda f: -os.path.getsize(f))
            chunks = [by_size[i::jobs] for i in range(jobs)]
            with ThreadPoolExecutor(jobs) as pool:  # each compiler is a subprocess
                done = list(pool.map(lambda c: list(serial(c, *args, **kwargs)), chunks))
            objects = {
                src: obj
                for chunk, objs in zip(chunks, done, strict=True)
                for src, obj in zip(chunk, objs, strict=True)
            }
            return [objects[src] for src in sources]  # in the order given, for the link

        compiler.compile = parallel
        try:
            super().build_extension(ext)
        finally:
            compiler.compile = serial

    def get_outputs(self) -> list[str]:
        """The extension modules and the manifest (so that every install copies it)."""
        outputs: list[str] = list(super().get_outputs())
        if self.extensions:
            outputs.append(str(Path(self.build_lib, "mahjong_native", "_build", "manifest.json")))
        return outputs


def build_in_place(root: Path) -> bool:
    """Build into the checkout (what ``pip install -e`` does, without reinstalling)."""
    os.chdir(root)
    exts = extensions(root)
    if not exts:
        return False
    lib = root / "build" / "native-lib"
    dist = Distribution({"name": "mahjong-native-build", "ext_modules": exts})
    dist.cmdclass["build_ext"] = OptionalBuildExt
    cmd: Any = dist.get_command_obj("build_ext")
    cmd.build_lib = str(lib)
    cmd.parallel = os.cpu_count() or 1
    dist.run_command("build_ext")
    built = lib / "mahjong_native" / "_build"
    target = root / "mahjong_native" / "_build"
    if not (built / "manifest.json").exists():
        return False
    # swapped in whole: a process starting meanwhile finds the old build, or none (then it
    # runs the pure modules), never half of the new one
    staged = target.with_name("_build.new")
    old = target.with_name("_build.old")
    shutil.rmtree(staged, ignore_errors=True)
    shutil.rmtree(old, ignore_errors=True)
    shutil.copytree(built, staged)
    if target.exists():
        target.rename(old)
    staged.rename(target)
    shutil.rmtree(old, ignore_errors=True)
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="only say whether the build is usable")
    ap.add_argument(
        "--wanted",
        action="store_true",
        help="only say whether a build is asked for (not turned off) and a C compiler is there",
    )
    args = ap.parse_args(argv)
    root = Path(native.__file__).resolve().parent.parent
    if args.wanted:
        if not wanted():
            print("not wanted: MAHJONG_NO_COMPILE=1 or MAHJONG_COMPILE=0")
            return 1
        if compiler() is None:
            print("not possible: no C compiler")
            return 1
        print("wanted")
        return 0
    if args.check:
        st = native.status(root=root, switch=False)
        print("compiled build usable" if st.usable else f"not usable: {st.reason}")
        return 0 if st.usable else 1
    ok = build_in_place(root)
    print("mahjong_native: compiled modules built" if ok else "mahjong_native: pure Python only")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
