// @ts-check
// A host thread's row: its boxes one row per nesting depth (ops and annotations coloured by name,
// runtime and driver calls in one colour, names written into boxes wide enough for them), or the
// LOD buckets where too many boxes are in the window. A collapsed thread draws every depth into
// its one summary row, outer boxes first, so the innermost work shows.
import { colorOfName } from './format.js';
import { HOST_ROW_H, LABEL_W, RAW_LIMIT, cv, isCall, lowerBound } from './timeline_state.js';
import { levelFor, plotW, rawEnd, xOf } from './timeline_view.js';
import { rowH } from './timeline_layout.js';

/** @typedef {import('./timeline_state.js').TimelineState} TimelineState */

// The boxes of host lane h in the window, per depth ([lo, hi) into that depth's boxes), when
// they are embedded and few enough; null: draw its buckets. A lane without buckets has every
// box embedded (host_lanes.h), so it is drawn box by box at any zoom.
/** @param {TimelineState} tl */
export function hostRanges(tl, h) {
  const { view } = tl;
  if (h.lod && view.v0 >= rawEnd(tl)) return null;
  const end = h.lod ? Math.min(view.v1, rawEnd(tl)) : view.v1;
  let total = 0;
  const ranges = h.levels.map((L) => {
    const lo = lowerBound(L.endMax, view.v0), hi = lowerBound(L.st, end);
    total += Math.max(0, hi - lo);
    return [lo, hi];
  });
  return h.lod && total > RAW_LIMIT ? null : ranges;
}

/** @param {TimelineState} tl */
export function drawHostRow(tl, ctx, r, nsPerPx) {
  const { view, stats, names } = tl, h = r.host, H = rowH(r), W = plotW(tl);
  const depthY = (z) => r.y + 1 + (h.collapsed ? 0 : z * HOST_ROW_H);
  ctx.fillStyle = cv('--lane-bg'); ctx.fillRect(LABEL_W, r.y, W, H);
  ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, r.y, W, H); ctx.clip();
  const ranges = hostRanges(tl, h), callColour = cv('--host-call'), labels = [];
  if (ranges) {
    stats.mode.push('host-raw');
    ranges.forEach(([lo, hi], z) => {
      const L = h.levels[z], y = depthY(z);
      let lastPx = -1, lastColour = '';
      for (let j = lo; j < hi; j++) {
        const i = L.ix[j], a = h.s[i], b = a + h.d[i];
        if (b < view.v0) continue;
        if (b > view.v0 && a < view.v1) stats.hostInWindow[h.k[i]]++;
        const x0 = xOf(tl, a), x1 = xOf(tl, b), w = x1 - x0;
        if (w < 1) { const px = Math.floor(x0); if (px === lastPx) continue; lastPx = px; }
        const colour = isCall(tl, h.k[i]) ? callColour : colorOfName(names[h.n[i]]);
        if (colour !== lastColour) { ctx.fillStyle = colour; lastColour = colour; }
        if (tl.nameHit) ctx.globalAlpha = tl.nameHit[h.n[i]] ? 1 : 0.15;
        ctx.fillRect(x0, y, Math.max(1, w), HOST_ROW_H - 1);
        stats.hostDrawn++;
        const left = Math.max(x0, LABEL_W), room = Math.min(x1, LABEL_W + W) - left;
        if (room > 40 && !h.collapsed) labels.push([left, y, room, names[h.n[i]]]);
      }
      ctx.globalAlpha = 1;
    });
  }
  if (h.lod && (!ranges || view.v1 > rawEnd(tl))) {
    const from = ranges ? rawEnd(tl) : -Infinity;
    stats.mode.push('host-lod');
    h.lod.forEach((levels, z) => {
      if (z >= h.depths) return;
      const lv = levels[levelFor({ lod: levels }, nsPerPx)], y = depthY(z);
      const b0 = Math.max(0, Math.floor(Math.max(view.v0, from) / lv.w)), b1 = Math.min(lv.busy.length - 1, Math.ceil(view.v1 / lv.w));
      let lastColour = '';
      for (let b = b0; b <= b1; b++) {
        if (!lv.busy[b]) continue;
        const x0 = xOf(tl, Math.max(b * lv.w, from)), x1 = xOf(tl, (b + 1) * lv.w);
        const hgt = Math.max(2, ((HOST_ROW_H - 1) * lv.busy[b]) / 255);
        const colour = lv.dom[b] ? colorOfName(names[lv.dom[b] - 1]) : cv('--muted');
        if (colour !== lastColour) { ctx.fillStyle = colour; lastColour = colour; }
        ctx.fillRect(x0, y + HOST_ROW_H - 1 - hgt, Math.max(1, x1 - x0), hgt);
        stats.hostDrawn++;
      }
    });
  }
  // Names over the boxes (not in a collapsed row, where they would overprint).
  ctx.fillStyle = cv('--box-text'); ctx.font = '9px system-ui, sans-serif';
  for (const [x, y, room, name] of labels) {
    const chars = Math.floor((room - 4) / 5);
    ctx.fillText(name.length > chars ? name.slice(0, chars - 1) + '…' : name, x + 2, y + 9);
  }
  ctx.restore();
}
