// @ts-check
// The Memory section (tensormorph memory --format json, docs/memory.md): per device the peak
// allocated and reserved memory, when, the device's capacity, and what was alive at the peak by
// the op that allocated it. The timeline draws the same devices' memory over time
// (timeline_memory.js). Shown only when the inputs carry allocator records.
import { D } from './page.js';
import { body, el, fmtInt, fmtNs, fmtPct } from './format.js';
import { makeTable } from './tables.js';

// 1.945 GiB, 312.5 MiB, 4.0 KiB, 512 B: binary units, as `tensormorph memory` and allocators count.
export function fmtBytes(b) {
  if (b === null || b === undefined) return '–';
  const m = Math.abs(b);
  if (m >= 1073741824) return (b / 1073741824).toFixed(3) + ' GiB';
  if (m >= 1048576) return (b / 1048576).toFixed(1) + ' MiB';
  if (m >= 1024) return (b / 1024).toFixed(1) + ' KiB';
  return Math.round(b) + ' B';
}

export function renderMemory() {
  const M = D.memory;
  if (!M || !M.devices.length) return;
  document.getElementById('memory').hidden = false;
  document.getElementById('nav-memory').hidden = false;
  const c = body('memory');
  const t0 = D.timeline.t0_ns || 0;
  c.append(el('p', { class: 'muted', text: `${fmtInt(M.records)} allocator records` +
    (M.skipped ? `, ${fmtInt(M.skipped)} unreadable and skipped` : '') +
    '. Allocated memory is the allocator\u2019s own total after each record where the trace has it, else the running sum from the first record (basis).' }));
  const rows = M.devices.map((d, i) => ({ ...d, name: d.device, index: i }));
  makeTable(c, {
    id: 'memory-devices', caption: 'Memory per device', rows, filter: false, sortKey: 'peak_allocated_bytes',
    columns: [
      { key: 'input', label: 'Input', num: true },
      { key: 'name', label: 'Device' },
      { key: 'basis', label: 'Basis' },
      { key: 'records', label: 'Records', num: true, fmt: fmtInt },
      { key: 'peak_allocated_bytes', label: 'Peak allocated', num: true, fmt: fmtBytes },
      { key: 'peak_allocated_ns', label: 'At', num: true, fmt: (v) => fmtNs(v - t0), title: 'time since the first device work' },
      { key: 'peak_reserved_bytes', label: 'Peak reserved', num: true, fmt: fmtBytes },
      { key: 'reserved_beyond_peak_allocated_bytes', label: 'Reserved beyond', num: true, fmt: fmtBytes, title: 'peak reserved less peak allocated: cached and fragmented' },
      { key: 'capacity_bytes', label: 'Capacity', num: true, fmt: fmtBytes },
      { key: 'peak_percent_of_capacity', label: '% of capacity', num: true, fmt: (v) => fmtPct(v) },
    ],
  });
  M.devices.forEach((d, i) => {
    if (!d.at_peak.length) return;
    const before = d.alive_from_before_bytes ? `; ${fmtBytes(d.alive_from_before_bytes)} allocated before the trace was still alive` : '';
    makeTable(c, {
      id: `memory-at-peak-${i}`, caption: `${d.device}: alive at the peak (${fmtBytes(d.peak_allocated_bytes)}), by op${before}`,
      rows: d.at_peak.map((r) => ({ ...r, name: r.op })), sortKey: 'bytes',
      columns: [
        { key: 'name', label: 'Op' },
        ...(d.at_peak.some((r) => r.module) ? [{ key: 'module', label: 'Module path', fmt: (v) => v || '–' }] : []),
        { key: 'bytes', label: 'Bytes', num: true, fmt: fmtBytes },
        { key: 'allocations', label: 'Allocations', num: true, fmt: fmtInt },
      ],
    });
  });
}
