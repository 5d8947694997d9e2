#!/usr/bin/env bash
# Seconds from `bash scripts/serve` to its "is listening" line on a fresh clone of this
# checkout's HEAD, with an empty .venv and an empty pip cache (issue 33: <= 90 s), and
# which implementation it runs (the first start: the pure modules, while the compiled build
# runs in the background; stopped here with the server).
#   bash benchmarks/serve_first_listen.sh [RUNS] [PORT]
set -u
runs=${1:-3}
port=${2:-18800}
repo=$(cd "$(dirname "$0")/.." && pwd)
for i in $(seq 1 "$runs"); do
  d=$(mktemp -d /tmp/serve-first-listen-XXXXXX)
  git clone -q "$repo" "$d/clone"
  cd "$d/clone" || exit 1
  start=$(date +%s.%N)
  PIP_CACHE_DIR="$d/pipcache" setsid bash scripts/serve --port "$port" --host 127.0.0.1 \
    >"$d/out" 2>"$d/err" &
  pid=$!
  for _ in $(seq 1 3000); do
    grep -q "is listening" "$d/out" 2>/dev/null && break
    sleep 0.05
  done
  end=$(date +%s.%N)
  printf 'run %d: %.1f s: %s\n' "$i" "$(echo "$end - $start" | bc)" \
    "$(grep -o 'is listening on port [0-9]* ([a-z]* modules)' "$d/out" || echo 'did not listen')"
  kill -- -"$pid" 2>/dev/null
  sleep 2
  for p in $(pgrep -f "mahjong_native.build|cc1|mahjong-server|redis-server"); do
    case "$(readlink "/proc/$p/cwd" 2>/dev/null)" in "$d"*) kill "$p" 2>/dev/null ;; esac
  done
  cd "$repo" || exit 1
  rm -rf "$d"
done
