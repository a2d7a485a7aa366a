# shellcheck shell=bash
# Sourced by bench/run_job.sh and bench/run_fleet.sh: the eight real ranks of PARAM's DLRM job,
# each repeated to about MB megabytes. Every rank repeats its sample the same number of times
# with the same period, so the ranks' collectives still meet and their ProfilerStep#N are
# renumbered alike (tm_gen_trace --repetitions --period-ms --renumber-steps).
# Needs $tools (where tm_gen_trace is), set by the script that sources this one.
# shellcheck disable=SC2154

# make_job_traces MB FOLDER: writes FOLDER/worker*.json (kept when already there); sets
# job_traces (their paths), job_reps and job_period_ms.
make_job_traces() {
  local mb=$1 folder=$2 samples=(../shared/data/kineto/param_dlrm_8rank/worker*.json.gz)
  local s line span size largest=0 probe=$2/probe.json
  mkdir -p "$folder"
  # The period: the longest sample span + 1 ms; the repetitions: enough for the largest sample.
  job_period_ms=0
  for s in "${samples[@]}"; do
    line=$("$tools/tm_gen_trace" --sample "$s" --repetitions 1 -o "$probe" 2>&1)
    span=$(sed -n 's/.*span \([0-9.]*\) ms.*/\1/p' <<<"$line" | head -1)
    size=$(stat -c %s "$probe")
    job_period_ms=$(awk "BEGIN { print ($span + 1 > $job_period_ms) ? $span + 1 : $job_period_ms }")
    ((size > largest)) && largest=$size
  done
  rm -f "$probe"
  job_reps=$(((mb * 1000000 + largest - 1) / largest))
  job_traces=()
  for s in "${samples[@]}"; do
    local t
    t=$folder/$(basename "${s%.json.gz}").json
    job_traces+=("$t")
    [[ -f $t ]] && continue
    echo "bench: generating $t ($job_reps repetitions, period $job_period_ms ms)" >&2
    "$tools/tm_gen_trace" --sample "$s" --repetitions "$job_reps" --period-ms "$job_period_ms" \
      --renumber-steps -o "$t"
  done
}
