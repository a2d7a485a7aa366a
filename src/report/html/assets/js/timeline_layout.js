// @ts-check
// The rows drawn, top to bottom: per input its host threads, then per device its gap row (when
// it has gaps), its stream lanes and its memory lane; their tops and the canvas height. A host
// thread's rows follow its layout (with or without Python frames) and whether it is collapsed to
// one summary row.
import { COLLAPSE_ROWS, GAP_ROW_H, HOST_ROW_H, LANE_GAP, LANE_H, RULER_H } from './timeline_state.js';
import { layoutOf } from './timeline_decode.js';
import { MEMORY_ROW_H } from './timeline_memory.js';

/** @typedef {import('./timeline_state.js').TimelineState} TimelineState */

export const rowH = (r) => (r.kind === 'gaps' ? GAP_ROW_H : r.kind === 'host' ? (r.host.collapsed ? 1 : r.host.depths) * HOST_ROW_H + 2 : r.kind === 'memory' ? MEMORY_ROW_H : LANE_H);
export const inputOf = (r) => (r.kind === 'lane' ? r.lane.input : r.kind === 'gaps' ? r.gaps.input : r.kind === 'memory' ? r.mem.input : r.host.input);
// Whether a thread has more rows than fit on one screen with the device lanes below it.
export const collapsible = (h) => h.depths > COLLAPSE_ROWS;

// Host lane h at the current layout (with or without Python frames), memoised per layout.
/** @param {TimelineState} tl */
export function applyLayout(tl, h) {
  const mode = tl.showPython ? 1 : 0;
  if (!h.layouts[mode]) h.layouts[mode] = layoutOf(h, tl.showPython, tl.pythonKind);
  Object.assign(h, h.layouts[mode]);
}

// A host row's label: a collapsible thread's says so ("▸" collapsed, "▾" expanded).
function hostLabel(h) {
  if (!collapsible(h)) return h.label;
  return h.collapsed ? `▸ ${h.label} (${h.depths} rows)` : `▾ ${h.label}`;
}

/** @param {TimelineState} tl */
export function buildRows(tl) {
  const { lanes, hostLanes, gapGroups, memoryLanes } = tl, rows = [];
  const device = (l) => (l.rank !== undefined ? `rank ${l.rank} · ` : '') + l.device.split(' ')[0];
  lanes.forEach((l, i) => {
    const prev = lanes[i - 1];
    if (!prev || prev.input !== l.input) {
      for (const h of hostLanes) if (h.input === l.input) rows.push({ kind: 'host', host: h, label: h.label, y: 0 });
    }
    if (!prev || prev.input !== l.input || prev.device_index !== l.device_index) {
      const g = gapGroups.find((x) => x.input === l.input && x.device_index === l.device_index);
      if (g && g.s.length) rows.push({ kind: 'gaps', gaps: g, label: `${device(l)} · idle gaps`, y: 0 });
    }
    rows.push({ kind: 'lane', lane: l, label: l.label, y: 0 });
    // After a device's last stream lane, its memory lane (allocator records).
    const next = lanes[i + 1];
    if (!next || next.input !== l.input || next.device_index !== l.device_index) {
      for (const m of memoryLanes) {
        if (m.input === l.input && m.deviceIndex === l.device_index) rows.push({ kind: 'memory', mem: m, label: `${device(l)} · memory`, y: 0 });
      }
    }
  });
  tl.rows = rows;
  tl.rowOfLane = new Map(rows.filter((r) => r.kind === 'lane').map((r) => [r.lane, r]));
  tl.rowOfHost = new Map(rows.filter((r) => r.kind === 'host').map((r) => [r.host, r]));
  // The critical path's rows: host pieces on the rank's busiest thread (its launching thread, in
  // practice), the others on its first stream lane.
  for (const r of rows) {
    const input = inputOf(r);
    if (r.kind === 'host' && (!tl.busiestHost.has(input) || r.host.item_count > tl.busiestHost.get(input).host.item_count)) tl.busiestHost.set(input, r);
    if (r.kind === 'lane' && !tl.firstLane.has(input)) tl.firstLane.set(input, r);
  }
}

// The rows' tops and the canvas height, after a host lane's rows changed; the tops the API shows.
/** @param {TimelineState} tl */
export function relayout(tl) {
  let yAt = RULER_H;
  for (const r of tl.rows) {
    if (r.kind === 'host') {
      // Collapsed as the reader wants it, when the thread has enough rows (at this layout).
      r.host.collapsed = r.host.wantCollapsed && collapsible(r.host);
      r.label = hostLabel(r.host);
    }
    r.y = yAt; yAt += rowH(r) + LANE_GAP;
  }
  tl.cssH = yAt + 8;
  const tops = (kind) => tl.rows.filter((r) => r.kind === kind).map((r) => r.y);
  Object.assign(tl.api, { laneTops: tops('lane'), hostTops: tops('host'), memoryTops: tops('memory'),
    hostCollapsed: tl.hostLanes.map((h) => h.collapsed) });
}

// The y of host box b ({h, i}): its depth's row, or the summary row of a collapsed thread.
/** @param {TimelineState} tl */
export const hostY = (tl, b) => tl.rowOfHost.get(b.h).y + 1 + (b.h.collapsed ? 0 : b.h.depth[b.i] * HOST_ROW_H);
