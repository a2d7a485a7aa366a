#!/usr/bin/env bash
# The Nsight Systems import benchmark (called by bench/run.sh, or run alone): times
# `tensormorph kernels` on a synthetic `nsys export --type sqlite` file against a bare libsqlite3
# run of the cuda_gpu_kern_sum SQL over the same file, in one run, and writes the table to
# $TM_BENCH_OUT/results_nsys.md.
#
# Environment (all optional):
#   TM_BENCH_NSYS_MB  export size in MB (10^6 bytes); default 1024; 0 skips this benchmark
#   TM_BENCH_RUNS     runs per command, the best wall time is kept; default 3
#   TM_BENCH_OUT      where the export and the results go; default bench/out
#   BUILD_DIR         where `make build` put the binaries; default build
set -euo pipefail
cd "$(dirname "$0")/.."

build=${BUILD_DIR:-build}
mb=${TM_BENCH_NSYS_MB:-1024}
runs=${TM_BENCH_RUNS:-3}
out=${TM_BENCH_OUT:-bench/out}
if ((mb == 0)); then
  exit 0
fi
export_file=$out/nsys_${mb}mb.sqlite
tm=$build/tensormorph
tools=$build/bench

for bin in "$tm" "$tools/tm_gen_nsys" "$tools/tm_bare_sqlite" "$tools/tm_measure"; do
  if [[ ! -x $bin ]]; then
    echo "bench: $bin is missing; run make build" >&2
    exit 1
  fi
done
mkdir -p "$out"

# The generator stops at the first whole batch past N MB and renames its output into place only
# when done, so a file shorter than N MB was made for another N.
if [[ ! -f $export_file ]] || (($(stat -c %s "$export_file") < mb * 1000000)); then
  echo "bench: generating $export_file" >&2
  "$tools/tm_gen_nsys" --size-mb "$mb" -o "$export_file"
fi
bytes=$(stat -c %s "$export_file")
cat "$export_file" >/dev/null  # every command below reads it from the page cache


# shellcheck source=bench/measure_runs.sh
source "$(dirname "$0")/measure_runs.sh"

bare_wall=''
bare_rss=''
rows=()
# measure LABEL CMD...: best of $runs runs (measure_runs.sh), as a table row; the first command
# measured is the baseline.
measure() {
  measure_runs "$@"
  local label=$1 best=$measured_wall user=$measured_user sys=$measured_sys rss=$measured_rss_kib
  bare_wall=${bare_wall:-$best}
  bare_rss=${bare_rss:-$rss}
  rows+=("| \`$label\` | $(calc %.2f "$best") | $(calc %.0f "$bytes / 1e6 / $best") \
| $(calc %.2f "$user") | $(calc %.2f "$sys") | $(calc %.0f "$rss / 1024") \
| $(calc %.2f "$rss * 1024 / $bytes") | $(calc %.2f "$best / $bare_wall") \
| $(calc %.1f "$rss / $bare_rss") |")
}

name=$(basename "$export_file")
measure "tm_bare_sqlite $name" "$tools/tm_bare_sqlite" "$export_file"
measure "tensormorph kernels --quiet --format json $name" \
  "$tm" kernels --quiet --format json "$export_file"

# Row counts, through the baseline's own library (python3's sqlite3 module when present).
counts=$(python3 - "$export_file" <<'EOF' 2>/dev/null || true
import sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}?immutable=1", uri=True)
tables = ["CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_MEMCPY",
          "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS",
          "StringIds"]
print(", ".join(f"{t.replace('CUPTI_ACTIVITY_KIND_', '')} {db.execute(f'SELECT count(*) FROM {t}').fetchone()[0]:,}"
                for t in tables))
EOF
)

{
  echo "### tensormorph kernels on an Nsight Systems export vs bare SQL ($(date -u +%F))"
  echo
  echo "- export: \`$export_file\`, $(calc %.1f "$bytes / 1e6") MB, made by \`tm_gen_nsys\`" \
    "${counts:+(rows: $counts)}"
  echo "- machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)," \
    "$(free -g | awk '/^Mem:/ { print $2 }') GiB RAM; file in the page cache"
  echo "- best wall time of $runs runs; peak RSS is the highest of those runs; MB = 10^6 bytes"
  echo "- reproduce: \`TM_BENCH_NSYS_MB=$mb TM_BENCH_RUNS=$runs bench/run_nsys.sh\`"
  echo
  echo "| command | wall s | MB/s | user s | sys s | peak RSS MiB | RSS / file | time / bare | RSS / bare |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
} | tee "$out/results_nsys.md"
