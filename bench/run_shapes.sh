#!/usr/bin/env bash
# `report`, `compare` and `predict` against `kernels` on 1 GB traces of several shapes (issue 44):
# the A100 NCCL sample (few host events per kernel), the H100 Qwen inference with Python frames
# and allocator records (many host events per kernel, 34 levels of stack), and an MI300X
# TimeSformer inference (ROCm). Each trace is its sample repeated to N MB by tm_gen_trace; the
# commands run in interleaved rounds of one run each (measure_runs.sh), the best wall time and the
# highest peak RSS kept. Targets: time / kernels at most 1.25 (`compare` of a trace with itself
# against `kernels` of both), peak RSS / file at most 0.6. Writes bench/out/results_shapes.md.
#
# Environment: TM_BENCH_SHAPES_MB (default 1024; 0 skips), TM_BENCH_RUNS (default 3),
# BUILD_DIR (default build), TM_BENCH_OUT (default bench/out).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
mb=${TM_BENCH_SHAPES_MB:-1024}
runs=${TM_BENCH_RUNS:-3}
out=${TM_BENCH_OUT:-bench/out}
shared=${TM_SHARED_DATA:-../shared/data}
((mb == 0)) && exit 0
tm=$build/tensormorph
tools=$build/bench
for bin in "$tm" "$tools/tm_gen_trace" "$tools/tm_measure"; do
  [[ -x $bin ]] || { echo "bench: $bin is missing; run make build" >&2; exit 1; }
done
mkdir -p "$out"
# shellcheck source=bench/measure_runs.sh
source "$(dirname "$0")/measure_runs.sh"

# shape name -> sample; the file names are those run.sh and run_memory.sh use for the same
# samples, so `make bench` generates each trace once.
shapes=(a100_nccl h100_qwen_python mi300x_timesformer)
declare -A sample_of=(
  [a100_nccl]=$shared/kineto/hta/nccl_2rank_rank0_a100.json.gz
  [h100_qwen_python]=$shared/kineto/tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz
  [mi300x_timesformer]=$shared/kineto/tracelens_pairs/mi300_timesformer_inference.json.gz
)
declare -A trace_of=(
  [a100_nccl]=$out/trace_${mb}mb.json
  [h100_qwen_python]=$out/memory_trace_${mb}mb.json
  [mi300x_timesformer]=$out/mi300x_trace_${mb}mb.json
)
labels=(kernels "kernels (2 inputs)" report compare predict)
rows=()
for shape in "${shapes[@]}"; do
  trace=${trace_of[$shape]}
  if [[ ! -f $trace ]] || (($(stat -c %s "$trace") < mb * 1000000)); then
    echo "bench: generating $trace from ${sample_of[$shape]}" >&2
    "$tools/tm_gen_trace" --sample "${sample_of[$shape]}" --size-mb "$mb" -o "$trace"
  fi
  bytes=$(stat -c %s "$trace")
  cat "$trace" >/dev/null  # every command reads it from the page cache
  command_args() {
    case $1 in
      "kernels (2 inputs)") args=("$tm" kernels --quiet --format json "$trace" "$trace") ;;
      compare) args=("$tm" compare --quiet --format json "$trace" "$trace") ;;
      predict) args=("$tm" predict --quiet --format json --device h100-sxm5-80gb,mi300x "$trace") ;;
      report) args=("$tm" report --quiet -o "$out/report_shape.html" "$trace") ;;
      *) args=("$tm" "$1" --quiet --format json "$trace") ;;
    esac
  }
  best_wall=() best_user=() best_rss=()
  measure_rounds "${labels[@]}"
  for label in "${labels[@]}"; do
    against=kernels
    [[ $label == compare || $label == "kernels (2 inputs)" ]] && against="kernels (2 inputs)"
    # compare holds two copies: its RSS is against both files.
    files=1
    [[ $label == compare || $label == "kernels (2 inputs)" ]] && files=2
    rows+=("| $shape | \`$label\` | $(calc %.2f "${best_wall[$label]}") \
| $(calc %.0f "${best_rss[$label]} / 1024") | $(calc %.2f "${best_rss[$label]} * 1024 / $bytes") \
| $(calc %.2f "${best_rss[$label]} * 1024 / ($bytes * $files)") \
| $(calc %.2f "${best_wall[$label]} / ${best_wall[$against]}") |")
  done
done
{
  echo
  echo "### report, compare and predict on 1 GB traces of three shapes ($(date -u +%F))"
  echo
  echo "- each trace its sample repeated to ${mb} MB; best wall time of $runs interleaved rounds; JSON to /dev/null"
  echo "- targets: time / kernels at most 1.25 (compare and kernels (2 inputs): against kernels (2 inputs));" \
    "peak RSS / file at most 0.6"
  echo "- reproduce: \`TM_BENCH_RUNS=$runs bash bench/run_shapes.sh\`"
  echo
  echo "| shape | command | wall s | peak RSS MiB | RSS / file | RSS / inputs | time / kernels |"
  echo "|---|---|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
} | tee "$out/results_shapes.md"
