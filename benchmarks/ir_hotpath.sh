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
#
# IR_DEAL_SEED=N: the deals fixed (benchmarks/fixed_deals.py, this checkout's, runs ROOT's
# script) and PYTHONHASHSEED=0: the same games every run and in every checkout whose engine
# agrees, so two checkouts compare by their code alone. Without it each run deals new walls.
# IR_OUT=PREFIX: keep callgrind's files (PREFIX.500, PREFIX.2500) for callgrind_annotate.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$1" && pwd)
shift
run=(python benchmarks/bench_hotpath.py)
if [ -n "${IR_DEAL_SEED:-}" ]; then
  run=(python "$here/fixed_deals.py" "$IR_DEAL_SEED" benchmarks/bench_hotpath.py)
  export PYTHONHASHSEED=0
fi
ir() {
  local out=/dev/null
  if [ -n "${IR_OUT:-}" ]; then out="$IR_OUT.$1"; fi
  (cd "$root" && PYTHONPATH="$root" valgrind --tool=callgrind --callgrind-out-file="$out" \
    "${run[@]}" --actions "$1" "${@:2}" 2>&1 >/dev/null |
    sed -n 's/.*Collected : //p')
}
a=$(ir 500 "$@")
b=$(ir 2500 "$@")
echo "$root $*${IR_DEAL_SEED:+ (deals of seed $IR_DEAL_SEED)}: $(((b - a) / 2000)) instructions per action"
