#!/usr/bin/env bash
# The job benchmark (`make bench`, after bench/run.sh): eight ranks of about TM_BENCH_JOB_MB each,
# made from the eight real ranks of PARAM's DLRM job, through `collectives` and `critical-path`,
# against `kernels` loading the same eight files. Wall time and peak RSS, best of TM_BENCH_RUNS
# interleaved rounds; the table goes to bench/out/job_results.md.
#
# Every rank repeats its sample the same number of times with the same period, so the ranks'
# collectives still meet and their ProfilerStep#N are renumbered alike (tm_gen_trace
# --repetitions --period-ms --renumber-steps).
#
# Environment (all optional):
#   TM_BENCH_JOB_MB  size of each rank in MB (10^6 bytes); default 1024 (TM_BENCH_JOB_MB=0 skips)
#   TM_BENCH_RUNS    rounds; default 3
#   BUILD_DIR        where `make build` put the binaries; default build
set -euo pipefail
cd "$(dirname "$0")/.."

build=${BUILD_DIR:-build}
mb=${TM_BENCH_JOB_MB:-1024}
runs=${TM_BENCH_RUNS:-3}
samples=(../shared/data/kineto/param_dlrm_8rank/worker*.json.gz)
out=bench/out
tm=$build/tensormorph
tools=$build/bench
((mb > 0)) || exit 0
[[ -x $tm && -x $tools/tm_gen_trace && -x $tools/tm_measure ]] || {
  echo "bench: $tm or $tools is missing; run make build" >&2
  exit 1
}
mkdir -p "$out/job_${mb}mb"

# The period: the longest sample span + 1 ms; the repetitions: enough for the largest sample.
period_ms=0 largest=0
for s in "${samples[@]}"; do
  line=$("$tools/tm_gen_trace" --sample "$s" --repetitions 1 -o "$out/job_probe.json" 2>&1)
  span=$(sed -n 's/.*span \([0-9.]*\) ms.*/\1/p' <<<"$line" | head -1)
  size=$(stat -c %s "$out/job_probe.json")
  period_ms=$(awk "BEGIN { print ($span + 1 > $period_ms) ? $span + 1 : $period_ms }")
  ((size > largest)) && largest=$size
done
rm -f "$out/job_probe.json"
reps=$(((mb * 1000000 + largest - 1) / largest))

traces=()
for s in "${samples[@]}"; do
  t=$out/job_${mb}mb/$(basename "${s%.json.gz}").json
  traces+=("$t")
  [[ -f $t ]] && continue
  echo "bench: generating $t ($reps repetitions, period $period_ms ms)" >&2
  "$tools/tm_gen_trace" --sample "$s" --repetitions "$reps" --period-ms "$period_ms" \
    --renumber-steps -o "$t"
done
bytes=$(cat "${traces[@]}" | wc -c)  # also brings them into the page cache

# shellcheck source=bench/measure_runs.sh
source "$(dirname "$0")/measure_runs.sh"
labels=(kernels collectives critical-path)
declare -A best_wall best_user best_rss
for ((round = 0; round < runs; round++)); do
  for label in "${labels[@]}"; do
    runs=1 measure_runs "$label" "$tm" "$label" --quiet --format json "${traces[@]}"
    if [[ -z ${best_wall[$label]:-} ]] || (($(calc %d "$measured_wall < ${best_wall[$label]}"))); then
      best_wall[$label]=$measured_wall
      best_user[$label]=$measured_user
    fi
    if ((measured_rss_kib > ${best_rss[$label]:-0})); then best_rss[$label]=$measured_rss_kib; fi
  done
done
{
  echo
  echo "### one job: 8 ranks, \`collectives\` and \`critical-path\` against \`kernels\` ($(date -u +%F))"
  echo
  echo "- inputs: the 8 DLRM ranks, each repeated $reps times (period $period_ms ms, steps renumbered):" \
    "$(calc %.1f "$bytes / 1e6") MB in all"
  echo "- best wall time of $runs interleaved rounds; JSON output to /dev/null; $(nproc) cores"
  echo "- reproduce: \`TM_BENCH_JOB_MB=$mb TM_BENCH_RUNS=$runs bench/run_job.sh\`"
  echo
  echo "| command | wall s | user s | peak RSS MiB | time / kernels | RSS / kernels |"
  echo "|---|---:|---:|---:|---:|---:|"
  for label in "${labels[@]}"; do
    echo "| \`$label\` | $(calc %.2f "${best_wall[$label]}") | $(calc %.2f "${best_user[$label]}")" \
      "| $(calc %.0f "${best_rss[$label]} / 1024") | $(calc %.2f "${best_wall[$label]} / ${best_wall[kernels]}")" \
      "| $(calc %.2f "${best_rss[$label]} / ${best_rss[kernels]}") |"
  done
} | tee "$out/job_results.md"
