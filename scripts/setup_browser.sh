#!/usr/bin/env bash
# Installs what the HTML report's browser test needs: Debian's chromium (and nodejs/npm when
# node is absent), then playwright-core, and typescript and eslint for the report's script modules
# (tests/browser/check_report_js.sh), pinned in tests/browser/package.json, into
# tests/browser/node_modules (git-ignored). Safe to run repeatedly: it installs only what is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -ne 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup_browser: missing packages: ${missing[*]}" >&2
    echo "setup_browser: run as root (or: sudo apt-get install ${missing[*]})" >&2
    exit 1
  fi
  echo "setup_browser: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cd "$here/tests/browser"
if [ ! -f node_modules/playwright-core/package.json ] || [ ! -f node_modules/typescript/package.json ] ||
  [ ! -f node_modules/eslint/package.json ]; then
  echo "setup_browser: installing playwright-core, typescript and eslint into tests/browser/node_modules" >&2
  if [ -f package-lock.json ]; then
    npm ci --no-audit --no-fund --silent
  else
    npm install --no-audit --no-fund --silent
  fi
fi
