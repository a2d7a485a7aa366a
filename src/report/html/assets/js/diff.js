// @ts-check
// The Diff section: against the baseline.
import { D } from './page.js';
import { body, fmtInt, fmtNs, fmtPct } from './format.js';
import { cards, makeTable } from './tables.js';

// ---------- diff ----------
export function renderDiff() {
  if (!D.diff) return;
  document.getElementById('diff').hidden = false;
  document.getElementById('nav-diff').hidden = false;
  const d = D.diff, c = body('diff'), n = d.counts;
  c.append(cards([
    ['Verdict', d.verdict], ['Baseline', d.base], ['Threshold', fmtPct(d.threshold_percent)],
    ['Regressed', String(n.regressed)], ['Improved', String(n.improved)], ['Added', String(n.added)], ['Removed', String(n.removed)],
  ]));
  makeTable(c, {
    id: 'diff-table', caption: 'Per kernel and op: baseline against this trace, largest change first', rows: d.rows,
    columns: [
      { key: 'kind', label: 'Kind' }, { key: 'name', label: 'Name' }, { key: 'backend', label: 'Backend' },
      { key: 'base_count', label: 'Base count', num: true, fmt: fmtInt },
      { key: 'new_count', label: 'New count', num: true, fmt: fmtInt },
      { key: 'base_total_ns', label: 'Base total', num: true, fmt: fmtNs },
      { key: 'new_total_ns', label: 'New total', num: true, fmt: fmtNs },
      { key: 'delta_ns', label: 'Δ', num: true, fmt: fmtNs, sortValue: (r) => Math.abs(r.delta_ns) },
      { key: 'delta_percent', label: 'Δ (%)', num: true, fmt: (v) => fmtPct(v) },
      { key: 'status', label: 'Status' },
    ],
  });
}
