#!/usr/bin/env bash
# The report page's script modules (src/report/html/assets/js) as a type checker and a linter see
# them: `tsc --noEmit` over every module (each starts with // @ts-check; JSDoc types) and eslint's
# recommended rules. The tools are the browser test's npm packages (tests/browser/package.json,
# installed by scripts/setup_browser.sh); without them this fails, saying so.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
modules="$here/../../src/report/html/assets/js"
bin="$here/node_modules/.bin"
for tool in tsc eslint; do
  if [ ! -x "$bin/$tool" ]; then
    echo "check_report_js: $bin/$tool is missing: run scripts/setup_browser.sh" >&2
    exit 1
  fi
done
missing=$(grep -L '^// @ts-check$' "$modules"/*.js || true)
if [ -n "$missing" ]; then
  echo "check_report_js: modules without // @ts-check on a line of its own:" $missing >&2
  exit 1
fi
"$bin/tsc" -p "$modules/tsconfig.json"
cd "$modules" && "$bin/eslint" --max-warnings 0 -c eslint.config.mjs .
echo "check_report_js: tsc and eslint passed on $(ls "$modules"/*.js | wc -l) modules"
