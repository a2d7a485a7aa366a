// Regenerates docs/report.png: the demo report's timeline, zoomed in, with a kernel's tooltip.
//   node tests/browser/screenshot.mjs REPORT.html OUT.png
// With a section's id, that section alone, whole (docs/report-job.png: the DLRM job's timeline;
// docs/report-compare.png: the compare section of report --compare):
//   node tests/browser/screenshot.mjs REPORT.html OUT.png ranks
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const [file, out] = process.argv.slice(2, 4).map((p) => path.resolve(p));
const section = process.argv[4];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
await page.goto(pathToFileURL(file).href);
await page.waitForFunction(() => window.__tm && window.__tm.ready);
if (section) {
  await page.addStyleTag({ content: 'header { position: static; }' }); // not over the section
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.locator('#' + section).screenshot({ path: out });
  await browser.close();
  process.exit(0);
}
await page.evaluate(() => {
  const T = window.__tm.data.timeline;
  window.__tm.timeline.setView(T.span_ns * 0.015, T.span_ns * 0.075);
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
await page.mouse.move(canvas.x + 260 + (canvas.width - 270) * 0.9, canvas.y + laneTop + 12);
await page.screenshot({ path: out, clip: { x: 0, y: 0, width: 1280, height: 900 } });
await browser.close();
