// @ts-check
// The Occupancy section.
import { D } from './page.js';
import { body, el, fmtFrac, fmtInt, fmtNs } from './format.js';
import { makeTable } from './tables.js';

// ---------- occupancy ----------
export function renderOccupancy() {
  const o = D.occupancy, c = body('occupancy');
  c.append(el('p', { class: 'muted', text: `Theoretical occupancy computed for ${fmtInt(o.computed_count)} of ${fmtInt(o.kernel_count)} launches.` }));
  makeTable(c, {
    id: 'occupancy-table', caption: 'Per kernel and launch shape: theoretical and achieved occupancy and what limits it',
    rows: o.rows,
    columns: [
      { key: 'name', label: 'Kernel' },
      { key: 'arch', label: 'Arch' },
      { key: 'count', label: 'Launches', num: true, fmt: fmtInt },
      { key: 'total_ns', label: 'Total', num: true, fmt: fmtNs },
      { key: 'block_size', label: 'Block (threads)', num: true, fmt: fmtInt },
      { key: 'registers_per_thread', label: 'Registers/thread', num: true, fmt: fmtInt },
      { key: 'shared_memory_bytes', label: 'Shared mem (B/block)', num: true, fmt: fmtInt },
      { key: 'theoretical_occupancy', label: 'Theoretical (%)', num: true, fmt: fmtFrac },
      { key: 'achieved_occupancy', label: 'Achieved (%)', num: true, fmt: fmtFrac },
      { key: 'achieved_source', label: 'Achieved from' },
      { key: 'limiter', label: 'Limiter' },
    ],
  });
  if (o.skipped.length) {
    c.append(el('ul', null, ...o.skipped.map((s) => el('li', { class: 'muted', text: `${fmtInt(s.count)} launches (${fmtNs(s.total_ns)}) without occupancy: ${s.reason}` }))));
  }
}
