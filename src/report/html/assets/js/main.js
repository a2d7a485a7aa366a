// @ts-check
// The page: renders every section in order, then marks the page ready for the tests.
import { TM, timings } from './page.js';
import { tidyTables } from './tables.js';
import { renderSummary } from './summary.js';
import { renderRanks } from './ranks.js';
import { renderCompute } from './compute.js';
import { renderKernels } from './kernels.js';
import { renderOccupancy } from './occupancy.js';
import { renderMemory } from './memory.js';
import { renderRoofline } from './roofline.js';
import { renderDiff } from './diff.js';
import { renderCompare } from './compare.js';
import { renderTimeline } from './timeline.js';

// The sticky header's height, for the sections' scroll-margin-top (report.css).
function trackHeader() {
  const header = document.querySelector('header');
  const set = () => document.documentElement.style.setProperty('--header-h', header.offsetHeight + 'px');
  new ResizeObserver(set).observe(header);
  set();
}

trackHeader();
renderSummary();
renderRanks();
renderCompute();
renderKernels();
timings.tables_ms = performance.now();
renderTimeline();
timings.timeline_ms = performance.now();
renderRoofline();
renderOccupancy();
renderMemory();
renderDiff();
renderCompare();
document.querySelector('#ops-table tbody').addEventListener('click', (e) => {
  const tr = /** @type {HTMLElement} */ (e.target).closest('tr');
  if (!tr) return;
  TM.timeline.highlightOp(tr.dataset.name);
  document.getElementById('timeline').scrollIntoView();
});
tidyTables();
timings.ready_ms = performance.now();
TM.ready = true;
