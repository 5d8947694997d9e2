#!/usr/bin/env bash
# Instructions per action of a checkout's benchmarks/bench_hotpath.py, counted by valgrind
# (callgrind's Ir): a measure the machine's other load does not move, unlike CPU time.
#
#   bash benchmarks/ir_hotpath.sh ROOT [bench_hotpath options...]
#
# Runs ROOT's own script (PYTHONPATH=ROOT, the current python) for 500 and for 2500 actions
# and prints (Ir(2500) - Ir(500)) / 2000: start-up, imports and warm-up cancel out; what
# remains is everything done per action, the untimed parts of the script included (the
# players' policy, the deals). Needs valgrind; ~1-3 minutes per run.
set -euo pipefail
root=$(cd "$1" && pwd)
shift
ir() {
  (cd "$root" && PYTHONPATH="$root" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    python benchmarks/bench_hotpath.py --actions "$1" "${@:2}" 2>&1 >/dev/null |
    sed -n 's/.*Collected : //p')
}
a=$(ir 500 "$@")
b=$(ir 2500 "$@")
echo "$root $*: $(((b - a) / 2000)) instructions per action"
