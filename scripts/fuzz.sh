#!/usr/bin/env bash
# Runs every libFuzzer harness of a sanitizer build (scripts/sanitize.sh builds them): first the
# kept crashers (tests/fuzz/regressions/<harness>/, each must now pass), then fuzzing from seed
# corpora (real traces from ../shared/data and the tests' fixtures) with the format's dictionary.
# Fails on the first crash, leak, hang, out-of-memory or broken model invariant, leaving the input
# in $BUILD/fuzz-artifacts/.
#
#   scripts/fuzz.sh [BUILD_DIR]
#       as `make test` runs it: reproducible — seed 1, TM_FUZZ_RUNS inputs per harness (default
#       2000) from a fresh copy of the seeds, so a run that passed here passes in CI (a slower
#       machine stops at the TM_FUZZ_CAP cap per harness, default 20 s, on a prefix of the same
#       inputs; CI's 40 minutes hold 18 harnesses two at a time at 20 s);
#   TM_FUZZ_SECONDS=N scripts/fuzz.sh [BUILD_DIR]     (make fuzz)
#       exploring — N seconds per harness, a random seed, the corpus kept in $BUILD/fuzz-corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build-sanitize}
SECONDS_EACH=${TM_FUZZ_SECONDS:-}
DEFAULT_RUNS=${TM_FUZZ_RUNS:-2000}
CAP_SECONDS=${TM_FUZZ_CAP:-20}
DATA=${TM_SHARED_DATA:-../shared/data}
ART=$BUILD/fuzz-artifacts
mkdir -p "$ART"
rm -f "$ART"/*.ran
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for bin in fuzz_import fuzz_sqlite_schema fuzz_gzip fuzz_calibration fuzz_device_spec fuzz_report; do
  [ -x "$BUILD/tests/fuzz/$bin" ] || { echo "fuzz: $BUILD/tests/fuzz/$bin missing (build with scripts/sanitize.sh)" >&2; exit 1; }
done

# Harnesses run TM_FUZZ_JOBS at a time (default: one per core); each libFuzzer process is
# single-threaded, and each harness has its own corpus, logs and artifacts, so they do not interfere.
FUZZ_JOBS=${TM_FUZZ_JOBS:-$(nproc)}
running=0
failed=0
# run_harness NAME SEEDS DICT RUNS MAX_LEN BINARY: fuzzes one harness, replaying its kept crashers
# (tests/fuzz/regressions/NAME/) first. The binary reads its format from the environment. It runs
# in a subshell (start_harness), so it reports through its exit status and $ART/NAME.ran.
run_harness() {
  local harness=$1 seeds=$2 dict_name=$3 runs=$4 max_len=$5 bin=$BUILD/tests/fuzz/$6
  local corpus mode
  if [ -n "$SECONDS_EACH" ]; then
    corpus=$BUILD/fuzz-corpus/$harness
    mode=(-max_total_time="$SECONDS_EACH")
  else
    corpus=$BUILD/fuzz-corpus-fresh/$harness
    rm -rf "$corpus"
    mode=(-seed=1 -runs="${runs:-$DEFAULT_RUNS}" -max_total_time="$CAP_SECONDS")
  fi
  mkdir -p "$corpus"
  shopt -s nullglob
  for seed in $seeds; do  # files over 1 MB are left out: libFuzzer mutates small inputs best
    [ "$(stat -c %s "$seed")" -le 1048576 ] && cp -n "$seed" "$corpus/" 2>/dev/null || true
  done
  local regressions=(tests/fuzz/regressions/$harness/*)
  shopt -u nullglob
  if [ ${#regressions[@]} -gt 0 ]; then
    "$bin" -rss_limit_mb=2048 -timeout=20 "${regressions[@]}" >"$ART/$harness.regressions.log" 2>&1 ||
      { echo "fuzz: $harness fails on a kept crasher:" >&2; tail -30 "$ART/$harness.regressions.log" >&2; exit 1; }
  fi
  local dict=()
  [ -n "$dict_name" ] && dict=(-dict="tests/fuzz/dict/$dict_name.dict")
  local log=$ART/$harness.log
  if ! "$bin" "$corpus" "${mode[@]}" -timeout=20 -rss_limit_mb=2048 \
      -max_len="${max_len:-65536}" -artifact_prefix="$ART/$harness-" \
      -print_final_stats=1 "${dict[@]}" >"$log" 2>&1; then
    echo "fuzz: $harness found a failure; the input is in $ART/ (log: $log)" >&2
    echo "      reproduce: TM_FUZZ_FORMAT=$TM_FUZZ_FORMAT ${TM_FUZZ_SCHEMA_SEED:+TM_FUZZ_SCHEMA_SEED=$TM_FUZZ_SCHEMA_SEED TM_FUZZ_SCHEMA_TABLES=$TM_FUZZ_SCHEMA_TABLES }$bin INPUT" >&2
    tail -40 "$log" >&2
    exit 1
  fi
  local ran seconds
  ran=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  echo "$ran" >"$ART/$harness.ran"
  seconds=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o '[0-9]* second' | grep -o '[0-9]*' || echo "?")
  printf 'fuzz: %-25s %8s runs in %ss, no failures\n' "$harness" "$ran" "$seconds"
}

# start_harness ARGS...: run_harness in the background, at most FUZZ_JOBS at once; after a
# failure no further harness starts.
start_harness() {
  [ "$failed" -eq 0 ] || return 0
  rm -f "$ART/$1.ran"
  (run_harness "$@") &
  running=$((running + 1))
  if [ "$running" -ge "$FUZZ_JOBS" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
}

# Every format of the importer registry, and the sniffer (""), with its seeds from
# tests/fuzz/formats/<name>.conf: SEEDS (globs), DICT, RUNS (else TM_FUZZ_RUNS), MAX_LEN;
# SQL_SEEDS (SQL text built
# into seed databases in $SQL_SEED_DIR); SCHEMA_SEED and SCHEMA_TABLES for schema drift.
mapfile -t formats < <(TM_FUZZ_LIST_FORMATS=1 "$BUILD/tests/fuzz/fuzz_import")
[ ${#formats[@]} -gt 0 ] || { echo "fuzz: the importer registry lists no format" >&2; exit 1; }
for format in "" "${formats[@]}"; do
  harness=${format:-sniff}
  conf=tests/fuzz/formats/$harness.conf
  [ -f "$conf" ] || { echo "fuzz: the format '$harness' has no $conf (its seed files and dictionary); every reader is fuzzed" >&2; exit 1; }
  SEEDS="" DICT="" RUNS="" MAX_LEN="" SQL_SEEDS="" SCHEMA_SEED="" SCHEMA_TABLES=""
  SQL_SEED_DIR=$BUILD/fuzz-sql-seeds/$harness
  # shellcheck source=/dev/null
  source "$conf"
  if [ -n "$SQL_SEEDS" ]; then
    mkdir -p "$SQL_SEED_DIR"
    for sql in $SQL_SEEDS; do
      seed_db="$SQL_SEED_DIR/$(basename "$sql" .sql).db"
      [ -s "$seed_db" ] || sqlite3 "$seed_db" < "$sql"
    done
    SEEDS="$SEEDS $SQL_SEED_DIR/*.db"
  fi
  export TM_FUZZ_FORMAT=$format
  unset TM_FUZZ_SCHEMA_SEED TM_FUZZ_SCHEMA_TABLES
  start_harness "$harness" "$SEEDS" "$DICT" "$RUNS" "$MAX_LEN" fuzz_import
  if [ -n "$SCHEMA_SEED" ]; then
    export TM_FUZZ_SCHEMA_SEED=$SCHEMA_SEED TM_FUZZ_SCHEMA_TABLES=$SCHEMA_TABLES
    start_harness "$harness-schema" "" "" "" "" fuzz_sqlite_schema
  fi
done
unset TM_FUZZ_FORMAT TM_FUZZ_SCHEMA_SEED TM_FUZZ_SCHEMA_TABLES
start_harness gzip "$DATA/kineto/hta/*.json.gz" "" "" "" fuzz_gzip
start_harness calibration "src/analysis/predict/calibration.json" json "" "" fuzz_calibration
start_harness device-spec "src/devices/devices.json tests/data/device_spec_lab.json" json "" "" \
  fuzz_device_spec
# The report over small real Kineto traces: every analysis of the page per input, so fewer runs.
start_harness report "$DATA/kineto/hta/*.json.gz tests/data/legacy_autograd_profile.json tests/data/jax/*.json tests/data/kineto_memory_records.json" \
  json 500 "" fuzz_report
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
[ "$failed" -eq 0 ] || exit 1
shopt -s nullglob
harnesses=0
total_runs=0
for ran_file in "$ART"/*.ran; do
  harnesses=$((harnesses + 1))
  total_runs=$((total_runs + $(cat "$ran_file")))
done
echo "fuzz: $harnesses harnesses, $total_runs runs in all, no failures"
