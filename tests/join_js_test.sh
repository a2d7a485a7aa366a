#!/usr/bin/env bash
# tm_join_js (tools/join_js_modules.cc) on modules written here: the joined script runs in node
# and computes what the modules compute (an import renamed with `as` included); each form the
# joiner does not support is refused with the file and line, never joined wrongly.
set -euo pipefail
join=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/m/sub"
printf '%s\n' '// @ts-check' 'const hidden = 2;' 'export const two = hidden;' \
  'export function twice(x) { return two * x; }' >"$dir/m/a.js"
printf '%s\n' "import { twice as double, two } from '../a.js';" \
  'export class Box { constructor() { this.v = double(two) + 1; } }' >"$dir/m/sub/b.js"
printf '%s\n' "import { Box } from './sub/b.js';" "import { twice } from './a.js';" \
  'globalThis.result = new Box().v + twice(10);' >"$dir/m/main.js"
"$join" "$dir/out.js" "$dir/m" a sub/b main
result=$(node -e "require('$dir/out.js'); console.log(globalThis.result)")
[ "$result" = 25 ] || { echo "join_js_test: the joined script computed $result, not 25" >&2; exit 1; }
# `hidden` stays inside its module's scope.
node -e "require('$dir/out.js'); if (typeof hidden !== 'undefined') process.exit(1)"

refused() {  # refused EXPECTED-MESSAGE MODULE-TEXT...: the joiner must fail, naming file:line
  local message=$1
  shift
  printf '%s\n' "$@" >"$dir/m/bad.js"
  if "$join" "$dir/bad_out.js" "$dir/m" a bad 2>"$dir/err"; then
    echo "join_js_test: joined a module it should refuse ($message)" >&2
    exit 1
  fi
  grep -q "bad.js:[0-9]*: .*$message" "$dir/err" || {
    echo "join_js_test: expected '$message', got: $(cat "$dir/err")" >&2
    exit 1
  }
}
refused "not given before" "import { x } from './later.js';"
refused "live binding" "export let counter = 0;"
refused "only \`export\` before" "export default 1;"
refused "only \`export\` before" "export { two };"
refused "only \`import { names }" "import * as a from './a.js';"
refused "not a relative .js module" "import { x } from 'lodash';"
refused "one name per" "export const A = 1, B = 2;"
refused "one name per" "export const W = 260, H = 'x';"
# Commas of a call or an arrow function are theirs, not declarators: joined.
printf '%s\n' "export const f = (a, b) => a + b;" "export const g = Math.max(1, 2);" >"$dir/m/ok.js"
"$join" "$dir/ok_out.js" "$dir/m" ok
echo "join_js_test: joined and refused as expected"
