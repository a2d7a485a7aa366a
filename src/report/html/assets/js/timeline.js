// @ts-check
// The Timeline: host threads and device lanes on one canvas, with zoom, pan, search, selection
// and keys. This module wires the parts together and publishes TM.timeline, the API the other
// sections (highlightOp, showFinding, showPath) and the browser tests use:
//   timeline_state.js   geometry constants and the shared state object
//   timeline_decode.js  the embedded lanes into typed arrays; host layouts
//   timeline_view.js    the window: time <-> x, zoom, pan, raw boxes or LOD
//   timeline_layout.js  the rows top to bottom, collapsed host threads
//   timeline_draw*.js   a frame; timeline_overlay.js steps, critical path, selection, arrows
//   timeline_hit.js     what is under the pointer; the tooltip
//   timeline_selection.js, timeline_highlight.js, timeline_keys.js, timeline_legend.js
import { D, TM } from './page.js';
import { shownStepOf } from './ranks.js';
import { HOST_ROW_H, LABEL_W, createState } from './timeline_state.js';
import { decodeGapGroups, decodeHostLanes, decodeLanes } from './timeline_decode.js';
import { resize, setView, zoom } from './timeline_view.js';
import { applyLayout, buildRows, collapsible, relayout } from './timeline_layout.js';
import { MEMORY_ROW_H, decodeMemoryLanes } from './timeline_memory.js';
import { draw } from './timeline_draw.js';
import { hiddenInWindow, select } from './timeline_selection.js';
import { highlightOp, showFinding, wireSearch } from './timeline_highlight.js';
import { wireInput } from './timeline_keys.js';
import { buildLegend } from './timeline_legend.js';

export function renderTimeline() {
  const T = D.timeline;
  if (!T.lanes.length) {
    // No kernels, copies or memsets (a trace cut off before its first kernel, a host-only
    // profile): say so where the lanes would be; the sections' links find nothing to show.
    document.querySelector('#timeline .tl-info').textContent =
      'No device work in this trace: no kernels, memory copies or memsets to draw.';
    /** @type {HTMLElement} */ (document.querySelector('#timeline .tl-wrap')).hidden = true;
    const nothing = () => {};
    TM.timeline = { lanes: 0, hostLanes: 0, span_ns: 0, empty: true,
      highlightOp: nothing, showFinding: nothing, showPath: nothing };
    return;
  }
  const api = TM.timeline = /** @type {any} */ ({});
  const tl = createState(T, api);
  tl.schedule = () => { if (!tl.pending) { tl.pending = true; requestAnimationFrame(() => draw(tl)); } };
  tl.lanes = decodeLanes(T);
  tl.hostLanes = decodeHostLanes(T);
  for (const h of tl.hostLanes) { applyLayout(tl, h); h.wantCollapsed = collapsible(h); }
  tl.gapGroups = decodeGapGroups(T);
  tl.memoryLanes = decodeMemoryLanes(D.memory, T.t0_ns || 0);
  // Steps per input (ProfilerStep#N, host time): boundaries across that input's rows.
  for (const st of T.steps || []) {
    if (!tl.stepsByInput.has(st.input)) tl.stepsByInput.set(st.input, []);
    tl.stepsByInput.get(st.input).push(st);
  }
  buildRows(tl);
  // The whole timeline: the kernels' span, widened to the steps (the first step begins on the
  // host before the first kernel).
  tl.full = { a: 0, b: Math.max(1, T.span_ns) };
  for (const st of T.steps || []) { tl.full.a = Math.min(tl.full.a, st.s); tl.full.b = Math.max(tl.full.b, st.e); }
  tl.view = { v0: tl.full.a, v1: tl.full.b };
  Object.assign(api, { view: tl.view, stats: tl.stats, lanes: tl.lanes.length, gapRows: tl.rows.filter((r) => r.kind === 'gaps').length,
    hostLanes: tl.hostLanes.length, hostRowH: HOST_ROW_H, labelW: LABEL_W, steps: (T.steps || []).length, span_ns: T.span_ns,
    memoryRowH: MEMORY_ROW_H, hostLaneData: tl.hostLanes, laneData: tl.lanes });
  relayout(tl);
  api.memoryLanes = tl.rows.filter((r) => r.kind === 'memory').map((r) => ({ device: r.mem.device.device, top: r.y, peak_ns: r.mem.peakT }));

  // Re-lays the rows out after a host thread's rows changed; a selected box no longer drawn is
  // let go.
  const rowsChanged = () => {
    if (tl.selected && tl.selected.kind === 'host' && tl.selected.h.depth[tl.selected.i] >= tl.selected.h.depths) select(tl, null);
    relayout(tl);
    resize(tl);
  };
  const setCollapsed = (h, collapsed) => { h.wantCollapsed = collapsed; rowsChanged(); };
  Object.assign(api, {
    zoom: (factor, atX) => zoom(tl, factor, atX),
    setView: (a, b) => setView(tl, a, b),
    select: (sel) => select(tl, sel),
    hiddenInWindow: () => hiddenInWindow(tl),
    highlightOp: (op) => highlightOp(tl, op),
    showFinding: (f) => showFinding(tl, f),
    // Collapses or expands host lane `index` (a thread of few rows is never collapsed).
    setHostCollapsed: (index, collapsed) => setCollapsed(tl.hostLanes[index], collapsed),
    // The critical path of a step of the Ranks section, drawn across the ranks' rows.
    showPath: (step, zoomTo) => {
      tl.path = step && step.path ? step.path : null;
      api.pathStep = tl.path ? step.step : null;
      if (tl.path && zoomTo && tl.path.length) setView(tl, tl.path[0].s, tl.path[tl.path.length - 1].e);
      tl.schedule();
    },
  });
  wireSearch(tl);
  wireInput(tl, (h) => setCollapsed(h, !h.collapsed));
  if (shownStepOf()) api.showPath(shownStepOf(), false);
  buildLegend(tl, (show) => {
    tl.showPython = show;
    tl.hostLanes.forEach((h) => applyLayout(tl, h));
    rowsChanged();
  }, (collapsed) => {
    for (const h of tl.hostLanes) h.wantCollapsed = collapsed;
    rowsChanged();
  });
  new ResizeObserver(() => resize(tl)).observe(tl.canvas);
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', tl.schedule); // colours are CSS variables
  resize(tl);
}
