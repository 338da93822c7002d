// refract report: the charts, drawn by uPlot (embedded in the page) from the data that
// report/report_model.cpp derived. Each chart's element records what it drew in data-*
// attributes (data-points: the points plotted), which the browser test reads.

/** Width for a chart inside `container` [CSS px]. */
function chartWidth(container) {
  return Math.max(320, (container.clientWidth || 900) - 16);
}

/** Draws `options` with `data` into a new element inside `container`; returns the element. */
function drawChart(container, kind, options, data, pointCount) {
  const holder = el('div', {class: 'chart', 'data-kind': kind});
  container.appendChild(holder);
  options.width = chartWidth(container);
  const plot = new uPlot(options, data, holder);
  holder.dataset.points = String(pointCount);
  window.refractReport.charts.push({kind, element: holder, plot});
  return holder;
}

/** The largest 1, 2 or 5 × 10^k at or below `v` (> 0): a log axis starting there ticks on
 *  round values. */
function niceBelow(v) {
  const decade = Math.pow(10, Math.floor(Math.log10(v)));
  return [5, 2, 1].map((m) => m * decade).find((n) => n <= v) || decade;
}

/** The smallest 1, 2 or 5 × 10^k at or above `v` (> 0). */
function niceAbove(v) {
  const decade = Math.pow(10, Math.floor(Math.log10(v)));
  return [1, 2, 5, 10].map((m) => m * decade).find((n) => n >= v);
}

/** Powers of two from `low` to `high` (both powers of two), every other one or sparser so that
 *  at most `room` of them are left: ticks for a log-2 axis that starts off a power of two. */
function octaves(low, high, room) {
  const all = [];
  for (let x = low; x <= high * (1 + 1e-9); x *= 2) all.push(x);
  const step = Math.max(1, Math.ceil(all.length / Math.max(2, Math.floor(room))));
  return all.filter((_, i) => i % step === 0);
}

/** A series drawn as points only. */
function pointSeries(label, color, hollow, size) {
  return {label, stroke: color, width: 2, fill: hollow ? '#ffffff' : color, paths: () => null,
          points: {show: true, size: size || 9, width: 2, stroke: color,
                   fill: hollow ? '#ffffff' : color},
          value: (u, v) => (v === null ? '—' : si(v, ''))};
}

/** Puts the x values of every point on one ascending grid; equal x values in one series are
 *  moved apart by a relative 1e-9 so that each point keeps its own slot. */
function alignedGrid(seriesPoints, extraXs) {
  const grid = new Set(extraXs.filter((x) => x > 0 && isFinite(x)));
  for (const points of seriesPoints) {
    const seen = new Map();
    for (const p of points) {
      const k = seen.get(p.x) || 0;
      seen.set(p.x, k + 1);
      p.gx = p.x * (1 + 1e-9 * k);
      grid.add(p.gx);
    }
  }
  return Array.from(grid).sort((a, b) => a - b);
}

/** A hover box listing the rows behind the points at the cursor's x. */
function hoverPlugin(describe) {
  let box;
  return {hooks: {
    init: (u) => {
      box = el('div', {class: 'hover'});
      u.over.appendChild(box);
    },
    setCursor: (u) => {
      const idx = u.cursor.idx;
      const lines = idx === null || idx === undefined ? [] : describe(idx);
      box.style.display = lines.length ? 'block' : 'none';
      if (!lines.length) return;
      box.replaceChildren(...lines.map((line) => el('div', {}, line)));
      const left = u.cursor.left, top = u.cursor.top;
      box.style.left = Math.min(left + 12, u.over.clientWidth - 260) + 'px';
      box.style.top = Math.max(top - 12, 0) + 'px';
    },
  }};
}

/** The roofline: the ceilings of each run as lines, a point per kernel row, log-log. */
function rooflineChart(container, roofline, data) {
  const groups = new Map();  // JSON [file, variant] → points
  for (const p of roofline.points) {
    const key = JSON.stringify([p.file, p.variant]);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(p);
  }
  const extra = [roofline.x_floor, roofline.x_max];
  for (const c of roofline.ceilings) extra.push(c.ridge);
  const xs = alignedGrid(Array.from(groups.values()), extra);
  const series = [{label: 'intensity', value: (u, v) => (v === null ? '—' : plainNumber(v))}];
  const columns = [xs];
  const multi = data.files.length > 1;
  for (const c of roofline.ceilings) {
    const color = fileColor(c.file);
    const suffix = multi ? ' (' + c.label + ')' : '';
    const bw = c.bandwidth_Bps, fma = c.fma_flops;
    if (bw !== null) {
      series.push({label: 'read bandwidth ' + c.bandwidth_text + suffix, stroke: color, width: 2,
                   spanGaps: true, points: {show: false}, value: (u, v) => si(v, 'FLOP/s')});
      columns.push(xs.map((x) => (fma === null || x <= c.ridge ? bw * x : null)));
    }
    if (fma !== null) {
      series.push({label: 'FMA ' + c.fma_text + suffix, stroke: color, width: 2, dash: [8, 4],
                   spanGaps: true, points: {show: false}, value: (u, v) => si(v, 'FLOP/s')});
      columns.push(xs.map((x) => (bw === null || x >= c.ridge ? fma : null)));
    }
  }
  const byIndex = new Map();  // x slot → descriptions
  let count = 0;
  for (const [key, points] of groups) {
    const [file, variant] = JSON.parse(key);
    const hollow = variant === 'baseline';
    const label = variant + (multi ? ' (' + data.files[Number(file)].label + ')' : '');
    series.push(pointSeries(label, fileColor(Number(file)), hollow, hollow ? 9 : 10));
    const column = xs.map(() => null);
    for (const p of points) {
      const i = xs.indexOf(p.gx);
      column[i] = p.y;
      count++;
      if (!byIndex.has(i)) byIndex.set(i, []);
      byIndex.get(i).push(`${p.id} (${p.variant}): ${p.text}` +
          (p.fraction !== null ? `, ${Math.round(100 * p.fraction)}% of ${p.bound}` : ''));
    }
    columns.push(column);
  }
  const options = {
    height: 440,
    // A little room left of x_floor, where rows without arithmetic sit.
    scales: {x: {time: false, distr: 3, log: 2, range: [roofline.x_floor / 1.3, roofline.x_max]},
             y: {distr: 3, log: 10, range: (u, min, max) => [niceBelow(min / 1.5),
                                                              niceAbove(max * 1.5)]}},
    axes: [{label: roofline.x_label, values: axisFormatter(''),
            splits: (u) => octaves(roofline.x_floor, roofline.x_max, u.bbox.width / 70)},
           {label: roofline.y_label, values: axisFormatter('FLOP/s'), size: 100}],
    series,
    cursor: {drag: {x: false, y: false}},
    plugins: [hoverPlugin((i) => byIndex.get(i) || [])],
  };
  return drawChart(container, 'roofline', options, columns, count);
}

/** One sweep: the best row at each x, its p10–p90 band, the winner, the cliffs. */
function sweepChart(container, sweep) {
  const xs = sweep.points.map((p) => p.x);
  const at = (x) => xs.indexOf(x);
  const color = fileColor(sweep.file);
  const winner = xs.map(() => null);
  winner[at(sweep.winner.x)] = sweep.winner.y;
  const cliffs = xs.map(() => null);
  for (const c of sweep.cliffs) {
    const i = at(c.x);
    if (i >= 0) cliffs[i] = c.y;
  }
  const unit = sweep.y_kind === 'metric' ? sweep.unit : 'ms';
  const format = (u, v) => (v === null ? '—' : axisFormatter(unit)(u, [v])[0]);
  const series = [
    {label: sweep.axis, value: (u, v) => axisFormatter(/bytes/.test(sweep.axis) ? 'bytes' : '')(u, [v])[0]},
    {label: 'band high', stroke: withAlpha(color, 0.35), width: 1, points: {show: false},
     value: format},
    {label: 'band low', stroke: withAlpha(color, 0.35), width: 1, points: {show: false},
     value: format},
    {label: 'best', stroke: color, width: 2, points: {show: true, size: 6, fill: color},
     value: format},
    Object.assign(pointSeries('winner', '#f2b705', false, 16), {value: format}),
    Object.assign(pointSeries('cliff', '#d1202f', true, 16), {value: format}),
  ];
  const lo = sweep.points.map((p) => p.lo), hi = sweep.points.map((p) => p.hi);
  const columns = [xs, hi, lo, sweep.points.map((p) => p.y), winner, cliffs];
  const xScale = sweep.log_base ? {time: false, distr: 3, log: sweep.log_base} : {time: false};
  // The axis's ticks are the values swept (thinned to fit): a two-point axis has two ticks, not
  // the 75, 100, 125 of a continuous scale.
  const ticks = (u) => {
    const step = Math.max(1, Math.ceil(xs.length / Math.max(2, Math.floor(u.bbox.width / 70))));
    return xs.filter((_, i) => i % step === 0 || i === xs.length - 1);
  };
  const options = {
    height: 320,
    scales: {x: xScale, y: {}},
    axes: [{label: sweep.axis, values: axisFormatter(/bytes/.test(sweep.axis) ? 'bytes' : ''),
            splits: ticks},
           {label: sweep.y_label, values: axisFormatter(unit), size: 90}],
    series,
    bands: [{series: [1, 2], fill: withAlpha(color, 0.15)}],
    // The series' names only: their values at the cursor are in the hover box (a live legend
    // reads "—" for every series until the cursor is on a point).
    legend: {show: true, live: false},
    plugins: [hoverPlugin((i) => [sweep.points[i].id + ': ' + sweep.points[i].axes_text])],
  };
  return drawChart(container, 'sweep', options, columns, sweep.points.length);
}

/** The decode step's GPU time by kind, as bars. */
function decodeChart(container, decode) {
  const names = decode.split.map((s) => s.kind);
  const xs = names.map((_, i) => i);
  const options = {
    height: 280,
    scales: {x: {time: false, range: [-0.5, names.length - 0.5]}, y: {range: (u, min, max) => [0, max * 1.1]}},
    axes: [{values: (u, splits) => splits.map((v) => names[v] || ''), splits: () => xs,
            label: 'kind'},
           {label: 'GPU time a token', values: axisFormatter('ms'), size: 80}],
    series: [{label: 'kind', value: (u, v) => (v === null ? '—' : names[v])},
             {label: 'time', stroke: fileColor(decode.file), fill: withAlpha(fileColor(decode.file), 0.6),
              paths: uPlot.paths.bars({size: [0.6, 80]}), points: {show: false},
              value: (u, v) => (v === null ? '—' : si(v / 1000, 's'))}],
    legend: {show: false},
  };
  return drawChart(container, 'decode', options, [xs, decode.split.map((s) => s.time_ms)],
                   names.length);
}
