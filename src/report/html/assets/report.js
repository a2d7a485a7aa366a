// The report page's script: renders the JSON that `tensormorph report` embedded (schema
// tensormorph.report/1, built by src/report/html/report_model.cc) into tables, the timeline canvas
// and the roofline chart. No libraries and no network: everything it needs is in this file.
//
// Its result rows are those of the commands' `--format json`, field for field (the kernels rows of
// `tensormorph kernels`, the roofline rows of `tensormorph roofline`, ...; README and docs/ name
// the fields; `summary.findings` are those of `tensormorph findings`); `kernels.joined` points into
// the occupancy rows by index. `job` (one job of two or more ranks, else null) holds the members of
// `tensormorph collectives` and `critical-path --format json` (docs/report.md, "The Ranks section").
//
// window.__tm exposes the state the browser tests read (tests/browser/report_test.mjs): the data,
// the timeline's visible window and what its last frame drew.
(() => {
  'use strict';
  const timings = { script_start_ms: performance.now() }; // since navigation start (report_bench.mjs)
  const D = JSON.parse(document.getElementById('tm-data').textContent);
  timings.parsed_ms = performance.now();
  const TM = (window.__tm = { data: D, ready: false, timeline: null, timings });
  // The kernels table's rows by name and backend (renderKernels), for the timeline's details.
  const kernelRowOf = new Map();
  const kernelKey = (name, backend) => name + '\u0000' + backend;

  // ---------- formatting ----------
  function fmtNs(ns) {
    if (ns === null || ns === undefined) return '–';
    const a = Math.abs(ns);
    if (a >= 1e9) return (ns / 1e9).toFixed(a >= 1e10 ? 2 : 3) + ' s';
    if (a >= 1e6) return (ns / 1e6).toFixed(a >= 1e8 ? 1 : a >= 1e7 ? 2 : 3) + ' ms';
    if (a >= 1e3) return (ns / 1e3).toFixed(a >= 1e5 ? 1 : a >= 1e4 ? 2 : 3) + ' µs';
    return Math.round(ns) + ' ns';
  }
  const fmtInt = (n) => (n === null || n === undefined ? '–' : Math.round(n).toLocaleString('en-US'));
  const fmtPct = (p, digits = 1) => (p === null || p === undefined ? '–' : p.toFixed(digits) + ' %');
  const fmtFrac = (f) => (f === null || f === undefined ? '–' : (100 * f).toFixed(1) + ' %');
  function fmtSi(v, unit) {
    if (v === null || v === undefined) return '–';
    const prefixes = [[1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
    for (const [f, p] of prefixes) if (Math.abs(v) >= f) return (v / f).toPrecision(3) + ' ' + p + unit;
    return v.toPrecision(3) + ' ' + unit;
  }

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === 'class') e.className = v;
        else if (k === 'text') e.textContent = v;
        else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
        else e.setAttribute(k, v === true ? '' : v);
      }
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }
  const body = (id) => document.querySelector('#' + id + ' .body');

  // A name on one line: at most NAME_CHARS characters, the middle replaced by "…" (the start says
  // what it is, the end which template instance). The cell keeps the whole name in its title and
  // in data-full; a selected row (click, or Enter on a focused row) shows it whole.
  const NAME_CHARS = 72;
  function shortName(s) {
    if (s.length <= NAME_CHARS) return s;
    const head = Math.ceil((NAME_CHARS - 1) * 0.6), tail = NAME_CHARS - 1 - head;
    return s.slice(0, head) + '…' + s.slice(s.length - tail);
  }
  function nameCell(text, attrs) {
    const full = String(text);
    const short = shortName(full);
    return el('td', { ...attrs, class: ['name', attrs && attrs.class].filter(Boolean).join(' '),
      title: short === full ? null : full, 'data-full': full, text: short });
  }
  function toggleRow(tr) {
    const selected = tr.classList.toggle('sel');
    tr.setAttribute('aria-selected', String(selected));
    for (const td of tr.querySelectorAll('td.name[data-full]')) {
      td.textContent = selected ? td.dataset.full : shortName(td.dataset.full);
    }
  }

  // ---------- sortable, filterable tables ----------
  // columns: {key, label, num (right-aligned, numeric sort), fmt(value, row), title,
  //           cellClass(value, row): a class for the cell}
  const MAX_ROWS = 5000; // rendered rows after filtering; the rest are counted, not drawn
  function makeTable(container, opts) {
    const { columns, rows, id, caption, footer } = opts;
    let sortKey = opts.sortKey || null;
    let sortDir = opts.sortDir || -1;
    let filter = '';
    const wrap = el('div');
    if (opts.filter !== false) {
      const input = el('input', {
        class: 'filter', type: 'search', placeholder: 'Filter by name…',
        'aria-label': 'Filter ' + caption + ' by name', id: id + '-filter',
      });
      input.addEventListener('input', () => { filter = input.value.toLowerCase(); render(); });
      wrap.append(input);
    }
    const status = el('div', { class: 'muted', 'aria-live': 'polite' });
    const table = el('table', { id });
    table.append(el('caption', { class: 'muted', style: 'text-align:left', text: caption }));
    const thead = el('thead');
    const headRow = el('tr');
    const ths = columns.map((c) => {
      const th = el('th', { class: c.num ? 'n' : null, scope: 'col', title: c.title });
      th.append(el('button', {
        type: 'button', text: c.label,
        onclick: () => {
          if (sortKey === c.key) sortDir = -sortDir;
          else { sortKey = c.key; sortDir = c.num ? -1 : 1; }
          render();
        },
      }));
      headRow.append(th);
      return th;
    });
    thead.append(headRow);
    const tbody = el('tbody');
    const tfoot = el('tfoot');
    table.append(thead, tbody, tfoot);
    const scroll = el('div', { class: 'scroll' }, table);
    wrap.append(status, scroll);
    tbody.addEventListener('click', (e) => { const tr = e.target.closest('tr'); if (tr) toggleRow(tr); });
    tbody.addEventListener('keydown', (e) => {
      const tr = e.target.closest('tr');
      if (!tr) return;
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); tr.click(); }
      else if (e.key === 'ArrowDown' && tr.nextElementSibling) { e.preventDefault(); tr.nextElementSibling.focus(); }
      else if (e.key === 'ArrowUp' && tr.previousElementSibling) { e.preventDefault(); tr.previousElementSibling.focus(); }
    });
    container.append(wrap);

    function render() {
      let shown = rows;
      if (filter) shown = rows.filter((r) => String(r.name || '').toLowerCase().includes(filter));
      if (sortKey) {
        const col = columns.find((c) => c.key === sortKey);
        const val = col.sortValue || ((r) => r[sortKey]);
        shown = shown.slice().sort((a, b) => {
          const x = val(a), y = val(b);
          if (x === y) return 0;
          if (x === null || x === undefined) return 1;
          if (y === null || y === undefined) return -1;
          return (x < y ? -1 : 1) * sortDir;
        });
      }
      ths.forEach((th, i) => {
        if (columns[i].key === sortKey) th.setAttribute('aria-sort', sortDir > 0 ? 'ascending' : 'descending');
        else th.removeAttribute('aria-sort');
      });
      const frag = document.createDocumentFragment();
      for (const r of shown.slice(0, MAX_ROWS)) {
        const tr = el('tr', { 'data-name': r.name, tabindex: '0', 'aria-selected': 'false' });
        for (const c of columns) {
          const v = r[c.key];
          const text = c.fmt ? c.fmt(v, r) : v === null || v === undefined ? '–' : String(v);
          const attrs = {
            class: [c.num ? 'n' : null, c.cellClass && c.cellClass(v, r)].filter(Boolean).join(' ') || null,
            'data-key': c.key, 'data-value': typeof v === 'number' ? String(v) : null,
          };
          tr.append(c.key === 'name' ? nameCell(text, attrs) : el('td', { ...attrs, text }));
        }
        frag.append(tr);
      }
      tbody.replaceChildren(frag);
      status.textContent = shown.length > MAX_ROWS
        ? `Showing ${MAX_ROWS} of ${shown.length} rows (filter to narrow).`
        : `${shown.length} of ${rows.length} rows.`;
      if (footer) tfoot.replaceChildren(footer(shown));
    }
    render();
    return { render };
  }

  function cards(items) {
    return el('div', { class: 'cards' },
      ...items.map(([k, v, title]) => el('div', { class: 'card', title },
        el('div', { class: 'k', text: k }), el('div', { class: 'v', text: v }))));
  }

  // ---------- summary ----------
  function renderSummary() {
    const s = D.summary, c = body('summary');
    const backends = [...new Set(D.inputs.flatMap((i) => i.backends))];
    // Inputs that are not one job are never added up (docs/report.md): their figures are per input.
    const summed = s.one_job ? [
      ['Span (summed over devices)', fmtNs(s.span_ns)],
      ['Busy', fmtPct(s.busy_percent), 'union of kernel, memcpy and memset time / span'],
      ['Kernels', fmtInt(s.kernel_count)],
      ['Kernel time (summed)', fmtNs(s.kernel_total_ns)],
    ] : [['Figures', 'per input', 'the inputs are not one job: their spans, kernels and gains are not added (Inputs below)']];
    c.append(cards([
      ['Inputs', String(D.inputs.length)],
      ['Backends', backends.join(', ') || '–'],
      ['Devices', String(s.devices.length)],
      ['Ranks', s.ranks.length ? `${s.ranks.length} (rank ${s.ranks.join(', ')})` : '–'],
      ...summed,
    ]));
    const inputs = el('table', { id: 'inputs-table' });
    const perInput = s.one_job ? [] : ['Span', 'Busy (%)', 'Kernels', 'Kernel time', 'Findings gain'];
    inputs.append(el('thead', null, el('tr', null, ...['Input', 'Format', 'Version', 'Backends', ...perInput]
      .map((h) => el('th', { scope: 'col', text: h })))));
    const tb = el('tbody');
    D.inputs.forEach((i, n) => {
      const p = s.per_input[n];
      const figures = s.one_job ? [] : [fmtNs(p.span_ns), fmtPct(p.busy_percent), fmtInt(p.kernel_count),
        fmtNs(p.kernel_total_ns), fmtNs(p.findings_gain_ns)].map((t) => el('td', { class: 'n', text: t }));
      tb.append(el('tr', null, nameCell(i.path), el('td', { text: i.format }),
        el('td', { text: i.format_version }), el('td', { text: i.backends.join(', ') }), ...figures));
    });
    inputs.append(tb);
    if (D.job) c.append(jobLine(D.job));
    c.append(el('h3', { text: 'Inputs' }), inputs);
    c.append(el('h3', { text: 'Devices' }));
    makeTable(c, {
      id: 'devices-table', caption: 'Per device: span from first to last work, busy time, idle gaps',
      filter: false,
      rows: s.devices.map((d) => ({ ...d, name: d.label, gap_count: d.gaps.count, gap_total_ns: d.gaps.total_ns })),
      columns: [
        { key: 'name', label: 'Device' },
        { key: 'rank', label: 'Rank', num: true, fmt: (v) => (v === null ? '–' : String(v)) },
        { key: 'span_ns', label: 'Span', num: true, fmt: fmtNs },
        { key: 'busy_ns', label: 'Busy', num: true, fmt: fmtNs },
        { key: 'utilization_percent', label: 'Utilization (%)', num: true, fmt: (v) => fmtPct(v) },
        { key: 'kernel_count', label: 'Kernels', num: true, fmt: fmtInt },
        { key: 'memcpy_count', label: 'Memcpys', num: true, fmt: fmtInt },
        { key: 'gap_count', label: 'Idle gaps', num: true, fmt: fmtInt },
        { key: 'gap_total_ns', label: 'Idle in gaps', num: true, fmt: fmtNs },
      ],
    });
    // What to fix first: `tensormorph findings`' findings, ranked by estimated gain.
    c.append(el('h3', { text: s.one_job ? `Findings (estimated gain ${fmtNs(s.findings_total_gain_ns)} in all)`
      : 'Findings (estimated gains per input, in the Inputs table: unrelated inputs are not added)' }));
    const list = el('ol', { id: 'findings' });
    for (const f of s.findings) {
      const gain = f.estimated_gain_ns > 0
        ? `${fmtNs(f.estimated_gain_ns)} (${fmtPct(f.gain_percent)} of the ${f.gain_basis})` : 'no time claimed';
      const where = [f.where.device, f.where.op, f.where.kernel && short(f.where.kernel)].filter(Boolean).join(' · ');
      const show = el('button', { type: 'button', class: 'tl-link', text: 'Show on the timeline',
        onclick: () => { TM.timeline.showFinding(f); document.getElementById('timeline').scrollIntoView(); } });
      list.append(el('li', { class: 'finding', 'data-rule': f.rule, 'data-gain-ns': String(f.estimated_gain_ns) },
        el('b', { text: `${gain}: ` }), el('span', { text: `${f.title} ` }),
        el('span', { class: 'muted', text: `[${f.rule}, ${f.severity}] ${where} ` }), show,
        el('div', { class: 'muted', text: `Fix: ${f.fix}` })));
    }
    if (!s.findings.length) list.append(el('li', { class: 'muted', text: 'No finding: no rule\'s condition holds on these inputs.' }));
    c.append(list);
  }
  // One line on the job and its stragglers, pointing at the Ranks section.
  function jobLine(J) {
    const stragglers = J.ranks.filter((r) => r.straggler);
    const caused = stragglers.reduce((a, r) => a + r.wait_caused_ns, 0);
    const text = !J.complete ? 'no rank is named a straggler: not every rank is given.'
      : stragglers.length ? `straggler${stragglers.length > 1 ? 's' : ''}: rank ${stragglers.map((r) => r.rank).join(', ')} ` +
        `(the others waited ${fmtNs(caused)} for ${stragglers.length > 1 ? 'them' : 'it'} at collectives).`
        : 'no straggler.';
    return el('p', { class: 'note', id: 'summary-job' }, el('b', { text: `${J.verdict.charAt(0).toUpperCase()}${J.verdict.slice(1)}; ` }), text + ' See ',
      el('a', { href: '#ranks', text: 'Ranks' }), '.');
  }
  const short = (name) => (name && name.length > 80 ? name.slice(0, 77) + '…' : name || '–');

  // ---------- ranks (one job of two or more ranks: collectives and critical-path, docs/report.md) ----------
  // The composition of a critical path: its key in `composition`, its category (a piece's
  // `category`), its label and what it holds (docs/critical-path.md).
  const CP_PARTS = [
    ['compute_ns', 'compute', 'Compute', 'kernels, memcpy and memset on the path'],
    ['comm_transfer_ns', 'comm_transfer', 'Communication transfer', 'collective kernels after the last rank arrived'],
    ['comm_wait_ns', 'comm_wait', 'Communication wait', 'collective kernels before the last rank arrived, where the clocks cannot say who was last'],
    ['host_ns', 'host', 'Host', 'CPU work, launches, synchronising calls, a rank that had not begun the step'],
    ['idle_ns', 'idle', 'Idle', 'the device waited with nothing on the path running'],
  ];
  const baseName = (p) => (p ? p.split(/[\\/]/).pop() : '–');
  const fmtGBps = (v) => (v === null || v === undefined ? '–' : (v / 1e9).toFixed(2));
  const stepTitle = (s) => (s.step === null ? 'the whole trace' : `ProfilerStep#${s.step}`);
  const pctOf = (ns, whole) => (whole > 0 ? fmtPct((100 * ns) / whole) : '–');

  function renderRanks() {
    const J = D.job;
    if (!J) return;
    document.getElementById('ranks').hidden = false;
    document.getElementById('nav-ranks').hidden = false;
    const c = body('ranks');
    c.append(el('p', { class: 'verdict', id: 'ranks-verdict', text: J.verdict }));
    const stragglers = J.ranks.filter((r) => r.straggler).map((r) => r.rank);
    c.append(cards([
      ['Ranks', String(J.ranks.length) + (J.world_size ? ` of ${J.world_size}` : '')],
      ['Backend', J.backend || '–'],
      ['Collectives matched', fmtInt(J.collective_count), J.matched_by ? `matched by ${J.matched_by}` : undefined],
      ['Stragglers', !J.complete ? 'not named' : stragglers.length ? 'rank ' + stragglers.join(', ') : 'none',
        `a rank whose late arrival made the others wait more than ${J.straggler_threshold_percent} % of the median step (${fmtNs(J.straggler_basis_ns)})`],
      ['Steps walked', String(J.critical_path.length)],
    ]));
    c.append(el('p', { class: 'muted', text: 'Clock offset: from the lowest rank, the median over the matched collectives of the ' +
      'difference of their ends (± 1.4826 × the median absolute deviation); every time below is aligned. Wait suffered: the rank\'s ' +
      'time in collectives before the last rank arrived. Wait caused: the others\' wait at the collectives it arrived last at. ' +
      `STRAGGLER: wait caused above ${J.straggler_threshold_percent} % of the median step (${fmtNs(J.straggler_basis_ns)}).` +
      (J.complete ? '' : ' Not every rank of the job is given, so the last to arrive may be a rank not given: no rank is named a straggler.') }));
    makeTable(c, {
      id: 'ranks-table', caption: 'Per rank (tensormorph collectives; median step and straggler as tensormorph timeline)', filter: false,
      sortKey: 'rank', sortDir: 1,
      rows: J.ranks.map((r) => ({ ...r, name: baseName(r.input) })),
      columns: [
        { key: 'rank', label: 'Rank', num: true, fmt: fmtInt },
        { key: 'name', label: 'Input' },
        { key: 'clock_offset_ns', label: 'Clock offset', num: true,
          fmt: (v, r) => (r.offset_uncertainty_ns === null ? `${fmtNs(v)} (reference)` : `${fmtNs(v)} ± ${fmtNs(r.offset_uncertainty_ns)}`) },
        { key: 'median_step_ns', label: 'Median step', num: true, fmt: fmtNs },
        { key: 'wait_suffered_ns', label: 'Wait suffered', num: true, fmt: fmtNs },
        { key: 'wait_caused_ns', label: 'Wait caused', num: true, fmt: fmtNs },
        { key: 'wait_caused_percent', label: "% of others' time", num: true, fmt: (v) => (v === null || v === undefined ? '–' : fmtPct(v)),
          title: "the others' wait as a share of their profiled time (their steps, else their device span): the straggler share findings and tm.fleet report too" },
        { key: 'times_last', label: 'Last at', num: true, fmt: fmtInt, title: 'collectives it arrived last at' },
        { key: 'late_cause', label: 'Late for', title: 'where it arrived last, what it spent more time on than the others before: computation, communication or idle (its host was late)' },
        { key: 'straggler', label: 'Straggler', fmt: (v) => (v ? 'STRAGGLER' : ''), cellClass: (v) => (v ? 'bad strong' : null) },
      ],
    });
    if (J.by_type.length) {
      c.append(el('h3', { text: 'Collectives by type and message size' }));
      makeTable(c, {
        id: 'collectives-table', caption: 'Per type and size bucket: skew and wait summed over the collectives, bandwidth as summed bytes / summed transfer (GB/s)',
        filter: false, rows: J.by_type.map((g) => ({ ...g, name: `${g.type} ${g.size_bucket}` })),
        columns: [
          { key: 'type', label: 'Type' },
          { key: 'size_bucket', label: 'Message size' },
          { key: 'count', label: 'Count', num: true, fmt: fmtInt },
          { key: 'skew_ns', label: 'Skew (summed)', num: true, fmt: fmtNs, title: 'last start − first start, summed' },
          { key: 'max_skew_ns', label: 'Max skew', num: true, fmt: fmtNs },
          { key: 'wait_ns', label: 'Wait', num: true, fmt: fmtNs, title: 'every rank\'s wait for the last to arrive, summed' },
          { key: 'transfer_ns', label: 'Transfer', num: true, fmt: fmtNs, title: 'last end − last start, summed' },
          { key: 'algo_bytes_per_s', label: 'Algo BW (GB/s)', num: true, fmt: fmtGBps },
          { key: 'bus_bytes_per_s', label: 'Bus BW (GB/s)', num: true, fmt: fmtGBps, title: 'algorithm bandwidth × nccl-tests\' factor for the type' },
        ],
      });
    }
    if (J.collectives.length) {
      c.append(el('h3', { text: 'Collectives: the last rank to arrive at each' }));
      makeTable(c, {
        id: 'collective-calls', sortKey: 'skew_ns',
        caption: (J.collectives.length < J.collective_count ? `The ${fmtInt(J.collectives.length)} of ${fmtInt(J.collective_count)} collectives with the most skew` :
          `Every matched collective (${fmtInt(J.collective_count)})`) + ': the last rank to arrive held the others back by the skew (last start − first start)',
        rows: J.collectives,
        columns: [
          { key: 'index', label: '#', num: true, fmt: fmtInt },
          { key: 'name', label: 'Collective' },
          { key: 'type', label: 'Type' },
          { key: 'bytes', label: 'Bytes', num: true, fmt: (v) => fmtSi(v, 'B') },
          { key: 'group_size', label: 'Ranks', num: true, fmt: fmtInt },
          { key: 'last_rank', label: 'Last to arrive', num: true, fmt: (v) => `rank ${v}`, cellClass: () => 'strong last-rank' },
          { key: 'skew_ns', label: 'Skew', num: true, fmt: fmtNs },
          { key: 'transfer_ns', label: 'Transfer', num: true, fmt: fmtNs, title: 'last end − last start' },
          { key: 'bus_bytes_per_s', label: 'Bus BW (GB/s)', num: true, fmt: fmtGBps },
        ],
      });
    }
    c.append(el('h3', { text: 'Critical path per step' }));
    renderCriticalPath(c, J.critical_path);
    if (J.warnings.length) c.append(el('ul', { id: 'ranks-warnings' }, ...J.warnings.map((w) => el('li', { class: 'muted', text: w }))));
  }

  // A stacked horizontal bar of a step's composition; `big` adds the labels that fit.
  function compositionBar(s, big) {
    const total = s.length_ns;
    const bar = el('div', { class: big ? 'cp-bar big' : 'cp-bar', role: 'img',
      'aria-label': 'Composition: ' + CP_PARTS.map(([k, , label]) => `${label} ${pctOf(s.composition[k], total)}`).join(', ') });
    for (const [k, cat, label] of CP_PARTS) {
      const ns = s.composition[k];
      if (!ns || total <= 0) continue;
      const share = (100 * ns) / total;
      const labelled = big && share >= 8;
      bar.append(el('span', { class: `cp-seg cp-${cat}${labelled ? ' labelled' : ''}`, style: `width:${share}%`, 'data-category': cat, 'data-ns': String(ns),
        title: `${label}: ${fmtNs(ns)} (${pctOf(ns, total)})`, text: labelled ? `${label} ${fmtPct(share)}` : null }));
    }
    return bar;
  }

  function renderCriticalPath(c, steps) {
    c.append(el('p', { class: 'muted', text: 'Per step, the chain of work that bounded it, walked back from the step\'s end across the ranks ' +
      '(launches, stream order, synchronisation, the last rank to arrive at each collective): its pieces add up to the step\'s length ' +
      '(tensormorph critical-path).' }));
    if (!steps.length) { c.append(el('p', { class: 'note', text: 'No step to walk.' })); return; }
    const detail = el('div', { id: 'cp-detail', 'aria-live': 'polite' });
    if (steps.length > 1) {
      let rows = [];
      const select = (i) => {
        rows.forEach((tr, j) => { tr.setAttribute('aria-selected', String(i === j)); tr.classList.toggle('sel', i === j); });
        showStep(detail, steps[i]);
      };
      rows = steps.map((s, i) => {
        const tr = el('tr', { tabindex: '0', 'data-step': String(s.step), 'aria-selected': 'false',
          onclick: () => select(i), onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); select(i); } } },
        el('td', { text: stepTitle(s) }), el('td', { class: 'n', 'data-key': 'length_ns', 'data-value': String(s.length_ns), text: fmtNs(s.length_ns) }),
        el('td', { class: 'n', text: s.end_rank === null ? '–' : String(s.end_rank) }), el('td', { text: s.ranks.join(', ') || '–' }),
        el('td', { class: 'cp-cell' }, compositionBar(s, false)),
        el('td', { class: 'n', text: pctOf(s.composition.host_ns, s.length_ns) }),
        el('td', { class: 'n', text: pctOf(s.composition.comm_transfer_ns + s.composition.comm_wait_ns, s.length_ns) }),
        el('td', { class: 'n', text: fmtInt(s.piece_count) }));
        return tr;
      });
      const head = ['Step', 'Length', 'Ended on rank', 'Through ranks', 'Composition', 'Host', 'Communication', 'Pieces'];
      c.append(el('div', { class: 'scroll' }, el('table', { id: 'cp-steps' },
        el('caption', { class: 'muted', style: 'text-align:left', text: 'Steps (click or Enter on a row for its path)' }),
        el('thead', null, el('tr', null, ...head.map((h, i) => el('th', { scope: 'col', class: i === 1 || i === 2 || i >= 5 ? 'n' : null, text: h })))),
        el('tbody', null, ...rows))));
      c.append(detail);
      select(0);
    } else {
      c.append(detail);
      showStep(detail, steps[0]);
    }
  }

  const cpLegend = () => el('div', { class: 'cp-legend' }, ...CP_PARTS.map(([, cat, label, what]) =>
    el('span', { class: 'item', title: what }, el('span', { class: 'swatch cp-' + cat }), label)));

  // One step: its line, the bar, the composition in numbers and the top pieces; its path is drawn
  // on the timeline across the rank lanes (a button zooms there).
  let shownStep = null;
  function showStep(detail, s) {
    shownStep = s;
    if (TM.timeline) TM.timeline.showPath(s, false);
    const through = s.ranks.length ? `; the path passes through rank${s.ranks.length > 1 ? 's' : ''} ${s.ranks.join(', ')}` : '';
    const onTimeline = s.path
      ? el('button', { type: 'button', id: 'cp-show', onclick: () => { TM.timeline.showPath(s, true); document.getElementById('timeline').scrollIntoView(); } },
        'Show this path on the timeline')
      : el('span', { class: 'muted', text: ' (too many pieces to embed this path for the timeline)' });
    detail.replaceChildren(
      el('h4', { id: 'cp-title', 'data-step': String(s.step), text: `${stepTitle(s)}: ${fmtNs(s.length_ns)}` }),
      el('p', { class: 'muted', text: (s.end_rank === null ? '' : `Ended on rank ${s.end_rank}`) + through + `; ${fmtInt(s.piece_count)} pieces. ` }, onTimeline),
      compositionBar(s, true), cpLegend());
    const comp = el('table', { id: 'cp-composition' },
      el('caption', { class: 'muted', style: 'text-align:left', text: 'Composition (adds up to the length)' }),
      el('thead', null, el('tr', null, el('th', { scope: 'col', text: 'Part' }), el('th', { scope: 'col', class: 'n', text: 'Time' }),
        el('th', { scope: 'col', class: 'n', text: '% of the step' }))),
      el('tbody', null, ...CP_PARTS.map(([k, cat, label, what]) => el('tr', { 'data-category': cat, title: what },
        el('td', null, el('span', { class: 'swatch cp-' + cat }), label),
        el('td', { class: 'n', 'data-key': 'time_ns', 'data-value': String(s.composition[k]), text: fmtNs(s.composition[k]) }),
        el('td', { class: 'n', 'data-key': 'percent', text: pctOf(s.composition[k], s.length_ns) })))),
      el('tfoot', null, el('tr', null, el('td', { text: 'Length' }),
        el('td', { class: 'n', 'data-key': 'length_ns', 'data-value': String(s.length_ns), text: fmtNs(s.length_ns) }), el('td', { class: 'n', text: '100.0 %' }))));
    const top = el('div', { class: 'cp-top' });
    const grid = el('div', { class: 'cp-grid' }, el('div', { class: 'cp-comp' }, comp), top);
    detail.append(grid);
    makeTable(top, {
      id: 'cp-top', filter: false, sortKey: 'time_ns',
      caption: `On the path, by rank, kind and name: the top ${s.top.length} of ${fmtInt(s.group_count)}`,
      rows: s.top.map((t) => ({ ...t, percent: s.length_ns > 0 ? (100 * t.time_ns) / s.length_ns : null })),
      columns: [
        { key: 'rank', label: 'Rank', num: true, fmt: (v) => (v === null ? '–' : String(v)) },
        { key: 'kind', label: 'Kind' },
        { key: 'name', label: 'Name', fmt: (v) => v || '–' },
        { key: 'time_ns', label: 'Time', num: true, fmt: fmtNs },
        { key: 'percent', label: '% of the step', num: true, fmt: (v) => fmtPct(v) },
        { key: 'pieces', label: 'Pieces', num: true, fmt: fmtInt },
      ],
    });
  }

  // ---------- compute panel ----------
  function renderCompute() {
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
        'target (tensormorph predict: roofline at the fraction of roof its category reaches there, or the category ratio between ' +
        'the device families; the model and per-shape rows: tensormorph predict TRACE --device KEY). Calls nested in another op are ' +
        'predicted with it.' }));
    }
  }

  // ---------- kernels ----------
  function renderKernels() {
    const k = D.kernels, c = body('kernels');
    // Each row with the occupancy of its most-used launch shape and its roofline row (by index).
    const rows = k.rows.map((r, i) => {
      const j = k.joined[i];
      const o = j.occupancy === null ? null : D.occupancy.rows[j.occupancy];
      const f = j.roofline === null ? null : D.roofline.rows[j.roofline];
      return {
        ...r,
        theoretical_occupancy: o ? o.theoretical_occupancy : null,
        achieved_occupancy: o ? o.achieved_occupancy : null,
        limiter: o ? o.limiter : null,
        arithmetic_intensity: f ? f.arithmetic_intensity : null,
        achieved_flops_per_s: f ? f.achieved_flops_per_s : null,
        percent_of_roof: f ? f.percent_of_roof : null,
      };
    });
    for (const r of rows) kernelRowOf.set(kernelKey(r.name, r.backend), r);
    makeTable(c, {
      id: 'kernels-table', caption: 'Per kernel name and backend (the rows of `tensormorph kernels`), with the occupancy and roofline of its most-used launch shape',
      rows,
      columns: [
        { key: 'name', label: 'Kernel' },
        { key: 'backend', label: 'Backend' },
        { key: 'count', label: 'Count', num: true, fmt: fmtInt },
        { key: 'total_ns', label: 'Total', num: true, fmt: fmtNs },
        { key: 'percent', label: 'Time (%)', num: true, fmt: (v) => fmtPct(v) },
        { key: 'mean_ns', label: 'Mean', num: true, fmt: fmtNs },
        { key: 'median_ns', label: 'Median', num: true, fmt: fmtNs },
        { key: 'min_ns', label: 'Min', num: true, fmt: fmtNs },
        { key: 'max_ns', label: 'Max', num: true, fmt: fmtNs },
        { key: 'stddev_ns', label: 'Std dev', num: true, fmt: fmtNs },
        { key: 'theoretical_occupancy', label: 'Occupancy theor. (%)', num: true, fmt: fmtFrac },
        { key: 'achieved_occupancy', label: 'Occupancy achieved (%)', num: true, fmt: fmtFrac },
        { key: 'limiter', label: 'Limiter' },
        { key: 'arithmetic_intensity', label: 'Intensity (FLOP/B)', num: true, fmt: (v) => (v === null ? '–' : v.toPrecision(3)) },
        { key: 'achieved_flops_per_s', label: 'Achieved (FLOP/s)', num: true, fmt: (v) => fmtSi(v, 'FLOP/s') },
        { key: 'percent_of_roof', label: 'Of roof (%)', num: true, fmt: (v) => fmtPct(v) },
      ],
      footer: (shown) => {
        const total = shown.reduce((a, r) => a + r.total_ns, 0);
        const count = shown.reduce((a, r) => a + r.count, 0);
        return el('tr', { id: 'kernels-total', 'data-total-ns': String(total), 'data-count': String(count), 'data-rows': String(shown.length) },
          el('td', { text: `Total (${shown.length} rows)` }), el('td'),
          el('td', { class: 'n', text: fmtInt(count) }), el('td', { class: 'n', text: fmtNs(total) }),
          el('td', { colspan: 12 }));
      },
    });
  }

  // ---------- occupancy ----------
  function renderOccupancy() {
    const o = D.occupancy, c = body('occupancy');
    c.append(el('p', { class: 'muted', text: `Theoretical occupancy computed for ${fmtInt(o.computed_count)} of ${fmtInt(o.kernel_count)} launches.` }));
    makeTable(c, {
      id: 'occupancy-table', caption: 'Per kernel and launch shape: theoretical and achieved occupancy and what limits it',
      rows: o.rows,
      columns: [
        { key: 'name', label: 'Kernel' },
        { key: 'arch', label: 'Arch' },
        { key: 'count', label: 'Launches', num: true, fmt: fmtInt },
        { key: 'total_ns', label: 'Total', num: true, fmt: fmtNs },
        { key: 'block_size', label: 'Block (threads)', num: true, fmt: fmtInt },
        { key: 'registers_per_thread', label: 'Registers/thread', num: true, fmt: fmtInt },
        { key: 'shared_memory_bytes', label: 'Shared mem (B/block)', num: true, fmt: fmtInt },
        { key: 'theoretical_occupancy', label: 'Theoretical (%)', num: true, fmt: fmtFrac },
        { key: 'achieved_occupancy', label: 'Achieved (%)', num: true, fmt: fmtFrac },
        { key: 'achieved_source', label: 'Achieved from' },
        { key: 'limiter', label: 'Limiter' },
      ],
    });
    if (o.skipped.length) {
      c.append(el('ul', null, ...o.skipped.map((s) => el('li', { class: 'muted', text: `${fmtInt(s.count)} launches (${fmtNs(s.total_ns)}) without occupancy: ${s.reason}` }))));
    }
  }

  // ---------- roofline ----------
  const SVGNS = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function renderRoofline() {
    const r = D.roofline, c = body('roofline');
    const pts = r.rows.filter((x) => x.achieved_flops_per_s > 0 && x.arithmetic_intensity > 0);
    if (!r.rows.length) {
      c.append(el('p', { class: 'note', id: 'roofline-empty', text: 'No kernel carries FLOP and DRAM-byte counters: collect Nsight Compute metrics (or rocprof-compute) for a roofline.' }));
      if (r.skipped.length) c.append(el('ul', null, ...r.skipped.map((s) => el('li', { class: 'muted', text: `${fmtInt(s.count)} launches: ${s.reason}` }))));
      return;
    }
    const W = 760, H = 420, L = 70, R = 20, T = 20, B = 50;
    let xs = pts.map((p) => p.arithmetic_intensity), ys = pts.map((p) => p.achieved_flops_per_s);
    const roofs = new Map();
    for (const p of r.rows) if (p.peak_flops_per_s && p.peak_bytes_per_s) roofs.set(`${p.device}|${p.precision ?? 'unknown'}`, p);
    for (const p of roofs.values()) { ys.push(p.peak_flops_per_s); xs.push(p.peak_flops_per_s / p.peak_bytes_per_s); }
    const lx0 = Math.floor(Math.log10(Math.min(...xs, 1) / 2)), lx1 = Math.ceil(Math.log10(Math.max(...xs, 10) * 2));
    const ly0 = Math.floor(Math.log10(Math.min(...ys) / 2)), ly1 = Math.ceil(Math.log10(Math.max(...ys) * 1.5));
    const X = (v) => L + ((Math.log10(v) - lx0) / (lx1 - lx0)) * (W - L - R);
    const Y = (v) => H - B - ((Math.log10(v) - ly0) / (ly1 - ly0)) * (H - T - B);
    const s = svg('svg', { id: 'roofline-chart', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img',
      'aria-label': 'Roofline: achieved FLOP/s against arithmetic intensity, log-log' });
    for (let e = lx0; e <= lx1; e++) {
      s.append(svg('line', { class: 'axis', x1: X(10 ** e), x2: X(10 ** e), y1: T, y2: H - B, 'stroke-opacity': 0.25 }));
      s.append(svg('text', { x: X(10 ** e), y: H - B + 14, 'text-anchor': 'middle' }, fmtSi(10 ** e, '').trim()));
    }
    for (let e = ly0; e <= ly1; e++) {
      s.append(svg('line', { class: 'axis', x1: L, x2: W - R, y1: Y(10 ** e), y2: Y(10 ** e), 'stroke-opacity': 0.25 }));
      s.append(svg('text', { x: L - 4, y: Y(10 ** e) + 4, 'text-anchor': 'end' }, fmtSi(10 ** e, '').trim()));
    }
    s.append(svg('text', { x: (L + W - R) / 2, y: H - 12, 'text-anchor': 'middle' }, 'Arithmetic intensity (FLOP per DRAM byte)'));
    s.append(svg('text', { x: 14, y: (T + H - B) / 2, transform: `rotate(-90 14 ${(T + H - B) / 2})`, 'text-anchor': 'middle' }, 'Achieved (FLOP/s)'));
    for (const p of roofs.values()) {
      const ridge = p.peak_flops_per_s / p.peak_bytes_per_s, xa = 10 ** lx0, xb = 10 ** lx1;
      const line = svg('polyline', { class: 'roof', points: `${X(xa)},${Y(Math.max(xa * p.peak_bytes_per_s, 10 ** ly0))} ${X(ridge)},${Y(p.peak_flops_per_s)} ${X(xb)},${Y(p.peak_flops_per_s)}` });
      line.append(svg('title', {}, `${p.device} ${p.precision ?? 'unknown'}: peak ${fmtSi(p.peak_flops_per_s, 'FLOP/s')}, ${fmtSi(p.peak_bytes_per_s, 'B/s')}`));
      s.append(line, svg('text', { x: W - R - 4, y: Y(p.peak_flops_per_s) - 4, 'text-anchor': 'end' }, `${p.precision ?? 'unknown'} peak ${fmtSi(p.peak_flops_per_s, 'FLOP/s')}`));
    }
    const tmax = Math.max(1, ...pts.map((p) => p.total_ns));
    for (const p of pts) {
      const dot = svg('circle', { class: 'point', cx: X(p.arithmetic_intensity), cy: Y(p.achieved_flops_per_s),
        r: 4 + 6 * Math.sqrt(p.total_ns / tmax), fill: colorOfName(p.name), 'data-name': p.name });
      dot.append(svg('title', {}, `${p.name}\n${fmtSi(p.achieved_flops_per_s, 'FLOP/s')} at ${p.arithmetic_intensity.toPrecision(3)} FLOP/B; ` +
        `${fmtPct(p.percent_of_roof)} of roof; ${fmtInt(p.count)} launches, ${fmtNs(p.total_ns)}`));
      s.append(dot);
    }
    c.append(s);
    makeTable(c, {
      id: 'roofline-table', caption: 'Per kernel: counters, intensity and the ceiling at that intensity', rows: r.rows,
      columns: [
        { key: 'name', label: 'Kernel' }, { key: 'device', label: 'Device' }, { key: 'precision', label: 'Precision' },
        { key: 'count', label: 'Launches', num: true, fmt: fmtInt },
        { key: 'total_ns', label: 'Total', num: true, fmt: fmtNs },
        { key: 'flops', label: 'FLOP', num: true, fmt: (v) => fmtSi(v, '') },
        { key: 'dram_bytes', label: 'DRAM (B)', num: true, fmt: (v) => fmtSi(v, 'B') },
        { key: 'arithmetic_intensity', label: 'Intensity (FLOP/B)', num: true, fmt: (v) => v.toPrecision(3) },
        { key: 'achieved_flops_per_s', label: 'Achieved (FLOP/s)', num: true, fmt: (v) => fmtSi(v, 'FLOP/s') },
        { key: 'ceiling_flops_per_s', label: 'Ceiling (FLOP/s)', num: true, fmt: (v) => fmtSi(v, 'FLOP/s') },
        { key: 'percent_of_roof', label: 'Of roof (%)', num: true, fmt: (v) => fmtPct(v) },
        { key: 'bound', label: 'Bound' },
      ],
    });
  }

  // ---------- diff ----------
  function renderDiff() {
    if (!D.diff) return;
    document.getElementById('diff').hidden = false;
    document.getElementById('nav-diff').hidden = false;
    const d = D.diff, c = body('diff'), n = d.counts;
    c.append(cards([
      ['Verdict', d.verdict], ['Baseline', d.base], ['Threshold', fmtPct(d.threshold_percent)],
      ['Regressed', String(n.regressed)], ['Improved', String(n.improved)], ['Added', String(n.added)], ['Removed', String(n.removed)],
    ]));
    makeTable(c, {
      id: 'diff-table', caption: 'Per kernel and op: baseline against this trace, largest change first', rows: d.rows,
      columns: [
        { key: 'kind', label: 'Kind' }, { key: 'name', label: 'Name' }, { key: 'backend', label: 'Backend' },
        { key: 'base_count', label: 'Base count', num: true, fmt: fmtInt },
        { key: 'new_count', label: 'New count', num: true, fmt: fmtInt },
        { key: 'base_total_ns', label: 'Base total', num: true, fmt: fmtNs },
        { key: 'new_total_ns', label: 'New total', num: true, fmt: fmtNs },
        { key: 'delta_ns', label: 'Δ', num: true, fmt: fmtNs, sortValue: (r) => Math.abs(r.delta_ns) },
        { key: 'delta_percent', label: 'Δ (%)', num: true, fmt: (v) => fmtPct(v) },
        { key: 'status', label: 'Status' },
      ],
    });
  }

  // ---------- compare (tensormorph compare --format json, docs/compare.md) ----------
  // The categories as a chart: per category one bar per side, all on one scale, with the time.
  function compareChart(d) {
    const n = d.sides.length, BAR = 15, GAP = 10, LABEL = 130, VALUE = 150, W = 760;
    const max = Math.max(1, ...d.categories.flatMap((c) => c.sides.map((s) => s.device_ns)));
    const height = d.categories.length * (n * BAR + GAP) + 6;
    const chart = svg('svg', { id: 'compare-chart', viewBox: `0 0 ${W} ${height}`, width: String(W), height: String(height),
      role: 'img', 'aria-label': 'Device time per category on each side' });
    let y = 4;
    for (const cat of d.categories) {
      chart.append(svg('text', { x: String(LABEL - 8), y: String(y + (n * BAR) / 2 + 4), 'text-anchor': 'end' }, cat.category));
      cat.sides.forEach((side, i) => {
        const w = ((W - LABEL - VALUE) * side.device_ns) / max;
        chart.append(svg('rect', { x: String(LABEL), y: String(y), width: String(Math.max(1, w)), height: String(BAR - 3), class: 'side' + Math.min(i, 3),
          'data-category': cat.category, 'data-side': d.sides[i].label, 'data-ns': String(side.device_ns) }));
        chart.append(svg('text', { x: String(LABEL + w + 4), y: String(y + BAR - 5) }, `${fmtNs(side.device_ns)} ${d.sides[i].label}`));
        y += BAR;
      });
      y += GAP;
    }
    return el('div', { class: 'scroll compare-chart' }, chart);
  }
  function renderCompare() {
    if (!D.compare) return;
    document.getElementById('compare').hidden = false;
    document.getElementById('nav-compare').hidden = false;
    const d = D.compare, c = body('compare'), sides = d.sides;
    const ratio = (v) => (v === null || v === undefined ? '–' : v.toFixed(2) + '×');
    c.append(cards(sides.map((s) => [s.label,
      `${fmtNs(s.kernel_ns)} of kernels, GPU busy ${fmtNs(s.busy_ns)}` +
        (s.host_step_ns !== null ? `, step ${fmtNs(s.host_step_ns)}` : ''), s.device])));
    if (d.verdict) c.append(el('p', { class: 'verdict', id: 'compare-verdict', text: d.verdict }));
    (d.warnings || []).forEach((w) => c.append(el('p', { class: 'note compare-no-verdict', text: `No verdict: ${w}` })));
    const categoryRows = d.categories.map((cat) => {
      const r = { name: cat.category };
      cat.sides.forEach((s, i) => { r['s' + i] = s.device_ns; r['r' + i] = cat.sides[0].device_ns > 0 ? s.device_ns / cat.sides[0].device_ns : null; });
      return r;
    });
    const sideColumns = (fmtRatio) => sides.flatMap((s, i) => [{ key: 's' + i, label: s.label, num: true, fmt: fmtNs }]
      .concat(i > 0 ? [{ key: 'r' + i, label: `${s.label} / ${sides[0].label}`, num: true, fmt: fmtRatio }] : []));
    c.append(compareChart(d));
    makeTable(c, {
      id: 'compare-categories', caption: 'Device time per category on each side (adds up to its kernel time)',
      rows: categoryRows, filter: false, sortKey: 's0', columns: [{ key: 'name', label: 'Category' }].concat(sideColumns(ratio)),
    });
    // A row's name is its op with its shapes (unique but for a matched row and the only_in row of
    // its extra calls, told apart by the suffix); it finds the row for the children panel.
    const byName = new Map();
    const rows = d.rows.map((row) => {
      let name = (row.stack ? row.stack + ' > ' : '') + row.name + (row.shapes ? ' ' + row.shapes : '') + (row.dtypes ? ' ' + row.dtypes : '');
      if (row.origin === 'no_op') name += ' [' + row.category + ']';
      if (row.status !== 'matched') name += ' (only in ' + sides.filter((s, i) => row.sides[i]).map((s) => s.label).join(', ') + ')';
      const r = { name, category: row.category, status: row.status, faster: row.faster,
        calls: row.sides.map((s) => (s ? s.calls : '–')).join(' / '), children: row.children.length };
      row.sides.forEach((s, i) => { r['s' + i] = s ? s.device_ns : null; r['r' + i] = row.ratio[i]; });
      byName.set(name, row);
      return r;
    });
    const childrenPanel = el('div', { id: 'compare-children', 'aria-live': 'polite' });
    const wrap = el('div');
    makeTable(wrap, {
      id: 'compare-rows', caption: 'Aligned ops, by ' + d.by + ': device time on each side (click a row for the ops inside it)',
      rows, sortKey: 's0', columns: [
        { key: 'name', label: 'Op' }, { key: 'category', label: 'Category' }, { key: 'status', label: 'Status' },
        { key: 'calls', label: 'Calls' },
      ].concat(sideColumns(ratio), [{ key: 'faster', label: 'Faster' }, { key: 'children', label: 'Inner ops', num: true, fmt: fmtInt }]),
    });
    wrap.addEventListener('click', (event) => {
      const tr = event.target.closest('#compare-rows tbody tr');
      if (!tr) return;
      const row = byName.get(tr.getAttribute('data-name'));
      if (!row) return;
      childrenPanel.replaceChildren(el('h3', { text: 'Inside ' + row.name + (row.shapes ? ' ' + row.shapes : '') }));
      if (row.children.length === 0) {
        childrenPanel.append(el('p', { class: 'muted', text: 'The row op launched every kernel itself.' }));
        return;
      }
      makeTable(childrenPanel, {
        id: 'compare-children-table', caption: 'Ops inside this row on each side (not added to the row again)', filter: false, sortKey: 's0',
        rows: row.children.map((ch) => {
          const r = { name: ch.name + (ch.shapes ? ' ' + ch.shapes : ''), calls: ch.sides.map((s) => (s ? s.calls : '–')).join(' / ') };
          ch.sides.forEach((s, i) => { r['s' + i] = s ? s.device_ns : null; r['r' + i] = s && ch.sides[0] && ch.sides[0].device_ns > 0 ? s.device_ns / ch.sides[0].device_ns : null; });
          return r;
        }),
        columns: [{ key: 'name', label: 'Op' }, { key: 'calls', label: 'Calls' }].concat(sideColumns(ratio)),
      });
    });
    c.append(wrap, childrenPanel);
  }

  // ---------- colours ----------
  const nameColor = new Map();
  function colorOfName(name) {
    let c = nameColor.get(name);
    if (!c) {
      let h = 2166136261;
      for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
      c = `hsl(${(h >>> 0) % 360}, 62%, ${48 + ((h >>> 9) % 12)}%)`;
      nameColor.set(name, c);
    }
    return c;
  }

  // ---------- timeline ----------
  function renderTimeline() {
    const T = D.timeline;
    if (!T.lanes.length) {
      // No kernels, copies or memsets (a trace cut off before its first kernel, a host-only
      // profile): say so where the lanes would be; the sections' links find nothing to show.
      document.querySelector('#timeline .tl-info').textContent =
        'No device work in this trace: no kernels, memory copies or memsets to draw.';
      document.querySelector('#timeline .tl-wrap').hidden = true;
      const nothing = () => {};
      TM.timeline = { lanes: 0, hostLanes: 0, span_ns: 0, empty: true,
        highlightOp: nothing, showFinding: nothing, showPath: nothing };
      return;
    }
    const MAX_HOST_DEPTH = 64; // host rows per thread; deeper boxes are counted in the label
    const decodeLod = (levels) => levels.map((x) => ({ w: x.bucket_ns, busy: Uint8Array.from(x.busy), dom: Uint32Array.from(x.dom) }));
    const canvas = document.getElementById('tl-canvas');
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
    // The rows drawn, top to bottom: per input its host threads, then per device its gap row (when
    // it has gaps) and its stream lanes.
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
    });
    // Steps per input (ProfilerStep#N, host time): boundaries across that input's rows.
    const stepsByInput = new Map();
    for (const st of T.steps || []) {
      if (!stepsByInput.has(st.input)) stepsByInput.set(st.input, []);
      stepsByInput.get(st.input).push(st);
    }
    const gapColour = (c) => cv('--gap-' + T.gap_causes[c]);
    const LABEL_W = 260, RULER_H = 26, LANE_H = 22, LANE_GAP = 4, GAP_ROW_H = 10, HOST_ROW_H = 12;
    const rowH = (r) => (r.kind === 'gaps' ? GAP_ROW_H : r.kind === 'host' ? r.host.depths * HOST_ROW_H + 2 : LANE_H);
    const inputOf = (r) => (r.kind === 'lane' ? r.lane.input : r.kind === 'gaps' ? r.gaps.input : r.host.input);
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
      steps: (T.steps || []).length, span_ns: T.span_ns };
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
    const search = document.getElementById('tl-search');
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
    if (shownStep) TM.timeline.showPath(shownStep, false);

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

  // Tables built outside makeTable: each in its own scrolling box, names shortened.
  function tidyTables() {
    for (const table of document.querySelectorAll('main table')) {
      if (!table.parentElement.classList.contains('scroll')) {
        const box = el('div', { class: 'scroll' });
        table.replaceWith(box);
        box.append(table);
      }
      for (const td of table.querySelectorAll('td.name:not([data-full])')) {
        const full = td.textContent;
        td.dataset.full = full;
        if (shortName(full) !== full) { td.title = full; td.textContent = shortName(full); }
      }
    }
  }
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
  renderDiff();
  renderCompare();
  document.querySelector('#ops-table tbody').addEventListener('click', (e) => {
    const tr = e.target.closest('tr');
    if (!tr) return;
    TM.timeline.highlightOp(tr.dataset.name);
    document.getElementById('timeline').scrollIntoView();
  });
  tidyTables();
  timings.ready_ms = performance.now();
  TM.ready = true;
})();
