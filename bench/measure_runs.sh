# Sourced by bench/run.sh and bench/run_nsys.sh: running a command several times under
# tm_measure. Needs $tools (where tm_measure is), $out (a scratch folder) and $runs.

field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$2"; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }

# measure_runs LABEL CMD...: runs CMD $runs times; sets measured_wall (the best wall time),
# measured_user and measured_sys (that run's CPU times) and measured_rss_kib (the highest peak
# RSS of all runs).
measure_runs() {
  local label=$1 line wall kib
  shift
  measured_wall='' measured_user='' measured_sys='' measured_rss_kib=0
  for ((i = 0; i < runs; i++)); do
    if ! "$tools/tm_measure" -o "$out/measure.txt" -- "$@" >/dev/null; then
      echo "bench: failed: $*" >&2
      exit 1
    fi
    line=$(<"$out/measure.txt")
    echo "bench: $label: $line" >&2
    wall=$(field wall_s "$line")
    kib=$(field maxrss_kib "$line")
    if [[ -z $measured_wall ]] || (($(calc %d "$wall < $measured_wall"))); then
      measured_wall=$wall
      measured_user=$(field user_s "$line")
      measured_sys=$(field sys_s "$line")
    fi
    if ((kib > measured_rss_kib)); then
      measured_rss_kib=$kib
    fi
  done
  rm -f "$out/measure.txt"
}

# measure_rounds LABEL...: $runs interleaved rounds, one run of each label per round, the command
# of a label being the array `args` that command_args LABEL sets (the caller defines it); keeps in
# best_wall/best_user (the fastest run) and best_rss (the highest) by label. Interleaving puts a
# shared machine's slow minutes on every command alike.
declare -A best_wall best_user best_rss
measure_rounds() {
  local round label
  for ((round = 0; round < runs; round++)); do
    for label in "$@"; do
      command_args "$label"
      runs=1 measure_runs "$label" "${args[@]}"
      if [[ -z ${best_wall[$label]:-} ]] || (($(calc %d "$measured_wall < ${best_wall[$label]}"))); then
        best_wall[$label]=$measured_wall
        best_user[$label]=$measured_user
      fi
      if ((measured_rss_kib > ${best_rss[$label]:-0})); then best_rss[$label]=$measured_rss_kib; fi
    done
  done
}
