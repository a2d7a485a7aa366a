// @ts-check
// What is drawn over the rows: ProfilerStep boundaries, the critical path of the step the Ranks
// section shows, the selection's outline and its launch arrows.
import { HOST_ROW_H, LABEL_W, LANE_H, RULER_H, cv } from './timeline_state.js';
import { plotW, xOf } from './timeline_view.js';
import { hostY, inputOf, rowH } from './timeline_layout.js';

/** @typedef {import('./timeline_state.js').TimelineState} TimelineState */

// ProfilerStep boundaries: a dashed line at each step's start (and the last one's end) across
// its input's rows, "#N" in the ruler.
/** @param {TimelineState} tl */
export function drawSteps(tl, ctx) {
  const { view, stats, rows } = tl;
  stats.stepMarkers = 0;
  ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, 0, plotW(tl), tl.cssH); ctx.clip();
  ctx.strokeStyle = cv('--step'); ctx.fillStyle = cv('--step'); ctx.setLineDash([3, 3]);
  ctx.font = '10px system-ui, sans-serif'; ctx.textAlign = 'left';
  const labelled = []; // ruler x of the "#N" labels drawn: the ranks' steps would overprint
  for (const [input, steps] of tl.stepsByInput) {
    const mine = rows.filter((r) => inputOf(r) === input);
    if (!mine.length) continue;
    const top = mine[0].y, bottom = mine[mine.length - 1].y + rowH(mine[mine.length - 1]);
    steps.forEach((st, i) => {
      const edges = i === steps.length - 1 ? [st.s, st.e] : [st.s];
      for (const t of edges) {
        if (t < view.v0 || t > view.v1) continue;
        const x = xOf(tl, t);
        ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke();
      }
      if (st.s >= view.v0 && st.s <= view.v1) {
        stats.stepMarkers++;
        const x = xOf(tl, st.s);
        if (labelled.every((lx) => Math.abs(lx - x) > 30)) { labelled.push(x); ctx.fillText('#' + st.number, x + 2, RULER_H - 1); }
      }
    });
  }
  ctx.setLineDash([]);
  ctx.restore();
}

// The critical path (tl.path): a bar per piece along the top of its rank's busiest host row
// (host pieces) or first stream lane (the others), coloured by category, joined by a line where
// the path moves to another row.
/** @param {TimelineState} tl */
export function drawPath(tl, ctx) {
  const { stats } = tl, W = plotW(tl);
  stats.pathPieces = 0; stats.pathRows = 0;
  if (!tl.path) return;
  ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, RULER_H, W, tl.cssH); ctx.clip();
  const used = new Set();
  let prev = null;
  for (const p of tl.path) {
    const r = (p.category === 'host' && tl.busiestHost.get(p.input)) || tl.firstLane.get(p.input);
    if (!r) continue;
    const x0 = xOf(tl, p.s), x1 = xOf(tl, p.e);
    if (prev && prev !== r) {
      ctx.strokeStyle = cv('--fg'); ctx.lineWidth = 1;
      ctx.beginPath(); ctx.moveTo(x0, prev.y + 2); ctx.lineTo(x0, r.y + 2); ctx.stroke();
    }
    prev = r;
    if (x1 < LABEL_W || x0 > LABEL_W + W) continue;
    ctx.fillStyle = cv('--cp-' + p.category.replace(/_/g, '-'));
    ctx.fillRect(x0, r.y, Math.max(1, x1 - x0), 4);
    stats.pathPieces++;
    used.add(r);
  }
  stats.pathRows = used.size;
  ctx.restore();
}

/** @param {TimelineState} tl */
export function drawSelection(tl, ctx) {
  const selected = tl.selected, W = plotW(tl);
  if (!selected) return;
  let x0, x1, y, hgt;
  if (selected.kind === 'kernel') {
    const l = selected.lane, i = selected.i;
    x0 = xOf(tl, l.s[i]); x1 = xOf(tl, l.s[i] + l.d[i]); y = tl.rowOfLane.get(l).y; hgt = LANE_H;
  } else {
    const { h, i } = selected;
    if (h.depth[i] >= h.depths) return;
    x0 = xOf(tl, h.s[i]); x1 = xOf(tl, h.s[i] + h.d[i]); y = hostY(tl, selected); hgt = HOST_ROW_H - 1;
  }
  if (x1 < LABEL_W || x0 > LABEL_W + W) return;
  ctx.save(); ctx.strokeStyle = cv('--focus'); ctx.lineWidth = 2;
  ctx.strokeRect(Math.max(LABEL_W, x0) - 1, y - 1, Math.max(2, Math.min(x1, LABEL_W + W) - Math.max(LABEL_W, x0)) + 2, hgt + 2);
  ctx.restore();
}

// Launch arrows: from the launch call's box (its start, below it) to the kernel's start; the
// launch calls outlined.
/** @param {TimelineState} tl */
export function drawArrows(tl, ctx) {
  const { stats, links } = tl, W = plotW(tl);
  stats.arrows = 0;
  if (!links.length) return;
  ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, RULER_H, W, tl.cssH); ctx.clip();
  ctx.strokeStyle = ctx.fillStyle = cv('--arrow'); ctx.lineWidth = 1.5;
  const outlined = new Set();
  for (const { from } of links) {
    const key = from.h.box_base + from.i;
    if (outlined.has(key) || from.h.depth[from.i] >= from.h.depths) continue;
    outlined.add(key);
    const x0 = xOf(tl, from.h.s[from.i]), x1 = xOf(tl, from.h.s[from.i] + from.h.d[from.i]);
    ctx.strokeRect(x0 - 1, hostY(tl, from) - 1, Math.max(2, x1 - x0) + 2, HOST_ROW_H + 1);
  }
  for (const { from, to } of links) {
    if (from.h.depth[from.i] >= from.h.depths) continue;
    const fx = xOf(tl, from.h.s[from.i]), fy = hostY(tl, from) + HOST_ROW_H - 1;
    const tx = xOf(tl, to.lane.s[to.i]), ty = tl.rowOfLane.get(to.lane).y;
    if (Math.max(fx, tx) < LABEL_W || Math.min(fx, tx) > LABEL_W + W) continue;
    const bend = Math.min(40, Math.abs(ty - fy) / 2);
    ctx.beginPath(); ctx.moveTo(fx, fy); ctx.bezierCurveTo(fx, fy + bend, tx, ty - bend, tx, ty - 1); ctx.stroke();
    ctx.beginPath(); ctx.moveTo(tx, ty); ctx.lineTo(tx - 4, ty - 7); ctx.lineTo(tx + 4, ty - 7); ctx.closePath(); ctx.fill();
    stats.arrows++;
  }
  ctx.restore();
}
