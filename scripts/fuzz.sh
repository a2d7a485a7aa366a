#!/usr/bin/env bash
# Runs every libFuzzer harness of a sanitizer build (scripts/sanitize.sh builds them): first the
# kept crashers (tests/fuzz/regressions/<harness>/, each must now pass), then fuzzing from seed
# corpora (real traces from ../shared/data and the tests' fixtures) with the format's dictionary.
# Fails on the first crash, leak, hang, out-of-memory or broken model invariant, leaving the input
# in $BUILD/fuzz-artifacts/.
#
#   scripts/fuzz.sh [BUILD_DIR]
#       as `make test` runs it: reproducible — seed 1, TM_FUZZ_RUNS inputs per harness (default
#       4000) from a fresh copy of the seeds, so a run that passed here passes in CI (a slower
#       machine stops at the 60 s cap per harness, on a prefix of the same inputs);
#   TM_FUZZ_SECONDS=N scripts/fuzz.sh [BUILD_DIR]     (make fuzz)
#       exploring — N seconds per harness, a random seed, the corpus kept in $BUILD/fuzz-corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build-sanitize}
SECONDS_EACH=${TM_FUZZ_SECONDS:-}
RUNS=${TM_FUZZ_RUNS:-4000}
DATA=${TM_SHARED_DATA:-../shared/data}
ART=$BUILD/fuzz-artifacts
mkdir -p "$ART"
# rocpd seeds: databases built from the checked-in SQL text (tests/data/rocpd/make_rocpd_sql.py)
mkdir -p "$BUILD/rocpd-seeds"
for sql in tests/data/rocpd/*_results.sql; do
  seed_db="$BUILD/rocpd-seeds/$(basename "$sql" .sql).db"
  [ -s "$seed_db" ] || sqlite3 "$seed_db" < "$sql"
done

# harness -> seed files (globs; files over 1 MB are left out: libFuzzer mutates small inputs best)
declare -A SEEDS=(
  [sniff]="$DATA/other/onnxruntime/*.json $DATA/other/rocprofv3/*.csv $DATA/nvidia/ncu_csv/*.csv tests/data/*.json tests/data/*/*.json tests/data/*/*.xml"
  [kineto]="$DATA/kineto/hta/*.json.gz $DATA/kineto/tracelens/*.json* tests/data/legacy_autograd_profile.json tests/data/jax/*.json"
  [gzip]="$DATA/kineto/hta/*.json.gz"
  [nsys]="$DATA/nvidia/nsys_sqlite/nsysai_mock_rtx3080_2026.1.sqlite"
  [nsys_schema]=""
  [rocpd_schema]=""
  [rocprof_compute_db_schema]=""
  [rocpd]="$BUILD/rocpd-seeds/*.db"
  [ncu]="$DATA/nvidia/ncu_csv/*.csv tests/data/ncu_raw_fixture.csv"
  [rocprof]="$DATA/other/rocprofv3/*.csv $DATA/other/rocprofv3_rocm62/*.csv tests/data/rocprofv3_*"
  [onnxruntime]="$DATA/other/onnxruntime/*.json"
  [xctrace]="tests/data/xctrace/*.xml"
  [xplane]="$DATA/kineto/jax_xplane/*.pb"
  [native]="tests/data/native/*"
  [webgpu]="tests/data/webgpu/* $DATA/other/webgpu_browser/*"
  [rocprof_compute_db]="tests/data/rocprof_compute_db/*.db"
)
# The reproducible mode's inputs per harness, where TM_FUZZ_RUNS would not finish within the cap on
# a 2-core machine (the Kineto importer starts its parser threads for every input).
declare -A RUNS_OF=([kineto]=1500)
# Inputs larger than this are cut by libFuzzer; an Nsight export is a few hundred KB.
declare -A MAX_LEN=([nsys]=524288 [rocpd]=524288 [xplane]=524288 [rocprof_compute_db]=262144)
declare -A DICTS=(
  [sniff]=json [kineto]=json [onnxruntime]=json [native]=json [webgpu]=json
  [ncu]=csv [rocprof]=csv [xctrace]=xml
)

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

total_runs=0
for harness in "${!SEEDS[@]}"; do
  bin=$BUILD/tests/fuzz/fuzz_$harness
  [ -x "$bin" ] || { echo "fuzz: $bin missing (build with scripts/sanitize.sh)" >&2; exit 1; }
  if [ -n "$SECONDS_EACH" ]; then
    corpus=$BUILD/fuzz-corpus/$harness
    mode=(-max_total_time="$SECONDS_EACH")
  else
    corpus=$BUILD/fuzz-corpus-fresh/$harness
    rm -rf "$corpus"
    mode=(-seed=1 -runs="${RUNS_OF[$harness]:-$RUNS}" -max_total_time=60)
  fi
  mkdir -p "$corpus"
  shopt -s nullglob
  for seed in ${SEEDS[$harness]}; do
    [ "$(stat -c %s "$seed")" -le 1048576 ] && cp -n "$seed" "$corpus/" 2>/dev/null || true
  done
  regressions=(tests/fuzz/regressions/$harness/*)
  shopt -u nullglob
  if [ ${#regressions[@]} -gt 0 ]; then
    "$bin" -rss_limit_mb=2048 -timeout=20 "${regressions[@]}" >"$ART/$harness.regressions.log" 2>&1 ||
      { echo "fuzz: $harness fails on a kept crasher:" >&2; tail -30 "$ART/$harness.regressions.log" >&2; exit 1; }
  fi
  dict=()
  [ -n "${DICTS[$harness]:-}" ] && dict=(-dict="tests/fuzz/dict/${DICTS[$harness]}.dict")
  log=$ART/$harness.log
  if ! "$bin" "$corpus" "${mode[@]}" -timeout=20 -rss_limit_mb=2048 \
      -max_len="${MAX_LEN[$harness]:-65536}" -artifact_prefix="$ART/$harness-" \
      -print_final_stats=1 "${dict[@]}" >"$log" 2>&1; then
    echo "fuzz: $harness found a failure; the input is in $ART/ (log: $log)" >&2
    tail -40 "$log" >&2
    exit 1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  total_runs=$((total_runs + runs))
  seconds=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o '[0-9]* second' | grep -o '[0-9]*' || echo "?")
  printf 'fuzz: %-12s %8s runs in %ss, no failures\n' "$harness" "$runs" "$seconds"
done
echo "fuzz: ${#SEEDS[@]} harnesses, $total_runs runs in all, no failures"
