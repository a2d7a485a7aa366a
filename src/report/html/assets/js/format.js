// @ts-check
// Formatting and element helpers every section uses: durations, counts, percents, SI units,
// elements (el, svg) and the one-line names of table cells.

// ---------- formatting ----------
export function fmtNs(ns) {
  if (ns === null || ns === undefined) return '–';
  const a = Math.abs(ns);
  if (a >= 1e9) return (ns / 1e9).toFixed(a >= 1e10 ? 2 : 3) + ' s';
  if (a >= 1e6) return (ns / 1e6).toFixed(a >= 1e8 ? 1 : a >= 1e7 ? 2 : 3) + ' ms';
  if (a >= 1e3) return (ns / 1e3).toFixed(a >= 1e5 ? 1 : a >= 1e4 ? 2 : 3) + ' µs';
  return Math.round(ns) + ' ns';
}
export const fmtInt = (n) => (n === null || n === undefined ? '–' : Math.round(n).toLocaleString('en-US'));
export const fmtPct = (p, digits = 1) => (p === null || p === undefined ? '–' : p.toFixed(digits) + ' %');
export const fmtFrac = (f) => (f === null || f === undefined ? '–' : (100 * f).toFixed(1) + ' %');
export function fmtSi(v, unit) {
  if (v === null || v === undefined) return '–';
  /** @type {[number, string][]} */
  const prefixes = [[1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  for (const [f, p] of prefixes) if (Math.abs(v) >= f) return (v / f).toPrecision(3) + ' ' + p + unit;
  return v.toPrecision(3) + ' ' + unit;
}

export function el(tag, attrs, ...children) {
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
export const body = (id) => document.querySelector('#' + id + ' .body');

// A name on one line: at most NAME_CHARS characters, the middle replaced by "…" (the start says
// what it is, the end which template instance). The cell keeps the whole name in its title and
// in data-full; a selected row (click, or Enter on a focused row) shows it whole.
const NAME_CHARS = 72;
export function shortName(s) {
  if (s.length <= NAME_CHARS) return s;
  const head = Math.ceil((NAME_CHARS - 1) * 0.6), tail = NAME_CHARS - 1 - head;
  return s.slice(0, head) + '…' + s.slice(s.length - tail);
}
export function nameCell(text, attrs) {
  const full = String(text);
  const short = shortName(full);
  return el('td', { ...attrs, class: ['name', attrs && attrs.class].filter(Boolean).join(' '),
    title: short === full ? null : full, 'data-full': full, text: short });
}
export function toggleRow(tr) {
  const selected = tr.classList.toggle('sel');
  tr.setAttribute('aria-selected', String(selected));
  for (const td of tr.querySelectorAll('td.name[data-full]')) {
    td.textContent = selected ? td.dataset.full : shortName(td.dataset.full);
  }
}

// SVG elements (the roofline and compare charts).
const SVGNS = 'http://www.w3.org/2000/svg';
export function svg(tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// A name cut to 80 characters, for lists and details.
export const short = (name) => (name && name.length > 80 ? name.slice(0, 77) + '…' : name || '–');

// ---------- colours ----------
const nameColor = new Map();
export function colorOfName(name) {
  let c = nameColor.get(name);
  if (!c) {
    let h = 2166136261;
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
    c = `hsl(${(h >>> 0) % 360}, 62%, ${48 + ((h >>> 9) % 12)}%)`;
    nameColor.set(name, c);
  }
  return c;
}
