// @ts-check
// One frame of the timeline: the ruler, every row (gap rows, host threads, stream lanes, memory
// lanes), then the overlays; the frame's stats for the tests and the info line.
import { TM } from './page.js';
import { fmtInt, fmtNs } from './format.js';
import { GAP_ROW_H, LABEL_W, LANE_H, RULER_H, colorOfVariant, cv, gapColour, lowerBound } from './timeline_state.js';
import { levelFor, niceStep, plotW, rawEnd, rawRange, xOf } from './timeline_view.js';
import { rowH } from './timeline_layout.js';
import { drawHostRow } from './timeline_draw_host.js';
import { drawArrows, drawPath, drawSelection, drawSteps } from './timeline_overlay.js';
import { MEMORY_ROW_H, drawMemoryRow } from './timeline_memory.js';

/** @typedef {import('./timeline_state.js').TimelineState} TimelineState */

// A device's idle gaps, coloured by cause. A gap narrower than half a pixel is not marked:
// zoomed out, thousands of 100 µs gaps would paint the whole row. Zoom in to see them.
/** @param {TimelineState} tl */
function drawGapRow(tl, ctx, r) {
  const gg = r.gaps, { view, stats } = tl;
  ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, r.y, plotW(tl), GAP_ROW_H); ctx.clip();
  let lastPx = -1, lastCause = -1;
  for (let i = lowerBound(gg.s, view.v0 - gg.maxLen), e = lowerBound(gg.s, view.v1); i < e; i++) {
    const x0 = xOf(tl, gg.s[i]), x1 = xOf(tl, gg.s[i] + gg.len[i]);
    if (x1 < LABEL_W || x1 - x0 < 0.5 || (x1 - x0 < 1 && Math.floor(x0) === lastPx)) continue;
    lastPx = Math.floor(x0);
    if (gg.cause[i] !== lastCause) { lastCause = gg.cause[i]; ctx.fillStyle = gapColour(tl, lastCause); }
    ctx.fillRect(x0, r.y + 1, Math.max(1, x1 - x0), GAP_ROW_H - 2);
    stats.gapsDrawn++;
  }
  ctx.restore();
}

// A stream lane: its raw boxes where they serve the window (one per pixel at most), then the
// buckets of its LOD level from where raw boxes end. Returns the boxes and buckets drawn.
/** @param {TimelineState} tl */
function drawLaneRow(tl, ctx, r, nsPerPx) {
  const l = r.lane, y = r.y, { view, stats } = tl, W = plotW(tl);
  let drawn = 0;
  ctx.fillStyle = cv('--lane-bg'); ctx.fillRect(LABEL_W, y, W, LANE_H);
  ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, y, W, LANE_H); ctx.clip();
  const range = rawRange(tl, l);
  let lodFrom = 0; // buckets are drawn from this time on
  if (range) {
    stats.mode.push(view.v1 > rawEnd(tl) ? 'raw+lod' : 'raw');
    lodFrom = rawEnd(tl);
    let lastPx = -1, lastColour = '';
    for (let i = range[0]; i < range[1]; i++) {
      const x0 = xOf(tl, l.s[i]), x1 = xOf(tl, l.s[i] + l.d[i]);
      if (x1 < LABEL_W) continue;
      const w = x1 - x0;
      if (w < 1) { const px = Math.floor(x0); if (px === lastPx) continue; lastPx = px; } // one box per pixel
      const colour = colorOfVariant(tl, l.v[i]);
      if (colour !== lastColour) { ctx.fillStyle = colour; lastColour = colour; } // parsing a colour costs more than a rect
      if (tl.highlight) ctx.globalAlpha = tl.highlight[l.v[i]] ? 1 : 0.15;
      ctx.fillRect(x0, y + 1, Math.max(1, w), LANE_H - 2);
      drawn++;
    }
    ctx.globalAlpha = 1;
  }
  if (lodFrom < view.v1) {
    const lv = l.lod[levelFor(l, nsPerPx)];
    if (!range) stats.mode.push('lod:' + lv.w);
    const muted = cv('--muted');
    let lastColour = '';
    const b0 = Math.max(0, Math.floor(Math.max(view.v0, lodFrom) / lv.w)), b1 = Math.min(lv.busy.length - 1, Math.ceil(view.v1 / lv.w));
    for (let b = b0; b <= b1; b++) {
      const busy = lv.busy[b];
      if (!busy) continue;
      const x0 = xOf(tl, Math.max(b * lv.w, lodFrom)), x1 = xOf(tl, (b + 1) * lv.w);
      const h = Math.max(2, ((LANE_H - 2) * busy) / 255);
      const colour = lv.dom[b] ? colorOfVariant(tl, lv.dom[b] - 1) : muted;
      if (colour !== lastColour) { ctx.fillStyle = colour; lastColour = colour; }
      ctx.fillRect(x0, y + LANE_H - h, Math.max(1, x1 - x0), h);
      drawn++;
    }
  }
  ctx.restore();
  return drawn;
}

/** @param {TimelineState} tl */
export function draw(tl) {
  const { view, stats, T, canvas, cssW, cssH } = tl;
  tl.pending = false;
  const t0 = performance.now();
  const ctx = canvas.getContext('2d');
  ctx.setTransform(tl.dpr, 0, 0, tl.dpr, 0, 0);
  ctx.fillStyle = cv('--bg'); ctx.fillRect(0, 0, cssW, cssH);
  const W = plotW(tl), nsPerPx = (view.v1 - view.v0) / W;
  // Ruler: time since the first kernel.
  ctx.fillStyle = cv('--muted'); ctx.strokeStyle = cv('--line'); ctx.font = '11px system-ui, sans-serif';
  const step = niceStep(view.v1 - view.v0, W);
  ctx.textAlign = 'center';
  for (let t = Math.ceil(view.v0 / step) * step; t <= view.v1; t += step) {
    const x = xOf(tl, t);
    ctx.beginPath(); ctx.moveTo(x, RULER_H - 6); ctx.lineTo(x, cssH); ctx.globalAlpha = 0.35; ctx.stroke(); ctx.globalAlpha = 1;
    ctx.fillText(fmtNs(t), x, RULER_H - 10);
  }
  ctx.textAlign = 'left';
  ctx.fillText('time since the first device work', 6, RULER_H - 10);
  let drawn = 0;
  stats.memoryDrawn = 0;
  stats.mode = [];
  stats.gapsDrawn = 0;
  stats.hostInWindow = new Array(tl.hostKinds.length).fill(0); // per kind, boxes overlapping the window (drawn or merged into a pixel)
  stats.hostDrawn = 0;
  const memoryColours = { laneBg: cv('--lane-bg'), allocated: cv('--memory-allocated'), reserved: cv('--memory-reserved'), peak: cv('--memory-peak') };
  for (const r of tl.rows) {
    const y = r.y;
    ctx.fillStyle = cv('--fg'); ctx.font = '12px system-ui, sans-serif';
    ctx.save(); ctx.beginPath(); ctx.rect(0, y, LABEL_W - 6, rowH(r)); ctx.clip();
    ctx.fillText(r.label, 6, y + (r.kind === 'gaps' ? 9 : r.kind === 'host' ? 11 : 14)); ctx.restore();
    if (r.kind === 'gaps') drawGapRow(tl, ctx, r);
    else if (r.kind === 'host') drawHostRow(tl, ctx, r, nsPerPx);
    else if (r.kind === 'memory') stats.memoryDrawn += drawMemoryRow(ctx, r.mem, y, MEMORY_ROW_H, LABEL_W, W, (t) => xOf(tl, t), view.v0, memoryColours);
    else drawn += drawLaneRow(tl, ctx, r, nsPerPx);
  }
  drawSteps(tl, ctx);
  drawPath(tl, ctx);
  drawSelection(tl, ctx);
  drawArrows(tl, ctx);
  if (!T.raw_complete && T.raw_until_ns >= view.v0 && T.raw_until_ns <= view.v1) {
    const x = xOf(tl, T.raw_until_ns);
    ctx.strokeStyle = cv('--accent'); ctx.setLineDash([4, 4]);
    ctx.beginPath(); ctx.moveTo(x, RULER_H); ctx.lineTo(x, cssH); ctx.stroke(); ctx.setLineDash([]);
  }
  stats.drawn = drawn;
  stats.frames++;
  stats.frameMs = performance.now() - t0;
  if (stats.frames === 1) { TM.timings.first_frame_start_ms = t0; TM.timings.first_frame_ms = performance.now(); }
  tl.info.textContent = `Window ${fmtNs(view.v0)} – ${fmtNs(view.v1)} (${fmtNs(view.v1 - view.v0)} wide, ${fmtNs(nsPerPx)} per pixel); ` +
    `${fmtInt(drawn)} kernel boxes and ${fmtInt(stats.hostDrawn)} host boxes drawn${stats.mode.some((m) => m.includes('lod')) ? ' (bucketed: zoom in for single boxes)' : ''}.`;
}
