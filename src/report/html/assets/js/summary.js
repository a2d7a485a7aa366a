// @ts-check
// The Summary section: inputs, totals, gain basis and the findings.
import { D, TM } from './page.js';
import { body, el, fmtInt, fmtNs, fmtPct, nameCell, short } from './format.js';
import { cards, makeTable } from './tables.js';
import { jobLine } from './ranks.js';

// The findings listed before "Show all": the reader sees what to fix first, then the Ranks
// section, without scrolling past every finding.
const SHOWN_FINDINGS = 10;

export function renderSummary() {
  const s = D.summary, c = body('summary');
  const backends = [...new Set(D.inputs.flatMap((i) => i.backends))];
  // Inputs that are not one job are never added up (docs/report.md): their figures are per input.
  const summed = s.one_job ? [
    ['Span (summed over devices)', fmtNs(s.span_ns)],
    ['Busy', fmtPct(s.busy_percent), 'union of kernel, memcpy and memset time / span'],
    ['Kernels', fmtInt(s.kernel_count)],
    ['Kernel time (summed)', fmtNs(s.kernel_total_ns)],
  ] : [['Figures', 'per input', 'the inputs are not one job: their spans, kernels and gains are not added (Inputs below)']];
  c.append(cards([
    ['Inputs', String(D.inputs.length)],
    ['Backends', backends.join(', ') || '–'],
    ['Devices', String(s.devices.length)],
    ['Ranks', s.ranks.length ? `${s.ranks.length} (rank ${s.ranks.join(', ')})` : '–'],
    ...summed,
  ]));
  const inputs = el('table', { id: 'inputs-table' });
  const perInput = s.one_job ? [] : ['Span', 'Busy (%)', 'Kernels', 'Kernel time', 'Findings gain'];
  inputs.append(el('thead', null, el('tr', null, ...['Input', 'Format', 'Version', 'Backends', ...perInput]
    .map((h) => el('th', { scope: 'col', text: h })))));
  const tb = el('tbody');
  D.inputs.forEach((i, n) => {
    const p = s.per_input[n];
    const figures = s.one_job ? [] : [fmtNs(p.span_ns), fmtPct(p.busy_percent), fmtInt(p.kernel_count),
      fmtNs(p.kernel_total_ns), fmtNs(p.findings_gain_ns)].map((t) => el('td', { class: 'n', text: t }));
    tb.append(el('tr', null, nameCell(i.path), el('td', { text: i.format }),
      el('td', { text: i.format_version }), el('td', { text: i.backends.join(', ') }), ...figures));
  });
  inputs.append(tb);
  if (D.job) c.append(jobLine(D.job));
  c.append(el('h3', { text: 'Inputs' }), inputs);
  c.append(el('h3', { text: 'Devices' }));
  makeTable(c, {
    id: 'devices-table', caption: 'Per device: span from first to last work, busy time, idle gaps',
    filter: false,
    rows: s.devices.map((d) => ({ ...d, name: d.label, gap_count: d.gaps.count, gap_total_ns: d.gaps.total_ns })),
    columns: [
      { key: 'name', label: 'Device' },
      { key: 'rank', label: 'Rank', num: true, fmt: (v) => (v === null ? '–' : String(v)) },
      { key: 'span_ns', label: 'Span', num: true, fmt: fmtNs },
      { key: 'busy_ns', label: 'Busy', num: true, fmt: fmtNs },
      { key: 'utilization_percent', label: 'Utilization (%)', num: true, fmt: (v) => fmtPct(v) },
      { key: 'kernel_count', label: 'Kernels', num: true, fmt: fmtInt },
      { key: 'memcpy_count', label: 'Memcpys', num: true, fmt: fmtInt },
      { key: 'gap_count', label: 'Idle gaps', num: true, fmt: fmtInt },
      { key: 'gap_total_ns', label: 'Idle in gaps', num: true, fmt: fmtNs },
    ],
  });
  // What to fix first: `tensormorph findings`' findings, in its order (by simulated gain where a
  // fix is simulated, else by estimated gain); the first
  // SHOWN_FINDINGS shown, the rest one click away (a job can have forty, and the Ranks section
  // is below them).
  c.append(el('h3', { text: s.one_job ? `Findings (estimated gain ${fmtNs(s.findings_total_gain_ns)} in all)`
    : 'Findings (estimated gains per input, in the Inputs table: unrelated inputs are not added)' }));
  const list = el('ol', { id: 'findings' });
  s.findings.forEach((f, n) => {
    const gain = f.estimated_gain_ns > 0
      ? `${fmtNs(f.estimated_gain_ns)} (${fmtPct(f.gain_percent)} of the ${f.gain_basis})` : 'no time claimed';
    const where = [f.where.device, f.where.op, f.where.kernel && short(f.where.kernel)].filter(Boolean).join(' · ');
    const show = el('button', { type: 'button', class: 'tl-link', text: 'Show on the timeline',
      onclick: () => { TM.timeline.showFinding(f); document.getElementById('timeline').scrollIntoView(); } });
    // The fix simulated on the trace's dependencies (tensormorph whatif): the steps before and after.
    const simulated = f.simulated_step_ns === null ? []
      : [el('span', { class: 'simulated', text: `steps ${fmtNs(f.simulated_step_ns + f.simulated_gain_ns)} → ${fmtNs(f.simulated_step_ns)} ` })];
    const li = el('li', { class: 'finding', 'data-rule': f.rule, 'data-gain-ns': String(f.estimated_gain_ns) },
      el('b', { text: `${gain}: ` }), ...simulated, el('span', { text: `${f.title} ` }),
      el('span', { class: 'muted', text: `[${f.rule}, ${f.severity}] ${where} ` }), show,
      el('div', { class: 'muted', text: `Fix: ${f.fix}` }));
    li.hidden = n >= SHOWN_FINDINGS;
    list.append(li);
  });
  if (!s.findings.length) list.append(el('li', { class: 'muted', text: 'No finding: no rule\'s condition holds on these inputs.' }));
  c.append(list);
  if (s.findings.length > SHOWN_FINDINGS) {
    const more = el('button', { type: 'button', id: 'findings-more', class: 'tl-link',
      text: `Show all ${s.findings.length} findings (${s.findings.length - SHOWN_FINDINGS} more)` });
    more.addEventListener('click', () => {
      for (const li of list.querySelectorAll('li.finding')) /** @type {HTMLElement} */ (li).hidden = false;
      more.remove();
    });
    c.append(more);
  }
}
