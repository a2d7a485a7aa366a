// @ts-check
// The Timeline: host threads and device lanes on one canvas, with zoom, pan, search, selection
// and keys. (One module for now; to be split into decode, layout, draw, hit-testing, selection
// and keys.)
import { D, TM, kernelKey, kernelRowOf } from './page.js';
import { colorOfName, el, fmtFrac, fmtInt, fmtNs, fmtPct } from './format.js';
import { shownStepOf } from './ranks.js';
import { MEMORY_ROW_H, decodeMemoryLanes, drawMemoryRow, memoryTipLines, showMemoryDetails } from './timeline_memory.js';

// ---------- timeline ----------
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
  const MAX_HOST_DEPTH = 64; // host rows per thread; deeper boxes are counted in the label
  const decodeLod = (levels) => levels.map((x) => ({ w: x.bucket_ns, busy: Uint8Array.from(x.busy), dom: Uint32Array.from(x.dom) }));
  const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById('tl-canvas'));
  const tip = document.getElementById('tl-tip');
  const info = document.querySelector('#timeline .tl-info');
  const names = T.names, variants = T.variants;
  const lanes = T.lanes.map((l) => {
    // Decode the delta-encoded starts once (timeline_lanes.h).
    const n = l.s.length, s = new Float64Array(n), d = new Float64Array(n), v = new Uint32Array(n);
    let t = 0;
    for (let i = 0; i < n; i++) { t += l.s[i]; s[i] = t; d[i] = l.d[i]; v[i] = l.v[i]; }
    // "rank 0 · cuda:0 · stream 7": the device's name is in the summary and the tooltip.
    const label = (l.rank !== undefined ? `rank ${l.rank} · ` : '') + `${l.device.split(' ')[0]} · stream ${l.stream}`;
    // lb / ob: the host box ids of each box's launch call and op (-1: none), when it has any;
    // embedded as differences from the last id given, null for none.
    const ids = (deltas) => {
      if (!deltas) return null;
      const out = new Int32Array(deltas.length);
      let id = 0;
      for (let i = 0; i < deltas.length; i++) out[i] = deltas[i] === null ? -1 : (id += deltas[i]);
      return out;
    };
    const lb = ids(l.lb), ob = ids(l.ob);
    return { ...l, s, d, v, lb, ob, label, lod: decodeLod(l.lod) };
  });
  // Host lanes (host_lanes.h): one per thread, boxes nested by depth. Per depth the boxes' starts
  // and the running maximum of their ends, so a window's first box is a binary search away even
  // under a ProfilerStep that spans the whole trace.
  const hostKinds = T.host_kinds || [], hostLabels = T.host_labels || [];
  const pythonKind = hostKinds.indexOf('python');
  let showPython = true; // the "Python frames" box of the legend
  const isCall = (k) => hostKinds[k] === 'runtime' || hostKinds[k] === 'driver' || hostKinds[k] === 'sync';
  const hostLanes = (T.host_lanes || []).map((h, index) => {
    const n = h.s.length, s = new Float64Array(n), d = new Float64Array(n), parent = new Int32Array(n);
    const name = new Uint32Array(n), kind = new Uint8Array(n); // from the box's label [name, kind]
    let t = 0;
    for (let i = 0; i < n; i++) {
      t += h.s[i]; s[i] = t; d[i] = h.d[i];
      const label = hostLabels[h.n[i]];
      name[i] = label[0]; kind[i] = label[1];
      parent[i] = h.p[i] ? i - h.p[i] : -1;
    }
    const thread = (h.rank !== undefined ? `rank ${h.rank} · ` : '') + h.thread + (h.tid !== undefined && !h.thread.includes(String(h.tid)) ? ` (${h.tid})` : '');
    const lane = { ...h, index, s, d, n: name, k: kind, parent, thread, layouts: [], lod: h.lod ? h.lod.map(decodeLod) : null };
    applyLayout(lane);
    return lane;
  });
  // A lane's rows: one per nesting depth, Python frames included or left out (then an op under
  // a Python frame sits one row below its nearest non-Python box). Per depth the boxes by start
  // and the running maximum of their ends.
  function layoutOf(h, withPython) {
    const n = h.s.length, depth = new Uint16Array(n), HIDDEN = 0xffff;
    let max = 0;
    for (let i = 0; i < n; i++) {
      const p = h.parent[i];
      depth[i] = p < 0 ? 0 : depth[p] + (withPython || h.k[p] !== pythonKind ? 1 : 0);
    }
    for (let i = 0; i < n; i++) {
      if (!withPython && h.k[i] === pythonKind) depth[i] = HIDDEN;
      else max = Math.max(max, depth[i] + 1);
    }
    const depths = Math.max(1, Math.min(max, MAX_HOST_DEPTH));
    const members = Array.from({ length: depths }, () => []);
    for (let i = 0; i < n; i++) if (depth[i] < depths) members[depth[i]].push(i);
    const levels = members.map((m) => {
      const ix = Uint32Array.from(m), st = new Float64Array(ix.length), endMax = new Float64Array(ix.length);
      let e = -Infinity;
      ix.forEach((b, j) => { st[j] = h.s[b]; e = Math.max(e, h.s[b] + h.d[b]); endMax[j] = e; });
      return { ix, st, endMax };
    });
    const label = h.thread + (max > depths ? ` · ${max - depths} deeper levels not drawn` : '');
    return { depth, depths, levels, label };
  }
  function applyLayout(h) {
    const mode = showPython ? 1 : 0;
    if (!h.layouts[mode]) h.layouts[mode] = layoutOf(h, showPython);
    Object.assign(h, h.layouts[mode]);
  }
  // A host box by its id over all host lanes (box_base + index), or null.
  function hostBox(id) {
    if (id < 0 || !hostLanes.length) return null;
    let lo = 0, hi = hostLanes.length - 1;
    while (lo < hi) { const m = (lo + hi + 1) >> 1; if (hostLanes[m].box_base <= id) lo = m; else hi = m - 1; }
    const h = hostLanes[lo], i = id - h.box_base;
    return i < h.s.length ? { h, i } : null;
  }
  let colorBy = 'kernel';
  let variantColour = new Array(variants.length); // per variant, for the current colorBy
  const colorOfVariant = (vi) => {
    let c = variantColour[vi];
    if (c === undefined) {
      const vv = variants[vi];
      c = variantColour[vi] = colorOfName(colorBy === 'op' && names[vv[1]] ? names[vv[1]] : names[vv[0]]);
    }
    return c;
  };
  // Gaps per device (report_model.cc): delta-encoded starts, lengths and causes (indices into
  // T.gap_causes). They are drawn once per device, on a summary row above its stream lanes.
  const gapGroups = T.gaps.map((g) => {
    const n = g.s.length, s = new Float64Array(n), len = new Float64Array(n), cause = Uint8Array.from(g.c);
    let t = 0, maxLen = 0;
    for (let i = 0; i < n; i++) { t += g.s[i]; s[i] = t; len[i] = g.l[i]; maxLen = Math.max(maxLen, g.l[i]); }
    return { input: g.input, device_index: g.device_index, s, len, cause, maxLen };
  });
  // Memory lanes (timeline_memory.js): per device with allocator records.
  const memoryLanes = decodeMemoryLanes(D.memory, T.t0_ns || 0);
  // The rows drawn, top to bottom: per input its host threads, then per device its gap row (when
  // it has gaps), its stream lanes and its memory lane.
  const rows = [];
  lanes.forEach((l, i) => {
    const prev = lanes[i - 1];
    if (!prev || prev.input !== l.input) {
      for (const h of hostLanes) if (h.input === l.input) rows.push({ kind: 'host', host: h, label: h.label });
    }
    if (!prev || prev.input !== l.input || prev.device_index !== l.device_index) {
      const g = gapGroups.find((x) => x.input === l.input && x.device_index === l.device_index);
      if (g && g.s.length) {
        rows.push({ kind: 'gaps', gaps: g, label: (l.rank !== undefined ? `rank ${l.rank} · ` : '') + `${l.device.split(' ')[0]} · idle gaps` });
      }
    }
    rows.push({ kind: 'lane', lane: l, label: l.label });
    // After a device's last stream lane, its memory lane (allocator records).
    const next = lanes[i + 1];
    if (!next || next.input !== l.input || next.device_index !== l.device_index) {
      for (const m of memoryLanes) {
        if (m.input === l.input && m.deviceIndex === l.device_index) {
          rows.push({ kind: 'memory', mem: m, label: (l.rank !== undefined ? `rank ${l.rank} · ` : '') + `${l.device.split(' ')[0]} · memory` });
        }
      }
    }
  });
  // Steps per input (ProfilerStep#N, host time): boundaries across that input's rows.
  const stepsByInput = new Map();
  for (const st of T.steps || []) {
    if (!stepsByInput.has(st.input)) stepsByInput.set(st.input, []);
    stepsByInput.get(st.input).push(st);
  }
  const gapColour = (c) => cv('--gap-' + T.gap_causes[c]);
  const LABEL_W = 260, RULER_H = 26, LANE_H = 22, LANE_GAP = 4, GAP_ROW_H = 10, HOST_ROW_H = 12;
  const rowH = (r) => (r.kind === 'gaps' ? GAP_ROW_H : r.kind === 'host' ? r.host.depths * HOST_ROW_H + 2 : r.kind === 'memory' ? MEMORY_ROW_H : LANE_H);
  const inputOf = (r) => (r.kind === 'lane' ? r.lane.input : r.kind === 'gaps' ? r.gaps.input : r.kind === 'memory' ? r.mem.input : r.host.input);
  let cssH = 0;
  function relayout() { // rows' tops and the canvas height, after a host lane's rows changed
    let yAt = RULER_H;
    for (const r of rows) {
      if (r.kind === 'host') r.label = r.host.label;
      r.y = yAt; yAt += rowH(r) + LANE_GAP;
    }
    cssH = yAt + 8;
    if (TM.timeline) {
      TM.timeline.laneTops = rows.filter((r) => r.kind === 'lane').map((r) => r.y);
      TM.timeline.hostTops = rows.filter((r) => r.kind === 'host').map((r) => r.y);
      TM.timeline.memoryTops = rows.filter((r) => r.kind === 'memory').map((r) => r.y);
    }
  }
  relayout();
  // The whole timeline: the kernels' span, widened to the steps (the first step begins on the
  // host before the first kernel).
  const full = { a: 0, b: Math.max(1, T.span_ns) };
  for (const st of T.steps || []) { full.a = Math.min(full.a, st.s); full.b = Math.max(full.b, st.e); }
  const view = { v0: full.a, v1: full.b };
  const stats = { mode: [], drawn: 0, frameMs: 0, frames: 0 };
  TM.timeline = { view, stats, lanes: lanes.length, laneTops: rows.filter((r) => r.kind === 'lane').map((r) => r.y), gapRows: rows.filter((r) => r.kind === 'gaps').length,
    hostLanes: hostLanes.length, hostTops: rows.filter((r) => r.kind === 'host').map((r) => r.y), hostRowH: HOST_ROW_H, labelW: LABEL_W,
    steps: (T.steps || []).length, span_ns: T.span_ns,
    memoryLanes: rows.filter((r) => r.kind === 'memory').map((r) => ({ device: r.mem.device.device, top: r.y, peak_ns: r.mem.peakT })),
    memoryTops: rows.filter((r) => r.kind === 'memory').map((r) => r.y),
    memoryRowH: MEMORY_ROW_H };
  let cssW = 0, dpr = 1, pending = false;

  const style = getComputedStyle(document.documentElement);
  const cv = (name) => style.getPropertyValue(name).trim();

  function resize() {
    dpr = window.devicePixelRatio || 1;
    cssW = canvas.clientWidth || 1000;
    canvas.width = Math.round(cssW * dpr);
    canvas.height = Math.round(cssH * dpr);
    canvas.style.height = cssH + 'px';
    schedule();
  }
  function schedule() { if (!pending) { pending = true; requestAnimationFrame(draw); } }
  const plotW = () => Math.max(10, cssW - LABEL_W - 10);
  const xOf = (t) => LABEL_W + ((t - view.v0) / (view.v1 - view.v0)) * plotW();
  const tOf = (x) => view.v0 + ((x - LABEL_W) / plotW()) * (view.v1 - view.v0);
  function lowerBound(a, x) { let lo = 0, hi = a.length; while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] < x) lo = m + 1; else hi = m; } return lo; }
  // Raw boxes serve a window when they cover it (everything starting before raw_until_ns is
  // embedded) and it holds few enough to draw; else the LOD level just finer than a pixel.
  const RAW_LIMIT = 40000; // boxes per lane per frame; beyond, buckets keep frames short
  // Left of raw_until_ns, raw boxes when few enough; right of it (capped reports) always buckets.
  const rawEnd = () => (T.raw_complete ? Infinity : T.raw_until_ns);
  function rawRange(l) {
    if (view.v0 >= rawEnd()) return null;
    const lo = lowerBound(l.s, view.v0 - l.max_duration_ns), hi = lowerBound(l.s, Math.min(view.v1, rawEnd()));
    return hi - lo <= RAW_LIMIT ? [lo, hi] : null;
  }
  function levelFor(l, nsPerPx) {
    let best = 0;
    for (let i = 0; i < l.lod.length; i++) if (l.lod[i].w <= nsPerPx) best = i;
    return best;
  }
  function niceStep(range, px) {
    const raw = range / Math.max(1, px / 110), p = 10 ** Math.floor(Math.log10(raw));
    for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
    return 10 * p;
  }

  // A device's idle gaps, coloured by cause. A gap narrower than half a pixel is not marked:
  // zoomed out, thousands of 100 µs gaps would paint the whole row. Zoom in to see them.
  function drawGapRow(ctx, r) {
    const gg = r.gaps;
    ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, r.y, plotW(), GAP_ROW_H); ctx.clip();
    let lastPx = -1, lastCause = -1;
    for (let i = lowerBound(gg.s, view.v0 - gg.maxLen), e = lowerBound(gg.s, view.v1); i < e; i++) {
      const x0 = xOf(gg.s[i]), x1 = xOf(gg.s[i] + gg.len[i]);
      if (x1 < LABEL_W || x1 - x0 < 0.5 || (x1 - x0 < 1 && Math.floor(x0) === lastPx)) continue;
      lastPx = Math.floor(x0);
      if (gg.cause[i] !== lastCause) { lastCause = gg.cause[i]; ctx.fillStyle = gapColour(lastCause); }
      ctx.fillRect(x0, r.y + 1, Math.max(1, x1 - x0), GAP_ROW_H - 2);
      stats.gapsDrawn++;
    }
    ctx.restore();
  }
  // ProfilerStep boundaries: a dashed line at each step's start (and the last one's end) across
  // its input's rows, "#N" in the ruler.
  function drawSteps(ctx) {
    stats.stepMarkers = 0;
    ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, 0, plotW(), cssH); ctx.clip();
    ctx.strokeStyle = cv('--step'); ctx.fillStyle = cv('--step'); ctx.setLineDash([3, 3]);
    ctx.font = '10px system-ui, sans-serif'; ctx.textAlign = 'left';
    const labelled = []; // ruler x of the "#N" labels drawn: the ranks' steps would overprint
    for (const [input, steps] of stepsByInput) {
      const mine = rows.filter((r) => inputOf(r) === input);
      if (!mine.length) continue;
      const top = mine[0].y, bottom = mine[mine.length - 1].y + rowH(mine[mine.length - 1]);
      steps.forEach((st, i) => {
        const edges = i === steps.length - 1 ? [st.s, st.e] : [st.s];
        for (const t of edges) {
          if (t < view.v0 || t > view.v1) continue;
          const x = xOf(t);
          ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke();
        }
        if (st.s >= view.v0 && st.s <= view.v1) {
          stats.stepMarkers++;
          const x = xOf(st.s);
          if (labelled.every((lx) => Math.abs(lx - x) > 30)) { labelled.push(x); ctx.fillText('#' + st.number, x + 2, RULER_H - 1); }
        }
      });
    }
    ctx.setLineDash([]);
    ctx.restore();
  }

  // The boxes of host lane h in the window, per depth ([lo, hi) into that depth's boxes), when
  // they are embedded and few enough; null: draw its buckets. A lane without buckets has every
  // box embedded (host_lanes.h), so it is drawn box by box at any zoom.
  function hostRanges(h) {
    if (h.lod && view.v0 >= rawEnd()) return null;
    const end = h.lod ? Math.min(view.v1, rawEnd()) : view.v1;
    let total = 0;
    const ranges = h.levels.map((L) => {
      const lo = lowerBound(L.endMax, view.v0), hi = lowerBound(L.st, end);
      total += Math.max(0, hi - lo);
      return [lo, hi];
    });
    return h.lod && total > RAW_LIMIT ? null : ranges;
  }
  // A thread's boxes, one row per nesting depth: ops and annotations coloured by name, runtime
  // and driver calls in one colour; names written into boxes wide enough for them.
  function drawHostRow(ctx, r, nsPerPx) {
    const h = r.host, H = rowH(r);
    ctx.fillStyle = cv('--lane-bg'); ctx.fillRect(LABEL_W, r.y, plotW(), H);
    ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, r.y, plotW(), H); ctx.clip();
    const ranges = hostRanges(h), callColour = cv('--host-call'), labels = [];
    if (ranges) {
      stats.mode.push('host-raw');
      ranges.forEach(([lo, hi], z) => {
        const L = h.levels[z], y = r.y + 1 + z * HOST_ROW_H;
        let lastPx = -1, lastColour = '';
        for (let j = lo; j < hi; j++) {
          const i = L.ix[j], a = h.s[i], b = a + h.d[i];
          if (b < view.v0) continue;
          if (b > view.v0 && a < view.v1) stats.hostInWindow[h.k[i]]++;
          const x0 = xOf(a), x1 = xOf(b), w = x1 - x0;
          if (w < 1) { const px = Math.floor(x0); if (px === lastPx) continue; lastPx = px; }
          const colour = isCall(h.k[i]) ? callColour : colorOfName(names[h.n[i]]);
          if (colour !== lastColour) { ctx.fillStyle = colour; lastColour = colour; }
          if (nameHit) ctx.globalAlpha = nameHit[h.n[i]] ? 1 : 0.15;
          ctx.fillRect(x0, y, Math.max(1, w), HOST_ROW_H - 1);
          stats.hostDrawn++;
          const left = Math.max(x0, LABEL_W), room = Math.min(x1, LABEL_W + plotW()) - left;
          if (room > 40) labels.push([left, y, room, names[h.n[i]]]);
        }
        ctx.globalAlpha = 1;
      });
    }
    if (h.lod && (!ranges || view.v1 > rawEnd())) {
      const from = ranges ? rawEnd() : -Infinity;
      stats.mode.push('host-lod');
      h.lod.forEach((levels, z) => {
        if (z >= h.depths) return;
        const lv = levels[levelFor({ lod: levels }, nsPerPx)], y = r.y + 1 + z * HOST_ROW_H;
        const b0 = Math.max(0, Math.floor(Math.max(view.v0, from) / lv.w)), b1 = Math.min(lv.busy.length - 1, Math.ceil(view.v1 / lv.w));
        let lastColour = '';
        for (let b = b0; b <= b1; b++) {
          if (!lv.busy[b]) continue;
          const x0 = xOf(Math.max(b * lv.w, from)), x1 = xOf((b + 1) * lv.w);
          const hgt = Math.max(2, ((HOST_ROW_H - 1) * lv.busy[b]) / 255);
          const colour = lv.dom[b] ? colorOfName(names[lv.dom[b] - 1]) : cv('--muted');
          if (colour !== lastColour) { ctx.fillStyle = colour; lastColour = colour; }
          ctx.fillRect(x0, y + HOST_ROW_H - 1 - hgt, Math.max(1, x1 - x0), hgt);
          stats.hostDrawn++;
        }
      });
    }
    ctx.fillStyle = cv('--box-text'); ctx.font = '9px system-ui, sans-serif';
    for (const [x, y, room, name] of labels) {
      const chars = Math.floor((room - 4) / 5);
      ctx.fillText(name.length > chars ? name.slice(0, chars - 1) + '…' : name, x + 2, y + 9);
    }
    ctx.restore();
  }

  function draw() {
    pending = false;
    const t0 = performance.now();
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = cv('--bg'); ctx.fillRect(0, 0, cssW, cssH);
    const nsPerPx = (view.v1 - view.v0) / plotW();
    // Ruler: time since the first kernel.
    ctx.fillStyle = cv('--muted'); ctx.strokeStyle = cv('--line'); ctx.font = '11px system-ui, sans-serif';
    const step = niceStep(view.v1 - view.v0, plotW());
    ctx.textAlign = 'center';
    for (let t = Math.ceil(view.v0 / step) * step; t <= view.v1; t += step) {
      const x = xOf(t);
      ctx.beginPath(); ctx.moveTo(x, RULER_H - 6); ctx.lineTo(x, cssH); ctx.globalAlpha = 0.35; ctx.stroke(); ctx.globalAlpha = 1;
      ctx.fillText(fmtNs(t), x, RULER_H - 10);
    }
    ctx.textAlign = 'left';
    ctx.fillText('time since the first device work', 6, RULER_H - 10);
    let drawn = 0;
    stats.memoryDrawn = 0;
    stats.mode = [];
    stats.gapsDrawn = 0;
    stats.hostInWindow = new Array(hostKinds.length).fill(0); // per kind, boxes overlapping the window (drawn or merged into a pixel)
    stats.hostDrawn = 0;
    rows.forEach((r) => {
      const y = r.y;
      ctx.fillStyle = cv('--fg'); ctx.font = '12px system-ui, sans-serif';
      ctx.save(); ctx.beginPath(); ctx.rect(0, y, LABEL_W - 6, rowH(r)); ctx.clip();
      ctx.fillText(r.label, 6, y + (r.kind === 'gaps' ? 9 : r.kind === 'host' ? 11 : 14)); ctx.restore();
      if (r.kind === 'gaps') { drawGapRow(ctx, r); return; }
      if (r.kind === 'host') { drawHostRow(ctx, r, nsPerPx); return; }
      if (r.kind === 'memory') {
        stats.memoryDrawn = (stats.memoryDrawn || 0) + drawMemoryRow(ctx, r.mem, y, MEMORY_ROW_H, LABEL_W, plotW(), xOf, view.v0,
          { laneBg: cv('--lane-bg'), allocated: cv('--memory-allocated'), reserved: cv('--memory-reserved'), peak: cv('--memory-peak') });
        return;
      }
      const l = r.lane;
      ctx.fillStyle = cv('--lane-bg'); ctx.fillRect(LABEL_W, y, plotW(), LANE_H);
      ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, y, plotW(), LANE_H); ctx.clip();
      const range = rawRange(l);
      let lodFrom = 0; // buckets are drawn from this time on
      if (range) {
        stats.mode.push(view.v1 > rawEnd() ? 'raw+lod' : 'raw');
        lodFrom = rawEnd();
        let lastPx = -1, lastColour = '';
        for (let i = range[0]; i < range[1]; i++) {
          const x0 = xOf(l.s[i]), x1 = xOf(l.s[i] + l.d[i]);
          if (x1 < LABEL_W) continue;
          const w = x1 - x0;
          if (w < 1) { const px = Math.floor(x0); if (px === lastPx) continue; lastPx = px; } // one box per pixel
          const colour = colorOfVariant(l.v[i]);
          if (colour !== lastColour) { ctx.fillStyle = colour; lastColour = colour; } // parsing a colour costs more than a rect
          if (highlight) ctx.globalAlpha = highlight[l.v[i]] ? 1 : 0.15;
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
          const x0 = xOf(Math.max(b * lv.w, lodFrom)), x1 = xOf((b + 1) * lv.w);
          const h = Math.max(2, ((LANE_H - 2) * busy) / 255);
          const colour = lv.dom[b] ? colorOfVariant(lv.dom[b] - 1) : muted;
          if (colour !== lastColour) { ctx.fillStyle = colour; lastColour = colour; }
          ctx.fillRect(x0, y + LANE_H - h, Math.max(1, x1 - x0), h);
          drawn++;
        }
      }
      ctx.restore();
    });
    drawSteps(ctx);
    drawPath(ctx);
    drawSelection(ctx);
    drawArrows(ctx);
    if (!T.raw_complete && T.raw_until_ns >= view.v0 && T.raw_until_ns <= view.v1) {
      const x = xOf(T.raw_until_ns);
      ctx.strokeStyle = cv('--accent'); ctx.setLineDash([4, 4]);
      ctx.beginPath(); ctx.moveTo(x, RULER_H); ctx.lineTo(x, cssH); ctx.stroke(); ctx.setLineDash([]);
    }
    stats.drawn = drawn;
    stats.frames++;
    stats.frameMs = performance.now() - t0;
    if (stats.frames === 1) { TM.timings.first_frame_start_ms = t0; TM.timings.first_frame_ms = performance.now(); }
    info.textContent = `Window ${fmtNs(view.v0)} – ${fmtNs(view.v1)} (${fmtNs(view.v1 - view.v0)} wide, ${fmtNs(nsPerPx)} per pixel); ` +
      `${fmtInt(drawn)} kernel boxes and ${fmtInt(stats.hostDrawn)} host boxes drawn${stats.mode.some((m) => m.includes('lod')) ? ' (bucketed: zoom in for single boxes)' : ''}.`;
  }

  function zoom(factor, atX) {
    const t = tOf(atX === undefined ? LABEL_W + plotW() / 2 : atX);
    let w = (view.v1 - view.v0) * factor;
    w = Math.min(Math.max(w, 200), (full.b - full.a) * 1.05 || 1);
    const f = (t - view.v0) / (view.v1 - view.v0);
    setView(t - f * w, t - f * w + w);
  }
  function pan(frac) { const w = view.v1 - view.v0; setView(view.v0 + frac * w, view.v1 + frac * w); }
  function setView(a, b) {
    const w = b - a, pad = 0.025 * (full.b - full.a), lo = full.a - pad, hi = full.b + pad;
    if (a < lo) { a = lo; b = a + w; }
    if (b > hi) { b = hi; a = Math.max(lo, b - w); }
    view.v0 = a; view.v1 = b;
    schedule();
  }
  TM.timeline.zoom = zoom;
  TM.timeline.setView = setView;

  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) pan((e.deltaX || e.deltaY) / 1000);
    else zoom(Math.pow(1.0015, e.deltaY), e.clientX - r.left);
  }, { passive: false });
  let drag = null;
  canvas.addEventListener('mousedown', (e) => { drag = { x: e.clientX, v0: view.v0, v1: view.v1 }; canvas.style.cursor = 'grabbing'; });
  window.addEventListener('mouseup', (e) => {
    // A press and release in place is a click: select the kernel under it.
    if (drag && e.target === canvas && Math.abs(e.clientX - drag.x) < 3) {
      const r = canvas.getBoundingClientRect();
      selectAt(e.clientX - r.left, e.clientY - r.top);
    }
    drag = null; canvas.style.cursor = 'grab';
  });
  canvas.addEventListener('mousemove', (e) => {
    const r = canvas.getBoundingClientRect();
    if (drag) {
      const dt = ((e.clientX - drag.x) / plotW()) * (drag.v1 - drag.v0);
      setView(drag.v0 - dt, drag.v1 - dt);
      tip.hidden = true;
      return;
    }
    showTip(e.clientX - r.left, e.clientY - r.top);
  });
  canvas.addEventListener('mouseleave', () => { tip.hidden = true; });
  canvas.addEventListener('keydown', (e) => {
    const k = e.key;
    if (k === '+' || k === '=' || k === 'w') zoom(1 / 1.5);
    else if (k === '-' || k === '_' || k === 's') zoom(1.5);
    else if (k === 'ArrowLeft' || k === 'a') pan(-0.15);
    else if (k === 'ArrowRight' || k === 'd') pan(0.15);
    else if (k === '0' || k === 'Home') setView(full.a, full.b);
    else if (k === 'Escape') select(null);
    else if (k === 'n' || k === ']') step(1);
    else if (k === 'p' || k === '[') step(-1);
    else if (k === 'u') up();
    else if (k === 'j') down();
    else if (k === 'f' || k === 'Enter') zoomToSelection();
    else return;
    e.preventDefault();
  });

  // Highlighted kernels: those whose variant matches (a search by kernel or op name, or the op
  // clicked in the Compute panel); the others are drawn faint, and host boxes whose name matches
  // likewise. null: no highlight.
  let highlight = null; // Uint8Array over variants
  let nameHit = null; // Uint8Array over names, for host boxes
  const found = document.getElementById('tl-found');
  function setHighlight(matches, nameMatches, what, zoomTo) {
    if (!matches) { highlight = nameHit = null; found.textContent = ''; TM.timeline.highlighted = null; schedule(); return; }
    highlight = new Uint8Array(variants.length);
    variants.forEach((vv, i) => { if (matches(vv)) highlight[i] = 1; });
    nameHit = new Uint8Array(names.length);
    names.forEach((nm, i) => { if (nameMatches(nm)) nameHit[i] = 1; });
    let count = 0, boxes = 0, first = Infinity, last = -Infinity; // kernels; kernels and copies
    for (const l of lanes) {
      for (let i = 0; i < l.s.length; i++) {
        if (!highlight[l.v[i]]) continue;
        boxes++;
        if (variants[l.v[i]][7] === 'kernel') count++;
        first = Math.min(first, l.s[i]); last = Math.max(last, l.s[i] + l.d[i]);
      }
    }
    let hostCount = 0;
    for (const h of hostLanes) {
      for (let i = 0; i < h.n.length; i++) {
        if (!nameHit[h.n[i]]) continue;
        hostCount++;
        first = Math.min(first, h.s[i]); last = Math.max(last, h.s[i] + h.d[i]); // an op's calls and its kernels
      }
    }
    TM.timeline.highlighted = count;
    TM.timeline.highlightedBoxes = boxes;
    TM.timeline.highlightedHost = hostCount;
    found.textContent = `${fmtInt(count)} kernels${boxes > count ? ` and ${fmtInt(boxes - count)} copies` : ''} ${what}` + (hostLanes.length ? `; ${fmtInt(hostCount)} host boxes by that name` : '') +
      (T.raw_complete ? '' : ' (of the boxes embedded one by one, left of the dashed line)');
    if (zoomTo && (boxes || hostCount)) { const pad = Math.max(200, (last - first) * 0.05); setView(first - pad, last + pad); }
    schedule();
  }
  const search = /** @type {HTMLInputElement} */ (document.getElementById('tl-search'));
  search.addEventListener('input', () => {
    const q = search.value.trim().toLowerCase();
    const hit = (name) => name.toLowerCase().includes(q);
    setHighlight(q ? (vv) => hit(names[vv[0]]) || hit(names[vv[1]] || '') : null, hit,
      `match "${search.value.trim()}" (kernel or op name)`, false);
  });
  search.addEventListener('keydown', (e) => { if (e.key === 'Enter') setHighlight(null); });
  // The Compute panel: a click on an op row highlights the kernels it launched and zooms to them.
  TM.timeline.highlightOp = (op) => setHighlight((vv) => names[vv[1]] === op, (name) => name === op, `launched by ${op}`, true);
  // Where a finding happens: its longest gap when it names gaps (top items with start_ns),
  // else its kernel, its op or its top items' names, highlighted and zoomed to.
  TM.timeline.showFinding = (f) => {
    TM.timeline.finding = f.rule;
    const gaps = f.top.filter((t) => t.figures.start_ns !== undefined && t.figures.length_ns !== undefined);
    if (gaps.length) {
      const g = gaps[0].figures, a = g.start_ns - T.t0_ns, pad = Math.max(1000, g.length_ns);
      setHighlight(null);
      setView(a - pad, a + g.length_ns + pad);
      found.textContent = `${f.rule.replace(/_/g, ' ')}: its longest gap, ${fmtNs(g.length_ns)} at ${fmtNs(a)} (${gaps[0].name})`;
      return;
    }
    // A name is a kernel's, an op's or call's, or a memcpy kind (slow_copies: vv[9]);
    // exposed_communication names no kernel: its boxes are the communication kernels (vv[8]).
    const wanted = new Set(f.where.kernel ? [f.where.kernel] : f.where.op ? [f.where.op] : f.top.map((t) => t.name));
    const communication = f.rule === 'exposed_communication';
    setHighlight((vv) => (communication ? vv[8] === 'communication' : wanted.has(names[vv[0]]) || wanted.has(names[vv[1]]) || wanted.has(vv[9])),
      (name) => !communication && wanted.has(name), `of finding ${f.rule.replace(/_/g, ' ')}`, true);
  };

  // The raw box of lane l under time t (within slack), or -1.
  function hitKernel(l, t, slack, range) {
    for (let i = Math.min(range[1], lowerBound(l.s, t + slack)) - 1; i >= range[0]; i--) {
      if (l.s[i] + l.d[i] + slack >= t) return i;
      if (l.s[i] < t - l.max_duration_ns - slack) break;
    }
    return -1;
  }
  // The host box of lane h at depth z under time t (within slack), or -1.
  function hitHost(h, z, t, slack) {
    if (z < 0 || z >= h.depths || (h.lod && t >= rawEnd())) return -1;
    const L = h.levels[z];
    for (let j = lowerBound(L.st, t + slack) - 1; j >= 0 && L.endMax[j] + slack >= t; j--) {
      if (h.s[L.ix[j]] + h.d[L.ix[j]] + slack >= t) return L.ix[j];
    }
    return -1;
  }
  const rowOfLane = new Map(rows.filter((r) => r.kind === 'lane').map((r) => [r.lane, r]));
  const rowOfHost = new Map(rows.filter((r) => r.kind === 'host').map((r) => [r.host, r]));

  // The selection: a kernel ({kind: 'kernel', lane, i}) or a host box ({kind: 'host', h, i}),
  // outlined on the canvas, described in the details panel below the legend, with arrows from
  // launch calls to the kernels they launched.
  const details = document.getElementById('tl-details');
  let selected = null, links = [];
  function selectAt(x, y) {
    const row = rows.find((r) => r.kind !== 'gaps' && y >= r.y && y <= r.y + rowH(r));
    const t = tOf(x), slack = (view.v1 - view.v0) / plotW();
    let next = null;
    if (row && x >= LABEL_W && row.kind === 'memory') {
      select(null);
      TM.timeline.selected = showMemoryDetails(details, row.mem, t);
      return;
    }
    if (row && x >= LABEL_W && row.kind === 'lane') {
      const range = t < rawEnd() ? rawRange(row.lane) : null;
      const i = range ? hitKernel(row.lane, t, slack, range) : -1;
      if (i >= 0) next = { kind: 'kernel', lane: row.lane, i };
    } else if (row && x >= LABEL_W) {
      const i = hitHost(row.host, Math.floor((y - row.y - 1) / HOST_ROW_H), t, slack);
      if (i >= 0) next = { kind: 'host', h: row.host, i };
    }
    select(next);
  }
  function select(next) {
    selected = next;
    links = selected ? linksOf(selected) : [];
    showDetails();
    schedule();
  }
  // Launch links {from: host box {h, i}, to: {lane, i}} of the selection: a kernel's launch call
  // and, for a graph launch, all the kernels of that call; a call's kernels; an op's kernels.
  const MAX_LINKS = 5000;
  function linksOf(sel) {
    const out = [];
    const add = (want, key) => {
      for (const l of lanes) {
        const ids = l[key];
        if (!ids) continue;
        for (let i = 0; i < ids.length && out.length < MAX_LINKS; i++) {
          if (ids[i] !== want) continue;
          const from = l.lb[i] >= 0 ? hostBox(l.lb[i]) : null;
          if (from) out.push({ from, to: { lane: l, i } });
        }
      }
    };
    if (sel.kind === 'kernel') {
      if (sel.lane.lb && sel.lane.lb[sel.i] >= 0) add(sel.lane.lb[sel.i], 'lb');
    } else {
      add(sel.h.box_base + sel.i, isCall(sel.h.k[sel.i]) ? 'lb' : 'ob');
    }
    return out;
  }
  // Names of a host box's enclosing boxes, outermost first, and its own.
  function stackOf(h, i) {
    const names_ = [];
    for (let j = i; j >= 0; j = h.parent[j]) names_.unshift(names[h.n[j]]);
    return names_;
  }
  function showDetails() {
    if (!selected) { details.hidden = true; details.replaceChildren(); TM.timeline.selected = null; return; }
    const field = (key, label, value) => el('div', null, el('b', { text: label + ': ' }), el('span', { 'data-field': key, text: value }));
    if (selected.kind === 'host') {
      const { h, i } = selected, kind = hostKinds[h.k[i]], stack = stackOf(h, i);
      const kernels = links.length;
      details.replaceChildren(
        el('div', { class: 'strong', text: `Selected ${kind === 'op' ? 'op' : kind === 'python' ? 'Python function' : kind === 'annotation' ? 'annotation' : kind + ' call'}` }),
        field('name', 'Name', names[h.n[i]]), field('where', 'Thread', h.label), field('start', 'Start', fmtNs(h.s[i])),
        field('duration', 'Duration', fmtNs(h.d[i])), field('stack', 'Stack', stack.join(' › ')),
        field('kernels', isCall(h.k[i]) ? 'Kernels it launched' : 'Kernels attributed to it', fmtInt(kernels) + (kernels >= MAX_LINKS ? ' or more' : '')));
      details.hidden = false;
      TM.timeline.selected = { kind, name: names[h.n[i]], stack, kernels, arrows: links.length };
      return;
    }
    const { lane: l, i } = selected, vv = variants[l.v[i]];
    const name = names[vv[0]], op = names[vv[1]] || null;
    const stats = kernelRowOf.get(kernelKey(name, vv[2]));
    const opBox = l.ob && l.ob[i] >= 0 ? hostBox(l.ob[i]) : null;
    const launch = l.lb && l.lb[i] >= 0 ? hostBox(l.lb[i]) : null;
    const stack = opBox ? stackOf(opBox.h, opBox.i) : [];
    let launchText = '– (no launch call in the trace)', queueText = '–', queue = null;
    if (launch) {
      const { h, i: c } = launch, end = h.s[c] + h.d[c];
      launchText = `${names[h.n[c]]} on ${h.label}, at ${fmtNs(h.s[c])} for ${fmtNs(h.d[c])}`;
      if (links.length > 1) {
        const kernels = links.filter((k) => variants[k.to.lane.v[k.to.i]][7] === 'kernel').length;
        queueText = `graph launch of ${fmtInt(kernels)} kernels` + (links.length > kernels ? ` and ${fmtInt(links.length - kernels)} copies or memsets` : '') +
          `: the first starts ${fmtNs(Math.max(0, Math.min(...links.map((k) => k.to.lane.s[k.to.i])) - end))} after the call ends`;
      } else {
        queue = Math.max(0, l.s[i] - end);
        queueText = `${fmtNs(queue)} (kernel start − launch call end; it started ${fmtNs(l.s[i] - h.s[c])} after the call began)`;
      }
    }
    const isKernel = vv[7] === 'kernel';
    details.replaceChildren(...[ // (replaceChildren writes null as text)
      el('div', { class: 'strong', text: isKernel ? 'Selected kernel' : `Selected ${vv[7]}` }),
      field('kernel', vv[7] === 'kernel' ? 'Kernel' : 'Copy', name), field('op', 'Op', op || '– (no op)'),
      stack.length ? field('stack', 'Op stack', stack.join(' › ')) : null,
      field('launch', 'Launch call', launchText), field('queue', 'Queue delay', queueText),
      field('backend', 'Backend', vv[2]),
      field('where', 'Where', l.label), field('start', 'Start', fmtNs(l.s[i])), field('duration', 'Duration', fmtNs(l.d[i])),
      isKernel ? field('grid', 'Grid', vv[3] || '–') : null, isKernel ? field('block', 'Block', vv[4] || '–') : null,
      isKernel ? field('occupancy', 'Occupancy', `${fmtFrac(vv[5])} theoretical, ${fmtFrac(vv[6])} achieved`) : null,
      stats ? field('count', 'Launches of this kernel', fmtInt(stats.count)) : null,
      stats ? field('stats', 'Its durations', `mean ${fmtNs(stats.mean_ns)}, median ${fmtNs(stats.median_ns)}, min ${fmtNs(stats.min_ns)}, max ${fmtNs(stats.max_ns)}; ${fmtPct(stats.percent)} of kernel time`) : null,
      stats && stats.percent_of_roof !== null ? field('roof', 'Roofline', `${fmtPct(stats.percent_of_roof)} of roof at ${stats.arithmetic_intensity.toPrecision(3)} FLOP/B`) : null,
    ].filter(Boolean));
    details.hidden = false;
    TM.timeline.selected = { kind: vv[7], name, op, stack, backend: vv[2], count: stats ? stats.count : null,
      launch: launch ? names[launch.h.n[launch.i]] : null, queue_ns: queue, arrows: links.length };
  }
  // The y of a host box's row at its depth, and of a kernel's lane.
  const hostY = (b) => rowOfHost.get(b.h).y + 1 + b.h.depth[b.i] * HOST_ROW_H;
  function drawSelection(ctx) {
    if (!selected) return;
    let x0, x1, y, hgt;
    if (selected.kind === 'kernel') {
      const l = selected.lane, i = selected.i;
      x0 = xOf(l.s[i]); x1 = xOf(l.s[i] + l.d[i]); y = rowOfLane.get(l).y; hgt = LANE_H;
    } else {
      const { h, i } = selected;
      if (h.depth[i] >= h.depths) return;
      x0 = xOf(h.s[i]); x1 = xOf(h.s[i] + h.d[i]); y = hostY(selected); hgt = HOST_ROW_H - 1;
    }
    if (x1 < LABEL_W || x0 > LABEL_W + plotW()) return;
    ctx.save(); ctx.strokeStyle = cv('--focus'); ctx.lineWidth = 2;
    ctx.strokeRect(Math.max(LABEL_W, x0) - 1, y - 1, Math.max(2, Math.min(x1, LABEL_W + plotW()) - Math.max(LABEL_W, x0)) + 2, hgt + 2);
    ctx.restore();
  }
  // Launch arrows: from the launch call's box (its start, below it) to the kernel's start; the
  // launch calls outlined.
  function drawArrows(ctx) {
    stats.arrows = 0;
    if (!links.length) return;
    ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, RULER_H, plotW(), cssH); ctx.clip();
    ctx.strokeStyle = ctx.fillStyle = cv('--arrow'); ctx.lineWidth = 1.5;
    const outlined = new Set();
    for (const { from } of links) {
      const key = from.h.box_base + from.i;
      if (outlined.has(key) || from.h.depth[from.i] >= from.h.depths) continue;
      outlined.add(key);
      const x0 = xOf(from.h.s[from.i]), x1 = xOf(from.h.s[from.i] + from.h.d[from.i]);
      ctx.strokeRect(x0 - 1, hostY(from) - 1, Math.max(2, x1 - x0) + 2, HOST_ROW_H + 1);
    }
    for (const { from, to } of links) {
      if (from.h.depth[from.i] >= from.h.depths) continue;
      const fx = xOf(from.h.s[from.i]), fy = hostY(from) + HOST_ROW_H - 1;
      const tx = xOf(to.lane.s[to.i]), ty = rowOfLane.get(to.lane).y;
      if (Math.max(fx, tx) < LABEL_W || Math.min(fx, tx) > LABEL_W + plotW()) continue;
      const bend = Math.min(40, Math.abs(ty - fy) / 2);
      ctx.beginPath(); ctx.moveTo(fx, fy); ctx.bezierCurveTo(fx, fy + bend, tx, ty - bend, tx, ty - 1); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(tx, ty); ctx.lineTo(tx - 4, ty - 7); ctx.lineTo(tx + 4, ty - 7); ctx.closePath(); ctx.fill();
      stats.arrows++;
    }
    ctx.restore();
  }
  // Keyboard moves of the selection: the next or previous box on its lane (at its depth), up to
  // a kernel's launch call or a box's parent, down to a call's or op's first kernel.
  function step(dir) {
    if (!selected) return;
    if (selected.kind === 'kernel') {
      const i = selected.i + dir;
      if (i >= 0 && i < selected.lane.s.length) select({ kind: 'kernel', lane: selected.lane, i });
    } else {
      const { h, i } = selected, L = h.levels[Math.min(h.depth[i], h.depths - 1)];
      let j = lowerBound(L.st, h.s[i]);
      while (j < L.ix.length && L.ix[j] !== i) j++;
      const k = j + dir;
      if (j < L.ix.length && k >= 0 && k < L.ix.length) select({ kind: 'host', h, i: L.ix[k] });
    }
    reveal();
  }
  function up() {
    if (!selected) return;
    if (selected.kind === 'kernel') {
      const l = selected.lane, b = hostBox(l.lb && l.lb[selected.i] >= 0 ? l.lb[selected.i] : l.ob ? l.ob[selected.i] : -1);
      if (b) select({ kind: 'host', h: b.h, i: b.i });
    } else if (selected.h.parent[selected.i] >= 0) {
      select({ kind: 'host', h: selected.h, i: selected.h.parent[selected.i] });
    }
    reveal();
  }
  function down() {
    if (selected && selected.kind === 'host' && links.length) { select({ kind: 'kernel', ...links[0].to }); reveal(); }
  }
  const extentOf = (sel) => (sel.kind === 'kernel' ? [sel.lane.s[sel.i], sel.lane.s[sel.i] + sel.lane.d[sel.i]] : [sel.h.s[sel.i], sel.h.s[sel.i] + sel.h.d[sel.i]]);
  function reveal() { // keeps the selection in view, centred when it was out of it
    if (!selected) return;
    const [a, b] = extentOf(selected);
    if (b < view.v0 || a > view.v1) { const w = view.v1 - view.v0; setView((a + b) / 2 - w / 2, (a + b) / 2 + w / 2); }
  }
  function zoomToSelection() {
    if (!selected) return;
    const [a, b] = extentOf(selected), pad = Math.max(100, (b - a) * 0.5);
    setView(a - pad, b + pad);
  }
  // Per kind, the embedded host boxes overlapping the window that are too deep to draw.
  function hiddenInWindow() {
    const out = new Array(hostKinds.length).fill(0);
    for (const h of hostLanes) {
      for (let i = 0; i < h.s.length && h.s[i] < view.v1; i++) {
        if (h.depth[i] >= h.depths && h.s[i] + h.d[i] > view.v0) out[h.k[i]]++;
      }
    }
    return out;
  }
  Object.assign(TM.timeline, { select: (sel) => select(sel), hostLaneData: hostLanes, laneData: lanes, hiddenInWindow });

  // The critical path of the step shown in the Ranks section, across the ranks' rows: a bar per
  // piece along the top of its rank's first host row (host pieces) or first stream lane (the
  // others), coloured by category, joined by a line where the path moves to another row.
  let path = null;
  // Host pieces go on the rank's busiest thread (its launching thread, in practice).
  const busiestHost = new Map(), firstLane = new Map();
  for (const r of rows) {
    const input = inputOf(r);
    if (r.kind === 'host' && (!busiestHost.has(input) || r.host.item_count > busiestHost.get(input).host.item_count)) busiestHost.set(input, r);
    if (r.kind === 'lane' && !firstLane.has(input)) firstLane.set(input, r);
  }
  const pathRow = (p) => (p.category === 'host' && busiestHost.get(p.input)) || firstLane.get(p.input);
  function drawPath(ctx) {
    stats.pathPieces = 0; stats.pathRows = 0;
    if (!path) return;
    ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, RULER_H, plotW(), cssH); ctx.clip();
    const used = new Set();
    let prev = null;
    for (const p of path) {
      const r = pathRow(p);
      if (!r) continue;
      const x0 = xOf(p.s), x1 = xOf(p.e);
      if (prev && prev !== r) {
        ctx.strokeStyle = cv('--fg'); ctx.lineWidth = 1;
        ctx.beginPath(); ctx.moveTo(x0, prev.y + 2); ctx.lineTo(x0, r.y + 2); ctx.stroke();
      }
      prev = r;
      if (x1 < LABEL_W || x0 > LABEL_W + plotW()) continue;
      ctx.fillStyle = cv('--cp-' + p.category.replace(/_/g, '-'));
      ctx.fillRect(x0, r.y, Math.max(1, x1 - x0), 4);
      stats.pathPieces++;
      used.add(r);
    }
    stats.pathRows = used.size;
    ctx.restore();
  }
  TM.timeline.showPath = (step, zoomTo) => {
    path = step && step.path ? step.path : null;
    TM.timeline.pathStep = path ? step.step : null;
    if (path && zoomTo && path.length) setView(path[0].s, path[path.length - 1].e);
    schedule();
  };
  if (shownStepOf()) TM.timeline.showPath(shownStepOf(), false);

  function showTip(x, y) {
    const row = rows.find((r) => y >= r.y && y <= r.y + rowH(r));
    if (x < LABEL_W || !row) { tip.hidden = true; return; }
    const t = tOf(x), slack = (view.v1 - view.v0) / plotW();
    const lines = [];
    if (row.kind === 'gaps') {
      const gg = row.gaps;
      let hit = -1;
      for (let i = lowerBound(gg.s, t + slack) - 1; i >= 0 && gg.s[i] >= t - gg.maxLen - slack; i--) {
        if (gg.s[i] + gg.len[i] + slack >= t) { hit = i; break; }
      }
      if (hit < 0) { tip.hidden = true; return; }
      lines.push(['Idle gap', fmtNs(gg.len[hit])], ['Cause', T.gap_causes[gg.cause[hit]].replace(/_/g, ' ')],
        ['Start', fmtNs(gg.s[hit])]);
      showLines(lines, x, y);
      return;
    }
    if (row.kind === 'memory') {
      const memoryLines = memoryTipLines(row.mem, t);
      if (!memoryLines) { tip.hidden = true; return; }
      showLines(memoryLines, x, y);
      return;
    }
    if (row.kind === 'host') {
      const h = row.host, z = Math.floor((y - row.y - 1) / HOST_ROW_H), i = hitHost(h, z, t, slack);
      if (i >= 0) {
        lines.push([hostKinds[h.k[i]], names[h.n[i]]], ['Duration', fmtNs(h.d[i])], ['Start', fmtNs(h.s[i])], ['Thread', h.label]);
      } else if (h.lod && z < h.lod.length && !hostRanges(h)) {
        const lv = h.lod[z][levelFor({ lod: h.lod[z] }, slack)], b = Math.floor(t / lv.w);
        if (b < 0 || b >= lv.busy.length || !lv.busy[b]) { tip.hidden = true; return; }
        lines.push(['Bucket', `${fmtNs(b * lv.w)} – ${fmtNs((b + 1) * lv.w)}`], ['Busy', fmtPct((100 * lv.busy[b]) / 255, 0)],
          ['Most time', lv.dom[b] ? names[lv.dom[b] - 1] : '–'], ['', 'zoom in for single boxes']);
      } else { tip.hidden = true; return; }
      showLines(lines, x, y);
      return;
    }
    const l = row.lane;
    const range = t < rawEnd() ? rawRange(l) : null;
    if (range) {
      const hit = hitKernel(l, t, slack, range);
      if (hit < 0) { tip.hidden = true; return; }
      const vv = variants[l.v[hit]];
      lines.push([vv[7] === 'kernel' ? 'Kernel' : vv[7] === 'memset' ? 'Memset' : 'Memcpy', names[vv[0]]], ['Op', names[vv[1]] || '–'], ['Backend', vv[2]],
        ['Duration', fmtNs(l.d[hit])], ['Start', fmtNs(l.s[hit])], ['Grid', vv[3] || '–'], ['Block', vv[4] || '–'],
        ['Occupancy', `${fmtFrac(vv[5])} theoretical, ${fmtFrac(vv[6])} achieved`]);
    } else {
      const lv = l.lod[levelFor(l, slack)], b = Math.floor(t / lv.w);
      if (b < 0 || b >= lv.busy.length || !lv.busy[b]) { tip.hidden = true; return; }
      const vv = variants[lv.dom[b] - 1];
      lines.push(['Bucket', `${fmtNs(b * lv.w)} – ${fmtNs((b + 1) * lv.w)}`], ['Busy', fmtPct((100 * lv.busy[b]) / 255, 0)],
        ['Most time', vv ? names[vv[0]] : '–'], ['', 'zoom in for single kernels']);
    }
    showLines(lines, x, y);
  }
  function showLines(lines, x, y) {
    tip.replaceChildren(...lines.map(([k, v]) => el('div', null, k ? el('b', { text: k + ': ' }) : null, v)));
    tip.hidden = false;
    tip.style.left = Math.min(x + 14, cssW - 470) + 'px';
    tip.style.top = y + 16 + 'px';
  }

  const legend = document.querySelector('#timeline .tl-legend');
  const colourSelect = el('select', { 'aria-label': 'Colour boxes by', id: 'tl-color' },
    el('option', { value: 'kernel', text: 'kernel name' }), el('option', { value: 'op', text: 'op' }));
  colourSelect.addEventListener('change', () => { colorBy = colourSelect.value; variantColour = new Array(variants.length); schedule(); });
  // Every gap cause present, with its colour and how many gaps (over min_gap_ns) it has.
  const causeCounts = new Map();
  for (const g of gapGroups) for (const c of g.cause) causeCounts.set(c, (causeCounts.get(c) || 0) + 1);
  const causeItems = [...causeCounts.keys()].sort((a, b) => a - b).map((c) =>
    el('span', { class: 'item', 'data-cause': T.gap_causes[c] }, el('span', { class: 'swatch', style: `background:${gapColour(c)}` }),
      `${T.gap_causes[c].replace(/_/g, ' ')} (${fmtInt(causeCounts.get(c))})`));
  legend.append(el('label', null, 'Colour by ', colourSelect), ' ',
    el('span', { id: 'tl-gap-legend' }, causeItems.length ? `Idle gaps > ${fmtNs(T.min_gap_ns)} by cause: ` : `No idle gaps > ${fmtNs(T.min_gap_ns)}.`, ...causeItems),
    (T.steps || []).length ? el('span', { class: 'item' }, el('span', { class: 'swatch', style: `background:${cv('--step')}` }), 'ProfilerStep boundary') : null);
  // Python frames (with_stack traces) can be dozens of levels above the ops: they can be left out.
  if (pythonKind >= 0 && hostLanes.some((h) => h.k.includes(pythonKind))) {
    const box = el('input', { type: 'checkbox', id: 'tl-python', checked: true });
    box.addEventListener('change', () => {
      showPython = box.checked;
      hostLanes.forEach(applyLayout);
      if (selected && selected.kind === 'host' && selected.h.depth[selected.i] >= selected.h.depths) select(null);
      relayout();
      resize();
    });
    legend.append(' ', el('label', null, box, ' Python frames'));
  }
  if (!T.raw_complete) {
    legend.append(el('p', { class: 'note', id: 'tl-gaps-capped', text: `Idle gaps: ${fmtInt(T.gaps_embedded)} of ${fmtInt(T.gap_count)} are marked: those left of the dashed line and the 2,000 longest.` }));
    legend.append(el('p', { class: 'note', id: 'tl-capped', text: `Single boxes are embedded for the first ${fmtInt(T.raw_box_count)} of ${fmtInt(T.kernel_count + (T.copy_count || 0))} kernels and copies ` +
      `and ${fmtInt(T.host_raw_count || 0)} of ${fmtInt(T.host_item_count || 0)} host ops and calls (those starting before ${fmtNs(T.raw_until_ns)}, left of the dashed line); ` +
      'beyond it the timeline shows precomputed buckets (busy fraction, the name with the most time). ' +
      'Use --max-boxes to embed more.' }));
  }
  new ResizeObserver(resize).observe(canvas);
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', schedule); // colours are CSS variables
  resize();
}
