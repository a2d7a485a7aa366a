// @ts-check
// Highlighted kernels: those whose variant matches (a search by kernel or op name, an op clicked
// in the Compute panel, a finding); the others are drawn faint, and host boxes whose name
// matches likewise.
import { fmtInt, fmtNs } from './format.js';
import { VARIANT } from './variant_fields.js';
import { setView } from './timeline_view.js';

/** @typedef {import('./timeline_state.js').TimelineState} TimelineState */

// matches(variant) and nameMatches(name) choose; null clears. `what` ends the found line;
// zoomTo zooms to the matched boxes.
/** @param {TimelineState} tl */
export function setHighlight(tl, matches, nameMatches, what, zoomTo) {
  const { api, found, variants, names, T } = tl;
  if (!matches) { tl.highlight = tl.nameHit = null; found.textContent = ''; api.highlighted = null; tl.schedule(); return; }
  const highlight = tl.highlight = new Uint8Array(variants.length);
  variants.forEach((vv, i) => { if (matches(vv)) highlight[i] = 1; });
  const nameHit = tl.nameHit = new Uint8Array(names.length);
  names.forEach((nm, i) => { if (nameMatches(nm)) nameHit[i] = 1; });
  let count = 0, boxes = 0, first = Infinity, last = -Infinity; // kernels; kernels and copies
  for (const l of tl.lanes) {
    for (let i = 0; i < l.s.length; i++) {
      if (!highlight[l.v[i]]) continue;
      boxes++;
      if (variants[l.v[i]][VARIANT.kind] === 'kernel') count++;
      first = Math.min(first, l.s[i]); last = Math.max(last, l.s[i] + l.d[i]);
    }
  }
  let hostCount = 0;
  for (const h of tl.hostLanes) {
    for (let i = 0; i < h.n.length; i++) {
      if (!nameHit[h.n[i]]) continue;
      hostCount++;
      first = Math.min(first, h.s[i]); last = Math.max(last, h.s[i] + h.d[i]); // an op's calls and its kernels
    }
  }
  api.highlighted = count;
  api.highlightedBoxes = boxes;
  api.highlightedHost = hostCount;
  found.textContent = `${fmtInt(count)} kernels${boxes > count ? ` and ${fmtInt(boxes - count)} copies` : ''} ${what}` + (tl.hostLanes.length ? `; ${fmtInt(hostCount)} host boxes by that name` : '') +
    (T.raw_complete ? '' : ' (of the boxes embedded one by one, left of the dashed line)');
  if (zoomTo && (boxes || hostCount)) { const pad = Math.max(200, (last - first) * 0.05); setView(tl, first - pad, last + pad); }
  tl.schedule();
}

// The search box: kernels and ops whose name contains the text; Enter clears.
/** @param {TimelineState} tl */
export function wireSearch(tl) {
  const search = /** @type {HTMLInputElement} */ (document.getElementById('tl-search'));
  const { names } = tl;
  search.addEventListener('input', () => {
    const q = search.value.trim().toLowerCase();
    const hit = (name) => name.toLowerCase().includes(q);
    setHighlight(tl, q ? (vv) => hit(names[vv[VARIANT.name]]) || hit(names[vv[VARIANT.op]] || '') : null, hit,
      `match "${search.value.trim()}" (kernel or op name)`, false);
  });
  search.addEventListener('keydown', (e) => { if (e.key === 'Enter') setHighlight(tl, null); });
}

// The Compute panel: a click on an op row highlights the kernels it launched and zooms to them.
/** @param {TimelineState} tl */
export function highlightOp(tl, op) {
  const names = tl.names;
  setHighlight(tl, (vv) => names[vv[VARIANT.op]] === op, (name) => name === op, `launched by ${op}`, true);
}

// Where a finding happens: its longest gap when it names gaps (top items with start_ns), else
// its kernel, its op or its top items' names, highlighted and zoomed to.
/** @param {TimelineState} tl */
export function showFinding(tl, f) {
  const { api, names } = tl;
  api.finding = f.rule;
  const gaps = f.top.filter((t) => t.figures.start_ns !== undefined && t.figures.length_ns !== undefined);
  if (gaps.length) {
    const g = gaps[0].figures, a = g.start_ns - tl.T.t0_ns, pad = Math.max(1000, g.length_ns);
    setHighlight(tl, null);
    setView(tl, a - pad, a + g.length_ns + pad);
    tl.found.textContent = `${f.rule.replace(/_/g, ' ')}: its longest gap, ${fmtNs(g.length_ns)} at ${fmtNs(a)} (${gaps[0].name})`;
    return;
  }
  // A name is a kernel's, an op's or call's, or a memcpy kind (slow_copies); exposed_communication
  // names no kernel: its boxes are the communication kernels.
  const wanted = new Set(f.where.kernel ? [f.where.kernel] : f.where.op ? [f.where.op] : f.top.map((t) => t.name));
  const communication = f.rule === 'exposed_communication';
  setHighlight(tl, (vv) => (communication ? vv[VARIANT.work_class] === 'communication'
    : wanted.has(names[vv[VARIANT.name]]) || wanted.has(names[vv[VARIANT.op]]) || wanted.has(vv[VARIANT.copy_kind])),
  (name) => !communication && wanted.has(name), `of finding ${f.rule.replace(/_/g, ' ')}`, true);
}
