// refract report: the page. Reads the data embedded in #refract-data and builds each section
// the data has, charts first (comparison, roofline, sweeps, decode), then the side-by-side
// table, the device cards with the run metadata, and the results table. A section that fails
// shows why (and logs it) while the others still draw.

function deviceCard(file) {
  const d = file.device;
  const features = d.features.map((f) => badge(f, 'feature'));
  const adapterOnly = d.adapter_only_features.length ? el('details', {class: 'more'},
      el('summary', {}, `${d.adapter_only_features.length} more the adapter has, not enabled ` +
         'on the device'),
      el('div', {class: 'badges'}, d.adapter_only_features.map((f) => badge(f, 'muted')))) : null;
  const limits = el('table', {class: 'limits'},
      el('tr', {}, el('th', {}, 'limit'), el('th', {class: 'num'}, 'device'),
         el('th', {class: 'num', title: 'what a browser page gets'}, 'WebGPU default')),
      d.limits.map((l) => el('tr', {}, el('td', {}, l.name), el('td', {class: 'num'}, l.text),
                             el('td', {class: 'num muted'}, l.default_text))));
  const summary = file.summary.length ? el('div', {},
      el('h4', {}, 'Summary'),
      keyValueTable(file.summary.map((s) => [s.key, s.text]))) : null;
  const options = Object.entries(file.options).map(([k, v]) => [k, v]);
  const toggles = (list, kind) => (list.length ? list.map((t) => badge(t, kind)) : '—');
  return el('article', {class: 'card', style: `border-top-color: ${fileColor(file.index)}`},
      el('h3', {}, file.label),
      el('p', {class: 'device-name'}, d.name || '(unnamed adapter)'),
      keyValueTable([
        ['vendor', [d.vendor, d.architecture].filter(Boolean).join(' · ')],
        ['driver', d.driver],
        ['backend', d.backend + (d.adapter_type ? ' · ' + d.adapter_type : '')],
        ['vendor:device', d.ids],
        ['subgroup sizes', d.subgroup_sizes],
        ['Dawn', d.dawn_package],
      ]),
      el('h4', {}, 'Features'), el('div', {class: 'badges'}, features.length ? features : '—'),
      adapterOnly,
      d.wgsl_language_features.length ? [el('h4', {}, 'WGSL language features'),
          el('div', {class: 'badges'}, d.wgsl_language_features.map((f) => badge(f, 'muted')))]
          : null,
      el('h4', {}, 'Limits that matter'), limits,
      summary,
      el('details', {class: 'metadata'}, el('summary', {}, 'Run metadata'),
          keyValueTable([
            ['command', 'refract ' + file.command],
            ['tool', file.tool + ' ' + file.tool_version],
            ['Dawn package', file.dawn_package],
            ['started', file.started_at],
            ['finished', file.finished_at],
            ['wall time', file.wall_time_text],
            ['seed', String(file.seed)],
            ['rows', `${file.counts.rows}: ${file.counts.ok} ok, ${file.counts.skipped} skipped, ` +
                     `${file.counts.error} error`],
            ['enabled toggles', el('div', {class: 'badges'}, toggles(d.enabled_toggles, 'muted'))],
            ['disabled toggles', el('div', {class: 'badges'}, toggles(d.disabled_toggles, 'muted'))],
          ]),
          el('h4', {}, 'Options'), keyValueTable(options)));
}

function runsSection(data) {
  return section('runs', data.files.length > 1 ? 'Devices and runs, side by side' : 'Device and run',
      el('div', {class: 'cards'}, data.files.map(deviceCard)));
}

function rooflineSection(data) {
  const body = el('div', {class: 'chart-box'});
  const node = section('roofline', 'Roofline',
      el('p', {class: 'hint'}, 'Each kernel row at its arithmetic intensity and achieved rate ' +
         '(log-log). Lines: the measured read bandwidth (solid) and FMA rate (dashed); hollow ' +
         'points are baseline kernels, filled ones tuned. Rows without arithmetic sit at the ' +
         'left edge, at their fraction of the bandwidth roof.'),
      body,
      el('ul', {class: 'sources'}, data.roofline.ceilings.map((c) => el('li', {},
          `${c.label}: read bandwidth ${c.bandwidth_text} (from ${c.bandwidth_source || '—'}), ` +
          `FMA ${c.fma_text} (from ${c.fma_source || '—'})`))));
  return {node, draw: () => rooflineChart(body, data.roofline, data)};
}

function sweepCard(sweep, data) {
  const body = el('div', {class: 'chart-box'});
  const fileNote = data.files.length > 1 ? ' — ' + sweep.label : '';
  const w = sweep.winner;
  const counts = `${sweep.configurations} configurations` +
      (sweep.failed ? `, ${sweep.failed} failed` : '') +
      (sweep.skipped ? `, ${sweep.skipped} skipped` : '');
  const curve = sweep.points.length >= 2;
  const cliffAt = (c) => 'cliff at ' + sweep.axis + ' = ' +
      (/bytes/.test(sweep.axis) ? bytesText(c.x) : plainNumber(c.x));
  const node = el('article', {class: 'card sweep', 'data-category': sweep.category},
      el('h3', {}, sweep.category + fileNote),
      el('p', {class: 'hint'}, counts + (curve ? `; at each ${sweep.axis}, the best.` :
          w ? `; one value of ${sweep.axis || 'its axis'} measured: no curve.` : '.')),
      curve ? body : null,
      w ? el('p', {class: 'winner'}, w.flagged ? '★ winner: ' : '★ fastest: ',
             el('code', {}, w.axes_text), ' ' + w.text +
             (w.over_default_text ? ', ' + w.over_default_text : '')) : null,
      w && w.unrepeatable ? el('p', {class: 'warning unrepeatable'},
          '⚠ unrepeatable, not to be trusted: ' + w.unrepeatable) : null,
      w && w.reason ? el('p', {class: 'hint'}, w.reason + ' (', el('code', {}, w.id), ')') : null,
      w ? null : el('p', {class: 'failure no-winner'}, 'no winner: ' + sweep.no_winner),
      sweep.cliffs.length ? el('ul', {class: 'cliffs'}, sweep.cliffs.map((c) => el('li', {},
          el('b', {}, cliffAt(c)), ': ' + c.depth_text + (c.cause ? ' — ' + c.cause : '') +
          ' (', el('code', {}, c.id), ')'))) : w ? el('p', {class: 'hint'}, 'No cliff flagged.') : null);
  return {node, draw: curve ? () => sweepChart(body, sweep) : null};
}

function decodeCard(decode, data) {
  const body = el('div', {class: 'chart-box'});
  const title = (data.files.length > 1 ? decode.label + ' · ' : '') + decode.id;
  if (decode.status !== 'ok') {
    return {node: el('article', {class: 'card'}, el('h3', {}, title),
                     el('p', {class: 'failure'}, decode.status + ': ' + decode.message)),
            draw: null};
  }
  const table = sortableTable([
    {title: 'kind', cell: (s) => s.kind},
    {title: 'dispatches', numeric: true, cell: (s) => String(s.dispatches), sort: (s) => s.dispatches},
    {title: 'GPU time a token', numeric: true, cell: (s) => s.time_text, sort: (s) => s.time_ms},
    {title: 'share of the step', numeric: true, cell: (s) => s.share_text, sort: (s) => s.share},
    {title: 'a dispatch', cell: (s) => s.each_text},
    {title: 'bytes a token, their bandwidth bound', numeric: true, cell: (s) => s.bytes_text,
     sort: (s) => s.bandwidth_fraction},
  ], decode.split);
  const node = el('article', {class: 'card'},
      el('h3', {}, title),
      el('p', {class: 'big'}, decode.tokens_text),
      el('p', {class: 'hint'}, decode.spread_text),
      el('ul', {class: 'facts'},
         el('li', {}, el('b', {}, 'step: '), decode.step_text),
         el('li', {}, el('b', {}, 'recorded as: '), decode.counts_text),
         el('li', {}, el('b', {}, 'bandwidth bound: '), decode.bandwidth_text),
         el('li', {}, el('b', {}, 'dispatch bound: '), decode.dispatch_text),
         el('li', {}, el('b', {}, 'split: '), decode.split_text)),
      decode.split.length ? body : null, decode.split.length ? table.node : null);
  return {node, draw: decode.split.length ? () => decodeChart(body, decode) : null};
}

function sideBySideSection(data) {
  const s = data.side_by_side;
  const columns = [{title: 'id', cell: (r) => el('code', {}, r.id), sort: (r) => r.id},
                   {title: 'params', cell: (r) => r.params_text}];
  s.labels.forEach((label, i) => {
    columns.push({title: label, numeric: true,
                  cell: (r) => (r.cells[i] ? r.cells[i].metric_text : '—'),
                  sort: (r) => (r.cells[i] ? r.cells[i].time_ms : null)});
    if (i > 0) {
      columns.push({title: 'time ×', numeric: true, hint: 'time over the first run\'s',
                    cell: (r) => (r.cells[i] ? r.cells[i].ratio_text : ''),
                    sort: (r) => (r.cells[i] ? r.cells[i].ratio : null)});
    }
  });
  return section('side-by-side', 'Side by side',
      s.warning ? el('p', {class: 'warning'}, 'Warning: ' + s.warning + '.') : null,
      el('p', {class: 'hint'}, 'Rows present in more than one run; time × is the time over the ' +
         'first run that has the row (below 1: faster).'),
      sortableTable(columns, s.rows).node);
}

function comparisonSection(data) {
  const c = data.comparison;
  const columns = [
    {title: 'id', cell: (r) => el('code', {}, r.id), sort: (r) => r.id},
    {title: 'params', cell: (r) => r.params_text},
    {title: 'base', numeric: true, cell: (r) => r.base_text, sort: (r) => r.base_ms},
    {title: 'new', numeric: true, cell: (r) => r.new_text, sort: (r) => r.new_ms},
    {title: 'time ×', numeric: true, cell: (r) => r.ratio_text, sort: (r) => r.ratio},
    {title: 'noise', numeric: true, cell: (r) => r.noise_text, sort: (r) => r.noise},
    {title: 'p', numeric: true, cell: (r) => r.p_text, sort: (r) => r.p_value},
    {title: 'verdict', cell: (r) => badge(r.verdict, 'verdict-' + r.verdict.toLowerCase()),
     sort: (r) => r.verdict},
    {title: 'why', cell: (r) => r.reason},
  ];
  const unmatched = c.unmatched.length ? [el('h3', {}, 'Not compared'), sortableTable([
    {title: 'id', cell: (r) => el('code', {}, r.id), sort: (r) => r.id},
    {title: 'params', cell: (r) => r.params_text},
    {title: 'why', cell: (r) => r.note}], c.unmatched).node] : null;
  return section('comparison', 'Comparison',
      el('p', {class: 'big'}, c.summary),
      el('p', {class: 'hint'}, c.rule),
      sortableTable(columns, c.rows, {rowClass: (r) => 'verdict-' + r.verdict.toLowerCase()}).node,
      unmatched);
}

function boot() {
  const data = JSON.parse(document.getElementById('refract-data').textContent);
  window.refractReport = {data, charts: []};
  document.getElementById('title').textContent = data.title;
  document.getElementById('subtitle').textContent = data.files.map((f) =>
      `${f.label}: refract ${f.command} on ${f.device.name}, ${f.started_at}`).join(' · ');
  const main = document.getElementById('main');
  const drawings = [];
  const add = (what, build) => {
    try {
      const built = build();
      if (built.node) {
        main.appendChild(built.node);
        if (built.draw) drawings.push([what, built]);
      } else {
        main.appendChild(built);
      }
    } catch (error) {
      main.appendChild(failureNote(what, error));
    }
  };
  if (data.comparison) add('the comparison', () => comparisonSection(data));
  if (data.roofline) add('the roofline', () => rooflineSection(data));
  // A section of cards, each drawn once laid out (those that have a chart).
  const cardSection = (what, id, title, cards, names) => {
    add(what, () => ({node: section(id, title,
        el('div', {class: 'cards wide'}, cards.map((c) => c.node)))}));
    cards.forEach((c, i) => {
      if (c.draw) drawings.push([names[i], c]);
    });
  };
  if (data.sweeps.length) {
    cardSection('the sweeps', 'sweeps', 'Sweeps', data.sweeps.map((s) => sweepCard(s, data)),
                data.sweeps.map((s) => 'sweep ' + s.category));
  }
  if (data.decode.length) {
    cardSection('the decode section', 'decode', 'Decode',
                data.decode.map((d) => decodeCard(d, data)),
                data.decode.map((d) => 'decode ' + d.id));
  }
  if (data.side_by_side) add('the side-by-side table', () => sideBySideSection(data));
  add('the device cards', () => runsSection(data));
  add('the results table', () => resultsSection(data));
  // Charts are drawn once their boxes are laid out, so that they take the boxes' width.
  for (const [what, built] of drawings) {
    try {
      built.draw();
    } catch (error) {
      built.node.appendChild(failureNote(what, error));
    }
  }
  document.body.dataset.ready = 'true';
}

boot();
