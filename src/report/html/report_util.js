// refract report: DOM and number helpers shared by the page's scripts. The page's scripts are
// concatenated into one function scope by report/html_page.cpp; nothing here is global.

/** Creates an element: el('td', {class: 'num', title: 'x'}, child, [children], 'text'). */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : value);
  }
  appendAll(node, children);
  return node;
}

function appendAll(node, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) appendAll(node, child);
    else node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

const SI_PREFIXES = ['p', 'n', 'µ', 'm', '', 'k', 'M', 'G', 'T', 'P', 'E'];

/** 3 significant digits with an SI prefix: si(4.43e12, 'B/s') is "4.43 TB/s". */
function si(value, unit) {
  if (value === null || value === undefined || !isFinite(value)) return '—';
  if (value === 0) return '0 ' + (unit || '');
  let index = 4 + Math.floor(Math.log10(Math.abs(value)) / 3);
  index = Math.max(0, Math.min(SI_PREFIXES.length - 1, index));
  const scaled = value / Math.pow(1000, index - 4);
  return Number(scaled.toPrecision(3)) + ' ' + SI_PREFIXES[index] + (unit || '');
}

/** A byte count in binary units: 16384 is "16 KiB". */
function bytesText(value) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit + 1 < units.length) {
    value /= 1024;
    unit++;
  }
  return Number(value.toPrecision(3)) + ' ' + units[unit];
}

/** A plain number for an axis: integers in full, others with 2 significant digits. */
function plainNumber(value) {
  if (value === null || !isFinite(value)) return '';
  if (Number.isInteger(value) && Math.abs(value) < 1e6) return String(value);
  if (Math.abs(value) >= 1e6) return si(value, '');
  return String(Number(value.toPrecision(2)));
}

/** The tick formatter of an axis whose values are in `unit` ('bytes', 'ms', a rate, ''). */
function axisFormatter(unit) {
  const one = unit === 'bytes' ? bytesText
      : unit === 'ms' ? (v) => si(v / 1000, 's')
      : unit ? (v) => si(v, unit) : plainNumber;
  return (u, splits) => splits.map((v) => (v === null || v === undefined ? '' : one(v)));
}

/** One color per run file. */
const FILE_COLORS = ['#1f6fb4', '#d1495b', '#2a9d5c', '#7b4fb0', '#e08a1e', '#1aa3b5'];
function fileColor(index) {
  return FILE_COLORS[index % FILE_COLORS.length];
}

/** A color with alpha: withAlpha('#1f6fb4', 0.2). */
function withAlpha(hex, alpha) {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** A badge (a small rounded label). */
function badge(text, kind, title) {
  return el('span', {class: 'badge' + (kind ? ' badge-' + kind : ''), title}, text);
}

/** A key/value table: rows is a list of [key, value-or-node]. */
function keyValueTable(rows) {
  return el('table', {class: 'kv'},
      rows.filter((r) => r[1] !== undefined && r[1] !== null && r[1] !== '')
          .map(([key, value]) => el('tr', {}, el('th', {}, key), el('td', {}, value))));
}

/** A section with a heading and an anchor in the page's navigation. */
function section(id, title, ...children) {
  const nav = document.getElementById('nav');
  if (nav) nav.appendChild(el('a', {href: '#' + id}, title));
  return el('section', {id}, el('h2', {}, title), children);
}

/** A note shown in place of a part that failed to draw; the error goes to the console too. */
function failureNote(what, error) {
  console.error('refract report: ' + what + ' failed:', error);
  return el('p', {class: 'failure'}, what + ' could not be drawn: ' + error);
}
