// @ts-check
// Sortable, filterable tables (makeTable), summary cards, and the tidy-up of tables built by hand.
import { el, nameCell, shortName, toggleRow } from './format.js';

// ---------- sortable, filterable tables ----------
// columns: {key, label, num (right-aligned, numeric sort), fmt(value, row), title,
//           cellClass(value, row): a class for the cell}
const MAX_ROWS = 5000; // rendered rows after filtering; the rest are counted, not drawn
export function makeTable(container, opts) {
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

export function cards(items) {
  return el('div', { class: 'cards' },
    ...items.map(([k, v, title]) => el('div', { class: 'card', title },
      el('div', { class: 'k', text: k }), el('div', { class: 'v', text: v }))));
}

// Tables built outside makeTable: each in its own scrolling box, names shortened.
export function tidyTables() {
  for (const table of document.querySelectorAll('main table')) {
    if (!table.parentElement.classList.contains('scroll')) {
      const box = el('div', { class: 'scroll' });
      table.replaceWith(box);
      box.append(table);
    }
    const cells = /** @type {NodeListOf<HTMLTableCellElement>} */ (table.querySelectorAll('td.name:not([data-full])'));
    for (const td of cells) {
      const full = td.textContent;
      td.dataset.full = full;
      if (shortName(full) !== full) { td.title = full; td.textContent = shortName(full); }
    }
  }
}
