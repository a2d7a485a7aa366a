#!/usr/bin/env bash
# Every header under include/tensormorph compiles on its own, twice in one translation unit, with
# nothing but -Iinclude and the include flags of the library's dependencies: a public header may
# include only other public headers, the standard library and the installed dependencies' headers.
#
# usage: public_headers_test.sh SOURCE_DIR CXX "PKG-CONFIG MODULES"
set -euo pipefail
source=$1 cxx=$2 modules=$3
# shellcheck disable=SC2086
deps=$(pkg-config --cflags $modules)
cd "$source/include"
headers=$(find tensormorph -name '*.h' | sort)
[ -n "$headers" ] || { echo "public_headers_test: no headers under include/tensormorph" >&2; exit 1; }

check_one() {  # header
  # shellcheck disable=SC2086
  printf '#include "%s"\n#include "%s"\n' "$1" "$1" |
    "$cxx" -std=c++20 -fsyntax-only -I. $deps -x c++ - 2>&1 |
    sed "s|^|$1: |"
  return "${PIPESTATUS[1]}"
}
export -f check_one
export cxx deps
failed=0
echo "$headers" | xargs -P 2 -I{} bash -c 'check_one "$1"' _ {} || failed=1
n=$(echo "$headers" | wc -l)
if [ $failed -ne 0 ]; then
  echo "public_headers_test: some of the $n public headers do not compile alone (above)" >&2
  exit 1
fi
echo "public_headers_test: all $n headers under include/tensormorph compile alone with -Iinclude"
