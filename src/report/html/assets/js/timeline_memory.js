// @ts-check
// The timeline's memory lanes: per device with allocator records (D.memory, report_model.cc),
// allocated memory as a filled step function and reserved as a line, on one scale per lane (the
// larger of the two peaks), with the allocated peak marked. memory_lanes.h says which samples
// are embedded (real ones only; the peak always).
import { el, fmtNs, nameCell } from './format.js';
import { fmtBytes } from './memory.js';

export const MEMORY_ROW_H = 30;

// One lane per device of D.memory.devices, its times relative to the timeline's t0.
export function decodeMemoryLanes(M, t0) {
  if (!M) return [];
  return M.devices.map((d, k) => {
    const L = M.lanes[k], n = L.t.length;
    const t = new Float64Array(n), a = new Float64Array(n), r = L.r ? new Float64Array(n) : null;
    let at = 0;
    for (let i = 0; i < n; i++) { at += L.t[i]; t[i] = at; a[i] = L.a[i]; if (r) r[i] = L.r[i]; }
    const max = Math.max(1, d.peak_allocated_bytes, d.peak_reserved_bytes || 0);
    return { index: k, device: d, input: d.input, deviceIndex: d.device_index, t, a, r, max, peakT: d.peak_allocated_ns - t0 };
  });
}

// The sample in force at time t: the last at or before it; -1 before the first.
export function sampleAt(m, t) {
  let lo = 0, hi = m.t.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (m.t[mid] <= t) lo = mid + 1; else hi = mid; }
  return lo - 1;
}

// Draws lane m in [x0, x0 + w] x [y, y + h]; xOf maps a time to x, v0 is the time at x0. Returns
// the steps drawn.
export function drawMemoryRow(ctx, m, y, h, x0, w, xOf, v0, colours) {
  ctx.fillStyle = colours.laneBg; ctx.fillRect(x0, y, w, h);
  ctx.save(); ctx.beginPath(); ctx.rect(x0, y, w, h); ctx.clip();
  const yOf = (bytes) => y + h - (bytes / m.max) * (h - 2);
  const n = m.t.length;
  const first = Math.max(0, sampleAt(m, v0)); // the step in force at the left edge, then on
  let drawn = 0;
  ctx.fillStyle = colours.allocated;
  for (let i = first; i < n; i++) {
    const xa = xOf(m.t[i]), xb = i + 1 < n ? xOf(m.t[i + 1]) : x0 + w;
    if (xb < x0) continue;
    if (xa > x0 + w) break;
    const top = yOf(m.a[i]);
    ctx.fillRect(xa, top, Math.max(1, xb - xa), y + h - top);
    drawn++;
  }
  if (m.r) {
    ctx.strokeStyle = colours.reserved; ctx.lineWidth = 1.5; ctx.beginPath();
    for (let i = 0; i < n; i++) {
      const xa = xOf(m.t[i]), xb = i + 1 < n ? xOf(m.t[i + 1]) : x0 + w;
      if (xb < x0 || xa > x0 + w) continue;
      ctx.moveTo(xa, yOf(m.r[i])); ctx.lineTo(xb, yOf(m.r[i]));
    }
    ctx.stroke();
  }
  // The allocated peak: a marker at its time.
  const px = xOf(m.peakT);
  if (px >= x0 && px <= x0 + w) {
    ctx.fillStyle = colours.peak;
    ctx.beginPath(); ctx.moveTo(px - 5, y); ctx.lineTo(px + 5, y); ctx.lineTo(px, y + 7); ctx.closePath(); ctx.fill();
    ctx.fillRect(px - 0.5, y, 1, h);
  }
  ctx.restore();
  return drawn;
}

// The tooltip's lines at time t.
export function memoryTipLines(m, t) {
  const i = sampleAt(m, t);
  if (i < 0) return null;
  const lines = [['Memory', m.device.device], ['Allocated', fmtBytes(m.a[i])]];
  if (m.r) lines.push(['Reserved', fmtBytes(m.r[i])]);
  lines.push(['Since', fmtNs(m.t[i])], ['Peak', `${fmtBytes(m.device.peak_allocated_bytes)} at ${fmtNs(m.peakT)}`], ['', 'click: what was alive at the peak']);
  return lines;
}

// The details panel for a click at time t: the memory then, and what was alive at the peak.
// Returns the state the browser tests read.
export function showMemoryDetails(details, m, t) {
  const d = m.device, i = sampleAt(m, t);
  const field = (key, label, value) => el('div', null, el('b', { text: label + ': ' }), el('span', { 'data-field': key, text: value }));
  const table = el('table', { id: 'tl-memory-at-peak' },
    el('thead', null, el('tr', null, el('th', { scope: 'col', text: 'Op' }), el('th', { class: 'n', scope: 'col', text: 'Bytes' }),
      el('th', { class: 'n', scope: 'col', text: 'Allocations' }))),
    el('tbody', null, ...d.at_peak.map((r) => el('tr', { 'data-name': r.op },
      nameCell(r.op), el('td', { class: 'n', 'data-value': String(r.bytes), text: fmtBytes(r.bytes) }),
      el('td', { class: 'n', text: String(r.allocations) })))));
  table.classList.add('compact');
  details.replaceChildren(...[ // (replaceChildren writes null as text)
    el('div', { class: 'strong', text: `Memory on ${d.device}` }),
    field('at', 'At', fmtNs(t)),
    field('allocated', 'Allocated', i >= 0 ? fmtBytes(m.a[i]) : '–'),
    m.r ? field('reserved', 'Reserved', i >= 0 ? fmtBytes(m.r[i]) : '–') : null,
    field('peak', 'Peak', `${fmtBytes(d.peak_allocated_bytes)} at ${fmtNs(m.peakT)}` +
      (d.capacity_bytes ? ` (${(100 * d.peak_allocated_bytes / d.capacity_bytes).toFixed(1)} % of ${fmtBytes(d.capacity_bytes)})` : '')),
    el('div', { class: 'strong', text: `Alive at the peak, by op (${d.at_peak_ops} ops)` }), table,
  ].filter(Boolean));
  details.hidden = false;
  return { kind: 'memory', device: d.device, allocated_bytes: i >= 0 ? m.a[i] : null,
    at_peak: d.at_peak.map((r) => ({ op: r.op, bytes: r.bytes })) };
}
