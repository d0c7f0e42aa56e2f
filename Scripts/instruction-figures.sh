#!/usr/bin/env bash
# Instruction counts (callgrind) of the figures issue 36 keeps within 5%, for one release build:
#
#   Scripts/instruction-figures.sh <release bin dir> <ledger trace>
#
# Run it on two builds (`swift build -c release --product tca-replay`, `--product benchmarks`,
# each with its own --scratch-path) and compare the columns. The ledger is 10,000 steps:
# `record-traces --ledger-rotating 10000 1000000000 0 b.ndjson`. Instruction counts do not depend
# on the machine's load, except the whole-process shape figures, whose writer thread polls.
set -euo pipefail
bin=$1
trace=$2
ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
row() { printf '%-44s %s\n' "$1" "$2"; }
row "summary" "$(ir "$bin/tca-replay" summary "$trace")"
row "log" "$(ir "$bin/tca-replay" log "$trace")"
row "state 5000" "$(ir "$bin/tca-replay" state "$trace" 5000)"
row "show 5000" "$(ir "$bin/tca-replay" show "$trace" 5000)"
row "diff 140 170" "$(ir "$bin/tca-replay" diff "$trace" 140 170)"
for run in 1 2 3; do
  row "profile-record todos1000 --steps 2000 (run $run)" \
    "$(ir --toggle-collect='*recordingProfileLoop*' "$bin/benchmarks" profile-record todos1000 \
      --steps 2000)"
done
# A step's cost: the whole process at 600 steps less at 200, over 400.
for shape in dictionary set 'plain array'; do
  short=$(ir "$bin/benchmarks" profile-shape "$shape" --steps 200)
  long=$(ir "$bin/benchmarks" profile-shape "$shape" --steps 600)
  row "profile-shape $shape (a step)" "$(((long - short) / 400))"
done
