#!/usr/bin/env bash
# Runs every trace-reading command, in every output format it writes, over every sample in
# ../shared/data, the repo's fixtures and the demo trace, and writes each run's stdout, stderr and
# exit status to a file under OUT. Two snapshots taken before and after a refactoring are compared
# with `diff -r`; they must be byte-identical except where the README documents a fix.
#
#   scripts/output_snapshot.sh BIN OUT        e.g. scripts/output_snapshot.sh build/tensormorph /tmp/before
#   diff -r /tmp/before /tmp/after
#
# Inputs are found by walking the folders (so a new sample is covered without editing this file);
# folders that are one trace (rocprof-compute workloads, rocprofv3 output folders, JAX log dirs) are
# given as folders too. Runs go JOBS at a time (default: the number of cores).
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 BIN OUT" >&2
  exit 2
fi
BIN=$(realpath "$1")
OUT=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${TM_SHARED_DATA:-$ROOT/../shared/data}
JOBS=${JOBS:-$(nproc)}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")

inputs() {
  find "$SHARED" "$ROOT/tests/data" "$ROOT/examples" -type f \
    ! -path '*/licenses/*' ! -name '*.md' ! -name 'LICENSE*' | sort
  # Folders the registry reads as one trace.
  find "$SHARED" "$ROOT/tests/data" -mindepth 1 -type d ! -path '*/licenses*' | sort
}

# One run: NAME CMD... → OUT/NAME.{out,err,rc}. The trace's path is written relative to ROOT so
# that snapshots from two checkouts compare equal.
run_one() {
  local input=$1 rel=$2 name
  name=$(echo "$rel" | sed 's|^\.\./||' | tr '/ ' '__')
  cd "$ROOT"
  local spec
  for spec in \
    "info:info --format table" "info.json:info --format json" \
    "kernels:kernels --format table" "kernels.json:kernels --format json" \
    "kernels.csv:kernels --format csv" \
    "ops:ops --format table" "ops.json:ops --format json" "ops.csv:ops --format csv" \
    "timeline:timeline --format table" "timeline.json:timeline --format json" \
    "roofline:roofline --format table" "roofline.json:roofline --format json" \
    "roofline.csv:roofline --format csv" \
    "occupancy:occupancy --format table" "occupancy.json:occupancy --format json" \
    "export.native:export --to native -o -" \
    "baseline:baseline save -o /dev/stdout"; do
    local label=${spec%%:*} args=${spec#*:}
    # shellcheck disable=SC2086
    "$BIN" $args -q "$rel" >"$OUT/$name.$label.out" 2>"$OUT/$name.$label.err" &&
      echo 0 >"$OUT/$name.$label.rc" || echo $? >"$OUT/$name.$label.rc"
  done
  # The report's HTML: written to a file, then copied beside the others.
  local html
  html=$(mktemp --suffix=.html)
  "$BIN" report -q "$rel" -o "$html" >"$OUT/$name.report.out" 2>"$OUT/$name.report.err" &&
    echo 0 >"$OUT/$name.report.rc" || echo $? >"$OUT/$name.report.rc"
  [[ -s $html ]] && cp "$html" "$OUT/$name.report.html"
  rm -f "$html"
}
export -f run_one
export BIN OUT ROOT

inputs | while read -r input; do
  rel=$(realpath --relative-to="$ROOT" "$input")
  printf '%s\0%s\0' "$input" "$rel"
done | xargs -0 -n 2 -P "$JOBS" bash -c 'run_one "$0" "$1"'

# Diff and compare: a pair of traces of one model on two backends, and one trace against itself.
cd "$ROOT"
pairs=(
  "examples/nccl_2rank_rank0_a100.json.gz examples/nccl_2rank_rank0_a100.json.gz"
)
while read -r h100; do
  mi300=${h100/h100_/mi300_}
  [[ -f $mi300 ]] && pairs+=("$(realpath --relative-to="$ROOT" "$h100") $(realpath --relative-to="$ROOT" "$mi300")")
done < <(find "$SHARED/kineto/tracelens_pairs" -name '*h100*' -type f | sort)
i=0
for pair in "${pairs[@]}"; do
  for fmt in table json csv; do
    # shellcheck disable=SC2086
    "$BIN" diff -q --format "$fmt" $pair >"$OUT/diff$i.$fmt.out" 2>"$OUT/diff$i.$fmt.err" &&
      echo 0 >"$OUT/diff$i.$fmt.rc" || echo $? >"$OUT/diff$i.$fmt.rc"
    for by in shape op; do
      # shellcheck disable=SC2086
      "$BIN" compare -q --by "$by" --format "$fmt" $pair >"$OUT/compare$i.$by.$fmt.out" \
        2>"$OUT/compare$i.$by.$fmt.err" &&
        echo 0 >"$OUT/compare$i.$by.$fmt.rc" || echo $? >"$OUT/compare$i.$by.$fmt.rc"
    done
  done
  echo "$pair" >"$OUT/diff$i.inputs"
  i=$((i + 1))
done
echo "$(find "$OUT" -name '*.rc' | wc -l) runs written to $OUT"
