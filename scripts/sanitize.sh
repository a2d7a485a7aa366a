#!/usr/bin/env bash
# The hostile-input suite, part of `make test`:
#  1. an ASan + UBSan build (clang) of the library, the binary, the tests and the libFuzzer
#     harnesses; the whole test suite under the sanitizers;
#  2. every fuzz harness, reproducibly: a fixed seed and TM_FUZZ_RUNS inputs each (scripts/fuzz.sh);
#  3. a ThreadSanitizer build of the library and the tests, running the tests of the parallel
#     paths (the multi-threaded importer, --threads 1 vs N, the report's analyses side by side,
#     the timeline's concurrent passes and JSON arrays, findings' rules beside the timeline).
# Build folders: build-sanitize, build-tsan (kept between runs; ccache is used when installed).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase prints its elapsed seconds when it ends (scripts/timed.sh), as make test's release
# phases do: one table of where CI's time went.
timed() { "$(dirname "$0")/timed.sh" "$@"; }
JOBS=${JOBS:-$(nproc)}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer || command -v llvm-symbolizer-14 || true)}

configure() {  # build dir, sanitizer flags, extra cmake args...
  local dir=$1 flags=$2
  shift 2
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -gline-tables-only -fno-omit-frame-pointer $flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" "$@" >/dev/null
}

# Built: the library, the binary, the unit tests, the end-to-end tests that call the library
# and the fuzz harnesses. The end-to-end tests that only run the binary (label e2e_cli) are the
# release build's, run below against this build's binary: their own code needs no sanitizer.
[ -x build/tests/tm_e2e ] || { echo "sanitize: build/tests/tm_e2e missing: make build first" >&2; exit 1; }
configure build-sanitize "-fsanitize=address,undefined -fno-sanitize-recover=all" -DTM_FUZZ=ON \
  -DTM_BENCH=OFF -DTM_PYTHON=OFF -DTM_CLI_TESTS=OFF \
  -DTM_SHARED_DATA="${TM_SHARED_DATA:-$PWD/../shared/data}"
timed "ASan + UBSan build" cmake --build build-sanitize -j "$JOBS"
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The browser test (label "browser") ran in the normal suite; under ASan it would retest chromium,
# and the public headers' compile check (label "headers") would recompile them with other flags.
# Three sweeps also run in the normal suite only: they repeat compare, calibrate and predict (whose
# smaller tests do run here) over all three shared H100/MI300X pairs, two minutes under ASan.
# demo_without_shared builds a release clone of its own: nothing of it would run sanitized.
asan_release_only='^(ComparePairs\.RowsAndCategoriesAddUpToKernelTime|Predict\.BeatsBothBaselinesOnEveryHeldOutModel|Calibrate\.FloorsAreThe5thPercentileOfTheRawKernelDurations|demo_without_shared)$'
timed "ASan + UBSan tests" bash -c "cd build-sanitize && ctest --output-on-failure --no-tests=error -j $JOBS \
  --timeout 1200 -LE 'browser|headers' -E '$asan_release_only'"
# Binary-only tests that repeat, on the largest shared traces, a command other tests run
# sanitized; each runs in the release suite (under ASan they took 10-48 s each, 2-5x release):
#  - CompareCategories.CommunicationIsTheTimelinesOnEveryTraceWithCollectives: compare and
#    timeline over every trace with collectives (its one-trace siblings run here);
#  - FindingsCli.IdleRulesFireExactlyWhereTimelineShowsTheirTime: findings and timeline over
#    every shared trace (the other FindingsCli tests run here);
#  - DiffCli.FailOnRegressionGatesTheExitCode, BaselineCli.TraceAndBaselineInAnyCombination...:
#    diff the 35 MB trace_diff pair again (DiffOracle.TraceDiffControlAgainstTest runs it here);
#  - Calibrate.ShippedCalibration..., Calibrate.RatiosAre...: calibrate over all three H100 /
#    MI300X pairs (as the floors sweep above);
#  - TruncatedAtEveryByte.GzipAtEveryCompressedByte: the gzip layer at every cut (fuzz_gzip
#    fuzzes it sanitized below; the plain-text cuts run here).
cli_release_only='^(CompareCategories\.CommunicationIsTheTimelinesOnEveryTraceWithCollectives|FindingsCli\.IdleRulesFireExactlyWhereTimelineShowsTheirTime|DiffCli\.FailOnRegressionGatesTheExitCode|BaselineCli\.TraceAndBaselineInAnyCombinationGiveTheSameRows|Calibrate\.ShippedCalibrationIsCalibrateOnTheSharedPairs|Calibrate\.RatiosAreTheTimePastTheFloorsOnMatchedRows|TruncatedAtEveryByte\.GzipAtEveryCompressedByte)$'
timed "ASan + UBSan end-to-end tests (release test code, sanitized binary)" \
  env TM_BINARY="$PWD/build-sanitize/tensormorph" bash -c "cd build && ctest \
  --output-on-failure --no-tests=error -j $JOBS --timeout 1200 -L e2e_cli \
  -E '$asan_release_only|$cli_release_only'"

timed "fuzzing (seed 1, ${TM_FUZZ_RUNS:-2000} inputs per harness, ${TM_FUZZ_CAP:-20} s at most)" scripts/fuzz.sh build-sanitize

unset ASAN_OPTIONS UBSAN_OPTIONS
configure build-tsan "-fsanitize=thread" -DTM_BENCH=OFF -DTM_PYTHON=OFF \
  -DTM_SHARED_DATA="${TM_SHARED_DATA:-$PWD/../shared/data}"
# Only the files that hold these tests are built (tests/CMakeLists.txt: tensormorph_parallel_tests).
timed "ThreadSanitizer build" cmake --build build-tsan -j "$JOBS" \
  --target tensormorph_parallel_tests tensormorph
# The tests in two gtest shards side by side (each test's own threads are few; one process
# alone left a core idle for most of the phase). A shard's log is printed when it fails.
tsan_filter='*ThreadsDeterminism*:ChromeImporter*:BadInput.MultiChunk*:LinkStage*:ReportAnalyses*:Timeline*:WriteJson*:FindingsCli.SpanBasis*'
tsan_shards() {
  local shard pids=() status=0
  for shard in 0 1; do
    TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$shard \
      build-tsan/tests/tensormorph_parallel_tests --gtest_filter="$tsan_filter" \
      >"build-tsan/tsan-shard-$shard.log" 2>&1 &
    pids+=($!)
  done
  for shard in 0 1; do
    if ! wait "${pids[$shard]}"; then
      status=1
      echo "ThreadSanitizer shard $shard failed (build-tsan/tsan-shard-$shard.log):" >&2
      tail -80 "build-tsan/tsan-shard-$shard.log" >&2
    fi
    grep -h '^\[  PASSED  \]\|^\[  FAILED  \]' "build-tsan/tsan-shard-$shard.log" || true
  done
  return $status
}
export -f tsan_shards  # timed.sh runs it in a bash of its own
export tsan_filter
timed "ThreadSanitizer tests" tsan_shards
echo "== sanitizers: all passed"
