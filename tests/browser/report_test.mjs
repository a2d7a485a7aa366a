// Opens reports of real traces in Debian's chromium (headless, through playwright-core) and checks
// what a reader sees against independent sources: the kernels table against
// `tensormorph kernels --format json`, the roofline points against `tensormorph roofline --format
// json`, a job's Ranks section against `collectives`, `timeline` and `critical-path --format json`,
// the timeline canvas by its pixels. Screenshots go to build/report-screenshots/.
//
//   node tests/browser/report_test.mjs --tm BUILD/tensormorph [--shared ../shared/data] [--out DIR]
//
// Exits 1 on any failed check, 2 when chromium or playwright-core is missing (never a silent skip).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
const tm = path.resolve(args.tm || process.env.TM_BIN || path.join(root, 'build/tensormorph'));
const shared = path.resolve(args.shared || path.join(root, '../shared/data'));
const out = path.resolve(args.out || path.join(path.dirname(tm), 'report-screenshots'));
const chromiumPath = process.env.TM_CHROMIUM || '/usr/bin/chromium';

let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch (e) {
  console.error('report_test: playwright-core is not installed: run scripts/setup_browser.sh ' +
    '(npm install in tests/browser)');
  process.exit(2);
}
if (!fs.existsSync(chromiumPath)) {
  console.error(`report_test: ${chromiumPath} is missing: run scripts/setup_browser.sh (apt-get install chromium)`);
  process.exit(2);
}
if (!fs.existsSync(tm)) {
  console.error(`report_test: ${tm} is missing: build it first (make build) or pass --tm`);
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}
// A Kineto trace's events, read here with node's own gzip and JSON: no tensormorph code.
const traceEvents = (file) => JSON.parse((file.endsWith('.gz') ? zlib.gunzipSync(fs.readFileSync(file)) : fs.readFileSync(file)).toString('utf8')).traceEvents;
const usToNs = (us) => Math.round(Number(us) * 1000); // Kineto's µs with 3 decimals
// The page's times are ns from its t0; the file's, µs on its own clock. ProfilerStep#N is in both:
// the difference of their starts maps one onto the other.
async function clockOffset(page, events) {
  const steps = await page.evaluate(() => window.__tm.data.timeline.steps.filter((s) => s.input === 0));
  const st = steps[Math.floor(steps.length / 2)];
  const ev = events.find((e) => e.ph === 'X' && e.cat === 'user_annotation' && e.name === `ProfilerStep#${st.number}`);
  return { offset: usToNs(ev.ts) - st.s, step: st };
}
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const runJson = (...a) => JSON.parse(execFileSync(tm, a, { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] }));

function report(name, inputs, extra = []) {
  const file = path.join(out, `${name}.html`);
  execFileSync(tm, ['report', '--quiet', ...inputs, '-o', file, ...extra], { stdio: ['ignore', 'inherit', 'inherit'] });
  return file;
}

const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox'] });

// Opens a report and fails on console errors, page errors and any request besides the file itself.
async function open(file, colorScheme = 'light') {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme });
  const page = await context.newPage();
  const errors = [], requests = [];
  const url = pathToFileURL(file).href;
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => { if (r.url() !== url) requests.push(r.url()); });
  await page.goto(url);
  await page.waitForFunction(() => window.__tm && window.__tm.ready, null, { timeout: 30000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return { page, context, errors, requests };
}

// Pixels of the timeline's plot area (right of the lane labels) that are not the background.
async function paintedPixels(page) {
  return page.evaluate(() => {
    const c = document.getElementById('tl-canvas');
    const ctx = c.getContext('2d');
    const dpr = window.devicePixelRatio || 1;
    const x0 = Math.ceil(270 * dpr), img = ctx.getImageData(x0, Math.ceil(26 * dpr), c.width - x0, c.height - Math.ceil(26 * dpr)).data;
    let coloured = 0;
    for (let i = 0; i < img.length; i += 4) {
      const r = img[i], g = img[i + 1], b = img[i + 2];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured++; // saturated: a kernel box, not grey lane
    }
    return coloured;
  });
}

// The kernels table must hold exactly the rows and totals of `tensormorph kernels --format json`.
async function checkKernels(page, inputs, label) {
  const expected = runJson('kernels', '--format', 'json', ...inputs);
  const shown = await page.evaluate(() => {
    const rows = [...document.querySelectorAll('#kernels-table tbody tr')].map((tr) => ({
      name: tr.dataset.name,
      backend: tr.querySelector('td[data-key="backend"]').textContent,
      count: Number(tr.querySelector('td[data-key="count"]').dataset.value),
      total_ns: Number(tr.querySelector('td[data-key="total_ns"]').dataset.value),
    }));
    const foot = document.getElementById('kernels-total').dataset;
    return { rows, total: Number(foot.totalNs), count: Number(foot.count) };
  });
  check(shown.rows.length === expected.rows.length, `${label}: kernels table has ${shown.rows.length} rows, kernels --format json ${expected.rows.length}`);
  const key = (r) => `${r.name}\u0000${r.backend}`;
  const want = new Map(expected.rows.map((r) => [key(r), r]));
  const mismatched = shown.rows.filter((r) => {
    const w = want.get(key(r));
    return !w || w.count !== r.count || w.total_ns !== r.total_ns;
  });
  check(mismatched.length === 0, `${label}: every row's count and total match (${mismatched.length} differ${mismatched.length ? ': ' + mismatched[0].name : ''})`);
  check(shown.total === expected.total_ns && shown.count === expected.kernel_count,
    `${label}: table total ${shown.total} ns / ${shown.count} kernels = kernels JSON ${expected.total_ns} ns / ${expected.kernel_count}`);
  // Sorting by a header, by keyboard, keeps the rows and orders them.
  await page.focus('#kernels-table th:nth-child(3) button');
  await page.keyboard.press('Enter');
  const counts = await page.$$eval('#kernels-table tbody td[data-key="count"]', (tds) => tds.map((t) => Number(t.dataset.value)));
  check(counts.length === expected.rows.length && counts.every((c, i) => i === 0 || counts[i - 1] >= c),
    `${label}: Enter on the Count header sorts the table by count, descending`);
  // Filtering narrows to the matching names.
  const needle = expected.rows[0].name.slice(0, 12);
  await page.fill('#kernels-table-filter', needle);
  const filtered = await page.$$eval('#kernels-table tbody tr', (trs) => trs.map((t) => t.dataset.name));
  const wantFiltered = expected.rows.filter((r) => r.name.toLowerCase().includes(needle.toLowerCase())).length;
  check(filtered.length === wantFiltered, `${label}: filter "${needle}" shows ${filtered.length} rows, expected ${wantFiltered}`);
  await page.fill('#kernels-table-filter', '');
}

// The page reads roofline rows by the names `roofline --format json` writes (`bound`, not the
// `memory_bound` it once had): the roofline table's Bound column, and the kernels table's % of roof
// beside each kernel with one roofline row.
async function checkRooflineFields(page, inputs, label) {
  const rows = runJson('roofline', '--format', 'json', ...inputs).rows;
  const bounds = await page.$$eval('#roofline-table tbody tr', (trs) =>
    trs.map((tr) => [tr.dataset.name, tr.querySelector('td[data-key="bound"]').textContent]));
  check(bounds.length === rows.length && rows.every((r) => bounds.some(([n, b]) => n === r.name && b === (r.bound ?? '–'))),
    `${label}: the roofline table's Bound column shows roofline JSON's bound (${bounds.map((b) => b[1]).join(', ')})`);
  const roof = await page.$$eval('#kernels-table tbody tr', (trs) => Object.fromEntries(trs.map((tr) =>
    [tr.dataset.name, tr.querySelector('td[data-key="percent_of_roof"]').dataset.value ?? null])));
  const single = rows.filter((r) => r.percent_of_roof !== null && rows.filter((x) => x.name === r.name).length === 1);
  check(single.length > 0 && single.every((r) => Number(roof[r.name]) === r.percent_of_roof),
    `${label}: the kernels table's % of roof is roofline JSON's percent_of_roof for ${single.length} kernels`);
}

// The summary lists `tensormorph findings --format json`'s findings, in its order, with its gains.
async function checkFindings(page, inputs, label) {
  const findings = runJson('findings', '--format', 'json', '--quiet', ...inputs).findings;
  // The first ten are shown, the rest one click away (checkTopDown checks that on the job).
  if (await page.$('#findings-more')) await page.click('#findings-more');
  const shown = await page.$$eval('#findings li.finding', (lis) => lis.map((li) => [li.dataset.rule, li.dataset.gainNs]));
  check(findings.length > 0 && shown.length === findings.length &&
    findings.every((f, i) => shown[i][0] === f.rule && shown[i][1] === String(f.estimated_gain_ns)),
    `${label}: the summary lists the ${findings.length} findings of findings JSON in its order (${shown.map((s) => s[0]).join(', ')})`);
  // Each links to where it happens: its longest gap in view, or its kernels or ops highlighted.
  for (let i = 0; i < findings.length; i++) {
    const f = findings[i];
    await page.click(`#findings li.finding:nth-child(${i + 1}) button.tl-link`);
    await frames(page);
    const got = await page.evaluate(() => ({ rule: window.__tm.timeline.finding, view: { ...window.__tm.timeline.view }, t0: window.__tm.data.timeline.t0_ns,
      kernels: window.__tm.timeline.highlightedBoxes, host: window.__tm.timeline.highlightedHost }));
    const gap = f.top.find((t) => t.figures.start_ns !== undefined);
    // The copy rules' items are copy kinds with their counts: exactly those copies light up.
    const copies = ['slow_copies', 'blocking_copies'].includes(f.rule) ? f.top.reduce((a, t) => a + t.figures.count, 0) : null;
    const ok = gap ? got.view.v0 <= gap.figures.start_ns - got.t0 && got.view.v1 >= gap.figures.start_ns - got.t0 + gap.figures.length_ns
      : copies !== null ? got.kernels === copies : got.kernels + got.host > 0;
    check(got.rule === f.rule && ok, `${label}: finding ${f.rule} shows on the timeline (${gap ? `its longest gap, ${gap.figures.length_ns} ns, in view` : `${got.kernels} kernels and copies${copies !== null ? ` (the finding counts ${copies} copies)` : ''}, ${got.host} host boxes highlighted`})`);
  }
  await page.fill('#tl-search', '');
  await page.focus('#tl-canvas');
  await page.keyboard.press('0');
}

// The occupancy columns read `tensormorph occupancy --format json`'s names.
async function checkOccupancyFields(page, inputs, label) {
  const rows = runJson('occupancy', '--format', 'json', ...inputs).rows;
  const shown = await page.$$eval('#occupancy-table tbody td[data-key="theoretical_occupancy"]', (tds) => tds.map((t) => Number(t.dataset.value)));
  check(rows.length > 0 && shown.length === rows.length && rows.every((r) => shown.includes(r.theoretical_occupancy)),
    `${label}: the occupancy table shows theoretical_occupancy of ${shown.length} rows, occupancy JSON ${rows.length}`);
  const joined = await page.$$eval('#kernels-table tbody td[data-key="theoretical_occupancy"]', (tds) => tds.filter((t) => t.dataset.value !== undefined).length);
  check(joined > 0, `${label}: ${joined} kernels show the theoretical occupancy of their launch shape`);
}

async function checkTimeline(page, label) {
  const painted = await paintedPixels(page);
  check(painted > 100, `${label}: timeline canvas draws kernel boxes (${painted} coloured pixels)`);
  const before = await page.evaluate(() => ({ ...window.__tm.timeline.view }));
  await page.focus('#tl-canvas');
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const afterKeys = await page.evaluate(() => ({ ...window.__tm.timeline.view }));
  check(afterKeys.v1 - afterKeys.v0 < 0.5 * (before.v1 - before.v0), `${label}: + + zooms the visible window from ${(before.v1 - before.v0) / 1e6} ms to ${(afterKeys.v1 - afterKeys.v0) / 1e6} ms`);
  await page.keyboard.press('ArrowRight');
  const afterPan = await page.evaluate(() => ({ ...window.__tm.timeline.view }));
  check(afterPan.v0 > afterKeys.v0, `${label}: → pans the window right`);
  const box = await page.locator('#tl-canvas').boundingBox();
  await page.mouse.move(box.x + box.width * 0.6, box.y + 40);
  await page.mouse.wheel(0, -400);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const afterWheel = await page.evaluate(() => ({ ...window.__tm.timeline.view }));
  check(afterWheel.v1 - afterWheel.v0 < afterPan.v1 - afterPan.v0, `${label}: the mouse wheel zooms in`);
  await page.keyboard.press('0');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

// Zooms onto the longest raw kernel of the first lane, hovers it, and reads the tooltip.
async function checkTooltip(page, inputs, label) {
  const target = await page.evaluate(() => {
    const T = window.__tm.data.timeline, l = T.lanes[0];
    let t = 0, best = -1, bs = 0, bd = -1;
    for (let i = 0; i < l.s.length; i++) { t += l.s[i]; if (l.d[i] > bd) { bd = l.d[i]; best = i; bs = t; } }
    window.__tm.timeline.setView(bs - bd, bs + 2 * bd);
    const vv = T.variants[l.v[best]];
    return { name: T.names[vv[0]], op: T.names[vv[1]] || '– (no op)', backend: vv[2], start: bs };
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const box = await page.locator('#tl-canvas').boundingBox();
  const plotW = box.width - 270;
  const laneTop = await page.evaluate(() => window.__tm.timeline.laneTops[0]);
  await page.mouse.move(box.x + 260 + plotW * 0.5, box.y + laneTop + 11);
  const tip = await page.evaluate(() => { const t = document.getElementById('tl-tip'); return t.hidden ? '' : t.textContent; });
  check(tip.includes(target.name.slice(0, 40)) && tip.includes('Duration') && tip.includes('Grid'),
    `${label}: hovering the longest kernel shows its tooltip (${tip.slice(0, 60)}…)`);
  // A click selects it: the details panel names it and its op, and its launch count is the
  // kernels command's for that name and backend.
  await page.mouse.down();
  await page.mouse.up();
  const shown = await page.evaluate(() => {
    const d = document.getElementById('tl-details');
    const f = (k) => { const e = d.querySelector(`[data-field="${k}"]`); return e ? e.textContent : null; };
    return { hidden: d.hidden, kernel: f('kernel'), op: f('op'), count: f('count') };
  });
  const row = runJson('kernels', '--format', 'json', ...inputs).rows.find((r) => r.name === target.name && r.backend === target.backend);
  check(!shown.hidden && shown.kernel === target.name && shown.op === target.op && row && shown.count === row.count.toLocaleString('en-US'),
    `${label}: clicking the kernel shows it, its op (${shown.op}) and its ${shown.count} launches (kernels: ${row && row.count})`);
  // Its launch call and queue delay, found in the trace file by the kernel's correlation id, and
  // the arrow from that call to the kernel.
  const events = traceEvents(inputs[0]);
  const { offset } = await clockOffset(page, events);
  const kernel = events.find((e) => e.cat === 'kernel' && e.name === target.name && usToNs(e.ts) - offset === target.start);
  const call = kernel && events.find((e) => e.cat === 'cuda_runtime' && e.args && e.args.correlation === kernel.args.correlation);
  const queue = call ? Math.max(0, usToNs(kernel.ts) - (usToNs(call.ts) + usToNs(call.dur))) : null;
  await frames(page);
  const sel = await page.evaluate(() => ({ ...window.__tm.timeline.selected, drawn: window.__tm.timeline.stats.arrows }));
  check(call && sel.launch === call.name && sel.queue_ns === queue && sel.arrows === 1 && sel.drawn === 1,
    `${label}: the kernel's launch call is ${sel.launch} (trace: ${call && call.name}, correlation ${kernel && kernel.args.correlation}), queue delay ${sel.queue_ns} ns (trace: ${queue}), ${sel.drawn} launch arrow drawn`);
  check(sel.stack.length >= 1 && sel.stack[sel.stack.length - 1] === target.op, `${label}: the op's stack ends in its op (${sel.stack.join(' › ')})`);
  await page.focus('#tl-canvas');
  await page.keyboard.press('u');
  const upSel = await page.evaluate(() => window.__tm.timeline.selected);
  await page.keyboard.press('j');
  const downSel = await page.evaluate(() => window.__tm.timeline.selected);
  check(upSel.kind === 'runtime' && upSel.name === call.name && upSel.kernels === 1 && downSel.kind === 'kernel' && downSel.name === target.name,
    `${label}: u selects the launch call (${upSel.name}, ${upSel.kernels} kernel), j its kernel again`);
  await page.keyboard.press('n');
  const next = await page.evaluate(() => window.__tm.timeline.selected);
  check(next.kind === 'kernel' && next !== null, `${label}: n selects the next kernel on the lane (${next.name.slice(0, 40)})`);
  await page.keyboard.press('Escape');
  check(await page.evaluate(() => document.getElementById('tl-details').hidden), `${label}: Escape clears the selection`);
  await page.mouse.move(0, 0);
  await page.keyboard.press('0');
}

// Host lanes: one per thread with host events in the trace file; zoomed into a window of a step,
// the boxes of each kind drawn (or merged into a pixel), with those too deep to draw, are exactly
// the file's events of that category overlapping it: cpu_op, python_function, cuda_runtime.
const HOST_CATEGORIES = { op: 'cpu_op', python: 'python_function', runtime: 'cuda_runtime' };
async function checkHostLanes(page, inputs, label, { windows = [[0.3, 0.32], [0.5, 0.6], [0, 1]], click = true } = {}) {
  const events = traceEvents(inputs[0]);
  const hostCats = new Set(['cpu_op', 'cuda_runtime', 'cuda_driver', 'user_annotation', 'python_function']);
  const threads = new Set(events.filter((e) => e.ph === 'X' && hostCats.has(e.cat)).map((e) => `${e.pid}/${e.tid}`));
  const lanes = await page.evaluate(() => window.__tm.timeline.hostLanes);
  check(lanes > 0 && lanes === threads.size, `${label}: ${lanes} host lanes, one per thread with host events in the file (${threads.size})`);
  const { offset, step } = await clockOffset(page, events);
  for (const [from, to] of windows) {
    const len = step.e - step.s;
    await page.evaluate(([a, b]) => window.__tm.timeline.setView(a, b), [step.s + from * len, step.s + to * len]);
    await frames(page);
    const got = await page.evaluate(() => {
      const tl = window.__tm.timeline, kinds = window.__tm.data.timeline.host_kinds, hidden = tl.hiddenInWindow();
      return { view: { ...tl.view }, byKind: Object.fromEntries(kinds.map((k, i) => [k, { drawn: tl.stats.hostInWindow[i], hidden: hidden[i] }])) };
    });
    for (const [kind, cat] of Object.entries(HOST_CATEGORIES)) {
      const want = events.filter((e) => e.ph === 'X' && e.cat === cat).filter((e) => {
        const s = usToNs(e.ts) - offset, end = s + usToNs(e.dur);
        return s < got.view.v1 && end > got.view.v0;
      }).length;
      const { drawn, hidden } = got.byKind[kind];
      if (!want && kind !== 'op') continue; // no Python frames in this trace
      check(want > 0 && drawn + hidden === want, `${label}: ${drawn} ${kind} boxes drawn${hidden ? ` and ${hidden} too deep to draw` : ''} in a ${((got.view.v1 - got.view.v0) / 1e3).toFixed(1)} µs window of step ${step.number}, the file has ${want} ${cat} events there`);
    }
  }
  if (!click) { await page.evaluate(() => window.__tm.timeline.setView(-Infinity, Infinity)); return; }
  // A click on an op box selects it: its name and stack, and arrows to the kernels attributed to it.
  const target = await page.evaluate(() => {
    const tl = window.__tm.timeline;
    for (const h of tl.hostLaneData) {
      for (let i = 0; i < h.s.length; i++) {
        if (h.depth[i] !== 1 || window.__tm.data.timeline.host_kinds[h.k[i]] !== 'op') continue;
        const kernels = tl.laneData.reduce((a, l) => a + (l.ob ? l.ob.filter((x) => x === h.box_base + i).length : 0), 0);
        if (!kernels) continue;
        tl.setView(h.s[i] - h.d[i], h.s[i] + 2 * h.d[i]);
        return { lane: h.index, depth: 1, name: window.__tm.data.timeline.names[h.n[i]], kernels };
      }
    }
    return null;
  });
  await page.locator('#tl-canvas').scrollIntoViewIfNeeded();
  await frames(page);
  let box = await page.locator('#tl-canvas').boundingBox();
  const geoOf = () => page.evaluate((lane) => ({ top: window.__tm.timeline.hostTops[lane], h: window.__tm.timeline.hostRowH, w: window.__tm.timeline.labelW,
    collapsed: window.__tm.timeline.hostCollapsed[lane] }), target.lane);
  let geo = await geoOf();
  if (geo.collapsed) {
    // A thread of many rows starts collapsed to one: a click on its label expands it.
    await page.mouse.click(box.x + 20, box.y + geo.top + 6);
    await frames(page);
    geo = await geoOf();
    box = await page.locator('#tl-canvas').boundingBox();
    check(!geo.collapsed, `${label}: a click on the label of host lane ${target.lane} expands it`);
  }
  await page.mouse.click(box.x + geo.w + (box.width - geo.w - 10) / 2, box.y + geo.top + 1 + geo.h * 1.5);
  await frames(page);
  const sel = await page.evaluate(() => ({ ...window.__tm.timeline.selected, drawn: window.__tm.timeline.stats.arrows }));
  check(sel.kind === 'op' && sel.name === target.name && sel.kernels === target.kernels && sel.stack.length === 2,
    `${label}: clicking op ${target.name} selects it (stack ${sel.stack && sel.stack.join(' › ')}; ${sel.kernels} kernels, ${sel.drawn} arrows drawn)`);
  await page.focus('#tl-canvas');
  await page.keyboard.press('Escape');
  await page.keyboard.press('0');
}

// The page reads top-down (a job's page above all): the first ten findings with the rest one
// click away, the Ranks section before the per-kernel tables, and host threads of many rows
// collapsed to one summary row until their label is clicked, so the device lanes are near the
// top of the timeline.
async function checkTopDown(page, inputs, label) {
  const findings = runJson('findings', '--format', 'json', '--quiet', ...inputs).findings;
  const topOf = (sel) => page.evaluate((s) => document.querySelector(s).getBoundingClientRect().top + window.scrollY, sel);
  const visible = await page.$$eval('#findings li.finding', (lis) => lis.filter((li) => !li.hidden).map((li) => li.dataset.rule));
  const ranksTop = await topOf('#ranks');
  check(findings.length > 10 && visible.length === 10 && visible.every((r, i) => r === findings[i].rule) && await page.isVisible('#findings-more'),
    `${label}: the summary shows the first ${visible.length} of ${findings.length} findings, in findings' order, and a button for the rest`);
  check(ranksTop < await topOf('#compute') && ranksTop < await topOf('#kernels'), `${label}: the Ranks section (at ${Math.round(ranksTop)} px) comes before the Compute and Kernels tables`);
  await page.click('#findings-more');
  const all = await page.$$eval('#findings li.finding', (lis) => lis.filter((li) => !li.hidden).length);
  const ranksAfter = await topOf('#ranks');
  check(all === findings.length && ranksAfter > ranksTop, `${label}: "Show all" lists all ${all} findings (the Ranks section moves from ${Math.round(ranksTop)} to ${Math.round(ranksAfter)} px)`);
  const tl = await page.evaluate(() => ({ depths: window.__tm.timeline.hostLaneData.map((h) => h.depths), collapsed: window.__tm.timeline.hostCollapsed,
    hostTops: window.__tm.timeline.hostTops, laneTops: window.__tm.timeline.laneTops, rowH: window.__tm.timeline.hostRowH }));
  const deep = tl.depths.map((d, i) => [d, i]).filter(([d]) => d > 4);
  check(deep.length > 0 && tl.depths.every((d, i) => tl.collapsed[i] === d > 4),
    `${label}: the ${deep.length} host threads of more than 4 rows start collapsed (rows: ${tl.depths.join(', ')}), the others expanded`);
  // Expanding the first deep thread by its label pushes every row below it down by its other rows.
  const [depth, lane] = deep[0];
  // The label's row in the middle of the window (the canvas is taller than it; the header sticks).
  await page.evaluate((y) => window.scrollTo(0, document.getElementById('tl-canvas').getBoundingClientRect().top + window.scrollY + y - window.innerHeight / 2), tl.hostTops[lane]);
  const box = await page.locator('#tl-canvas').boundingBox();
  await page.mouse.click(box.x + 20, box.y + tl.hostTops[lane] + 6);
  await frames(page);
  const open = await page.evaluate(() => ({ collapsed: window.__tm.timeline.hostCollapsed, laneTops: window.__tm.timeline.laneTops }));
  const pushed = open.laneTops.every((y, i) => tl.laneTops[i] < tl.hostTops[lane] || y - tl.laneTops[i] === (depth - 1) * tl.rowH);
  check(!open.collapsed[lane] && pushed, `${label}: a click on host lane ${lane}'s label expands its ${depth} rows; the lanes below move down ${(depth - 1) * tl.rowH} px`);
  await page.mouse.click(box.x + 20, box.y + tl.hostTops[lane] + 6);
  await frames(page);
  const again = await page.evaluate(() => ({ collapsed: window.__tm.timeline.hostCollapsed, laneTops: window.__tm.timeline.laneTops }));
  check(again.collapsed[lane] && again.laneTops.every((y, i) => y === tl.laneTops[i]), `${label}: a second click collapses it again`);
}

// A CUDA graph replay: a click on one of its kernels draws arrows from its cudaGraphLaunch to
// every kernel, memcpy and memset of that replay: as many as the file has with the launch's
// correlation id.
async function checkGraphLaunch(page, inputs, label) {
  const events = traceEvents(inputs[0]);
  const deviceCats = ['kernel', 'gpu_memcpy', 'gpu_memset'];
  const perCorrelation = new Map(), kernelsPer = new Map();
  for (const e of events) {
    if (!deviceCats.includes(e.cat)) continue;
    perCorrelation.set(e.args.correlation, (perCorrelation.get(e.args.correlation) || 0) + 1);
    if (e.cat === 'kernel') kernelsPer.set(e.args.correlation, (kernelsPer.get(e.args.correlation) || 0) + 1);
  }
  const launch = events.filter((e) => e.cat === 'cuda_runtime' && e.name === 'cudaGraphLaunch')
    .sort((a, b) => (perCorrelation.get(b.args.correlation) || 0) - (perCorrelation.get(a.args.correlation) || 0))[0];
  const kernel = events.find((e) => e.cat === 'kernel' && e.args.correlation === launch.args.correlation);
  // The page's t0 is the first kernel or copy start in the file. Its times are absolute µs
  // (1.7e15): differences first, so that no double holds a 1.7e18 ns value.
  const t0 = Math.min(...events.filter((e) => deviceCats.includes(e.cat)).map((e) => e.ts));
  const start = usToNs(kernel.ts - t0), dur = usToNs(kernel.dur);
  const lane = await page.evaluate(([stream, start, dur]) => {
    const tl = window.__tm.timeline, i = tl.laneData.findIndex((l) => l.stream === stream);
    tl.setView(start - dur, start + 2 * dur);
    return i;
  }, [kernel.args.stream, start, dur]);
  await page.locator('#tl-canvas').scrollIntoViewIfNeeded();
  await frames(page);
  const box = await page.locator('#tl-canvas').boundingBox();
  const geo = await page.evaluate((i) => ({ top: window.__tm.timeline.laneTops[i], w: window.__tm.timeline.labelW }), lane);
  await page.mouse.click(box.x + geo.w + (box.width - geo.w - 10) / 2, box.y + geo.top + 11);
  // The whole replay in view: from the launch call to its last work's end.
  const work = events.filter((e) => deviceCats.includes(e.cat) && e.args.correlation === launch.args.correlation);
  const end = Math.max(...work.map((e) => e.ts + e.dur));
  await page.evaluate(([a, b]) => window.__tm.timeline.setView(a, b), [usToNs(launch.ts - t0) - 1000, usToNs(end - t0) + 1000]);
  await frames(page);
  const sel = await page.evaluate(() => ({ ...window.__tm.timeline.selected, drawn: window.__tm.timeline.stats.arrows,
    queue: document.querySelector('#tl-details [data-field="queue"]').textContent }));
  const want = perCorrelation.get(launch.args.correlation), kernels = kernelsPer.get(launch.args.correlation);
  check(kernels > 1 && sel.name === kernel.name && sel.launch === 'cudaGraphLaunch' && sel.arrows === want && sel.drawn === want &&
    sel.queue.startsWith(`graph launch of ${kernels} kernels and ${want - kernels} copies or memsets`),
    `${label}: a kernel of a graph replay draws ${sel.drawn} arrows from its cudaGraphLaunch (the file has ${kernels} kernels and ${want - kernels} copies/memsets with correlation ${launch.args.correlation}): "${sel.queue.slice(0, 60)}…"`);
  await page.focus('#tl-canvas');
  await page.keyboard.press('Escape');
}

// Tables that read at any width: at 1280 and 1920 px no cell's text overflows its cell, no table's
// box is wider than its section, and names are on one line, shortened in the middle to at most
// 72 characters with the whole name in data-full. A click on a row shows its name whole. A
// followed section link leaves the section's title below the sticky header.
async function checkReadable(page, label) {
  for (const width of [1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const r = await page.evaluate(() => {
      const out = { cells: 0, overflowing: [], wide: [], long: [], multiline: [] };
      for (const section of document.querySelectorAll('main section:not([hidden])')) {
        const right = section.getBoundingClientRect().right;
        for (const table of section.querySelectorAll('table')) {
          const box = table.closest('.scroll') || table;
          if (box.getBoundingClientRect().right > right + 1) out.wide.push(table.id || '(table)');
          for (const td of table.querySelectorAll('td')) {
            out.cells++;
            if (td.scrollWidth > td.clientWidth + 1) out.overflowing.push(`${table.id}: ${td.textContent.slice(0, 40)}`);
          }
          for (const td of table.querySelectorAll('tr:not(.sel) td.name')) {
            if (td.textContent.length > 72 || td.dataset.full === undefined) out.long.push(td.textContent.slice(0, 40));
            // The line boxes of the cell's text (the cell itself is as tall as its row).
            const range = document.createRange();
            range.selectNodeContents(td);
            if (new Set([...range.getClientRects()].map((b) => Math.round(b.top))).size > 1) out.multiline.push(td.textContent.slice(0, 40));
          }
        }
      }
      return out;
    });
    check(r.cells > 0 && r.overflowing.length === 0, `${label} at ${width} px: no cell of ${r.cells} overflows its column${r.overflowing.length ? ' (' + r.overflowing.slice(0, 3).join('; ') + ')' : ''}`);
    check(r.wide.length === 0, `${label} at ${width} px: no table is wider than its section${r.wide.length ? ' (' + r.wide.join(', ') + ')' : ''}`);
    check(r.long.length === 0 && r.multiline.length === 0, `${label} at ${width} px: names on one line, at most 72 characters${r.long.length + r.multiline.length ? ' (' + [...r.long, ...r.multiline].slice(0, 2).join('; ') + ')' : ''}`);
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  const full = await page.evaluate(() => {
    const tr = [...document.querySelectorAll('#kernels-table tbody tr')].find((t) => t.querySelector('td.name').dataset.full.length > 72);
    if (!tr) return null;
    tr.click();
    const td = tr.querySelector('td.name');
    const shown = td.textContent === td.dataset.full && tr.getAttribute('aria-selected') === 'true';
    tr.click();
    return { shown, back: td.textContent.length <= 72 };
  });
  check(full === null || (full.shown && full.back), `${label}: a click on a kernel row shows its whole name, a second click shortens it again`);
  await page.click('nav a[href="#kernels"]');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const titleBelow = await page.evaluate(() => document.getElementById('h-kernels').getBoundingClientRect().top >=
    document.querySelector('header').getBoundingClientRect().bottom - 1);
  check(titleBelow, `${label}: following the Kernels link leaves its title below the sticky header`);
  await page.evaluate(() => window.scrollTo(0, 0));
}

// The timeline's idle gaps (one row per device with gaps, a legend item per cause present, as
// `tensormorph timeline --format json` counts them) and its ProfilerStep markers (one per step).
async function checkGapsAndSteps(page, inputs, label) {
  const expected = runJson('timeline', '--format', 'json', ...inputs);
  const causes = new Set();
  for (const d of expected.devices) for (const [c, v] of Object.entries(d.gaps.by_cause || {})) if (v.count > 0) causes.add(c);
  const shown = await page.$$eval('#tl-gap-legend [data-cause]', (items) => items.map((i) => i.dataset.cause));
  check(shown.length === causes.size && shown.every((c) => causes.has(c)),
    `${label}: the legend lists every gap cause present (${shown.join(', ')}; timeline: ${[...causes].join(', ')})`);
  const state = await page.evaluate(() => ({ gapRows: window.__tm.timeline.gapRows, steps: window.__tm.timeline.steps,
    markers: window.__tm.timeline.stats.stepMarkers }));
  const devicesWithGaps = expected.devices.filter((d) => d.gaps.count > 0).length;
  check(state.gapRows === devicesWithGaps, `${label}: idle gaps drawn once per device, on ${state.gapRows} rows (${devicesWithGaps} devices with gaps)`);
  // One device per input here: its steps are the input's.
  const steps = expected.devices.reduce((a, d) => a + (d.steps || []).length, 0);
  check(steps > 0 && state.steps === steps && state.markers === steps,
    `${label}: ${state.markers} ProfilerStep markers drawn, ${state.steps} embedded; timeline has ${steps} steps`);
}

// Drill-down: a click on an op row of the Compute panel highlights exactly the kernels it launched
// (as many as `ops --format json` counts) and zooms the timeline to them; the search box finds
// kernels by name (as many launches as `kernels --format json` has for the names containing it).
async function checkDrillDown(page, inputs, label) {
  const ops = runJson('ops', '--format', 'json', ...inputs).rows.filter((r) => r.origin === 'op' && r.kernels > 0);
  for (const op of ops.slice(0, 3)) {
    await page.click(`#ops-table tbody tr[data-name="${op.name}"]`);
    const got = await page.evaluate((name) => {
      // The first start and last end of the op's calls and its kernels, from the embedded boxes.
      const T = window.__tm.data.timeline;
      let first = Infinity, last = -Infinity;
      for (const l of T.lanes) {
        let t = 0;
        for (let i = 0; i < l.s.length; i++) {
          t += l.s[i];
          if (T.names[T.variants[l.v[i]][1]] === name) { first = Math.min(first, t); last = Math.max(last, t + l.d[i]); }
        }
      }
      for (const h of T.host_lanes) {
        let t = 0;
        for (let i = 0; i < h.s.length; i++) {
          t += h.s[i];
          if (T.names[T.host_labels[h.n[i]][0]] === name) { first = Math.min(first, t); last = Math.max(last, t + h.d[i]); }
        }
      }
      return { n: window.__tm.timeline.highlighted, view: { ...window.__tm.timeline.view }, first, last };
    }, op.name);
    check(got.n === op.kernels, `${label}: clicking op ${op.name} highlights ${got.n} kernels (ops: ${op.kernels})`);
    const span = got.last - got.first;
    check(got.view.v0 <= got.first && got.view.v1 >= got.last && got.view.v1 - got.view.v0 <= 1.11 * span + 400,
      `${label}: and zooms the timeline to its calls and kernels (${(span / 1e6).toFixed(3)} ms, window ${((got.view.v1 - got.view.v0) / 1e6).toFixed(3)} ms)`);
  }
  const query = 'ncclKernel';
  const expected = runJson('kernels', '--format', 'json', ...inputs).rows
    .filter((r) => r.name.toLowerCase().includes(query.toLowerCase())).reduce((a, r) => a + r.count, 0);
  const opsNamed = ops.filter((r) => r.name.toLowerCase().includes(query.toLowerCase())).length;
  await page.fill('#tl-search', query);
  const n = await page.evaluate(() => window.__tm.timeline.highlighted);
  check(expected > 0 && opsNamed === 0 && n === expected, `${label}: searching "${query}" finds ${n} kernels (kernels: ${expected})`);
  await page.fill('#tl-search', '');
  check(await page.evaluate(() => window.__tm.timeline.highlighted === null), `${label}: clearing the search clears the highlight`);
  await page.focus('#tl-canvas');
  await page.keyboard.press('0');
}

function checkClean(ctx, label) {
  check(ctx.errors.length === 0, `${label}: no console errors${ctx.errors.length ? ': ' + ctx.errors[0] : ''}`);
  check(ctx.requests.length === 0, `${label}: no network requests${ctx.requests.length ? ': ' + ctx.requests[0] : ''}`);
}

const demo = [path.join(root, 'examples/nccl_2rank_rank0_a100.json.gz')];
const alexnet = [path.join(shared, 'kineto/hta/alexnet_a100_cuda_sync_trace.json.gz')];
const ncu = [path.join(shared, 'nvidia/ncu_csv/llmperfopt_k0001_ncu.section_SpeedOfLight_RooflineChart.csv')];
const ncuFixture = [path.join(root, 'tests/data/ncu_raw_fixture.csv')];

// 1. The demo trace: every section, light and dark.
{
  const file = report('demo', demo);
  const ctx = await open(file);
  await checkKernels(ctx.page, demo, 'demo');
  await checkTimeline(ctx.page, 'demo');
  await checkTooltip(ctx.page, demo, 'demo');
  await checkHostLanes(ctx.page, demo, 'demo');
  await checkFindings(ctx.page, demo, 'demo');
  await checkGapsAndSteps(ctx.page, demo, 'demo');
  await checkDrillDown(ctx.page, demo, 'demo');
  await checkReadable(ctx.page, 'demo');
  const gaps = await ctx.page.evaluate(() => window.__tm.data.timeline.gaps.reduce((a, g) => a + g.s.length, 0));
  const expectedGaps = runJson('timeline', '--format', 'json', ...demo).devices.reduce((a, d) => a + d.gaps.count, 0);
  check(gaps > 0 && gaps === expectedGaps, `demo: every idle gap of tensormorph timeline is marked (${gaps} of ${expectedGaps})`);
  const ranks = await ctx.page.evaluate(() => ({ job: window.__tm.data.job, hidden: document.getElementById('ranks').hidden,
    nav: document.getElementById('nav-ranks').hidden, line: !!document.getElementById('summary-job') }));
  check(ranks.job === null && ranks.hidden && ranks.nav && !ranks.line && !(await ctx.page.isVisible('#ranks-table')),
    'demo: a single-trace report has no Ranks section (job null, section and link hidden, no job line)');
  await ctx.page.screenshot({ path: path.join(out, 'demo.png'), fullPage: true });
  await ctx.page.locator('#timeline').screenshot({ path: path.join(out, 'demo-timeline.png') });
  checkClean(ctx, 'demo');
  await ctx.context.close();
  const dark = await open(file, 'dark');
  const bg = await dark.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  check(bg !== 'rgb(255, 255, 255)', `demo: dark mode changes the background (${bg})`);
  check((await paintedPixels(dark.page)) > 200, 'demo: dark-mode timeline draws boxes');
  await dark.page.screenshot({ path: path.join(out, 'demo-dark.png') });
  checkClean(dark, 'demo dark');
  await dark.context.close();
}

// 1b. A trace without device work: the page loads without errors and says there is nothing to
// draw, as `kernels` counts nothing. A TPU profile has device work: its XLA ops, one lane per TPU.
{
  const tpu = path.join(shared, 'kineto/jax_xplane/xprof_tpu_v6e_4chip_inference_2.xplane.pb');
  const tpuKernels = runJson('kernels', '--format', 'json', tpu);
  const tpuInfo = runJson('info', '--format', 'json', tpu);
  check(tpuKernels.kernel_count > 0, 'tpu: kernels counts its XLA ops');
  const tpuPage = await open(report('tpu', [tpu]));
  const tpuShown = await tpuPage.page.evaluate(() => ({ lanes: window.__tm.timeline.lanes,
    rows: document.querySelectorAll('#kernels tbody tr').length }));
  check(tpuShown.lanes === tpuInfo.inputs[0].devices.length && tpuShown.rows > 0,
    `tpu: one timeline lane per TPU (${JSON.stringify(tpuShown)}, ${tpuInfo.inputs[0].devices.length} TPUs)`);
  check((await paintedPixels(tpuPage.page)) > 200, 'tpu: the timeline draws the XLA ops');
  checkClean(tpuPage, 'tpu');
  await tpuPage.context.close();

  const empty = path.join(out, 'empty-trace.json');
  fs.writeFileSync(empty, '{"traceEvents": []}');
  for (const [label, input] of [['empty', empty]]) {
    check(runJson('kernels', '--format', 'json', input).kernel_count === 0, `${label}: kernels counts no kernel`);
    const ctx = await open(report(`no-device-work-${label}`, [input]));
    const shown = await ctx.page.evaluate(() => ({ info: document.querySelector('#timeline .tl-info').textContent,
      wrap: document.querySelector('#timeline .tl-wrap').hidden, lanes: window.__tm.timeline.lanes,
      kernels: document.querySelectorAll('#kernels tbody tr').length }));
    check(shown.info.startsWith('No device work') && shown.wrap && shown.lanes === 0 && shown.kernels === 0,
      `${label}: the page says there is no device work (${JSON.stringify(shown)})`);
    checkClean(ctx, `no device work (${label})`);
    await ctx.context.close();
  }
}

// 2. AlexNet on an A100, with the demo trace as the baseline (the diff view).
{
  const file = report('alexnet', alexnet, ['--baseline', demo[0]]);
  const ctx = await open(file);
  await checkKernels(ctx.page, alexnet, 'alexnet');
  await checkOccupancyFields(ctx.page, alexnet, 'alexnet');
  await checkFindings(ctx.page, alexnet, 'alexnet');
  await checkTimeline(ctx.page, 'alexnet');
  const diffRows = await ctx.page.$$eval('#diff-table tbody tr', (t) => t.length);
  const diff = runJson('diff', '--format', 'json', demo[0], alexnet[0]);
  check(await ctx.page.isVisible('#diff') && diffRows === diff.rows.length,
    `alexnet: diff view shows ${diffRows} rows, tensormorph diff ${diff.rows.length}`);
  await ctx.page.locator('#diff').screenshot({ path: path.join(out, 'alexnet-diff.png') });
  checkClean(ctx, 'alexnet');
  await ctx.context.close();
}

// 3. Nsight Compute exports: one point per kernel with counters.
for (const [label, inputs] of [['ncu', ncu], ['ncu-fixture', ncuFixture]]) {
  const file = report(label, inputs);
  const ctx = await open(file);
  const expected = runJson('roofline', '--format', 'json', ...inputs).rows
    .filter((r) => r.achieved_flops_per_s > 0 && r.arithmetic_intensity > 0);
  const points = await ctx.page.$$eval('#roofline-chart circle.point', (c) => c.map((x) => x.dataset.name));
  check(expected.length > 0 && points.length === expected.length &&
    expected.every((r) => points.includes(r.name)), `${label}: roofline chart has ${points.length} points, roofline JSON ${expected.length} kernels with counters`);
  const roofs = await ctx.page.$$eval('#roofline-chart polyline.roof', (p) => p.length);
  check(roofs > 0, `${label}: the device's roof is drawn (${roofs})`);
  await checkRooflineFields(ctx.page, inputs, label);
  await checkKernels(ctx.page, inputs, label);
  await ctx.page.locator('#roofline').screenshot({ path: path.join(out, `${label}-roofline.png`) });
  checkClean(ctx, label);
  await ctx.context.close();
}

// 4. Two ranks of one job, against a saved baseline: lanes per rank, combined kernels table.
{
  const ranks = [0, 1].map((r) => path.join(shared, `kineto/hta/multirank_sampled/sampled_rank-${r}.json.gz`));
  const base = path.join(out, 'rank0-baseline.json');
  execFileSync(tm, ['baseline', 'save', '--quiet', ranks[0], '-o', base], { stdio: ['ignore', 'ignore', 'inherit'] });
  const file = report('multirank', ranks, ['--baseline', base]);
  const ctx = await open(file);
  await checkKernels(ctx.page, ranks, 'multirank');
  await checkTimeline(ctx.page, 'multirank');
  const lanes = await ctx.page.evaluate(() => window.__tm.data.timeline.lanes.map((l) => l.rank));
  check(lanes.includes(0) && lanes.includes(1), `multirank: lanes for rank 0 and rank 1 (${lanes.length} lanes)`);
  await checkGapsAndSteps(ctx.page, ranks, 'multirank');
  await checkReadable(ctx.page, 'multirank');
  const diffRows = await ctx.page.$$eval('#diff-table tbody tr', (t) => t.length);
  const both = path.join(out, 'ranks-baseline.json'); // `diff` takes one NEW: both ranks saved as one
  execFileSync(tm, ['baseline', 'save', '--quiet', ...ranks, '-o', both], { stdio: ['ignore', 'ignore', 'inherit'] });
  const diff = runJson('diff', '--format', 'json', base, both);
  check(diffRows === diff.rows.length, `multirank: diff against the saved baseline shows ${diffRows} rows, tensormorph diff ${diff.rows.length}`);
  // Two ranks of 128: the Ranks section names no straggler; a click on a step shows its path.
  const steps = await ctx.page.$$eval('#cp-steps tbody tr', (trs) => trs.map((tr) => tr.dataset.step));
  const noStraggler = await ctx.page.$$eval('#ranks-table tbody td[data-key="straggler"]', (tds) => tds.every((t) => t.textContent === ''));
  check(steps.length === 2 && noStraggler, `multirank: ${steps.length} steps walked, no straggler named for 2 ranks of 128`);
  await ctx.page.click(`#cp-steps tbody tr[data-step="${steps[1]}"]`);
  const title = await ctx.page.getAttribute('#cp-title', 'data-step');
  check(title === steps[1], `multirank: clicking step ${steps[1]} shows its path (${title})`);
  await ctx.page.locator('#timeline').screenshot({ path: path.join(out, 'multirank-timeline.png') });
  checkClean(ctx, 'multirank');
  await ctx.context.close();
}

// 4b. A CUDA-graph trace (A100, Triton kernels replayed by cudaGraphLaunch).
{
  const graph = [path.join(shared, 'kineto/hta_cudagraph/a100_ws16_cudagraph_triton_rank0.json.gz')];
  const ctx = await open(report('cudagraph', graph));
  await checkGraphLaunch(ctx.page, graph, 'cudagraph');
  checkClean(ctx, 'cudagraph');
  await ctx.context.close();
}

// 5. A capped report: few raw boxes, the rest as buckets, and the page says so.
{
  const file = report('demo-capped', demo, ['--max-boxes', '300']);
  const ctx = await open(file);
  const state = await ctx.page.evaluate(() => ({ modes: window.__tm.timeline.stats.mode, note: !!document.getElementById('tl-capped') }));
  check(state.note && state.modes.some((m) => m.includes('lod')), `demo-capped: bucketed lanes (${state.modes.join(', ')}) and a note about the cap`);
  check((await paintedPixels(ctx.page)) > 200, 'demo-capped: bucketed timeline draws');
  checkClean(ctx, 'demo-capped');
  await ctx.context.close();
}

// 6. The same Qwen inference on an H100 and an MI300X side by side (report --compare): the
// section's rows and categories against `tensormorph compare --format json`, a row's inner ops.
{
  const pair = ['h100', 'mi300'].map((d) => path.join(root, `examples/${d}_qwen1.5-0.5b_inference.json.gz`));
  const file = report('compare', pair, ['--compare', '--label', 'H100,MI300X']);
  const ctx = await open(file);
  const expected = runJson('compare', '--format', 'json', '--label', 'H100,MI300X', ...pair);
  check(await ctx.page.isVisible('#compare') && await ctx.page.isVisible('#nav-compare'), 'compare: the section and its link are shown');
  const rows = await ctx.page.$$eval('#compare-rows tbody tr', (t) => t.length);
  check(rows === expected.rows.length, `compare: ${rows} aligned rows, tensormorph compare ${expected.rows.length}`);
  const verdict = await ctx.page.textContent('#compare-verdict');
  check(verdict === expected.verdict, `compare: the verdict is compare's (${verdict})`);
  // The categories table: each side's column adds up to that side's kernel time.
  const sums = await ctx.page.$$eval('#compare-categories tbody tr', (trs) => [0, 1].map((i) =>
    trs.reduce((sum, tr) => sum + Number(tr.querySelector(`td[data-key="s${i}"]`).dataset.value), 0)));
  check(sums[0] === expected.sides[0].kernel_ns && sums[1] === expected.sides[1].kernel_ns,
    `compare: categories add up to each side's kernel time (${sums.join(', ')})`);
  // The category chart: a bar per category and side, its time compare's.
  const bars = await ctx.page.$$eval('#compare-chart rect', (rs) => rs.map((r) => [r.dataset.category, r.dataset.side, Number(r.dataset.ns)]));
  const wantBars = expected.categories.flatMap((c) => c.sides.map((s, i) => [c.category, expected.sides[i].label, s.device_ns]));
  check(bars.length === wantBars.length && bars.every((b, i) => b[0] === wantBars[i][0] && b[1] === wantBars[i][1] && b[2] === wantBars[i][2]),
    `compare: the category chart has ${bars.length} bars, each the device time of compare's categories (${wantBars.length})`);
  // The attention row opens its inner ops: flash attention on both sides.
  const attention = expected.rows.find((r) => r.name === 'aten::scaled_dot_product_attention');
  await ctx.page.click(`#compare-rows tbody tr[data-name^="aten::scaled_dot_product_attention"]`);
  const inner = await ctx.page.$$eval('#compare-children-table tbody tr', (t) => t.map((r) => r.dataset.name));
  check(attention && inner.length === attention.children.length && inner.some((n) => n.startsWith('aten::_flash_attention_forward')),
    `compare: the attention row lists its ${inner.length} inner ops (${inner.slice(0, 3).join('; ')})`);
  await ctx.page.locator('#compare').screenshot({ path: path.join(out, 'compare.png') });
  await checkReadable(ctx.page, 'compare');
  checkClean(ctx, 'compare');
  await ctx.context.close();
}

// 7. The Compute panel with --predict: each op's predicted time on the MI300X equals `ops --predict
// --format json`, and its sentence says what served it and what the target would take.
{
  const trace = path.join(root, 'examples/h100_qwen1.5-0.5b_inference.json.gz');
  const file = report('predict', [trace], ['--predict', 'mi300x']);
  const ctx = await open(file);
  const expected = runJson('ops', '--format', 'json', '--predict', 'mi300x', trace);
  const shown = await ctx.page.$$eval('#ops-table tbody tr', (trs) => trs.map((tr) => ({
    name: tr.dataset.name,
    predicted: tr.querySelector('td[data-key="predicted_0"]').dataset.value ?? null,
    placement: tr.querySelector('td[data-key="placement"]').textContent,
  })));
  const byName = new Map(expected.rows.map((r) => [r.name, r]));
  const want = (s) => { const r = byName.get(s.name); return r && r.predictions.length ? r.predictions[0].predicted_ns : null; };
  const predicted = shown.filter((s) => s.predicted !== null).length;
  check(shown.length === expected.rows.length && predicted > 0 && shown.every((s) => String(want(s)) === String(s.predicted)),
    `predict: ${predicted} of ${shown.length} ops with a predicted time on the MI300X, each that of ops --predict`);
  const mul = shown.find((s) => s.name === 'aten::mul');
  // The prediction with its 10-90 % interval (ops --predict's predicted_low_ns, predicted_high_ns).
  const mulRow = byName.get('aten::mul');
  const mulPrediction = mulRow && mulRow.predictions[0];
  const time = '[\\d.]+ (?:s|ms|µs|ns)';
  check(mul && mulPrediction && new RegExp(`^served by cuda:0 NVIDIA H100 80GB HBM3 in ${time}; on AMD Instinct MI300X ` +
    `predicted ${time} \\(${time}–${time}\\)$`).test(mul.placement) &&
    mulPrediction.predicted_low_ns <= mulPrediction.predicted_ns && mulPrediction.predicted_ns <= mulPrediction.predicted_high_ns,
    `predict: aten::mul says "${mul && mul.placement}" (interval ${mulPrediction && mulPrediction.predicted_low_ns}-${mulPrediction && mulPrediction.predicted_high_ns} ns)`);
  const mm = shown.find((s) => s.name === 'aten::mm');
  check(mm && mm.predicted === null && mm.placement.endsWith('predicted within aten::linear'),
    `predict: aten::mm, always inside aten::linear, says "${mm && mm.placement}"`);
  await ctx.page.locator('#compute').screenshot({ path: path.join(out, 'predict.png') });
  // This trace has Python frames (with_stack), 34 levels deep on its main thread.
  await checkHostLanes(ctx.page, [trace], 'predict', { windows: [[0.61, 0.62], [0.6, 0.7]], click: false });
  // Without its Python frames the main thread's ops all have a row: every cpu_op in the window drawn.
  const before = await ctx.page.evaluate(() => window.__tm.timeline.hostLaneData.map((h) => h.depths));
  await ctx.page.uncheck('#tl-python');
  const events = traceEvents(trace);
  const { offset, step } = await clockOffset(ctx.page, events);
  const [a, b] = [step.s + 0.6 * (step.e - step.s), step.s + 0.7 * (step.e - step.s)];
  await ctx.page.evaluate(([a, b]) => window.__tm.timeline.setView(a, b), [a, b]);
  await frames(ctx.page);
  const got = await ctx.page.evaluate(() => {
    const tl = window.__tm.timeline, kinds = window.__tm.data.timeline.host_kinds, hidden = tl.hiddenInWindow();
    return { depths: tl.hostLaneData.map((h) => h.depths), view: { ...tl.view }, op: tl.stats.hostInWindow[kinds.indexOf('op')],
      opHidden: hidden[kinds.indexOf('op')], python: tl.stats.hostInWindow[kinds.indexOf('python')] };
  });
  const ops = events.filter((e) => e.ph === 'X' && e.cat === 'cpu_op' && usToNs(e.ts) - offset < got.view.v1 && usToNs(e.ts) - offset + usToNs(e.dur) > got.view.v0).length;
  check(ops > 0 && got.op === ops && got.opHidden === 0 && got.python === 0 && got.depths[0] < before[0],
    `predict: without Python frames the main thread has ${got.depths[0]} rows (${before[0]} with them) and draws all ${got.op} ops in the window (file: ${ops})`);
  checkClean(ctx, 'predict');
  await ctx.context.close();
}

// 8. One job of 8 ranks (PARAM's DLRM, the folder of its rank files): the Ranks section shows each
// rank's wait caused as `collectives --format json` and the straggler marks as `timeline --format
// json`; the critical path's composition in numbers and as a bar as `critical-path --format json`.
{
  const dlrm = [path.join(shared, 'kineto/param_dlrm_8rank')];
  const file = report('dlrm', dlrm);
  const ctx = await open(file);
  const collectives = runJson('collectives', '--format', 'json', '--quiet', ...dlrm);
  const timelineRanks = runJson('timeline', '--format', 'json', '--quiet', ...dlrm).ranks.rows;
  const critical = runJson('critical-path', '--format', 'json', '--quiet', ...dlrm);
  check(await ctx.page.isVisible('#ranks') && await ctx.page.isVisible('#nav-ranks'), 'dlrm: the Ranks section and its link are shown');
  check(await ctx.page.textContent('#ranks-verdict') === collectives.job.verdict, `dlrm: the verdict is the job's (${collectives.job.verdict})`);
  await checkTopDown(ctx.page, dlrm, 'dlrm');
  const rows = await ctx.page.$$eval('#ranks-table tbody tr', (trs) => trs.map((tr) => ({
    rank: Number(tr.querySelector('td[data-key="rank"]').dataset.value),
    caused: Number(tr.querySelector('td[data-key="wait_caused_ns"]').dataset.value),
    causedText: tr.querySelector('td[data-key="wait_caused_ns"]').textContent,
    straggler: tr.querySelector('td[data-key="straggler"]').textContent === 'STRAGGLER',
  })));
  const waits = new Map(collectives.per_rank.map((r) => [r.rank, r.wait_caused_ns]));
  check(rows.length === 8 && rows.every((r) => waits.get(r.rank) === r.caused && r.causedText !== '–'),
    `dlrm: each rank's wait caused is collectives' (${rows.map((r) => `${r.rank}: ${r.causedText}`).join(', ')})`);
  const marked = rows.filter((r) => r.straggler).map((r) => r.rank).join(',');
  const want = timelineRanks.filter((r) => r.straggler).map((r) => r.rank).sort((a, b) => a - b).join(',');
  check(want.length > 0 && marked === want, `dlrm: STRAGGLER marks ranks ${marked}, timeline's stragglers ${want}`);
  const line = await ctx.page.textContent('#summary-job');
  check(want.split(',').every((r) => line.includes(r)) && line.includes('straggler'), `dlrm: the summary names the stragglers (${line})`);
  const step = critical.steps[0];
  const shown = await ctx.page.evaluate(() => ({
    step: document.getElementById('cp-title').dataset.step,
    parts: [...document.querySelectorAll('#cp-composition tbody tr')].map((tr) => [tr.dataset.category,
      Number(tr.querySelector('td[data-key="time_ns"]').dataset.value), tr.querySelector('td[data-key="percent"]').textContent]),
    length: Number(document.querySelector('#cp-composition tfoot td[data-key="length_ns"]').dataset.value),
    bar: [...document.querySelectorAll('#cp-detail .cp-bar.big .cp-seg')].reduce((a, x) => a + Number(x.dataset.ns), 0),
    top: document.querySelectorAll('#cp-top tbody tr').length,
  }));
  const pct = (ns) => (100 * ns / step.length_ns).toFixed(1) + ' %';
  check(shown.step === String(step.step) && shown.length === step.length_ns && shown.parts.length === 5 &&
    shown.parts.every(([cat, ns, p]) => step.composition[cat + '_ns'] === ns && p === pct(ns)),
    `dlrm: step ${shown.step}'s composition is critical-path's (${shown.parts.map(([c, , p]) => `${c} ${p}`).join(', ')} of ${step.length_ns} ns)`);
  check(shown.bar === step.length_ns, `dlrm: the composition bar's parts add up to the step's length (${shown.bar} ns)`);
  check(shown.top === 10, `dlrm: the top ${shown.top} pieces of the path are listed`);
  // The collectives table: collectives' rows (by index), each with its last rank to arrive.
  const calls = await ctx.page.$$eval('#collective-calls tbody tr', (trs) => trs.map((tr) => ({
    index: Number(tr.querySelector('td[data-key="index"]').dataset.value),
    last: Number(tr.querySelector('td[data-key="last_rank"]').dataset.value),
    skew: Number(tr.querySelector('td[data-key="skew_ns"]').dataset.value),
    marked: tr.querySelector('td[data-key="last_rank"]').classList.contains('last-rank'),
  })));
  const byIndex = new Map(collectives.collectives.map((c) => [c.index, c]));
  check(calls.length === Math.min(2000, collectives.collectives.length) &&
    calls.every((c) => byIndex.get(c.index) && byIndex.get(c.index).last_rank === c.last && byIndex.get(c.index).skew_ns === c.skew && c.marked),
    `dlrm: the collectives table has ${calls.length} rows (collectives: ${collectives.collectives.length}), each with collectives' last rank and skew, marked`);
  // The step's critical path across the rank lanes, its pieces those of critical-path.
  await ctx.page.click('#cp-show');
  await frames(ctx.page);
  const drawn = await ctx.page.evaluate(() => ({ step: window.__tm.timeline.pathStep, pieces: window.__tm.timeline.stats.pathPieces,
    rows: window.__tm.timeline.stats.pathRows, embedded: window.__tm.data.job.critical_path[0].path.length }));
  check(drawn.step === step.step && drawn.embedded === step.path.length && drawn.pieces === step.path.length && drawn.rows >= Math.min(2, step.ranks.length),
    `dlrm: step ${drawn.step}'s critical path drawn on the timeline: ${drawn.pieces} pieces (critical-path: ${step.path.length}) on ${drawn.rows} rows of ranks ${step.ranks.join(', ')}`);
  await ctx.page.locator('#timeline').screenshot({ path: path.join(out, 'dlrm-timeline.png') });
  await checkReadable(ctx.page, 'dlrm');
  await ctx.page.locator('#ranks').screenshot({ path: path.join(out, 'dlrm-ranks.png') });
  checkClean(ctx, 'dlrm');
  await ctx.context.close();
}

// 9. Memory (the H100 Qwen inference, profiled with profile_memory=True): the Memory section's
// devices and alive-at-the-peak rows are `memory --format json`'s; the timeline has a memory lane
// under each such device, draws it, marks its peak where memory says, and a click on the lane
// lists what was alive at the peak.
{
  const trace = path.join(root, 'examples/h100_qwen1.5-0.5b_inference.json.gz');
  const file = report('memory', [trace]);
  const ctx = await open(file);
  const expected = runJson('memory', '--format', 'json', '--quiet', trace);
  check(expected.devices.length > 0, `memory: memory --format json finds ${expected.devices.length} devices`);
  check(await ctx.page.isVisible('#memory') && await ctx.page.isVisible('#nav-memory'), 'memory: the section and its link are shown');
  const shown = await ctx.page.$$eval('#memory-devices tbody tr', (trs) => trs.map((tr) => ({
    device: tr.dataset.name,
    peak: Number(tr.querySelector('td[data-key="peak_allocated_bytes"]').dataset.value),
    at: Number(tr.querySelector('td[data-key="peak_allocated_ns"]').dataset.value),
    reserved: tr.querySelector('td[data-key="peak_reserved_bytes"]').dataset.value ?? null,
  })));
  const want = new Map(expected.devices.map((d) => [d.device, d]));
  check(shown.length === expected.devices.length && shown.every((s) => want.has(s.device) && want.get(s.device).peak_allocated_bytes === s.peak &&
      want.get(s.device).peak_allocated_ns === s.at && String(want.get(s.device).peak_reserved_bytes ?? null) === String(s.reserved)),
    `memory: ${shown.length} devices, each with memory's peak allocated, its time and peak reserved (${shown.map((s) => s.peak).join(', ')})`);
  const tables = await Promise.all(expected.devices.map((d, i) => ctx.page.$$eval(`#memory-at-peak-${i} tbody tr`,
    (trs) => trs.map((tr) => [tr.dataset.name, Number(tr.querySelector('td[data-key="bytes"]').dataset.value)]))));
  check(expected.devices.every((d, i) => d.at_peak.length === tables[i].length &&
      d.at_peak.every((r) => tables[i].some(([op, bytes]) => op === r.op && bytes === r.bytes))),
    `memory: each device's alive-at-the-peak table has memory's rows (${tables.map((t) => t.length).join(', ')})`);
  // The lane: one per GPU device with records, drawn, its peak marker at memory's peak time.
  const gpu = expected.devices.filter((d) => d.device_index !== null);
  const lanes = await ctx.page.evaluate(() => ({ lanes: window.__tm.timeline.memoryLanes, drawn: window.__tm.timeline.stats.memoryDrawn,
    t0: window.__tm.data.timeline.t0_ns }));
  check(lanes.lanes.length === gpu.length && lanes.drawn > 0 &&
      lanes.lanes.every((l) => gpu.some((d) => d.device === l.device && d.peak_allocated_ns - lanes.t0 === l.peak_ns)),
    `memory: ${lanes.lanes.length} memory lanes (memory: ${gpu.length} GPU devices), ${lanes.drawn} steps drawn, peaks at memory's times`);
  // Zoom to the peak and click it: the details list what was alive then, as memory says.
  const lane = lanes.lanes[0], device = gpu.find((d) => d.device === lane.device);
  await ctx.page.evaluate((t) => window.__tm.timeline.setView(t - 1e5, t + 1e5), lane.peak_ns);
  // The lane sits below the host threads' rows: scroll it to the middle of the window.
  await ctx.page.evaluate(() => {
    const r = document.getElementById('tl-canvas').getBoundingClientRect();
    window.scrollBy(0, r.top + window.__tm.timeline.memoryTops[0] - window.innerHeight / 2);
  });
  await frames(ctx.page);
  const box = await ctx.page.locator('#tl-canvas').boundingBox();
  const plotW = box.width - 270;
  const { view, top } = await ctx.page.evaluate(() => ({ view: { ...window.__tm.timeline.view }, top: window.__tm.timeline.memoryTops[0] }));
  const x = 260 + ((lane.peak_ns + 10 - view.v0) / (view.v1 - view.v0)) * plotW;
  await ctx.page.mouse.move(box.x + x, box.y + top + 15);
  const tip = await ctx.page.evaluate(() => { const t = document.getElementById('tl-tip'); return t.hidden ? '' : t.textContent; });
  check(tip.includes('Allocated') && tip.includes('Peak'), `memory: hovering the lane shows the memory then (${tip.slice(0, 60)}…)`);
  await ctx.page.mouse.down();
  await ctx.page.mouse.up();
  const sel = await ctx.page.evaluate(() => window.__tm.timeline.selected);
  const listed = await ctx.page.$$eval('#tl-memory-at-peak tbody tr', (trs) => trs.map((tr) => tr.dataset.name));
  check(sel && sel.kind === 'memory' && sel.allocated_bytes === device.peak_allocated_bytes && listed.length === device.at_peak.length &&
      device.at_peak.every((r, i) => listed[i] === r.op),
    `memory: a click at the peak shows ${sel && sel.allocated_bytes} bytes allocated (memory: ${device.peak_allocated_bytes}) and the ${listed.length} ops alive then`);
  await ctx.page.locator('#timeline').screenshot({ path: path.join(out, 'memory-timeline.png') });
  await ctx.page.locator('#memory').screenshot({ path: path.join(out, 'memory.png') });
  await checkReadable(ctx.page, 'memory');
  checkClean(ctx, 'memory');
  await ctx.context.close();
}

await browser.close();
console.log(failures ? `report_test: ${failures} check(s) failed` : 'report_test: all checks passed');
console.log(`report_test: screenshots and reports in ${out}`);
process.exit(failures ? 1 : 0);
