#!/usr/bin/env bash
# The library as a user gets it: `cmake --install` into a temporary prefix, then the program in
# tests/install/consumer built against that prefix alone, once through find_package(tensormorph)
# and once through `pkg-config --cflags --libs tensormorph`. Both programs load the bundled A100
# trace, link it and print numbers, which must equal what the installed command line's
# `tensormorph kernels --format json` and `tensormorph timeline --format json` say about the same
# trace (read with jq).
#
# usage: install_test.sh BUILD_DIR SOURCE_DIR LIBDIR CMAKE GENERATOR CXX CXXFLAGS LDFLAGS
# (ctest passes the build's own; the programs are built with the build's compiler and flags, so
# that a sanitizer build links its instrumented library.)
set -euo pipefail
build=$1 source=$2 libdir=$3 cmake=$4 generator=$5 cxx=$6 cxxflags=$7 ldflags=$8
trace=$source/examples/nccl_2rank_rank0_a100.json.gz

work=$(mktemp -d "$build/install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fail() { echo "install_test: $*" >&2; exit 1; }

"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" || {
  cat "$work/install.log" >&2
  fail "cmake --install failed"
}
for f in bin/tensormorph "$libdir/libtensormorph.a" include/tensormorph/tensormorph.h \
  "$libdir/cmake/tensormorph/tensormorphConfig.cmake" \
  "$libdir/cmake/tensormorph/tensormorphConfigVersion.cmake" "$libdir/pkgconfig/tensormorph.pc"; do
  [ -f "$prefix/$f" ] || fail "not installed: $f"
done

# The oracle: the installed command line on the same trace.
"$prefix/bin/tensormorph" kernels --format json --quiet "$trace" >"$work/kernels.json"
"$prefix/bin/tensormorph" timeline --format json --quiet "$trace" >"$work/timeline.json"
expected=$(
  jq -r '"kernel_count \(.kernel_count)",
         "total_ns \(.total_ns)",
         "top_kernel_count \(.rows[0].count)",
         "top_kernel_total_ns \(.rows[0].total_ns)",
         "top_kernel \(.rows[0].name)"' "$work/kernels.json"
  jq -r '.devices[0] | "device_busy_ns \(.busy_ns)",
                       "device_launch_p50_ns \(.launch_latency.p50_ns)",
                       "device_steps \(.steps | length)"' "$work/timeline.json"
)
[ "$(jq '.kernel_count' "$work/kernels.json")" -gt 0 ] || fail "the CLI found no kernels"
[ "$(jq '.devices[0].steps | length' "$work/timeline.json")" -gt 0 ] || fail "the CLI found no steps"

check() {  # how it was built, the program
  local got
  got=$("$2" "$trace") || fail "$1: the program failed: $got"
  if [ "$got" != "$expected" ]; then
    diff <(echo "$expected") <(echo "$got") >&2 || true
    fail "$1: the program's numbers (+) differ from tensormorph kernels --format json (-)"
  fi
  echo "install_test: $1: $(echo "$got" | head -2 | tr '\n' ' ')as the CLI says"
}

# 1. CMake: find_package(tensormorph) with the prefix on CMAKE_PREFIX_PATH.
"$cmake" -S "$source/tests/install/consumer" -B "$work/cmake-build" -G "$generator" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_FLAGS="$cxxflags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" >"$work/configure.log" || {
  cat "$work/configure.log" >&2
  fail "find_package(tensormorph): configuring the consumer failed"
}
"$cmake" --build "$work/cmake-build" >"$work/build.log" 2>&1 || {
  cat "$work/build.log" >&2
  fail "find_package(tensormorph): building the consumer failed"
}
check "find_package(tensormorph)" "$work/cmake-build/tensormorph_consumer"

# 2. pkg-config, with nothing but what it prints (and the C++ standard the headers need).
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
flags=$(pkg-config --cflags --libs tensormorph) || fail "pkg-config does not know tensormorph"
# shellcheck disable=SC2086  # word splitting of the flags is meant
"$cxx" -std=c++20 $cxxflags "$source/tests/install/consumer/consumer.cc" -o "$work/pc-consumer" \
  $flags $ldflags || fail "pkg-config: building the consumer failed (flags: $flags)"
check "pkg-config --cflags --libs tensormorph" "$work/pc-consumer"
