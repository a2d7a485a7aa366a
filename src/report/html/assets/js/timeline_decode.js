// @ts-check
// The embedded timeline decoded once into typed arrays: device lanes (timeline_lanes.h), host
// lanes (host_lanes.h) and idle gaps (report_model.cc); delta-encoded starts summed, ids
// restored. A host lane's rows per layout (with or without Python frames) are layoutOf's.
import { MAX_HOST_DEPTH } from './timeline_state.js';

const decodeLod = (levels) => levels.map((x) => ({ w: x.bucket_ns, busy: Uint8Array.from(x.busy), dom: Uint32Array.from(x.dom) }));

// lb / ob: the host box ids of each box's launch call and op (-1: none), when it has any;
// embedded as differences from the last id given, null for none.
function ids(deltas) {
  if (!deltas) return null;
  const out = new Int32Array(deltas.length);
  let id = 0;
  for (let i = 0; i < deltas.length; i++) out[i] = deltas[i] === null ? -1 : (id += deltas[i]);
  return out;
}

export function decodeLanes(T) {
  return T.lanes.map((l) => {
    const n = l.s.length, s = new Float64Array(n), d = new Float64Array(n), v = new Uint32Array(n);
    let t = 0;
    for (let i = 0; i < n; i++) { t += l.s[i]; s[i] = t; d[i] = l.d[i]; v[i] = l.v[i]; }
    // "rank 0 · cuda:0 · stream 7": the device's name is in the summary and the tooltip.
    const label = (l.rank !== undefined ? `rank ${l.rank} · ` : '') + `${l.device.split(' ')[0]} · stream ${l.stream}`;
    return { ...l, s, d, v, lb: ids(l.lb), ob: ids(l.ob), label, lod: decodeLod(l.lod) };
  });
}

// Host lanes: one per thread, boxes nested by depth (parent index), each with its label's name
// and kind. The layout fields (depth, depths, levels, label) are applyLayout's
// (timeline_layout.js).
export function decodeHostLanes(T) {
  const hostLabels = T.host_labels || [];
  return (T.host_lanes || []).map((h, index) => {
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
    return { ...h, index, s, d, n: name, k: kind, parent, thread, layouts: [], lod: h.lod ? h.lod.map(decodeLod) : null,
      wantCollapsed: false, collapsed: false, depth: new Uint16Array(0), depths: 1, levels: [], label: thread };
  });
}

// A lane's rows: one per nesting depth, Python frames included or left out (then an op under
// a Python frame sits one row below its nearest non-Python box). Per depth the boxes by start
// and the running maximum of their ends, so a window's first box is a binary search away even
// under a ProfilerStep that spans the whole trace.
export function layoutOf(h, withPython, pythonKind) {
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

// Gaps per device: delta-encoded starts, lengths and causes (indices into T.gap_causes), drawn
// once per device on a summary row above its stream lanes.
export function decodeGapGroups(T) {
  return T.gaps.map((g) => {
    const n = g.s.length, s = new Float64Array(n), len = new Float64Array(n), cause = Uint8Array.from(g.c);
    let t = 0, maxLen = 0;
    for (let i = 0; i < n; i++) { t += g.s[i]; s[i] = t; len[i] = g.l[i]; maxLen = Math.max(maxLen, g.l[i]); }
    return { input: g.input, device_index: g.device_index, s, len, cause, maxLen };
  });
}
