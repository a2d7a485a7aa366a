#!/usr/bin/env bash
# The package as `make install` puts it: `cmake --install` into a temporary prefix, then Debian's
# python3 imports tensormorph and tensormorph.fleet from there alone (not from the build tree),
# and their kernel counts for the bundled trace equal the installed command line's; py.typed and
# _native.pyi are installed with them.
#
# usage: installed_package_test.sh BUILD_DIR SOURCE_DIR CMAKE PYTHON PYTHON_INSTALL_DIR
set -euo pipefail
build=$1 source=$2 cmake=$3 python=$4 pydir=$5
trace=$source/examples/nccl_2rank_rank0_a100.json.gz
work=$(mktemp -d "$build/installed-package-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "installed_package_test: $*" >&2; exit 1; }

"$cmake" --install "$build" --prefix "$work/prefix" >"$work/install.log" || {
  cat "$work/install.log" >&2
  fail "cmake --install failed"
}
# The typing files (PEP 561) install beside the modules: type checkers read the package's types.
for typing_file in py.typed _native.pyi; do
  [[ -f $work/prefix/$pydir/tensormorph/$typing_file ]] || fail "$typing_file was not installed"
done
expected=$("$work/prefix/bin/tensormorph" kernels --format json --quiet "$trace" |
  "$python" -c 'import json, sys; print(json.load(sys.stdin)["kernel_count"])')
cd "$work"  # nothing of the build tree or the sources on the path
got=$(env -u PYTHONPATH PYTHONPATH="$work/prefix/$pydir" PYTHONDONTWRITEBYTECODE=1 "$python" -c '
import sys
import tensormorph as tm
import tensormorph.fleet
assert tm.__file__.startswith(sys.argv[1]), tm.__file__
assert tensormorph.fleet.__file__.startswith(sys.argv[1]), tensormorph.fleet.__file__
print(len(tm.load(sys.argv[2]).kernels), int(tm.fleet.summarize(sys.argv[2]).kernels["count"].sum()))
' "$work/prefix/$pydir/tensormorph" "$trace") || fail "the installed package failed"
[[ $got == "$expected $expected" ]] ||
  fail "kernels from the installed package ($got) differ from the installed CLI's ($expected)"
echo "installed_package_test: tm.load and tm.fleet.summarize from $pydir count $expected kernels, as the installed CLI does"
