#!/usr/bin/env bash
# `make bench`: times `tensormorph kernels` against a bare single-threaded simdjson pass over the
# same generated trace, in one run, and writes the table to bench/out/results.md.
#
# Environment (all optional):
#   TM_BENCH_MB      trace size in MB (10^6 bytes); default 1024
#   TM_BENCH_RUNS    runs per command, the best wall time is kept; default 3
#   TM_BENCH_SAMPLE  the real Kineto trace that is repeated; default the shared A100 NCCL sample
#   BUILD_DIR        where `make build` put the binaries; default build
set -euo pipefail
cd "$(dirname "$0")/.."

build=${BUILD_DIR:-build}
mb=${TM_BENCH_MB:-1024}
runs=${TM_BENCH_RUNS:-3}
sample=${TM_BENCH_SAMPLE:-../shared/data/kineto/hta/nccl_2rank_rank0_a100.json.gz}
out=bench/out
trace=$out/trace_${mb}mb.json
tm=$build/tensormorph
tools=$build/bench

for bin in "$tm" "$tools/tm_gen_trace" "$tools/tm_bare_simdjson" "$tools/tm_measure"; do
  if [[ ! -x $bin ]]; then
    echo "bench: $bin is missing; run make build" >&2
    exit 1
  fi
done
mkdir -p "$out"

# The generator writes whole repetitions of the sample, so a complete file is at least N MB; it
# renames its output into place only when done, so a short file here was made for another N.
if [[ ! -f $trace ]] || (($(stat -c %s "$trace") < mb * 1000000)); then
  echo "bench: generating $trace from $sample" >&2
  "$tools/tm_gen_trace" --sample "$sample" --size-mb "$mb" -o "$trace"
fi
bytes=$(stat -c %s "$trace")
# Every command below then reads the file from the page cache, the first one included.
cat "$trace" >/dev/null


# shellcheck source=bench/measure_runs.sh
source "$(dirname "$0")/measure_runs.sh"

bare_wall=''
rows=()
# measure LABEL CMD...: best of $runs runs (measure_runs.sh), as a table row; the first command
# measured is the baseline.
measure() {
  measure_runs "$@"
  local label=$1 best=$measured_wall user=$measured_user sys=$measured_sys rss=$measured_rss_kib
  bare_wall=${bare_wall:-$best}
  rows+=("| \`$label\` | $(calc %.2f "$best") | $(calc %.0f "$bytes / 1e6 / $best") \
| $(calc %.2f "$user") | $(calc %.2f "$sys") | $(calc %.0f "$rss / 1024") \
| $(calc %.2f "$rss * 1024 / $bytes") | $(calc %.2f "$best / $bare_wall") |")
}

name=$(basename "$trace")
measure "tm_bare_simdjson $name" "$tools/tm_bare_simdjson" "$trace"
measure "tensormorph kernels --quiet --format json $name" \
  "$tm" kernels --quiet --format json "$trace"
if "$tm" kernels --help 2>&1 | grep -q -- --threads; then
  measure "tensormorph kernels --quiet --threads 1 --format json $name" \
    "$tm" kernels --quiet --threads 1 --format json "$trace"
fi

{
  echo "### tensormorph kernels vs a bare simdjson pass ($(date -u +%F))"
  echo
  echo "- trace: \`$trace\`, $(calc %.1f "$bytes / 1e6") MB uncompressed, made by repeating" \
    "\`$(basename "$sample")\`"
  echo "- machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)," \
    "$(free -g | awk '/^Mem:/ { print $2 }') GiB RAM," \
    "transparent huge pages $(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled);" \
    "file in the page cache"
  echo "- best wall time of $runs runs; peak RSS is the highest of those runs; MB = 10^6 bytes"
  echo "- reproduce: \`TM_BENCH_MB=$mb TM_BENCH_RUNS=$runs make bench\`"
  echo "- targets for tensormorph: time / bare at most 1.5, RSS / file at most 0.3"
  echo
  echo "| command | wall s | MB/s | user s | sys s | peak RSS MiB | RSS / file | time / bare |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
} | tee "$out/results.md"

# Every trace-reading command on the same trace, against `kernels` measured in this same run:
# the linking stage and the analyses should cost at most a quarter of the import
# (target: time / kernels at most 1.25). The runs are interleaved, a round being one run of each
# command, so that a shared machine's slow minutes fall on all of them alike; the best wall time
# of each command over the rounds is kept.
report_html=$out/report_${mb}mb.html
# `compare` reads two traces (the same one twice): it is measured against `kernels` on both.
command_labels=(kernels info ops timeline findings roofline occupancy memory "baseline save" report
  predict whatif "kernels (2 inputs)" compare)
command_args() {
  case $1 in
    "kernels (2 inputs)") args=(kernels --quiet --format json "$trace" "$trace") ;;
    compare) args=(compare --quiet --format json "$trace" "$trace") ;;
    predict) args=(predict --quiet --format json --device h100-sxm5-80gb,mi300x "$trace") ;;
    "baseline save") args=(baseline save --quiet -o "$out/baseline_${mb}mb.json" "$trace") ;;
    report) args=(report --quiet -o "$report_html" "$trace") ;;
    *) args=("$1" --quiet --format json "$trace") ;;
  esac
}
declare -A best_wall best_user best_rss
for ((round = 0; round < runs; round++)); do
  for label in "${command_labels[@]}"; do
    command_args "$label"
    runs=1 measure_runs "$label" "$tm" "${args[@]}"
    if [[ -z ${best_wall[$label]:-} ]] || (($(calc %d "$measured_wall < ${best_wall[$label]}"))); then
      best_wall[$label]=$measured_wall
      best_user[$label]=$measured_user
    fi
    if ((measured_rss_kib > ${best_rss[$label]:-0})); then best_rss[$label]=$measured_rss_kib; fi
  done
done
command_rows=()
for label in "${command_labels[@]}"; do
  against=kernels
  [[ $label == compare ]] && against="kernels (2 inputs)"
  command_rows+=("| \`$label\` | $(calc %.2f "${best_wall[$label]}") | $(calc %.2f "${best_user[$label]}") \
| $(calc %.0f "${best_rss[$label]} / 1024") | $(calc %.2f "${best_wall[$label]} / ${best_wall[$against]}") |")
done
{
  echo
  echo "### every command against \`kernels\` on \`$name\` ($(date -u +%F))"
  echo
  echo "- best wall time of $runs interleaved rounds (one run of each command per round); JSON output to /dev/null"
  echo "- target: time / kernels at most 1.25 (\`compare\` of the trace with itself: against \`kernels\` of both; \`whatif\`: 2)"
  echo
  echo "| command | wall s | user s | peak RSS MiB | time / kernels |"
  echo "|---|---:|---:|---:|---:|"
  printf '%s\n' "${command_rows[@]}"
} | tee -a "$out/results.md"

# `memory` on a trace with allocator records, with its own table (TM_BENCH_MEMORY_MB=0 skips it).
bench/run_memory.sh

# `report`, `compare` and `predict` on 1 GB traces of three shapes (A100 NCCL, H100 Qwen with
# Python frames, MI300X), with their own table (TM_BENCH_SHAPES_MB=0 skips it).
bench/run_shapes.sh

# The Nsight Systems SQLite import benchmark, with its own table (TM_BENCH_NSYS_MB=0 skips it).
bench/run_nsys.sh

# One job of 8 ranks through collectives and critical-path (TM_BENCH_JOB_MB=0 skips it).
bench/run_job.sh

# The Python package's kernel table against `kernels` (issue 16).
bench/run_python.sh

# tm.fleet over 256 rank traces of ~20 MB, without Dask and on 1 and 2 workers (issue 16;
# TM_BENCH_FLEET_RANKS=0 skips it).
bench/run_fleet.sh
