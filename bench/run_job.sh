#!/usr/bin/env bash
# The job benchmark (`make bench`, after bench/run.sh): eight ranks of about TM_BENCH_JOB_MB each,
# made from the eight real ranks of PARAM's DLRM job, through `collectives`, `critical-path` and
# `whatif` (target: 2.5x), against `kernels` loading the same eight files. Wall time and peak RSS, best of TM_BENCH_RUNS
# interleaved rounds; the table goes to bench/out/job_results.md. The ranks are made by
# bench/job_traces.sh.
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
out=bench/out
tm=$build/tensormorph
tools=$build/bench
((mb > 0)) || exit 0
[[ -x $tm && -x $tools/tm_gen_trace && -x $tools/tm_measure ]] || {
  echo "bench: $tm or $tools is missing; run make build" >&2
  exit 1
}
# shellcheck source=bench/job_traces.sh
source "$(dirname "$0")/job_traces.sh"
make_job_traces "$mb" "$out/job_${mb}mb"
traces=("${job_traces[@]}") reps=$job_reps period_ms=$job_period_ms
bytes=$(cat "${traces[@]}" | wc -c)  # also brings them into the page cache

# shellcheck source=bench/measure_runs.sh
source "$(dirname "$0")/measure_runs.sh"
labels=(kernels collectives critical-path whatif)
command_args() { args=("$tm" "$1" --quiet --format json "${traces[@]}"); }
measure_rounds "${labels[@]}"
{
  echo
  echo "### one job: 8 ranks, \`collectives\`, \`critical-path\` and \`whatif\` against \`kernels\` ($(date -u +%F))"
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
