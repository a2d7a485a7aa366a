// @ts-check
// The Kernels section: per kernel name, with its occupancy and roofline rows.
import { D, kernelKey, kernelRowOf } from './page.js';
import { body, el, fmtFrac, fmtInt, fmtNs, fmtPct, fmtSi } from './format.js';
import { makeTable } from './tables.js';

// ---------- kernels ----------
export function renderKernels() {
  const k = D.kernels, c = body('kernels');
  // Each row with the occupancy of its most-used launch shape and its roofline row (by index).
  const rows = k.rows.map((r, i) => {
    const j = k.joined[i];
    const o = j.occupancy === null ? null : D.occupancy.rows[j.occupancy];
    const f = j.roofline === null ? null : D.roofline.rows[j.roofline];
    return {
      ...r,
      theoretical_occupancy: o ? o.theoretical_occupancy : null,
      achieved_occupancy: o ? o.achieved_occupancy : null,
      limiter: o ? o.limiter : null,
      arithmetic_intensity: f ? f.arithmetic_intensity : null,
      achieved_flops_per_s: f ? f.achieved_flops_per_s : null,
      percent_of_roof: f ? f.percent_of_roof : null,
    };
  });
  for (const r of rows) kernelRowOf.set(kernelKey(r.name, r.backend), r);
  makeTable(c, {
    id: 'kernels-table', caption: 'Per kernel name and backend (the rows of `tensormorph kernels`), with the occupancy and roofline of its most-used launch shape',
    rows,
    columns: [
      { key: 'name', label: 'Kernel' },
      { key: 'backend', label: 'Backend' },
      { key: 'count', label: 'Count', num: true, fmt: fmtInt },
      { key: 'total_ns', label: 'Total', num: true, fmt: fmtNs },
      { key: 'percent', label: 'Time (%)', num: true, fmt: (v) => fmtPct(v) },
      { key: 'mean_ns', label: 'Mean', num: true, fmt: fmtNs },
      { key: 'median_ns', label: 'Median', num: true, fmt: fmtNs },
      { key: 'min_ns', label: 'Min', num: true, fmt: fmtNs },
      { key: 'max_ns', label: 'Max', num: true, fmt: fmtNs },
      { key: 'stddev_ns', label: 'Std dev', num: true, fmt: fmtNs },
      { key: 'theoretical_occupancy', label: 'Occupancy theor. (%)', num: true, fmt: fmtFrac },
      { key: 'achieved_occupancy', label: 'Occupancy achieved (%)', num: true, fmt: fmtFrac },
      { key: 'limiter', label: 'Limiter' },
      { key: 'arithmetic_intensity', label: 'Intensity (FLOP/B)', num: true, fmt: (v) => (v === null ? '–' : v.toPrecision(3)) },
      { key: 'achieved_flops_per_s', label: 'Achieved (FLOP/s)', num: true, fmt: (v) => fmtSi(v, 'FLOP/s') },
      { key: 'percent_of_roof', label: 'Of roof (%)', num: true, fmt: (v) => fmtPct(v) },
    ],
    footer: (shown) => {
      const total = shown.reduce((a, r) => a + r.total_ns, 0);
      const count = shown.reduce((a, r) => a + r.count, 0);
      return el('tr', { id: 'kernels-total', 'data-total-ns': String(total), 'data-count': String(count), 'data-rows': String(shown.length) },
        el('td', { text: `Total (${shown.length} rows)` }), el('td'),
        el('td', { class: 'n', text: fmtInt(count) }), el('td', { class: 'n', text: fmtNs(total) }),
        el('td', { colspan: 12 }));
    },
  });
}
