#!/usr/bin/env bash
# The Python package against the command line on the 1 GB benchmark trace (issue 16's target):
# `tm.load(trace).kernels` (every launch as a DataFrame) within 1.5x the wall time of
# `tensormorph kernels` and 2x its peak RSS. Interleaved rounds, best wall time of each kept;
# writes bench/out/python_results.md. Called by bench/run.sh (make bench), or alone.
#
# Environment: TM_BENCH_MB (default 1024), TM_BENCH_RUNS (default 3), BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")/.."

build=${BUILD_DIR:-build}
mb=${TM_BENCH_MB:-1024}
runs=${TM_BENCH_RUNS:-3}
sample=../shared/data/kineto/hta/nccl_2rank_rank0_a100.json.gz
out=bench/out
trace=$out/trace_${mb}mb.json
tm=$build/tensormorph
tools=$build/bench
python=/usr/bin/python3  # the interpreter the package is built for (python/CMakeLists.txt)
export PYTHONPATH=$build/python
# The command line asks glibc's malloc for transparent huge pages (src/cli/huge_pages.h); the
# interpreter is given the same, so that both sides run with one allocator setting.
if grep -q '\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null &&
  [[ ${GLIBC_TUNABLES:-} != *glibc.malloc.hugetlb* ]]; then
  export GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1
fi
[[ -f $build/python/tensormorph/__init__.py ]] || { echo "bench: run make build" >&2; exit 1; }
mkdir -p "$out"
if [[ ! -f $trace ]] || (($(stat -c %s "$trace") < mb * 1000000)); then
  "$tools/tm_gen_trace" --sample "$sample" --size-mb "$mb" -o "$trace"
fi
cat "$trace" >/dev/null

# shellcheck source=bench/measure_runs.sh
source "$(dirname "$0")/measure_runs.sh"
frame_script="import sys, tensormorph as tm
frame = tm.load(sys.argv[1]).kernels
print(len(frame), file=sys.stderr)"
labels=(cli python)
declare -A best_wall best_rss
for ((round = 0; round < runs; round++)); do
  for label in "${labels[@]}"; do
    if [[ $label == cli ]]; then
      runs=1 measure_runs "$label" "$tm" kernels --quiet --format json "$trace"
    else
      runs=1 measure_runs "$label" "$python" -c "$frame_script" "$trace"
    fi
    if [[ -z ${best_wall[$label]:-} ]] || (($(calc %d "$measured_wall < ${best_wall[$label]}"))); then
      best_wall[$label]=$measured_wall
    fi
    if ((measured_rss_kib > ${best_rss[$label]:-0})); then best_rss[$label]=$measured_rss_kib; fi
  done
done
{
  echo "### The kernel table as a DataFrame vs \`tensormorph kernels\` ($(date -u +%F))"
  echo
  echo "- trace: \`$trace\`, $(calc %.1f "$(stat -c %s "$trace") / 1e6") MB; $(nproc) cores;" \
    "best wall time of $runs interleaved rounds; peak RSS the highest"
  echo "- reproduce: \`TM_BENCH_MB=$mb TM_BENCH_RUNS=$runs bench/run_python.sh\`"
  echo "- targets: time / CLI at most 1.5, RSS / CLI at most 2"
  echo
  echo "| command | wall s | peak RSS MiB | time / CLI | RSS / CLI |"
  echo "|---|---:|---:|---:|---:|"
  echo "| \`tensormorph kernels --format json\` | $(calc %.2f "${best_wall[cli]}") |" \
    "$(calc %.0f "${best_rss[cli]} / 1024") | 1.00 | 1.00 |"
  echo "| \`tm.load(trace).kernels\` | $(calc %.2f "${best_wall[python]}") |" \
    "$(calc %.0f "${best_rss[python]} / 1024") |" \
    "$(calc %.2f "${best_wall[python]} / ${best_wall[cli]}") |" \
    "$(calc %.2f "${best_rss[python]} / ${best_rss[cli]}") |"
} | tee "$out/python_results.md"
