#!/usr/bin/env bash
# The memory benchmark (called by bench/run.sh, or run alone): `tensormorph memory` against
# `tensormorph kernels` on a trace whose sample carries the allocator's [memory] records (the
# H100 Qwen inference trace of the shared TraceLens pairs: 2,452 records per 1,465 kernels),
# repeated to N MB by tm_gen_trace, in interleaved rounds of one run each; writes the table to
# $TM_BENCH_OUT/results_memory.md. Target: memory / kernels at most 1.25.
#
# Environment (all optional):
#   TM_BENCH_MEMORY_MB      trace size in MB (10^6 bytes); default 1024; 0 skips this benchmark
#   TM_BENCH_MEMORY_SAMPLE  the Kineto trace repeated; default the shared H100 Qwen trace
#   TM_BENCH_RUNS           rounds, the best wall time of each command is kept; default 3
#   TM_BENCH_OUT            where the trace and the results go; default bench/out
#   BUILD_DIR               where `make build` put the binaries; default build
set -euo pipefail
cd "$(dirname "$0")/.."

build=${BUILD_DIR:-build}
mb=${TM_BENCH_MEMORY_MB:-1024}
runs=${TM_BENCH_RUNS:-3}
out=${TM_BENCH_OUT:-bench/out}
sample=${TM_BENCH_MEMORY_SAMPLE:-../shared/data/kineto/tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz}
if ((mb == 0)); then
  exit 0
fi
trace=$out/memory_trace_${mb}mb.json
tm=$build/tensormorph
tools=$build/bench
for bin in "$tm" "$build/bench/tm_gen_trace" "$build/bench/tm_measure"; do
  [[ -x $bin ]] || { echo "bench: $bin is missing; run make build" >&2; exit 1; }
done
mkdir -p "$out"
if [[ ! -f $trace ]] || (($(stat -c %s "$trace") < mb * 1000000)); then
  echo "bench: generating $trace from $sample" >&2
  "$build/bench/tm_gen_trace" --sample "$sample" --size-mb "$mb" -o "$trace"
fi
bytes=$(stat -c %s "$trace")
cat "$trace" >/dev/null  # every command below reads it from the page cache

# shellcheck source=bench/measure_runs.sh
source "$(dirname "$0")/measure_runs.sh"

labels=(kernels memory)
command_args() { args=("$tm" "$1" --quiet --format json "$trace"); }
measure_rounds "${labels[@]}"
records=$("$tm" memory --quiet --format json --top 1 "$trace" | sed -n 's/^  "records": \([0-9]*\),$/\1/p')
{
  echo
  echo "### \`memory\` against \`kernels\` on $(basename "$trace") ($(date -u +%F))"
  echo
  echo "- $(calc %.1f "$bytes / 1e6") MB, made by repeating \`$(basename "$sample")\`; ${records:-?} allocator records"
  echo "- best wall time of $runs interleaved rounds; JSON output to /dev/null; target: time / kernels at most 1.25"
  echo
  echo "| command | wall s | user s | peak RSS MiB | RSS / file | time / kernels |"
  echo "|---|---:|---:|---:|---:|---:|"
  for label in "${labels[@]}"; do
    echo "| \`$label\` | $(calc %.2f "${best_wall[$label]}") | $(calc %.2f "${best_user[$label]}") \
| $(calc %.0f "${best_rss[$label]} / 1024") | $(calc %.2f "${best_rss[$label]} * 1024 / $bytes") \
| $(calc %.2f "${best_wall[$label]} / ${best_wall[kernels]}") |"
  done
} | tee "$out/results_memory.md"
