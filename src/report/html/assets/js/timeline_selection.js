// @ts-check
// The selection: a kernel ({kind: 'kernel', lane, i}) or a host box ({kind: 'host', h, i}),
// outlined on the canvas (timeline_overlay.js), described in the details panel below the legend,
// with launch links from calls to the kernels they launched; and its keyboard moves.
import { kernelKey, kernelRowOf } from './page.js';
import { el, fmtFrac, fmtInt, fmtNs, fmtPct } from './format.js';
import { LABEL_W, MAX_LINKS, isCall, lowerBound } from './timeline_state.js';
import { VARIANT } from './variant_fields.js';
import { rawEnd, rawRange, setView, tOf } from './timeline_view.js';
import { hitHost, hitKernel, rowAt, slackOf } from './timeline_hit.js';
import { showMemoryDetails } from './timeline_memory.js';

/** @typedef {import('./timeline_state.js').TimelineState} TimelineState */

// A host box by its id over all host lanes (box_base + index), or null.
/** @param {TimelineState} tl */
export function hostBox(tl, id) {
  const hostLanes = tl.hostLanes;
  if (id < 0 || !hostLanes.length) return null;
  let lo = 0, hi = hostLanes.length - 1;
  while (lo < hi) { const m = (lo + hi + 1) >> 1; if (hostLanes[m].box_base <= id) lo = m; else hi = m - 1; }
  const h = hostLanes[lo], i = id - h.box_base;
  return i < h.s.length ? { h, i } : null;
}

// Launch links {from: host box {h, i}, to: {lane, i}} of the selection: a kernel's launch call
// and, for a graph launch, all the kernels of that call; a call's kernels; an op's kernels.
/** @param {TimelineState} tl */
function linksOf(tl, sel) {
  const out = [];
  const add = (want, key) => {
    for (const l of tl.lanes) {
      const ids = l[key];
      if (!ids) continue;
      for (let i = 0; i < ids.length && out.length < MAX_LINKS; i++) {
        if (ids[i] !== want) continue;
        const from = l.lb[i] >= 0 ? hostBox(tl, l.lb[i]) : null;
        if (from) out.push({ from, to: { lane: l, i } });
      }
    }
  };
  if (sel.kind === 'kernel') {
    if (sel.lane.lb && sel.lane.lb[sel.i] >= 0) add(sel.lane.lb[sel.i], 'lb');
  } else {
    add(sel.h.box_base + sel.i, isCall(tl, sel.h.k[sel.i]) ? 'lb' : 'ob');
  }
  return out;
}

// Names of a host box's enclosing boxes, outermost first, and its own.
/** @param {TimelineState} tl */
function stackOf(tl, h, i) {
  const out = [];
  for (let j = i; j >= 0; j = h.parent[j]) out.unshift(tl.names[h.n[j]]);
  return out;
}

const field = (key, label, value) => el('div', null, el('b', { text: label + ': ' }), el('span', { 'data-field': key, text: value }));

/** @param {TimelineState} tl */
function showHostDetails(tl) {
  const { h, i } = tl.selected, names = tl.names, kind = tl.hostKinds[h.k[i]], stack = stackOf(tl, h, i);
  const kernels = tl.links.length;
  tl.details.replaceChildren(
    el('div', { class: 'strong', text: `Selected ${kind === 'op' ? 'op' : kind === 'python' ? 'Python function' : kind === 'annotation' ? 'annotation' : kind + ' call'}` }),
    field('name', 'Name', names[h.n[i]]), field('where', 'Thread', h.label), field('start', 'Start', fmtNs(h.s[i])),
    field('duration', 'Duration', fmtNs(h.d[i])), field('stack', 'Stack', stack.join(' › ')),
    field('kernels', isCall(tl, h.k[i]) ? 'Kernels it launched' : 'Kernels attributed to it', fmtInt(kernels) + (kernels >= MAX_LINKS ? ' or more' : '')));
  tl.details.hidden = false;
  tl.api.selected = { kind, name: names[h.n[i]], stack, kernels, arrows: tl.links.length };
}

/** @param {TimelineState} tl */
function showKernelDetails(tl) {
  const { lane: l, i } = tl.selected, { names, variants, links } = tl, vv = variants[l.v[i]];
  const name = names[vv[VARIANT.name]], op = names[vv[VARIANT.op]] || null, kind = vv[VARIANT.kind];
  const stats = kernelRowOf.get(kernelKey(name, vv[VARIANT.backend]));
  const opBox = l.ob && l.ob[i] >= 0 ? hostBox(tl, l.ob[i]) : null;
  const launch = l.lb && l.lb[i] >= 0 ? hostBox(tl, l.lb[i]) : null;
  const stack = opBox ? stackOf(tl, opBox.h, opBox.i) : [];
  let launchText = '– (no launch call in the trace)', queueText = '–', queue = null;
  if (launch) {
    const { h, i: c } = launch, end = h.s[c] + h.d[c];
    launchText = `${names[h.n[c]]} on ${h.label}, at ${fmtNs(h.s[c])} for ${fmtNs(h.d[c])}`;
    if (links.length > 1) {
      const kernels = links.filter((k) => variants[k.to.lane.v[k.to.i]][VARIANT.kind] === 'kernel').length;
      queueText = `graph launch of ${fmtInt(kernels)} kernels` + (links.length > kernels ? ` and ${fmtInt(links.length - kernels)} copies or memsets` : '') +
        `: the first starts ${fmtNs(Math.max(0, Math.min(...links.map((k) => k.to.lane.s[k.to.i])) - end))} after the call ends`;
    } else {
      queue = Math.max(0, l.s[i] - end);
      queueText = `${fmtNs(queue)} (kernel start − launch call end; it started ${fmtNs(l.s[i] - h.s[c])} after the call began)`;
    }
  }
  const isKernel = kind === 'kernel';
  tl.details.replaceChildren(...[ // (replaceChildren writes null as text)
    el('div', { class: 'strong', text: isKernel ? 'Selected kernel' : `Selected ${kind}` }),
    field('kernel', isKernel ? 'Kernel' : 'Copy', name), field('op', 'Op', op || '– (no op)'),
    stack.length ? field('stack', 'Op stack', stack.join(' › ')) : null,
    field('launch', 'Launch call', launchText), field('queue', 'Queue delay', queueText),
    field('backend', 'Backend', vv[VARIANT.backend]),
    field('where', 'Where', l.label), field('start', 'Start', fmtNs(l.s[i])), field('duration', 'Duration', fmtNs(l.d[i])),
    isKernel ? field('grid', 'Grid', vv[VARIANT.grid] || '–') : null, isKernel ? field('block', 'Block', vv[VARIANT.block] || '–') : null,
    isKernel ? field('occupancy', 'Occupancy', `${fmtFrac(vv[VARIANT.occupancy])} theoretical, ${fmtFrac(vv[VARIANT.achieved])} achieved`) : null,
    stats ? field('count', 'Launches of this kernel', fmtInt(stats.count)) : null,
    stats ? field('stats', 'Its durations', `mean ${fmtNs(stats.mean_ns)}, median ${fmtNs(stats.median_ns)}, min ${fmtNs(stats.min_ns)}, max ${fmtNs(stats.max_ns)}; ${fmtPct(stats.percent)} of kernel time`) : null,
    stats && stats.percent_of_roof !== null ? field('roof', 'Roofline', `${fmtPct(stats.percent_of_roof)} of roof at ${stats.arithmetic_intensity.toPrecision(3)} FLOP/B`) : null,
  ].filter(Boolean));
  tl.details.hidden = false;
  tl.api.selected = { kind, name, op, stack, backend: vv[VARIANT.backend], count: stats ? stats.count : null,
    launch: launch ? names[launch.h.n[launch.i]] : null, queue_ns: queue, arrows: links.length };
}

/** @param {TimelineState} tl */
export function select(tl, next) {
  tl.selected = next;
  tl.links = next ? linksOf(tl, next) : [];
  if (!next) { tl.details.hidden = true; tl.details.replaceChildren(); tl.api.selected = null; }
  else if (next.kind === 'host') showHostDetails(tl);
  else showKernelDetails(tl);
  tl.schedule();
}

// A click at (x, y) on the canvas: the box under it selected (a memory lane shows the memory
// then and what was alive at its peak).
/** @param {TimelineState} tl */
export function selectAt(tl, x, y) {
  const row = rowAt(tl, y);
  const t = tOf(tl, x), slack = slackOf(tl);
  let next = null;
  if (!row || row.kind === 'gaps' || x < LABEL_W) { select(tl, null); return; }
  if (row.kind === 'memory') {
    select(tl, null);
    tl.api.selected = showMemoryDetails(tl.details, row.mem, t);
    return;
  }
  if (row.kind === 'lane') {
    const range = t < rawEnd(tl) ? rawRange(tl, row.lane) : null;
    const i = range ? hitKernel(row.lane, t, slack, range) : -1;
    if (i >= 0) next = { kind: 'kernel', lane: row.lane, i };
  } else {
    const i = hitHost(tl, row, y, t, slack);
    if (i >= 0) next = { kind: 'host', h: row.host, i };
  }
  select(tl, next);
}

const extentOf = (sel) => (sel.kind === 'kernel' ? [sel.lane.s[sel.i], sel.lane.s[sel.i] + sel.lane.d[sel.i]] : [sel.h.s[sel.i], sel.h.s[sel.i] + sel.h.d[sel.i]]);
// Keeps the selection in view, centred when it was out of it.
/** @param {TimelineState} tl */
function reveal(tl) {
  if (!tl.selected) return;
  const [a, b] = extentOf(tl.selected), { view } = tl;
  if (b < view.v0 || a > view.v1) { const w = view.v1 - view.v0; setView(tl, (a + b) / 2 - w / 2, (a + b) / 2 + w / 2); }
}
/** @param {TimelineState} tl */
export function zoomToSelection(tl) {
  if (!tl.selected) return;
  const [a, b] = extentOf(tl.selected), pad = Math.max(100, (b - a) * 0.5);
  setView(tl, a - pad, b + pad);
}
// Keyboard moves of the selection: the next or previous box on its lane (at its depth), up to
// a kernel's launch call or a box's parent, down to a call's or op's first kernel.
/** @param {TimelineState} tl */
export function selectNext(tl, dir) {
  const selected = tl.selected;
  if (!selected) return;
  if (selected.kind === 'kernel') {
    const i = selected.i + dir;
    if (i >= 0 && i < selected.lane.s.length) select(tl, { kind: 'kernel', lane: selected.lane, i });
  } else {
    const { h, i } = selected, L = h.levels[Math.min(h.depth[i], h.depths - 1)];
    let j = lowerBound(L.st, h.s[i]);
    while (j < L.ix.length && L.ix[j] !== i) j++;
    const k = j + dir;
    if (j < L.ix.length && k >= 0 && k < L.ix.length) select(tl, { kind: 'host', h, i: L.ix[k] });
  }
  reveal(tl);
}
/** @param {TimelineState} tl */
export function selectUp(tl) {
  const selected = tl.selected;
  if (!selected) return;
  if (selected.kind === 'kernel') {
    const l = selected.lane, b = hostBox(tl, l.lb && l.lb[selected.i] >= 0 ? l.lb[selected.i] : l.ob ? l.ob[selected.i] : -1);
    if (b) select(tl, { kind: 'host', h: b.h, i: b.i });
  } else if (selected.h.parent[selected.i] >= 0) {
    select(tl, { kind: 'host', h: selected.h, i: selected.h.parent[selected.i] });
  }
  reveal(tl);
}
/** @param {TimelineState} tl */
export function selectDown(tl) {
  if (tl.selected && tl.selected.kind === 'host' && tl.links.length) { select(tl, { kind: 'kernel', ...tl.links[0].to }); reveal(tl); }
}

// Per kind, the embedded host boxes overlapping the window that are too deep to draw.
/** @param {TimelineState} tl */
export function hiddenInWindow(tl) {
  const out = new Array(tl.hostKinds.length).fill(0), { view } = tl;
  for (const h of tl.hostLanes) {
    for (let i = 0; i < h.s.length && h.s[i] < view.v1; i++) {
      if (h.depth[i] >= h.depths && h.s[i] + h.d[i] > view.v0) out[h.k[i]]++;
    }
  }
  return out;
}
