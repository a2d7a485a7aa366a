// @ts-check
// The Compute panel: ops and the backend that served them.
import { D } from './page.js';
import { body, el, fmtInt, fmtNs } from './format.js';
import { makeTable } from './tables.js';

// ---------- compute panel ----------
export function renderCompute() {
  const o = D.ops, c = body('compute');
  c.append(el('p', { class: 'muted', text: `${fmtInt(o.ops)} op calls; ${fmtInt(o.attributed_kernels)} of ` +
    `${fmtInt(o.kernels)} kernels attributed to an op. Device time (self) counts the kernels an op launched itself, so rows add up.` }));
  // --predict: per target, the predicted time of the op's outermost calls, and one sentence
  // per op (op_predictions.h; the same figures as `ops --predict --format json`).
  const targets = o.predict ? o.predict.targets : [];
  const placementText = (r) => {
    const devices = [...new Set(r.placements.map((p) => p.device))].join(' + ') || 'the host';
    if (!r.predictions.length) {
      return r.predicted_within ? `served by ${devices}; predicted within ${r.predicted_within}` : '–';
    }
    const { measured_ns: measured, calls } = r.predictions[0];
    const which = calls < r.calls ? ` (${fmtInt(calls)} of ${fmtInt(r.calls)} calls)` : '';
    const parts = r.predictions.map((p, i) => (p.predicted_ns === null
      ? `on ${targets[i].name} no prediction`
      : `on ${targets[i].name} predicted ${fmtNs(p.predicted_ns)}` +
        (p.predicted_low_ns !== null && p.predicted_high_ns !== null
          ? ` (${fmtNs(p.predicted_low_ns)}–${fmtNs(p.predicted_high_ns)})` : '') +
        (p.unpredicted_measured_ns > 0 ? ` (for ${fmtNs(measured - p.unpredicted_measured_ns)} of it)` : '')));
    return `served by ${devices} in ${fmtNs(measured)}${which}; ${parts.join('; ')}`;
  };
  const predictColumns = targets.map((t, i) => ({
    key: 'predicted_' + i, label: `On ${t.key} (predicted)`, num: true, fmt: fmtNs,
    title: t.unusable ? `cannot be predicted: ${t.unusable}` : `${t.name}: the op's outermost calls`,
  }));
  if (targets.length) predictColumns.push({ key: 'placement', label: 'Placement and prediction' });
  makeTable(c, {
    id: 'ops-table', caption: 'Ops by device time', rows: o.rows.map((r) => {
      const row = {
        ...r, backends: [...new Set(r.placements.map((p) => p.backend))].join(', '),
        devices: [...new Set(r.placements.map((p) => p.device))].join('; '),
      };
      if (targets.length) {
        targets.forEach((t, i) => { row['predicted_' + i] = r.predictions.length ? r.predictions[i].predicted_ns : null; });
        row.placement = placementText(r);
      }
      return row;
    }),
    columns: [
      { key: 'name', label: 'Op' },
      { key: 'backends', label: 'Backend' },
      { key: 'devices', label: 'Device' },
      { key: 'calls', label: 'Calls', num: true, fmt: fmtInt },
      { key: 'host_ns', label: 'Host time', num: true, fmt: fmtNs },
      { key: 'device_ns', label: 'Device time (self)', num: true, fmt: fmtNs },
      { key: 'device_inclusive_ns', label: 'Device time (incl.)', num: true, fmt: fmtNs },
      { key: 'kernels', label: 'Kernels', num: true, fmt: fmtInt },
      ...predictColumns,
    ],
  });
  if (targets.length) {
    c.append(el('p', { class: 'note', id: 'ops-predict-note', text: 'Predicted: what the op\'s outermost calls would take on each ' +
      'target (tensormorph predict: each kernel\'s fixed cost plus the roofline at the fraction of roof its category reaches ' +
      'there, or the category ratio between the device families; in brackets the range held-out rows of its category and size ' +
      'fell in; the model and per-shape rows: tensormorph predict TRACE --device KEY). Calls nested in another op are ' +
      'predicted with it.' }));
  }
}
