#!/bin/bash
# Socket writes per client action of the game server: strace counts the server's write
# system calls (write, writev, sendto, sendmsg: the frames to the players and the commands to
# Redis) over a 15-second load test of 20 rooms flat out (`--window-ms 0`), divided by the
# actions played. A count, not a time: the machine's load does not move it. strace slows the
# server; the writes per action stay what they are.
#
#     bash benchmarks/count_writes.sh [CHECKOUT]     (default: this one; another checkout's
#                                                     server runs with its code on PYTHONPATH)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CODE=$(cd "${1:-$ROOT}" && pwd)
V=$ROOT/.venv/bin
SECONDS_PLAYED=15
D=$(mktemp -d)
cleanup() {
  kill -INT "${S:-}" 2>/dev/null || true
  wait "${S:-}" 2>/dev/null || true
  rm -rf "$D"
}
trap cleanup EXIT
PORT=$("$V/python" -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
cd "$D"  # `python -m` puts the current directory first on sys.path
PYTHONPATH=$CODE "$V/python" -m server --port "$PORT" --host 127.0.0.1 --data-dir "$D" \
  --rate-per-second 1000 --rate-burst 2000 --log-level warning >"$D/out" 2>&1 &
S=$!
for _ in $(seq 300); do [ -f "$D/redis.pid" ] && grep -q listening "$D/out" && break; sleep 0.1; done
strace -f -c -e trace=write,writev,sendto,sendmsg -o "$D/strace.txt" -p "$S" &
T=$!
sleep 1
"$V/mahjong-loadtest" --url "ws://127.0.0.1:$PORT" --rooms 20 --duration "$SECONDS_PLAYED" \
  --window-ms 0 --quiet --json "$D/report.json" >/dev/null
kill -INT "$T"
wait "$T" || true
"$V/python" - "$D/report.json" "$D/strace.txt" "$SECONDS_PLAYED" <<'PY'
import json, re, sys
game = json.load(open(sys.argv[1]))["game"]
actions = game["actions_per_s"] * int(sys.argv[3])
calls = sum(
    int(m.group(1))
    for m in re.finditer(
        r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(?:write|writev|sendto|sendmsg)\s*$",
        open(sys.argv[2]).read(),
        re.M,
    )
)
print(f"{calls} socket writes over ~{actions:.0f} client actions: {calls / actions:.2f} per action")
PY
