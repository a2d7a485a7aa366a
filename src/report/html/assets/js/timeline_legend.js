// @ts-check
// The legend under the timeline: colour by kernel or op, the idle gaps' causes with their counts,
// the step marker, the Python frames switch, the collapse switch for every host thread, and the
// notes of a capped report.
import { el, fmtInt, fmtNs } from './format.js';
import { cv, gapColour } from './timeline_state.js';
import { collapsible } from './timeline_layout.js';

/** @typedef {import('./timeline_state.js').TimelineState} TimelineState */

// onPython(show) and onCollapseAll(collapsed) re-lay the rows out (timeline.js).
/** @param {TimelineState} tl */
export function buildLegend(tl, onPython, onCollapseAll) {
  const { T, hostLanes } = tl;
  const legend = document.querySelector('#timeline .tl-legend');
  const colourSelect = el('select', { 'aria-label': 'Colour boxes by', id: 'tl-color' },
    el('option', { value: 'kernel', text: 'kernel name' }), el('option', { value: 'op', text: 'op' }));
  colourSelect.addEventListener('change', () => { tl.colorBy = colourSelect.value; tl.variantColour = new Array(tl.variants.length); tl.schedule(); });
  // Every gap cause present, with its colour and how many gaps (over min_gap_ns) it has.
  const causeCounts = new Map();
  for (const g of tl.gapGroups) for (const c of g.cause) causeCounts.set(c, (causeCounts.get(c) || 0) + 1);
  const causeItems = [...causeCounts.keys()].sort((a, b) => a - b).map((c) =>
    el('span', { class: 'item', 'data-cause': T.gap_causes[c] }, el('span', { class: 'swatch', style: `background:${gapColour(tl, c)}` }),
      `${T.gap_causes[c].replace(/_/g, ' ')} (${fmtInt(causeCounts.get(c))})`));
  legend.append(el('label', null, 'Colour by ', colourSelect), ' ',
    el('span', { id: 'tl-gap-legend' }, causeItems.length ? `Idle gaps > ${fmtNs(T.min_gap_ns)} by cause: ` : `No idle gaps > ${fmtNs(T.min_gap_ns)}.`, ...causeItems),
    (T.steps || []).length ? el('span', { class: 'item' }, el('span', { class: 'swatch', style: `background:${cv('--step')}` }), 'ProfilerStep boundary') : null);
  // Python frames (with_stack traces) can be dozens of levels above the ops: they can be left out.
  if (tl.pythonKind >= 0 && hostLanes.some((h) => h.k.includes(tl.pythonKind))) {
    const box = el('input', { type: 'checkbox', id: 'tl-python', checked: true });
    box.addEventListener('change', () => onPython(box.checked));
    legend.append(' ', el('label', null, box, ' Python frames'));
  }
  // Threads of many rows start collapsed to one summary row; their labels (▸/▾) toggle one,
  // this box all of them.
  if (hostLanes.some(collapsible)) {
    const box = el('input', { type: 'checkbox', id: 'tl-collapse', checked: true });
    box.addEventListener('change', () => onCollapseAll(box.checked));
    legend.append(' ', el('label', null, box, ' Collapse deep host threads (click a ▸ label to expand one)'));
  }
  if (!T.raw_complete) {
    legend.append(el('p', { class: 'note', id: 'tl-gaps-capped', text: `Idle gaps: ${fmtInt(T.gaps_embedded)} of ${fmtInt(T.gap_count)} are marked: those left of the dashed line and the 2,000 longest.` }));
    legend.append(el('p', { class: 'note', id: 'tl-capped', text: `Single boxes are embedded for the first ${fmtInt(T.raw_box_count)} of ${fmtInt(T.kernel_count + (T.copy_count || 0))} kernels and copies ` +
      `and ${fmtInt(T.host_raw_count || 0)} of ${fmtInt(T.host_item_count || 0)} host ops and calls (those starting before ${fmtNs(T.raw_until_ns)}, left of the dashed line); ` +
      'beyond it the timeline shows precomputed buckets (busy fraction, the name with the most time). ' +
      'Use --max-boxes to embed more.' }));
  }
}
