// @ts-check
// The page's state, which every section reads: the report's data (schema tensormorph.report/1,
// built by src/report/html/report_model.cc), the timings the benchmark reads
// (tests/browser/report_bench.mjs), the kernels table's rows by name for the timeline's details,
// and `TM.timeline`, the timeline's API (highlightOp, showFinding, showPath) once it is drawn,
// through which the sections talk to it. window.__tm is the browser tests' view of the same
// object (tests/browser/report_test.mjs); no section reads window.__tm.
//
// Its result rows are those of the commands' `--format json`, field for field (the kernels rows
// of `tensormorph kernels`, the roofline rows of `tensormorph roofline`, ...; README and docs/
// name the fields; `summary.findings` are those of `tensormorph findings`); `kernels.joined`
// points into the occupancy rows by index. `job` (one job of two or more ranks, else null) holds
// the members of `tensormorph collectives` and `critical-path --format json` (docs/report.md,
// "The Ranks section").
export const timings = { script_start_ms: performance.now() }; // since navigation start
export const D = JSON.parse(document.getElementById('tm-data').textContent);
timings.parsed_ms = performance.now();
export const TM = (window.__tm = { data: D, ready: false, timeline: null, timings });
// The kernels table's rows by name and backend (renderKernels), for the timeline's details.
export const kernelRowOf = new Map();
export const kernelKey = (name, backend) => name + '\u0000' + backend;
