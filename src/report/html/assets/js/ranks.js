// @ts-check
// The Ranks section of a job: stragglers, collectives and the critical path per step.
import { D, TM } from './page.js';
import { body, el, fmtInt, fmtNs, fmtPct, fmtSi } from './format.js';
import { cards, makeTable } from './tables.js';

// One line on the job and its stragglers, pointing at the Ranks section.
export function jobLine(J) {
  const stragglers = J.ranks.filter((r) => r.straggler);
  const caused = stragglers.reduce((a, r) => a + r.wait_caused_ns, 0);
  const text = !J.complete ? 'no rank is named a straggler: not every rank is given.'
    : stragglers.length ? `straggler${stragglers.length > 1 ? 's' : ''}: rank ${stragglers.map((r) => r.rank).join(', ')} ` +
      `(the others waited ${fmtNs(caused)} for ${stragglers.length > 1 ? 'them' : 'it'} at collectives).`
      : 'no straggler.';
  return el('p', { class: 'note', id: 'summary-job' }, el('b', { text: `${J.verdict.charAt(0).toUpperCase()}${J.verdict.slice(1)}; ` }), text + ' See ',
    el('a', { href: '#ranks', text: 'Ranks' }), '.');
}

// ---------- ranks (one job of two or more ranks: collectives and critical-path, docs/report.md) ----------
// The composition of a critical path: its key in `composition`, its category (a piece's
// `category`), its label and what it holds (docs/critical-path.md).
const CP_PARTS = [
  ['compute_ns', 'compute', 'Compute', 'kernels, memcpy and memset on the path'],
  ['comm_transfer_ns', 'comm_transfer', 'Communication transfer', 'collective kernels after the last rank arrived'],
  ['comm_wait_ns', 'comm_wait', 'Communication wait', 'collective kernels before the last rank arrived, where the clocks cannot say who was last'],
  ['host_ns', 'host', 'Host', 'CPU work, launches, synchronising calls, a rank that had not begun the step'],
  ['idle_ns', 'idle', 'Idle', 'the device waited with nothing on the path running'],
];
const baseName = (p) => (p ? p.split(/[\\/]/).pop() : '–');
const fmtGBps = (v) => (v === null || v === undefined ? '–' : (v / 1e9).toFixed(2));
const stepTitle = (s) => (s.step === null ? 'the whole trace' : `ProfilerStep#${s.step}`);
const pctOf = (ns, whole) => (whole > 0 ? fmtPct((100 * ns) / whole) : '–');

export function renderRanks() {
  const J = D.job;
  if (!J) return;
  document.getElementById('ranks').hidden = false;
  document.getElementById('nav-ranks').hidden = false;
  const c = body('ranks');
  c.append(el('p', { class: 'verdict', id: 'ranks-verdict', text: J.verdict }));
  const stragglers = J.ranks.filter((r) => r.straggler).map((r) => r.rank);
  c.append(cards([
    ['Ranks', String(J.ranks.length) + (J.world_size ? ` of ${J.world_size}` : '')],
    ['Backend', J.backend || '–'],
    ['Collectives matched', fmtInt(J.collective_count), J.matched_by ? `matched by ${J.matched_by}` : undefined],
    ['Stragglers', !J.complete ? 'not named' : stragglers.length ? 'rank ' + stragglers.join(', ') : 'none',
      `a rank whose late arrival made the others wait more than ${J.straggler_threshold_percent} % of the median step (${fmtNs(J.straggler_basis_ns)})`],
    ['Steps walked', String(J.critical_path.length)],
  ]));
  c.append(el('p', { class: 'muted', text: 'Clock offset: from the lowest rank, the median over the matched collectives of the ' +
    'difference of their ends (± 1.4826 × the median absolute deviation); every time below is aligned. Wait suffered: the rank\'s ' +
    'time in collectives before the last rank arrived. Wait caused: the others\' wait at the collectives it arrived last at. ' +
    `STRAGGLER: wait caused above ${J.straggler_threshold_percent} % of the median step (${fmtNs(J.straggler_basis_ns)}).` +
    (J.complete ? '' : ' Not every rank of the job is given, so the last to arrive may be a rank not given: no rank is named a straggler.') }));
  makeTable(c, {
    id: 'ranks-table', caption: 'Per rank (tensormorph collectives; median step and straggler as tensormorph timeline)', filter: false,
    sortKey: 'rank', sortDir: 1,
    rows: J.ranks.map((r) => ({ ...r, name: baseName(r.input) })),
    columns: [
      { key: 'rank', label: 'Rank', num: true, fmt: fmtInt },
      { key: 'name', label: 'Input' },
      { key: 'clock_offset_ns', label: 'Clock offset', num: true,
        fmt: (v, r) => (r.offset_uncertainty_ns === null ? `${fmtNs(v)} (reference)` : `${fmtNs(v)} ± ${fmtNs(r.offset_uncertainty_ns)}`) },
      { key: 'median_step_ns', label: 'Median step', num: true, fmt: fmtNs },
      { key: 'wait_suffered_ns', label: 'Wait suffered', num: true, fmt: fmtNs },
      { key: 'wait_caused_ns', label: 'Wait caused', num: true, fmt: fmtNs },
      { key: 'wait_caused_percent', label: "% of others' time", num: true, fmt: (v) => (v === null || v === undefined ? '–' : fmtPct(v)),
        title: "the others' wait as a share of their profiled time (their steps, else their device span): the straggler share findings and tm.fleet report too" },
      { key: 'times_last', label: 'Last at', num: true, fmt: fmtInt, title: 'collectives it arrived last at' },
      { key: 'late_cause', label: 'Late for', title: 'where it arrived last, what it spent more time on than the others before: computation, communication or idle (its host was late)' },
      { key: 'straggler', label: 'Straggler', fmt: (v) => (v ? 'STRAGGLER' : ''), cellClass: (v) => (v ? 'bad strong' : null) },
    ],
  });
  if (J.by_type.length) {
    c.append(el('h3', { text: 'Collectives by type and message size' }));
    makeTable(c, {
      id: 'collectives-table', caption: 'Per type and size bucket: skew and wait summed over the collectives, bandwidth as summed bytes / summed transfer (GB/s)',
      filter: false, rows: J.by_type.map((g) => ({ ...g, name: `${g.type} ${g.size_bucket}` })),
      columns: [
        { key: 'type', label: 'Type' },
        { key: 'size_bucket', label: 'Message size' },
        { key: 'count', label: 'Count', num: true, fmt: fmtInt },
        { key: 'skew_ns', label: 'Skew (summed)', num: true, fmt: fmtNs, title: 'last start − first start, summed' },
        { key: 'max_skew_ns', label: 'Max skew', num: true, fmt: fmtNs },
        { key: 'wait_ns', label: 'Wait', num: true, fmt: fmtNs, title: 'every rank\'s wait for the last to arrive, summed' },
        { key: 'transfer_ns', label: 'Transfer', num: true, fmt: fmtNs, title: 'last end − last start, summed' },
        { key: 'algo_bytes_per_s', label: 'Algo BW (GB/s)', num: true, fmt: fmtGBps },
        { key: 'bus_bytes_per_s', label: 'Bus BW (GB/s)', num: true, fmt: fmtGBps, title: 'algorithm bandwidth × nccl-tests\' factor for the type' },
      ],
    });
  }
  if (J.collectives.length) {
    c.append(el('h3', { text: 'Collectives: the last rank to arrive at each' }));
    makeTable(c, {
      id: 'collective-calls', sortKey: 'skew_ns',
      caption: (J.collectives.length < J.collective_count ? `The ${fmtInt(J.collectives.length)} of ${fmtInt(J.collective_count)} collectives with the most skew` :
        `Every matched collective (${fmtInt(J.collective_count)})`) + ': the last rank to arrive held the others back by the skew (last start − first start)',
      rows: J.collectives,
      columns: [
        { key: 'index', label: '#', num: true, fmt: fmtInt },
        { key: 'name', label: 'Collective' },
        { key: 'type', label: 'Type' },
        { key: 'bytes', label: 'Bytes', num: true, fmt: (v) => fmtSi(v, 'B') },
        { key: 'group_size', label: 'Ranks', num: true, fmt: fmtInt },
        { key: 'last_rank', label: 'Last to arrive', num: true, fmt: (v) => `rank ${v}`, cellClass: () => 'strong last-rank' },
        { key: 'skew_ns', label: 'Skew', num: true, fmt: fmtNs },
        { key: 'transfer_ns', label: 'Transfer', num: true, fmt: fmtNs, title: 'last end − last start' },
        { key: 'bus_bytes_per_s', label: 'Bus BW (GB/s)', num: true, fmt: fmtGBps },
      ],
    });
  }
  c.append(el('h3', { text: 'Critical path per step' }));
  renderCriticalPath(c, J.critical_path);
  if (J.warnings.length) c.append(el('ul', { id: 'ranks-warnings' }, ...J.warnings.map((w) => el('li', { class: 'muted', text: w }))));
}

// A stacked horizontal bar of a step's composition; `big` adds the labels that fit.
function compositionBar(s, big) {
  const total = s.length_ns;
  const bar = el('div', { class: big ? 'cp-bar big' : 'cp-bar', role: 'img',
    'aria-label': 'Composition: ' + CP_PARTS.map(([k, , label]) => `${label} ${pctOf(s.composition[k], total)}`).join(', ') });
  for (const [k, cat, label] of CP_PARTS) {
    const ns = s.composition[k];
    if (!ns || total <= 0) continue;
    const share = (100 * ns) / total;
    const labelled = big && share >= 8;
    bar.append(el('span', { class: `cp-seg cp-${cat}${labelled ? ' labelled' : ''}`, style: `width:${share}%`, 'data-category': cat, 'data-ns': String(ns),
      title: `${label}: ${fmtNs(ns)} (${pctOf(ns, total)})`, text: labelled ? `${label} ${fmtPct(share)}` : null }));
  }
  return bar;
}

function renderCriticalPath(c, steps) {
  c.append(el('p', { class: 'muted', text: 'Per step, the chain of work that bounded it, walked back from the step\'s end across the ranks ' +
    '(launches, stream order, synchronisation, the last rank to arrive at each collective): its pieces add up to the step\'s length ' +
    '(tensormorph critical-path).' }));
  if (!steps.length) { c.append(el('p', { class: 'note', text: 'No step to walk.' })); return; }
  const detail = el('div', { id: 'cp-detail', 'aria-live': 'polite' });
  if (steps.length > 1) {
    let rows = [];
    const select = (i) => {
      rows.forEach((tr, j) => { tr.setAttribute('aria-selected', String(i === j)); tr.classList.toggle('sel', i === j); });
      showStep(detail, steps[i]);
    };
    rows = steps.map((s, i) => {
      const tr = el('tr', { tabindex: '0', 'data-step': String(s.step), 'aria-selected': 'false',
        onclick: () => select(i), onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); select(i); } } },
      el('td', { text: stepTitle(s) }), el('td', { class: 'n', 'data-key': 'length_ns', 'data-value': String(s.length_ns), text: fmtNs(s.length_ns) }),
      el('td', { class: 'n', text: s.end_rank === null ? '–' : String(s.end_rank) }), el('td', { text: s.ranks.join(', ') || '–' }),
      el('td', { class: 'cp-cell' }, compositionBar(s, false)),
      el('td', { class: 'n', text: pctOf(s.composition.host_ns, s.length_ns) }),
      el('td', { class: 'n', text: pctOf(s.composition.comm_transfer_ns + s.composition.comm_wait_ns, s.length_ns) }),
      el('td', { class: 'n', text: fmtInt(s.piece_count) }));
      return tr;
    });
    const head = ['Step', 'Length', 'Ended on rank', 'Through ranks', 'Composition', 'Host', 'Communication', 'Pieces'];
    c.append(el('div', { class: 'scroll' }, el('table', { id: 'cp-steps' },
      el('caption', { class: 'muted', style: 'text-align:left', text: 'Steps (click or Enter on a row for its path)' }),
      el('thead', null, el('tr', null, ...head.map((h, i) => el('th', { scope: 'col', class: i === 1 || i === 2 || i >= 5 ? 'n' : null, text: h })))),
      el('tbody', null, ...rows))));
    c.append(detail);
    select(0);
  } else {
    c.append(detail);
    showStep(detail, steps[0]);
  }
}

const cpLegend = () => el('div', { class: 'cp-legend' }, ...CP_PARTS.map(([, cat, label, what]) =>
  el('span', { class: 'item', title: what }, el('span', { class: 'swatch cp-' + cat }), label)));

// One step: its line, the bar, the composition in numbers and the top pieces; its path is drawn
// on the timeline across the rank lanes (a button zooms there).
let shownStep = null;
// The step whose critical path the Ranks section shows (the timeline draws it once it exists).
export const shownStepOf = () => shownStep;
function showStep(detail, s) {
  shownStep = s;
  if (TM.timeline) TM.timeline.showPath(s, false);
  const through = s.ranks.length ? `; the path passes through rank${s.ranks.length > 1 ? 's' : ''} ${s.ranks.join(', ')}` : '';
  const onTimeline = s.path
    ? el('button', { type: 'button', id: 'cp-show', onclick: () => { TM.timeline.showPath(s, true); document.getElementById('timeline').scrollIntoView(); } },
      'Show this path on the timeline')
    : el('span', { class: 'muted', text: ' (too many pieces to embed this path for the timeline)' });
  detail.replaceChildren(
    el('h4', { id: 'cp-title', 'data-step': String(s.step), text: `${stepTitle(s)}: ${fmtNs(s.length_ns)}` }),
    el('p', { class: 'muted', text: (s.end_rank === null ? '' : `Ended on rank ${s.end_rank}`) + through + `; ${fmtInt(s.piece_count)} pieces. ` }, onTimeline),
    compositionBar(s, true), cpLegend());
  const comp = el('table', { id: 'cp-composition' },
    el('caption', { class: 'muted', style: 'text-align:left', text: 'Composition (adds up to the length)' }),
    el('thead', null, el('tr', null, el('th', { scope: 'col', text: 'Part' }), el('th', { scope: 'col', class: 'n', text: 'Time' }),
      el('th', { scope: 'col', class: 'n', text: '% of the step' }))),
    el('tbody', null, ...CP_PARTS.map(([k, cat, label, what]) => el('tr', { 'data-category': cat, title: what },
      el('td', null, el('span', { class: 'swatch cp-' + cat }), label),
      el('td', { class: 'n', 'data-key': 'time_ns', 'data-value': String(s.composition[k]), text: fmtNs(s.composition[k]) }),
      el('td', { class: 'n', 'data-key': 'percent', text: pctOf(s.composition[k], s.length_ns) })))),
    el('tfoot', null, el('tr', null, el('td', { text: 'Length' }),
      el('td', { class: 'n', 'data-key': 'length_ns', 'data-value': String(s.length_ns), text: fmtNs(s.length_ns) }), el('td', { class: 'n', text: '100.0 %' }))));
  const top = el('div', { class: 'cp-top' });
  const grid = el('div', { class: 'cp-grid' }, el('div', { class: 'cp-comp' }, comp), top);
  detail.append(grid);
  makeTable(top, {
    id: 'cp-top', filter: false, sortKey: 'time_ns',
    caption: `On the path, by rank, kind and name: the top ${s.top.length} of ${fmtInt(s.group_count)}`,
    rows: s.top.map((t) => ({ ...t, percent: s.length_ns > 0 ? (100 * t.time_ns) / s.length_ns : null })),
    columns: [
      { key: 'rank', label: 'Rank', num: true, fmt: (v) => (v === null ? '–' : String(v)) },
      { key: 'kind', label: 'Kind' },
      { key: 'name', label: 'Name', fmt: (v) => v || '–' },
      { key: 'time_ns', label: 'Time', num: true, fmt: fmtNs },
      { key: 'percent', label: '% of the step', num: true, fmt: (v) => fmtPct(v) },
      { key: 'pieces', label: 'Pieces', num: true, fmt: fmtInt },
    ],
  });
}
