// refract report: sortable tables, and the filterable results table.

/**
 * A table sorted by clicking a column title (again: the other way).
 * columns: [{title, cell(row) → text or node, sort(row) → number or string, numeric, hint}]
 * options: {className, detail(row) → node shown below a clicked row, rowClass(row)}
 * Returns {node, setRows(rows)}.
 */
function sortableTable(columns, rows, options) {
  options = options || {};
  const body = el('tbody');
  let current = rows.slice();
  let sortColumn = -1;
  let ascending = true;
  const heads = columns.map((column, index) =>
      el('th', {class: column.numeric ? 'num sortable' : 'sortable', title: column.hint,
                onclick: () => sortBy(index)}, column.title));

  function sortKey(column, row) {
    const key = column.sort ? column.sort(row) : column.cell(row);
    return key === null || key === undefined || (typeof key === 'number' && !isFinite(key))
        ? null : key;
  }

  function sortBy(index) {
    ascending = sortColumn === index ? !ascending : true;
    sortColumn = index;
    heads.forEach((head, i) => head.setAttribute('aria-sort',
        i === index ? (ascending ? 'ascending' : 'descending') : 'none'));
    render();
  }

  function render() {
    let shown = current.slice();
    if (sortColumn >= 0) {
      const column = columns[sortColumn];
      shown.sort((a, b) => {
        const x = sortKey(column, a), y = sortKey(column, b);
        if (x === null || y === null) return (x === null) - (y === null);  // missing last
        const order = typeof x === 'number' && typeof y === 'number'
            ? x - y : String(x).localeCompare(String(y), undefined, {numeric: true});
        return ascending ? order : -order;
      });
    }
    body.replaceChildren();
    for (const row of shown) {
      const tr = el('tr', {class: options.rowClass ? options.rowClass(row) : null},
          columns.map((column) => el('td', {class: column.numeric ? 'num' : null},
              column.cell(row))));
      if (options.detail) {
        tr.classList.add('expandable');
        tr.addEventListener('click', () => {
          const next = tr.nextSibling;
          if (next && next.classList.contains('detail')) {
            next.remove();
          } else {
            tr.after(el('tr', {class: 'detail'},
                el('td', {colspan: String(columns.length)}, options.detail(row))));
          }
        });
      }
      body.appendChild(tr);
    }
  }

  const node = el('div', {class: 'table-wrap'},
      el('table', {class: 'data ' + (options.className || '')}, el('thead', {}, el('tr', {}, heads)),
          body));
  render();
  return {node, setRows: (next) => { current = next.slice(); render(); }};
}

function statusBadge(status) {
  return badge(status, status === 'ok' ? 'ok' : status === 'error' ? 'error' : 'warn');
}

function flagBadges(row) {
  return row.flags.map((flag, i) => badge(flag, 'flag', row.flag_reasons[i] || ''));
}

function rowDetail(row, data) {
  const params = Object.entries(row.params).map(([k, v]) => k + ' = ' + v).join(', ');
  return keyValueTable([
    ['file', data.files.length > 1 ? data.files[row.file].label : null],
    ['description', row.description],
    ['params', params],
    ['message', row.message],
    ['timing', row.timing_method],
    ['stop', row.stop_reason],
    ['statistic', row.statistic === 'median' ? 'median of a fixed sample count' : 'best of N'],
    ['p10 – p90', row.p10_ms !== null ? si(row.p10_ms / 1000, 's') + ' – ' +
        si(row.p90_ms / 1000, 's') : null],
    ['verification', row.verification_text],
    ['linearity', row.linearity],
    ['roofline', row.roofline ? row.roofline.fraction_text + ', intensity ' +
        plainNumber(row.roofline.intensity) + ' FLOP/B' : null],
    ['flags', row.flags.length ? el('ul', {}, row.flags.map((f, i) => {
      const reason = row.flag_reasons[i] || '';  // usually "flag: why"
      return el('li', {}, el('b', {}, f), ': ' +
                (reason.startsWith(f + ':') ? reason.slice(f.length + 1).trim() : reason));
    })) : null],
    ['notes', row.notes.length ? el('ul', {}, row.notes.map((n) => el('li', {}, n))) : null],
  ]);
}

/** The results section: every row of every file, filterable and sortable. */
function resultsSection(data) {
  if (data.rows.length === 0) {
    return section('results', 'Results', el('p', {class: 'warning'},
        'No rows: ' + (data.files.length > 1 ? 'these runs hold' : 'this run holds') +
        ' no results (a filter that matched nothing, or a run stopped before its first row).'));
  }
  const multi = data.files.length > 1;
  const anySpeedup = data.rows.some((r) => r.speedup !== null);
  const anyRoofline = data.rows.some((r) => r.roofline !== null);
  const timeTitle = data.rows.every((r) => r.statistic !== 'median') ? 'best' : 'time';
  const columns = [
    multi && {title: 'file', cell: (r) => data.files[r.file].label},
    // A zero-width space after each '/' and ',' lets a long id (a sweep's axes) break there, and
    // only there.
    {title: 'id', cell: (r) => el('code', {}, r.id.replace(/([/,])/g, '$1\u200b')),
     sort: (r) => r.id},
    {title: 'category', cell: (r) => r.category},
    {title: 'status', cell: (r) => statusBadge(r.status), sort: (r) => r.status},
    // The params, timing, stop reason and a failed row's whole message are in the row's details:
    // the table keeps the page's width.
    {title: 'metric', numeric: true, cell: (r) => r.status === 'ok' ? r.metric_text :
        el('span', {class: 'clip', title: r.message}, r.message),
     sort: (r) => r.metric},
    {title: timeTitle, numeric: true, hint: 'best time per dispatch, or the median of a fixed count',
     cell: (r) => r.time_text + (r.statistic === 'median' && timeTitle === 'time' ? ' (median)' : ''),
     sort: (r) => r.time_ms},
    {title: '±ci95', numeric: true, cell: (r) => r.ci_text},
    {title: 'kept/thr', numeric: true, cell: (r) => r.kept + '/' + r.throttled, sort: (r) => r.kept},
    {title: 'verification', cell: (r) => el('span', {title: r.verification_text},
        r.verification.elements ? r.verification.elements + ' checked' : 'not run'),
     sort: (r) => r.verification.elements},
    {title: 'flags', cell: (r) => flagBadges(r), sort: (r) => r.flags.join(',')},
    anySpeedup && {title: 'speed-up', numeric: true, cell: (r) => r.speedup_text,
                   sort: (r) => r.speedup},
    anyRoofline && {title: 'roofline', numeric: true,
                    cell: (r) => r.roofline ? r.roofline.fraction_text : '',
                    sort: (r) => r.roofline ? r.roofline.fraction : null},
  ].filter(Boolean);

  const table = sortableTable(columns, data.rows, {
    className: 'results',
    detail: (r) => rowDetail(r, data),
    rowClass: (r) => 'status-' + r.status,
  });
  const text = el('input', {type: 'search', placeholder: 'filter: id, category, params, flags…',
                            'aria-label': 'filter rows', id: 'results-filter'});
  const status = el('select', {'aria-label': 'status', id: 'results-status'},
      ['all', 'ok', 'skipped', 'error'].map((s) => el('option', {value: s}, s)));
  const flagged = el('input', {type: 'checkbox', id: 'results-flagged'});
  const file = multi ? el('select', {'aria-label': 'file', id: 'results-file'},
      el('option', {value: ''}, 'all files'),
      data.files.map((f) => el('option', {value: String(f.index)}, f.label))) : null;
  const count = el('span', {class: 'count', id: 'results-count'});

  function apply() {
    const words = text.value.toLowerCase().split(/\s+/).filter(Boolean);
    const shown = data.rows.filter((r) => {
      if (status.value !== 'all' && r.status !== status.value) return false;
      if (flagged.checked && r.flags.length === 0) return false;
      if (file && file.value !== '' && String(r.file) !== file.value) return false;
      const haystack = [r.id, r.category, r.params_text, r.status, r.flags.join(' '), r.message,
                        r.timing_method, r.stop_reason, data.files[r.file].label].join(' ')
                           .toLowerCase();
      return words.every((w) => haystack.includes(w));
    });
    table.setRows(shown);
    count.textContent = `${shown.length} of ${data.rows.length} rows`;
  }
  for (const control of [text, status, flagged, file]) {
    if (control) control.addEventListener('input', apply);
  }
  apply();
  return section('results', 'Results',
      el('div', {class: 'controls'}, text, status, file,
          el('label', {}, flagged, ' flagged only'), count),
      el('p', {class: 'hint'}, 'Click a column title to sort, a row for its details.'),
      table.node);
}
