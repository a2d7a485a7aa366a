// @ts-check
// The Roofline section: achieved FLOP/s against arithmetic intensity under each roof.
import { D } from './page.js';
import { body, colorOfName, el, fmtInt, fmtNs, fmtPct, fmtSi, svg } from './format.js';
import { makeTable } from './tables.js';

export function renderRoofline() {
  const r = D.roofline, c = body('roofline');
  const pts = r.rows.filter((x) => x.achieved_flops_per_s > 0 && x.arithmetic_intensity > 0);
  if (!r.rows.length) {
    c.append(el('p', { class: 'note', id: 'roofline-empty', text: 'No kernel carries FLOP and DRAM-byte counters: collect Nsight Compute metrics (or rocprof-compute) for a roofline.' }));
    if (r.skipped.length) c.append(el('ul', null, ...r.skipped.map((s) => el('li', { class: 'muted', text: `${fmtInt(s.count)} launches: ${s.reason}` }))));
    return;
  }
  const W = 760, H = 420, L = 70, R = 20, T = 20, B = 50;
  let xs = pts.map((p) => p.arithmetic_intensity), ys = pts.map((p) => p.achieved_flops_per_s);
  const roofs = new Map();
  for (const p of r.rows) if (p.peak_flops_per_s && p.peak_bytes_per_s) roofs.set(`${p.device}|${p.precision ?? 'unknown'}`, p);
  for (const p of roofs.values()) { ys.push(p.peak_flops_per_s); xs.push(p.peak_flops_per_s / p.peak_bytes_per_s); }
  const lx0 = Math.floor(Math.log10(Math.min(...xs, 1) / 2)), lx1 = Math.ceil(Math.log10(Math.max(...xs, 10) * 2));
  const ly0 = Math.floor(Math.log10(Math.min(...ys) / 2)), ly1 = Math.ceil(Math.log10(Math.max(...ys) * 1.5));
  const X = (v) => L + ((Math.log10(v) - lx0) / (lx1 - lx0)) * (W - L - R);
  const Y = (v) => H - B - ((Math.log10(v) - ly0) / (ly1 - ly0)) * (H - T - B);
  const s = svg('svg', { id: 'roofline-chart', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img',
    'aria-label': 'Roofline: achieved FLOP/s against arithmetic intensity, log-log' });
  for (let e = lx0; e <= lx1; e++) {
    s.append(svg('line', { class: 'axis', x1: X(10 ** e), x2: X(10 ** e), y1: T, y2: H - B, 'stroke-opacity': 0.25 }));
    s.append(svg('text', { x: X(10 ** e), y: H - B + 14, 'text-anchor': 'middle' }, fmtSi(10 ** e, '').trim()));
  }
  for (let e = ly0; e <= ly1; e++) {
    s.append(svg('line', { class: 'axis', x1: L, x2: W - R, y1: Y(10 ** e), y2: Y(10 ** e), 'stroke-opacity': 0.25 }));
    s.append(svg('text', { x: L - 4, y: Y(10 ** e) + 4, 'text-anchor': 'end' }, fmtSi(10 ** e, '').trim()));
  }
  s.append(svg('text', { x: (L + W - R) / 2, y: H - 12, 'text-anchor': 'middle' }, 'Arithmetic intensity (FLOP per DRAM byte)'));
  s.append(svg('text', { x: 14, y: (T + H - B) / 2, transform: `rotate(-90 14 ${(T + H - B) / 2})`, 'text-anchor': 'middle' }, 'Achieved (FLOP/s)'));
  for (const p of roofs.values()) {
    const ridge = p.peak_flops_per_s / p.peak_bytes_per_s, xa = 10 ** lx0, xb = 10 ** lx1;
    const line = svg('polyline', { class: 'roof', points: `${X(xa)},${Y(Math.max(xa * p.peak_bytes_per_s, 10 ** ly0))} ${X(ridge)},${Y(p.peak_flops_per_s)} ${X(xb)},${Y(p.peak_flops_per_s)}` });
    line.append(svg('title', {}, `${p.device} ${p.precision ?? 'unknown'}: peak ${fmtSi(p.peak_flops_per_s, 'FLOP/s')}, ${fmtSi(p.peak_bytes_per_s, 'B/s')}`));
    s.append(line, svg('text', { x: W - R - 4, y: Y(p.peak_flops_per_s) - 4, 'text-anchor': 'end' }, `${p.precision ?? 'unknown'} peak ${fmtSi(p.peak_flops_per_s, 'FLOP/s')}`));
  }
  const tmax = Math.max(1, ...pts.map((p) => p.total_ns));
  for (const p of pts) {
    const dot = svg('circle', { class: 'point', cx: X(p.arithmetic_intensity), cy: Y(p.achieved_flops_per_s),
      r: 4 + 6 * Math.sqrt(p.total_ns / tmax), fill: colorOfName(p.name), 'data-name': p.name });
    dot.append(svg('title', {}, `${p.name}\n${fmtSi(p.achieved_flops_per_s, 'FLOP/s')} at ${p.arithmetic_intensity.toPrecision(3)} FLOP/B; ` +
      `${fmtPct(p.percent_of_roof)} of roof; ${fmtInt(p.count)} launches, ${fmtNs(p.total_ns)}`));
    s.append(dot);
  }
  c.append(s);
  makeTable(c, {
    id: 'roofline-table', caption: 'Per kernel: counters, intensity and the ceiling at that intensity', rows: r.rows,
    columns: [
      { key: 'name', label: 'Kernel' }, { key: 'device', label: 'Device' }, { key: 'precision', label: 'Precision' },
      { key: 'count', label: 'Launches', num: true, fmt: fmtInt },
      { key: 'total_ns', label: 'Total', num: true, fmt: fmtNs },
      { key: 'flops', label: 'FLOP', num: true, fmt: (v) => fmtSi(v, '') },
      { key: 'dram_bytes', label: 'DRAM (B)', num: true, fmt: (v) => fmtSi(v, 'B') },
      { key: 'arithmetic_intensity', label: 'Intensity (FLOP/B)', num: true, fmt: (v) => v.toPrecision(3) },
      { key: 'achieved_flops_per_s', label: 'Achieved (FLOP/s)', num: true, fmt: (v) => fmtSi(v, 'FLOP/s') },
      { key: 'ceiling_flops_per_s', label: 'Ceiling (FLOP/s)', num: true, fmt: (v) => fmtSi(v, 'FLOP/s') },
      { key: 'percent_of_roof', label: 'Of roof (%)', num: true, fmt: (v) => fmtPct(v) },
      { key: 'bound', label: 'Bound' },
    ],
  });
}
