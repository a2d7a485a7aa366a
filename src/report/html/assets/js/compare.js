// @ts-check
// The Compare section: the same workload on each side (tensormorph compare --format json).
import { D } from './page.js';
import { body, el, fmtInt, fmtNs, svg } from './format.js';
import { cards, makeTable } from './tables.js';

// The categories as a chart: per category one bar per side, all on one scale, with the time.
function compareChart(d) {
  const n = d.sides.length, BAR = 15, GAP = 10, LABEL = 130, VALUE = 150, W = 760;
  const max = Math.max(1, ...d.categories.flatMap((c) => c.sides.map((s) => s.device_ns)));
  const height = d.categories.length * (n * BAR + GAP) + 6;
  const chart = svg('svg', { id: 'compare-chart', viewBox: `0 0 ${W} ${height}`, width: String(W), height: String(height),
    role: 'img', 'aria-label': 'Device time per category on each side' });
  let y = 4;
  for (const cat of d.categories) {
    chart.append(svg('text', { x: String(LABEL - 8), y: String(y + (n * BAR) / 2 + 4), 'text-anchor': 'end' }, cat.category));
    cat.sides.forEach((side, i) => {
      const w = ((W - LABEL - VALUE) * side.device_ns) / max;
      chart.append(svg('rect', { x: String(LABEL), y: String(y), width: String(Math.max(1, w)), height: String(BAR - 3), class: 'side' + Math.min(i, 3),
        'data-category': cat.category, 'data-side': d.sides[i].label, 'data-ns': String(side.device_ns) }));
      chart.append(svg('text', { x: String(LABEL + w + 4), y: String(y + BAR - 5) }, `${fmtNs(side.device_ns)} ${d.sides[i].label}`));
      y += BAR;
    });
    y += GAP;
  }
  return el('div', { class: 'scroll compare-chart' }, chart);
}
export function renderCompare() {
  if (!D.compare) return;
  document.getElementById('compare').hidden = false;
  document.getElementById('nav-compare').hidden = false;
  const d = D.compare, c = body('compare'), sides = d.sides;
  const ratio = (v) => (v === null || v === undefined ? '–' : v.toFixed(2) + '×');
  c.append(cards(sides.map((s) => [s.label,
    `${fmtNs(s.kernel_ns)} of kernels, GPU busy ${fmtNs(s.busy_ns)}` +
      (s.host_step_ns !== null ? `, step ${fmtNs(s.host_step_ns)}` : ''), s.device])));
  if (d.verdict) c.append(el('p', { class: 'verdict', id: 'compare-verdict', text: d.verdict }));
  (d.warnings || []).forEach((w) => c.append(el('p', { class: 'note compare-no-verdict', text: `No verdict: ${w}` })));
  const categoryRows = d.categories.map((cat) => {
    const r = { name: cat.category };
    cat.sides.forEach((s, i) => { r['s' + i] = s.device_ns; r['r' + i] = cat.sides[0].device_ns > 0 ? s.device_ns / cat.sides[0].device_ns : null; });
    return r;
  });
  const sideColumns = (fmtRatio) => sides.flatMap((s, i) => [{ key: 's' + i, label: s.label, num: true, fmt: fmtNs }]
    .concat(i > 0 ? [{ key: 'r' + i, label: `${s.label} / ${sides[0].label}`, num: true, fmt: fmtRatio }] : []));
  c.append(compareChart(d));
  makeTable(c, {
    id: 'compare-categories', caption: 'Device time per category on each side (adds up to its kernel time)',
    rows: categoryRows, filter: false, sortKey: 's0', columns: [{ key: 'name', label: 'Category' }].concat(sideColumns(ratio)),
  });
  // A row's name is its op with its shapes (unique but for a matched row and the only_in row of
  // its extra calls, told apart by the suffix); it finds the row for the children panel.
  const byName = new Map();
  const rows = d.rows.map((row) => {
    let name = (row.stack ? row.stack + ' > ' : '') + row.name + (row.shapes ? ' ' + row.shapes : '') + (row.dtypes ? ' ' + row.dtypes : '');
    if (row.origin === 'no_op') name += ' [' + row.category + ']';
    if (row.status !== 'matched') name += ' (only in ' + sides.filter((s, i) => row.sides[i]).map((s) => s.label).join(', ') + ')';
    const r = { name, category: row.category, status: row.status, faster: row.faster,
      calls: row.sides.map((s) => (s ? s.calls : '–')).join(' / '), children: row.children.length };
    row.sides.forEach((s, i) => { r['s' + i] = s ? s.device_ns : null; r['r' + i] = row.ratio[i]; });
    byName.set(name, row);
    return r;
  });
  const childrenPanel = el('div', { id: 'compare-children', 'aria-live': 'polite' });
  const wrap = el('div');
  makeTable(wrap, {
    id: 'compare-rows', caption: 'Aligned ops, by ' + d.by + ': device time on each side (click a row for the ops inside it)',
    rows, sortKey: 's0', columns: [
      { key: 'name', label: 'Op' }, { key: 'category', label: 'Category' }, { key: 'status', label: 'Status' },
      { key: 'calls', label: 'Calls' },
    ].concat(sideColumns(ratio), [{ key: 'faster', label: 'Faster' }, { key: 'children', label: 'Inner ops', num: true, fmt: fmtInt }]),
  });
  wrap.addEventListener('click', (event) => {
    const tr = event.target.closest('#compare-rows tbody tr');
    if (!tr) return;
    const row = byName.get(tr.getAttribute('data-name'));
    if (!row) return;
    childrenPanel.replaceChildren(el('h3', { text: 'Inside ' + row.name + (row.shapes ? ' ' + row.shapes : '') }));
    if (row.children.length === 0) {
      childrenPanel.append(el('p', { class: 'muted', text: 'The row op launched every kernel itself.' }));
      return;
    }
    makeTable(childrenPanel, {
      id: 'compare-children-table', caption: 'Ops inside this row on each side (not added to the row again)', filter: false, sortKey: 's0',
      rows: row.children.map((ch) => {
        const r = { name: ch.name + (ch.shapes ? ' ' + ch.shapes : ''), calls: ch.sides.map((s) => (s ? s.calls : '–')).join(' / ') };
        ch.sides.forEach((s, i) => { r['s' + i] = s ? s.device_ns : null; r['r' + i] = s && ch.sides[0] && ch.sides[0].device_ns > 0 ? s.device_ns / ch.sides[0].device_ns : null; });
        return r;
      }),
      columns: [{ key: 'name', label: 'Op' }, { key: 'calls', label: 'Calls' }].concat(sideColumns(ratio)),
    });
  });
  c.append(wrap, childrenPanel);
}
