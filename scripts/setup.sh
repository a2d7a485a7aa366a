#!/usr/bin/env bash
# Installs the Debian 12 packages a target needs, when missing. Safe to run repeatedly: it only
# calls apt-get when a package is absent.
#
#   scripts/setup.sh demo   what `make demo` needs: the compiler, CMake and the libraries the
#                           command line links (a fresh machine installs these in about a minute)
#   scripts/setup.sh        everything `make test`, `make bench` and `make python` need besides:
#                           GoogleTest, clang with its sanitizer runtimes, the Python package's
#                           pybind11, NumPy, pandas, Dask and the notebook tools
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config mold
  libsimdjson-dev zlib1g-dev libfmt-dev libcli11-dev nlohmann-json3-dev libsqlite3-dev
  libexpat1-dev libprotobuf-dev protobuf-compiler libiberty-dev
)
if [ "${1:-all}" != demo ]; then
  packages+=(
    sqlite3 jq
    clang libclang-rt-14-dev llvm-14
    libgtest-dev libgmock-dev libbenchmark-dev
    # the Python package (python/), for Debian's own python3: never from PyPI
    python3 python3-dev pybind11-dev python3-numpy python3-pandas python3-pytest python3-mypy
    # tm.fleet: rank traces summarised on Dask workers (python/tensormorph/fleet)
    python3-dask python3-distributed
    # the example notebooks, executed by the tests (examples/notebooks)
    python3-matplotlib python3-nbformat python3-nbclient python3-ipykernel
  )
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "setup: missing packages: ${missing[*]}" >&2
  echo "setup: run as root (or: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
