// eslint for the report page's modules (tests/browser/check_report_js.sh): the recommended rules,
// in the browser, as ES modules. The packages are the browser test's (tests/browser/node_modules).
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../../../../tests/browser/package.json', import.meta.url));
const js = require('@eslint/js');
const globals = require('globals');

export default [
  { ignores: ['eslint.config.mjs'] },
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.browser },
    rules: { 'no-unused-vars': ['error', { args: 'none' }] },
  },
];
