#!/usr/bin/env bash
# The fleet benchmark (issue 16): tm.fleet.summarize over TM_BENCH_FLEET_RANKS rank traces of about
# TM_BENCH_FLEET_MB each, in one process without Dask and on a local Dask cluster of 1 and 2
# workers. Wall time of the summary (not the cluster's start-up), peak RSS of the client process
# (which also runs the local scheduler) and of the largest worker; best wall time of
# TM_BENCH_RUNS interleaved rounds, highest RSS. The table goes to bench/out/fleet_results.md.
#
# The ranks: the eight DLRM ranks of bench/job_traces.sh, copied TM_BENCH_FLEET_RANKS / 8 times
# as one job (copy k's rank i is rank 8k + i of the whole world size), uncompressed JSON.
#
# Environment (all optional):
#   TM_BENCH_FLEET_MB     size of each rank in MB (10^6 bytes); default 20
#   TM_BENCH_FLEET_RANKS  a multiple of 8; default 256 (0 skips)
#   TM_BENCH_RUNS         rounds; default 3
#   BUILD_DIR             where `make build` put the binaries; default build
set -euo pipefail
cd "$(dirname "$0")/.."

build=${BUILD_DIR:-build}
mb=${TM_BENCH_FLEET_MB:-20}
ranks=${TM_BENCH_FLEET_RANKS:-256}
runs=${TM_BENCH_RUNS:-3}
out=bench/out
tools=$build/bench
python=/usr/bin/python3  # the interpreter the package is built for (python/CMakeLists.txt)
export PYTHONPATH=$build/python
((ranks > 0)) || exit 0
((ranks % 8 == 0)) || { echo "bench: TM_BENCH_FLEET_RANKS must be a multiple of 8" >&2; exit 1; }
[[ -x $tools/tm_gen_trace && -f $build/python/tensormorph/__init__.py ]] || {
  echo "bench: run make build" >&2
  exit 1
}

# shellcheck source=bench/job_traces.sh
source "$(dirname "$0")/job_traces.sh"
make_job_traces "$mb" "$out/job_${mb}mb"
fleet=$out/fleet_${ranks}x${mb}mb
mkdir -p "$fleet"
files=()
for ((copy = 0; copy < ranks / 8; copy++)); do
  for ((i = 0; i < 8; i++)); do
    rank=$((8 * copy + i))
    files+=("$fleet/rank$(printf %04d "$rank").json")
    [[ -f ${files[-1]} ]] && continue
    # Only the first distributedInfo is the trace's; the sed stops rewriting after it.
    sed -E "0,/\"distributedInfo\"/s/(\"distributedInfo\": \{[^}]*\"rank\": )[0-9]+(, \"world_size\": )[0-9]+/\1$rank\2$ranks/" \
      "${job_traces[$i]}" >"${files[-1]}.tmp"
    grep -q "\"rank\": $rank, \"world_size\": $ranks" <(head -c 100000 "${files[-1]}.tmp") || {
      echo "bench: could not set the rank in ${files[-1]}" >&2
      exit 1
    }
    mv "${files[-1]}.tmp" "${files[-1]}"
  done
done
bytes=$(cat "${files[@]}" | wc -c)  # also brings them into the page cache

calc() { awk "BEGIN { printf \"$1\", $2 }"; }
labels=(0 1 2)  # workers; 0 = one process, no Dask
declare -A best_wall best_client best_worker
for ((round = 0; round < runs; round++)); do
  for workers in "${labels[@]}"; do
    line=$("$python" bench/fleet_bench.py "$workers" "${files[@]}" 2>"$out/fleet_bench.log" | tail -1) || {
      cat "$out/fleet_bench.log" >&2
      exit 1
    }
    echo "bench: fleet, $workers workers: $line" >&2
    value() { "$python" -c "import json, sys; print(json.loads(sys.argv[1])['$1'])" "$line"; }
    [[ $(value failed) == 0 && $(value ranks) == "$ranks" ]] || {
      echo "bench: the fleet summary did not read every rank: $line" >&2
      exit 1
    }
    wall=$(value wall_s) client=$(value client_rss_kib) worker=$(value worker_rss_kib)
    if [[ -z ${best_wall[$workers]:-} ]] || (($(calc %d "$wall < ${best_wall[$workers]}"))); then
      best_wall[$workers]=$wall
    fi
    if ((client > ${best_client[$workers]:-0})); then best_client[$workers]=$client; fi
    if ((worker > ${best_worker[$workers]:-0})); then best_worker[$workers]=$worker; fi
  done
done
{
  echo
  echo "### tm.fleet.summarize: $ranks rank traces of ~$mb MB ($(date -u +%F))"
  echo
  echo "- inputs: the 8 DLRM ranks repeated $job_reps times each, copied as $ranks ranks of one job:" \
    "$(calc %.0f "$bytes / 1e6") MB of uncompressed JSON in all, in the page cache; $(nproc) cores"
  echo "- wall: the summary only (the local cluster is started before); best of $runs interleaved" \
    "rounds. Client RSS: the calling process, which also runs the local scheduler; worker RSS: the" \
    "largest worker's peak (getrusage)"
  echo "- reproduce: \`TM_BENCH_FLEET_MB=$mb TM_BENCH_FLEET_RANKS=$ranks TM_BENCH_RUNS=$runs bench/run_fleet.sh\`"
  echo
  echo "| how | wall s | ranks / s | time / one process | client peak RSS MiB | worker peak RSS MiB |"
  echo "|---|---:|---:|---:|---:|---:|"
  for workers in "${labels[@]}"; do
    how="local cluster, $workers workers of 1 thread"
    ((workers == 1)) && how="local cluster, 1 worker of 1 thread"
    worker_rss=$(calc %.0f "${best_worker[$workers]} / 1024")
    if ((workers == 0)); then
      how="one process, no Dask (\`client=None\`)"
      worker_rss="(the same process)"
    fi
    echo "| $how | $(calc %.2f "${best_wall[$workers]}") | $(calc %.1f "$ranks / ${best_wall[$workers]}")" \
      "| $(calc %.2f "${best_wall[$workers]} / ${best_wall[0]}") | $(calc %.0f "${best_client[$workers]} / 1024")" \
      "| $worker_rss |"
  done
} | tee "$out/fleet_results.md"
