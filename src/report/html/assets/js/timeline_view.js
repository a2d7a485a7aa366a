// @ts-check
// The visible window: time <-> x, zoom and pan clamped to the trace, the canvas's size, and which
// detail serves a lane in the window (raw boxes or a level of its LOD pyramid).
import { LABEL_W, RAW_LIMIT, lowerBound } from './timeline_state.js';

/** @typedef {import('./timeline_state.js').TimelineState} TimelineState */

/** @param {TimelineState} tl */
export const plotW = (tl) => Math.max(10, tl.cssW - LABEL_W - 10);
/** @param {TimelineState} tl */
export function xOf(tl, t) { const v = tl.view; return LABEL_W + ((t - v.v0) / (v.v1 - v.v0)) * plotW(tl); }
/** @param {TimelineState} tl */
export function tOf(tl, x) { const v = tl.view; return v.v0 + ((x - LABEL_W) / plotW(tl)) * (v.v1 - v.v0); }

// Raw boxes serve a window when they cover it (everything starting before raw_until_ns is
// embedded) and it holds few enough to draw; else the LOD level just finer than a pixel. Left of
// raw_until_ns, raw boxes when few enough; right of it (capped reports) always buckets.
/** @param {TimelineState} tl */
export const rawEnd = (tl) => (tl.T.raw_complete ? Infinity : tl.T.raw_until_ns);
/** @param {TimelineState} tl */
export function rawRange(tl, l) {
  const { v0, v1 } = tl.view;
  if (v0 >= rawEnd(tl)) return null;
  const lo = lowerBound(l.s, v0 - l.max_duration_ns), hi = lowerBound(l.s, Math.min(v1, rawEnd(tl)));
  return hi - lo <= RAW_LIMIT ? [lo, hi] : null;
}
export function levelFor(l, nsPerPx) {
  let best = 0;
  for (let i = 0; i < l.lod.length; i++) if (l.lod[i].w <= nsPerPx) best = i;
  return best;
}
export function niceStep(range, px) {
  const raw = range / Math.max(1, px / 110), p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

/** @param {TimelineState} tl */
export function setView(tl, a, b) {
  const { full, view } = tl;
  const w = b - a, pad = 0.025 * (full.b - full.a), lo = full.a - pad, hi = full.b + pad;
  if (a < lo) { a = lo; b = a + w; }
  if (b > hi) { b = hi; a = Math.max(lo, b - w); }
  view.v0 = a; view.v1 = b;
  tl.schedule();
}
/** @param {TimelineState} tl */
export function zoom(tl, factor, atX) {
  const { full, view } = tl;
  const t = tOf(tl, atX === undefined ? LABEL_W + plotW(tl) / 2 : atX);
  let w = (view.v1 - view.v0) * factor;
  w = Math.min(Math.max(w, 200), (full.b - full.a) * 1.05 || 1);
  const f = (t - view.v0) / (view.v1 - view.v0);
  setView(tl, t - f * w, t - f * w + w);
}
/** @param {TimelineState} tl */
export function pan(tl, frac) { const w = tl.view.v1 - tl.view.v0; setView(tl, tl.view.v0 + frac * w, tl.view.v1 + frac * w); }

// The canvas at the device's pixel ratio, as tall as the rows (relayout's cssH).
/** @param {TimelineState} tl */
export function resize(tl) {
  const canvas = tl.canvas;
  tl.dpr = window.devicePixelRatio || 1;
  tl.cssW = canvas.clientWidth || 1000;
  canvas.width = Math.round(tl.cssW * tl.dpr);
  canvas.height = Math.round(tl.cssH * tl.dpr);
  canvas.style.height = tl.cssH + 'px';
  tl.schedule();
}
