#!/usr/bin/env bash
# `make demo` as every user first runs it: in a fresh clone with no ../shared beside it. It must
# build the command line alone (no test, benchmark or Python target, nothing that lists or reads
# test data), print the demo's `info` first and write the HTML report; and `make test` there must
# stop before building anything, naming what is missing.
#   demo_without_shared_test.sh SOURCE_DIR     (a git checkout: its HEAD commit is cloned)
set -euo pipefail
source_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "demo_without_shared: $*" >&2; exit 1; }

git clone -q "$source_dir" "$work/tensormorph"
[ ! -e "$work/shared" ] || fail "$work/shared exists"
cd "$work/tensormorph"

make demo >"$work/demo.log" 2>&1 || { tail -40 "$work/demo.log" >&2; fail "make demo failed"; }
first=$(grep -m1 '^== ' "$work/demo.log")
[ "$first" = "== tensormorph info examples/nccl_2rank_rank0_a100.json.gz" ] ||
  fail "the demo's first output is '$first', not its info"
grep -q 'cuda:0 NVIDIA A100-PG509-200' "$work/demo.log" || fail "info names no A100"
grep -q 'rank      0 of 2' "$work/demo.log" || fail "info names no rank"
[ -s tensormorph-report.html ] || fail "no report written"
grep -q '<html' tensormorph-report.html || fail "the report is not HTML"
# Only the command line was built: no test executable, module or benchmark, no test list.
for absent in build/tests build/python build/bench build/CTestTestfile.cmake; do
  [ ! -e "$absent" ] || fail "make demo built or configured $absent"
done

if make test >"$work/test.log" 2>&1; then fail "make test passed without ../shared"; fi
grep -q 'shared/data is missing' "$work/test.log" || { cat "$work/test.log" >&2; fail "no message"; }
[ ! -e build/tests ] || fail "make test built tests before saying ../shared is missing"
echo "demo_without_shared: ok ($(grep -c '' "$work/demo.log") lines of demo output)"
