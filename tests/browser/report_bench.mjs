// Load and zoom timings of a report in headless chromium (bench/report_bench.sh runs it on the
// report of a generated million-kernel trace). Prints one JSON object:
//   load_ms: navigation start -> data parsed, every section built and the first timeline frame drawn
//   load_parts_ms: the page's own marks on the way (script start, data parsed, tables, timeline)
//   frames: per zoom level, the draw time of the timeline (ms, median and max over the steps)
//
//   node tests/browser/report_bench.mjs REPORT.html
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const file = path.resolve(process.argv[2]);
const browser = await chromium.launch({ executablePath: process.env.TM_CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = await (await browser.newContext({ viewport: { width: 1600, height: 1000 } })).newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
await page.goto(pathToFileURL(file).href);
await page.waitForFunction(() => window.__tm && window.__tm.ready && window.__tm.timeline.stats.frames > 0, null, { timeout: 120000 });
// Load: navigation start -> the first timeline frame drawn (the page's own clock, so the test
// harness's polling is not counted).
const load = await page.evaluate(() => window.__tm.timings.first_frame_ms);
// Zoom from the whole span into a 20 µs window in 1.5x steps around the middle of the embedded
// raw boxes, timing each frame's draw (stats.frameMs) and the wall time from request to painted frame.
const result = await page.evaluate(async () => {
  const tl = window.__tm.timeline, T = window.__tm.data.timeline;
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const centre = (T.raw_complete ? T.span_ns : T.raw_until_ns) / 2;
  const steps = [];
  let w = T.span_ns;
  while (w > 20000) {
    const t0 = performance.now();
    tl.setView(centre - w / 2, centre + w / 2);
    await frame();
    steps.push({ window_ns: Math.round(w), draw_ms: tl.stats.frameMs, wall_ms: performance.now() - t0, drawn: tl.stats.drawn, host_drawn: tl.stats.hostDrawn, mode: [...new Set(tl.stats.mode)].join(',') });
    w /= 1.5;
  }
  // And once at the end of the trace, where only buckets exist when the boxes are capped.
  const t0 = performance.now();
  tl.setView(T.span_ns - T.span_ns / 1000, T.span_ns);
  await frame();
  steps.push({ window_ns: Math.round(T.span_ns / 1000), draw_ms: tl.stats.frameMs, wall_ms: performance.now() - t0, drawn: tl.stats.drawn, mode: tl.stats.mode[0], at: 'end' });
  return { steps, kernels: T.kernel_count, raw: T.raw_box_count, lanes: T.lanes.length,
    host_items: T.host_item_count, host_raw: T.host_raw_count, host_lanes: T.host_lanes.length };
});
const draws = result.steps.map((s) => s.draw_ms).sort((a, b) => a - b);
const walls = result.steps.map((s) => s.wall_ms).sort((a, b) => a - b);
console.log(JSON.stringify({
  report: file, kernels: result.kernels, raw_boxes: result.raw, lanes: result.lanes,
  host_items: result.host_items, host_raw_boxes: result.host_raw, host_lanes: result.host_lanes,
  load_ms: Math.round(load), zoom_steps: result.steps.length,
  load_parts_ms: await page.evaluate(() => Object.fromEntries(Object.entries(window.__tm.timings).map(([k, v]) => [k, Math.round(v)]))),
  draw_ms_median: +draws[draws.length >> 1].toFixed(2), draw_ms_max: +draws[draws.length - 1].toFixed(2),
  frame_wall_ms_median: +walls[walls.length >> 1].toFixed(2), frame_wall_ms_max: +walls[walls.length - 1].toFixed(2),
  errors, steps: result.steps,
}, null, 1));
await browser.close();
process.exit(errors.length ? 1 : 0);
