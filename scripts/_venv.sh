# Sourced by scripts/serve and scripts/test: create .venv and install the project into it.
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# shellcheck disable=SC1091
source .venv/bin/activate
stamp=.venv/.installed-$(cat pyproject.toml | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
  python -m pip install -q --upgrade pip
  # (the compiled modules are built just below, in place, not by the editable install)
  MAHJONG_NO_COMPILE=1 python -m pip install -q -e ".[dev,cli,loadtest]"
  touch "$stamp"
fi
# The compiled hot paths (mypyc; mahjong_native/build.py): built when missing, rebuilt when a
# compiled module's source changed. With no C compiler the pure modules run.
if [ -z "${MAHJONG_NO_COMPILE:-}" ] && command -v "${CC:-cc}" >/dev/null 2>&1 \
  && ! python -m mahjong_native.build --check >/dev/null 2>&1; then
  echo "== compiling the hot paths (mypyc; a few minutes, once per change of their sources)"
  python -m mahjong_native.build >.venv/native-build.log 2>&1 || true
  python -m mahjong_native.build --check || tail -n 20 .venv/native-build.log
fi
