// @ts-check
// The timeline's geometry and the one state object its modules share (createState): the decoded
// data, the rows drawn, the visible window, the selection and highlight, and the frame's stats.
// Each timeline module is functions over that object; only timeline.js creates it, and
// TM.timeline (page.js) is the API the other sections and the browser tests use.
import { colorOfName } from './format.js';
import { VARIANT } from './variant_fields.js';

// (One name per export: tools/join_js_modules.cc exports the first declarator only.)
export const LABEL_W = 260;
export const RULER_H = 26;
export const LANE_H = 22;
export const LANE_GAP = 4;
export const GAP_ROW_H = 10;
export const HOST_ROW_H = 12;
export const MAX_HOST_DEPTH = 64; // host rows per thread; deeper boxes are counted in the label
// A thread with more rows than this starts collapsed to one summary row (a click on its label
// expands it): with Python frames a thread can be 60 rows, which would push the device lanes
// off the screen.
export const COLLAPSE_ROWS = 4;
// Raw boxes per lane per frame; beyond, buckets keep frames short.
export const RAW_LIMIT = 40000;
export const MAX_LINKS = 5000; // launch arrows of one selection

export function lowerBound(a, x) { let lo = 0, hi = a.length; while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] < x) lo = m + 1; else hi = m; } return lo; }

// A CSS variable of the page (colours follow prefers-color-scheme: read at draw time).
let style = null;
export function cv(name) {
  if (!style) style = getComputedStyle(document.documentElement);
  return style.getPropertyValue(name).trim();
}

/**
 * The state of one drawn timeline. `api` is TM.timeline.
 * @param {any} T D.timeline
 * @param {any} api
 */
export function createState(T, api) {
  const hostKinds = T.host_kinds || [];
  return {
    T, api, names: T.names, variants: T.variants, hostKinds,
    pythonKind: hostKinds.indexOf('python'),
    showPython: true, // the "Python frames" box of the legend
    lanes: [], hostLanes: [], gapGroups: [], memoryLanes: [],
    rows: [], rowOfLane: new Map(), rowOfHost: new Map(), busiestHost: new Map(), firstLane: new Map(),
    stepsByInput: new Map(),
    canvas: /** @type {HTMLCanvasElement} */ (document.getElementById('tl-canvas')),
    tip: document.getElementById('tl-tip'),
    info: document.querySelector('#timeline .tl-info'),
    details: document.getElementById('tl-details'),
    found: document.getElementById('tl-found'),
    cssW: 0, cssH: 0, dpr: 1, pending: false,
    full: { a: 0, b: 1 }, view: { v0: 0, v1: 1 },
    stats: { mode: [], drawn: 0, frameMs: 0, frames: 0, gapsDrawn: 0, hostDrawn: 0, hostInWindow: [], memoryDrawn: 0, stepMarkers: 0, arrows: 0, pathPieces: 0, pathRows: 0 },
    colorBy: 'kernel', variantColour: new Array(T.variants.length), // per variant, for the current colorBy
    highlight: null, // Uint8Array over variants: the highlighted kernels (null: none)
    nameHit: null, // Uint8Array over names: the highlighted host boxes
    selected: null, links: [], // the selection (timeline_selection.js) and its launch links
    path: null, // the critical path shown (timeline_overlay.js)
    schedule: () => {}, // asks for a frame (timeline.js)
  };
}
/** @typedef {ReturnType<typeof createState>} TimelineState */

export const isCall = (tl, k) => tl.hostKinds[k] === 'runtime' || tl.hostKinds[k] === 'driver' || tl.hostKinds[k] === 'sync';
export const gapColour = (tl, c) => cv('--gap-' + tl.T.gap_causes[c]);
// A variant's colour: by its kernel's name or its op's (the legend's "Colour by").
export function colorOfVariant(tl, vi) {
  let c = tl.variantColour[vi];
  if (c === undefined) {
    const vv = tl.variants[vi];
    c = tl.variantColour[vi] = colorOfName(tl.colorBy === 'op' && tl.names[vv[VARIANT.op]] ? tl.names[vv[VARIANT.op]] : tl.names[vv[VARIANT.name]]);
  }
  return c;
}
