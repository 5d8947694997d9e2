#!/bin/bash
# Two game servers under the same flat-out load at the same time (so both see the same
# machine noise): the code of git revision $1 (checked out to a temporary directory and put
# on PYTHONPATH) and the working tree, each with its embedded Redis and its own
# `mahjong-loadtest --rooms 20 --duration 20`. Extra arguments go to both servers (e.g.
# `--event-loop asyncio`). Prints each run's CPU µs per action (server, redis) and actions/s.
# LT_BASE / LT_AFTER: extra `mahjong-loadtest` arguments for one side (e.g. LT_BASE=--dense to
# compare dense with sparse delivery on the same code); a revision without sparse delivery
# (its servers refuse hello.sparse) gets --dense by itself.
#
#     bash benchmarks/loadtest_side_by_side.sh beb701f [--event-loop asyncio]
#     LT_BASE=--dense bash benchmarks/loadtest_side_by_side.sh HEAD
set -euo pipefail
REV=$1; shift
ROOT=$(cd "$(dirname "$0")/.." && pwd)
V=$ROOT/.venv/bin
BASE=$(mktemp -d); OUT=$(mktemp -d)
BS='' AS='' BD='' AD=''
cleanup() {  # on any exit: stop the servers still running, then remove every temp directory
  # (no `wait`: they are not this shell's children but $(start ...)'s; kill -0 succeeds while
  # either is alive)
  kill -INT $BS $AS 2>/dev/null || true
  for _ in $(seq 100); do kill -0 $BS $AS 2>/dev/null || break; sleep 0.1; done
  rm -rf "$OUT" "$BASE" ${BD:+"$BD"} ${AD:+"$AD"}
}
trap cleanup EXIT
git -C "$ROOT" archive "$REV" | tar -x -C "$BASE"
read -r -a LT_BASE <<<"${LT_BASE:-}"
read -r -a LT_AFTER <<<"${LT_AFTER:-}"
grep -q "sparse" "$BASE/protocol/messages.py" || LT_BASE+=(--dense)
cd /tmp  # `python -m` puts the current directory first on sys.path
start() {  # start PYTHONPATH PORT SERVER-ARGS... -> "pid datadir" (PYTHONPATH "-": unset)
  local d env_path; d=$(mktemp -d)
  if [ "$1" = "-" ]; then env_path=(-u PYTHONPATH); else env_path=("PYTHONPATH=$1"); fi
  env "${env_path[@]}" "$V/python" -m server --port "$2" --host 127.0.0.1 --data-dir "$d" \
    --rate-per-second 1000 --rate-burst 2000 --log-level warning "${@:3}" >"$d/out" 2>"$d/err" &
  echo "$! $d"
}
read -r BS BD <<<"$(start "$BASE" 18821 "$@")"
read -r AS AD <<<"$(start - 18822 "$@")"
for _ in $(seq 100); do
  grep -q listening "$BD/out" 2>/dev/null && grep -q listening "$AD/out" 2>/dev/null \
    && [ -s "$BD/redis.pid" ] && [ -s "$AD/redis.pid" ] && break
  sleep 0.2
done
# each server's embedded redis-server writes its pid to <data dir>/redis.pid (server/storage/embedded.py)
BR=$(cat "$BD/redis.pid"); AR=$(cat "$AD/redis.pid")
"$V/mahjong-loadtest" --url ws://127.0.0.1:18821 --rooms 20 --duration 20 --server-pid "$BS" \
  --server-pid "$BR" --quiet --json "$OUT/base.json" ${LT_BASE[@]+"${LT_BASE[@]}"} \
  >"$OUT/base.txt" 2>&1 &
L1=$!
"$V/mahjong-loadtest" --url ws://127.0.0.1:18822 --rooms 20 --duration 20 --server-pid "$AS" \
  --server-pid "$AR" --quiet --json "$OUT/after.json" ${LT_AFTER[@]+"${LT_AFTER[@]}"} \
  >"$OUT/after.txt" 2>&1 &
L2=$!
wait $L1 $L2
echo "--- $REV ${LT_BASE[*]:-}"; grep -E "CPU|game: rooms" "$OUT/base.txt"
echo "--- working tree ${LT_AFTER[*]:-}"; grep -E "CPU|game: rooms" "$OUT/after.txt"
