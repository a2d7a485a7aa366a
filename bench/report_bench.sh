#!/usr/bin/env bash
# The HTML report on a million kernels: generates the trace (tm_gen_trace repeating the bundled
# NCCL sample, 2,700 kernels and 23,100 host ops and calls per 9.78 MB, so 3,700 MB is about
# 1.0 million kernels and 8.6 million host items), writes the
# report, and times its size, its build, its load in headless chromium and the frames of a zoom
# (tests/browser/report_bench.mjs). Needs scripts/setup_browser.sh. Results: bench/out/report_bench.json
#
# Environment: TM_REPORT_BENCH_MB (default 3700), BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
mb=${TM_REPORT_BENCH_MB:-3700}
out=bench/out
trace=$out/trace_${mb}mb.json
mkdir -p "$out"
if [[ ! -f $trace ]] || (($(stat -c %s "$trace") < mb * 1000000)); then
  "$build/bench/tm_gen_trace" --sample examples/nccl_2rank_rank0_a100.json.gz --size-mb "$mb" -o "$trace"
fi
start=$(date +%s.%N)
"$build/tensormorph" report --quiet "$trace" -o "$out/report_${mb}mb.html"
end=$(date +%s.%N)
size=$(stat -c %s "$out/report_${mb}mb.html")
echo "report: $out/report_${mb}mb.html, $(awk "BEGIN { printf \"%.2f\", $size / 1e6 }") MB, written in $(awk "BEGIN { printf \"%.1f\", $end - $start }") s (import included)"
node tests/browser/report_bench.mjs "$out/report_${mb}mb.html" | tee "$out/report_bench.json" | head -26
