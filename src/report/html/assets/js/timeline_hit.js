// @ts-check
// Hit-testing: the row under a y, the raw box of a lane or host thread under a time (within a
// pixel's slack), and the tooltip that describes what is under the pointer.
import { el, fmtFrac, fmtNs, fmtPct } from './format.js';
import { HOST_ROW_H, LABEL_W, lowerBound } from './timeline_state.js';
import { VARIANT } from './variant_fields.js';
import { levelFor, plotW, rawEnd, rawRange, tOf } from './timeline_view.js';
import { rowH } from './timeline_layout.js';
import { hostRanges } from './timeline_draw_host.js';
import { memoryTipLines } from './timeline_memory.js';

/** @typedef {import('./timeline_state.js').TimelineState} TimelineState */

/** @param {TimelineState} tl */
export const rowAt = (tl, y) => tl.rows.find((r) => y >= r.y && y <= r.y + rowH(r));
/** @param {TimelineState} tl  The width of a pixel in ns: the slack of a hit. */
export const slackOf = (tl) => (tl.view.v1 - tl.view.v0) / plotW(tl);

// The raw box of lane l under time t (within slack), or -1.
export function hitKernel(l, t, slack, range) {
  for (let i = Math.min(range[1], lowerBound(l.s, t + slack)) - 1; i >= range[0]; i--) {
    if (l.s[i] + l.d[i] + slack >= t) return i;
    if (l.s[i] < t - l.max_duration_ns - slack) break;
  }
  return -1;
}
// The host box of lane h at depth z under time t (within slack), or -1.
/** @param {TimelineState} tl */
function hitHostDepth(tl, h, z, t, slack) {
  if (z < 0 || z >= h.depths || (h.lod && t >= rawEnd(tl))) return -1;
  const L = h.levels[z];
  for (let j = lowerBound(L.st, t + slack) - 1; j >= 0 && L.endMax[j] + slack >= t; j--) {
    if (h.s[L.ix[j]] + h.d[L.ix[j]] + slack >= t) return L.ix[j];
  }
  return -1;
}
// The host box under (y, t) on host row r: at the depth of that y, or on a collapsed thread's
// summary row the innermost box at t (the one drawn on top); -1 for none.
/** @param {TimelineState} tl */
export function hitHost(tl, r, y, t, slack) {
  const h = r.host;
  if (!h.collapsed) return hitHostDepth(tl, h, Math.floor((y - r.y - 1) / HOST_ROW_H), t, slack);
  for (let z = h.depths - 1; z >= 0; z--) {
    const i = hitHostDepth(tl, h, z, t, slack);
    if (i >= 0) return i;
  }
  return -1;
}

/** @param {TimelineState} tl */
function showLines(tl, lines, x, y) {
  const tip = tl.tip;
  tip.replaceChildren(...lines.map(([k, v]) => el('div', null, k ? el('b', { text: k + ': ' }) : null, v)));
  tip.hidden = false;
  tip.style.left = Math.min(x + 14, tl.cssW - 470) + 'px';
  tip.style.top = y + 16 + 'px';
}

// The tooltip's lines for a gap row, a host row or a stream lane at time t; null: nothing there.
/** @param {TimelineState} tl */
function tipLines(tl, row, y, t, slack) {
  const { T, names, variants } = tl;
  if (row.kind === 'gaps') {
    const gg = row.gaps;
    for (let i = lowerBound(gg.s, t + slack) - 1; i >= 0 && gg.s[i] >= t - gg.maxLen - slack; i--) {
      if (gg.s[i] + gg.len[i] + slack >= t) {
        return [['Idle gap', fmtNs(gg.len[i])], ['Cause', T.gap_causes[gg.cause[i]].replace(/_/g, ' ')], ['Start', fmtNs(gg.s[i])]];
      }
    }
    return null;
  }
  if (row.kind === 'memory') return memoryTipLines(row.mem, t);
  if (row.kind === 'host') {
    const h = row.host, i = hitHost(tl, row, y, t, slack), z = Math.floor((y - row.y - 1) / HOST_ROW_H);
    if (i >= 0) return [[tl.hostKinds[h.k[i]], names[h.n[i]]], ['Duration', fmtNs(h.d[i])], ['Start', fmtNs(h.s[i])], ['Thread', h.label]];
    if (h.lod && !h.collapsed && z < h.lod.length && !hostRanges(tl, h)) {
      const lv = h.lod[z][levelFor({ lod: h.lod[z] }, slack)], b = Math.floor(t / lv.w);
      if (b < 0 || b >= lv.busy.length || !lv.busy[b]) return null;
      return [['Bucket', `${fmtNs(b * lv.w)} – ${fmtNs((b + 1) * lv.w)}`], ['Busy', fmtPct((100 * lv.busy[b]) / 255, 0)],
        ['Most time', lv.dom[b] ? names[lv.dom[b] - 1] : '–'], ['', 'zoom in for single boxes']];
    }
    return null;
  }
  const l = row.lane;
  const range = t < rawEnd(tl) ? rawRange(tl, l) : null;
  if (range) {
    const hit = hitKernel(l, t, slack, range);
    if (hit < 0) return null;
    const vv = variants[l.v[hit]], kind = vv[VARIANT.kind];
    return [[kind === 'kernel' ? 'Kernel' : kind === 'memset' ? 'Memset' : 'Memcpy', names[vv[VARIANT.name]]], ['Op', names[vv[VARIANT.op]] || '–'],
      ['Backend', vv[VARIANT.backend]], ['Duration', fmtNs(l.d[hit])], ['Start', fmtNs(l.s[hit])], ['Grid', vv[VARIANT.grid] || '–'],
      ['Block', vv[VARIANT.block] || '–'], ['Occupancy', `${fmtFrac(vv[VARIANT.occupancy])} theoretical, ${fmtFrac(vv[VARIANT.achieved])} achieved`]];
  }
  const lv = l.lod[levelFor(l, slack)], b = Math.floor(t / lv.w);
  if (b < 0 || b >= lv.busy.length || !lv.busy[b]) return null;
  const vv = variants[lv.dom[b] - 1];
  return [['Bucket', `${fmtNs(b * lv.w)} – ${fmtNs((b + 1) * lv.w)}`], ['Busy', fmtPct((100 * lv.busy[b]) / 255, 0)],
    ['Most time', vv ? names[vv[VARIANT.name]] : '–'], ['', 'zoom in for single kernels']];
}

/** @param {TimelineState} tl */
export function showTip(tl, x, y) {
  const row = rowAt(tl, y);
  const lines = x >= LABEL_W && row ? tipLines(tl, row, y, tOf(tl, x), slackOf(tl)) : null;
  if (!lines) { tl.tip.hidden = true; return; }
  showLines(tl, lines, x, y);
}
