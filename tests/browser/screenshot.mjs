// Regenerates docs/report.png: the demo report's timeline, zoomed in, a kernel selected (its
// launch arrow and details).
//   node tests/browser/screenshot.mjs REPORT.html OUT.png
// With a section's id, that section alone, whole (docs/report-job.png: the DLRM job's timeline;
// docs/report-compare.png: the compare section of report --compare; a job's timeline shows the
// first step's critical path):
//   node tests/browser/screenshot.mjs REPORT.html OUT.png ranks
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const [file, out] = process.argv.slice(2, 4).map((p) => path.resolve(p));
const section = process.argv[4];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = await (await browser.newContext({ viewport: { width: 1280, height: 1200 } })).newPage();
await page.goto(pathToFileURL(file).href);
await page.waitForFunction(() => window.__tm && window.__tm.ready);
if (section) {
  await page.addStyleTag({ content: 'header { position: static; }' }); // not over the section
  await page.evaluate(() => { const J = window.__tm.data.job; if (J && J.critical_path.length) window.__tm.timeline.showPath(J.critical_path[0], true); });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.locator('#' + section).screenshot({ path: out });
  await browser.close();
  process.exit(0);
}
await page.evaluate(() => {
  const T = window.__tm.data.timeline;
  window.__tm.timeline.setView(T.span_ns * 0.58, T.span_ns * 0.6);
  document.getElementById('summary').scrollIntoView();
});
await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
// Summary on top, then the timeline moved up under it for one picture.
await page.evaluate(() => {
  const main = document.querySelector('main');
  main.insertBefore(document.getElementById('timeline'), document.getElementById('compute'));
  // Keep the summary's cards; the inputs, devices and findings follow in the full report.
  const body = document.querySelector('#summary .body');
  while (body.children.length > 1) body.lastChild.remove();
  window.scrollTo(0, 0);
});
await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const canvas = await page.locator('#tl-canvas').boundingBox();
const laneTop = await page.evaluate(() => window.__tm.timeline.laneTops[0]);
await page.mouse.click(canvas.x + 260 + (canvas.width - 270) * 0.62, canvas.y + laneTop + 12);
await page.mouse.move(0, 0);
await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const bottom = await page.evaluate(() => document.getElementById('tl-details').getBoundingClientRect().bottom);
await page.screenshot({ path: out, clip: { x: 0, y: 0, width: 1280, height: Math.min(1400, Math.ceil(bottom) + 10) } });
await browser.close();
