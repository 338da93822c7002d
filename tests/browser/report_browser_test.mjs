// Browser test of the HTML report (CTest: ReportBrowser, labels browser and gpu).
//
// 1. A real lavapipe run: `refract ceilings` on two rows with small harness knobs, writing its
//    JSON and, through the suite flags, its own HTML, CSV and markdown.
// 2. `refract report` of that run with the synthetic kernels, sweep and decode documents of
//    tests/fixtures/, so that every section of the page is drawn.
// 3. The page opened from its file in headless Chromium (Debian's, driven by playwright-core):
//    no console error, no request other than the file itself, every chart drawn (a canvas
//    with pixels on it), a roofline point per kernel row, sorting and filtering working.
//    The screenshot is saved as ARTIFACTS/report.png.
//
// Usage: node report_browser_test.mjs REFRACT_BINARY SOURCE_DIR ARTIFACTS_DIR
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

import {chromium} from 'playwright-core';

const [refract, sourceDir, artifactsDir] = process.argv.slice(2);
if (!refract || !sourceDir || !artifactsDir) {
  console.error('usage: node report_browser_test.mjs REFRACT SOURCE_DIR ARTIFACTS_DIR');
  process.exit(2);
}
const kChromium = process.env.REFRACT_CHROMIUM || '/usr/bin/chromium';
const failures = [];
let checks = 0;
function check(condition, what) {
  checks++;
  if (condition) {
    console.log('ok   ' + what);
  } else {
    console.log('FAIL ' + what);
    failures.push(what);
  }
}

function run(args) {
  console.log('$ refract ' + args.join(' '));
  return execFileSync(refract, args, {encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit']});
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'refract-browser-'));
fs.mkdirSync(artifactsDir, {recursive: true});
const fixtures = ['kernels.json', 'sweep.json', 'decode.json']
                     .map((name) => path.join(sourceDir, 'tests', 'fixtures', name));
const ceilings = path.join(work, 'ceilings.json');
const reportPath = path.join(artifactsDir, 'report.html');

// 1. The real run, with the suite's own report flags.
run(['ceilings', '--filter', 'read-linear,f32-fma-scalar', '--buffer-mib', '16', '--no-live',
     '--seed', '1', '--min-rounds', '2', '--max-rounds', '3', '--idle-gap-ms', '0',
     '--batch-ms', '20', '--dispatch-ms', '2', '--json', ceilings,
     '--html', path.join(work, 'suite.html'), '--csv', path.join(work, 'suite.csv'),
     '--markdown', path.join(work, 'suite.md')]);
const csv = fs.readFileSync(path.join(work, 'suite.csv'), 'utf8').trim().split('\r\n');
check(csv.length === 3 && csv[0].startsWith('id,category,status,metric'),
      'ceilings --csv wrote a header and one line per row');
check(fs.readFileSync(path.join(work, 'suite.md'), 'utf8').includes('| read-linear |'),
      'ceilings --markdown wrote the rows');
check(fs.readFileSync(path.join(work, 'suite.html'), 'utf8').includes('id="refract-data"'),
      'ceilings --html wrote a report');

// 2. The report of the run beside the fixtures.
run(['report', ceilings, ...fixtures, '-o', reportPath]);
const html = fs.readFileSync(reportPath, 'utf8');
check(!/<(script|link|img|iframe)[^>]+(src|href)="(?!data:)/i.test(html),
      'the page refers to no file or address outside itself');

// 3. A sweeps page: the fixture's sweep with its first winner flagged unrepeatable, and a real
//    lavapipe sweep whose every configuration fails (a planted sum_reduce that doubles each term).
const sweepDocument = JSON.parse(fs.readFileSync(fixtures[1], 'utf8'));
const doubtful = sweepDocument.results.find((r) => r.flags.includes('winner'));
doubtful.flags.push('unrepeatable');
doubtful.flag_reasons.push('unrepeatable: the default and its twin are one configuration, read ' +
                           '1.2 and 2.3 µs (1.92x apart) in this run');
const doubtfulPath = path.join(work, 'sweep-unrepeatable.json');
fs.writeFileSync(doubtfulPath, JSON.stringify(sweepDocument));
const planted = path.join(work, 'kernels');
fs.mkdirSync(planted);
const sum = fs.readFileSync(path.join(sourceDir, 'src', 'kernels', 'sum_reduce.wgsl'), 'utf8');
check(sum.includes('      sum += data[index];'), 'the planted kernel\'s line is in sum_reduce');
fs.writeFileSync(path.join(planted, 'sum_reduce.wgsl'),
                 sum.replace('      sum += data[index];', '      sum += 2.0 * data[index];'));
const failedPath = path.join(work, 'sweep-failed.json');
try {
  execFileSync(refract, ['sweep', '--sweep', 'reduction', '--quick', '--samples', '3', '--seed', '1',
                         '--journal', path.join(work, 'j'), '--json', failedPath],
               {env: {...process.env, REFRACT_KERNEL_DIR: planted}, stdio: 'ignore'});
} catch (error) {
  check(error.status === 1, 'the failing sweep exits 1 (got ' + error.status + ')');
}
const sweepsPath = path.join(artifactsDir, 'sweeps.html');
run(['report', doubtfulPath, failedPath, '-o', sweepsPath]);

// 4. The pages in Chromium.
// A fresh profile folder (playwright passes it as --user-data-dir).
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'refract-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: kChromium,
  headless: true,
  viewport: {width: 1400, height: 1000},
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage();
  const errors = [];
  const requests = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('request', (request) => requests.push(request.url()));
  const url = pathToFileURL(reportPath).href;
  await page.goto(url, {waitUntil: 'load'});
  await page.waitForSelector('body[data-ready="true"]', {timeout: 20000});
  await page.screenshot({path: path.join(artifactsDir, 'report.png'), fullPage: false});
  check(fs.statSync(path.join(artifactsDir, 'report.png')).size > 10000,
        'screenshot saved as ' + path.join(artifactsDir, 'report.png'));

  const charts = await page.$$eval('.chart', (nodes) => nodes.map((node) => {
    const canvas = node.querySelector('canvas');
    let painted = 0;
    if (canvas && canvas.width > 0 && canvas.height > 0) {
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 3; i < pixels.length; i += 4) painted += pixels[i] > 0 ? 1 : 0;
    }
    return {kind: node.dataset.kind, points: Number(node.dataset.points), painted,
            width: canvas ? canvas.width : 0};
  }));
  const data = await page.evaluate(() => window.refractReport.data);
  const expected = {roofline: data.roofline ? 1 : 0,
                    sweep: data.sweeps.filter((s) => s.points.length >= 2).length,
                    decode: data.decode.length};
  for (const [kind, count] of Object.entries(expected)) {
    check(count > 0 && charts.filter((c) => c.kind === kind).length === count,
          `${count} ${kind} chart(s) drawn for the data's ${kind} section(s)`);
  }
  for (const chart of charts) {
    check(chart.width > 0 && chart.painted > 1000 && chart.points > 0,
          `${chart.kind} chart has a canvas with ${chart.painted} painted pixels, ` +
          `${chart.points} points`);
  }
  const kernelRows = data.rows.filter((r) => r.roofline !== null && r.status === 'ok').length;
  const roofline = charts.find((c) => c.kind === 'roofline');
  check(kernelRows === 10 && roofline && roofline.points === kernelRows,
        `the roofline holds a point per kernel row (${roofline && roofline.points} of ` +
        `${kernelRows})`);
  check(data.files.length === 4 && data.files[0].command === 'ceilings',
        'the report holds the lavapipe run and the three fixtures');
  const cards = await page.$$eval('article.card h3', (nodes) => nodes.length);
  check(cards >= 4, `device cards and section cards shown (${cards})`);

  // The results table: every row, then filtered, then sorted.
  const rowCount = () => page.$$eval('table.results tbody tr:not(.detail)', (r) => r.length);
  check(await rowCount() === data.rows.length, `the results table shows all ${data.rows.length} rows`);
  // The lavapipe run and the decode fixture (its own ceiling) each have a read-linear row.
  const readLinear = data.rows.filter((r) => r.id === 'read-linear').length;
  await page.fill('#results-filter', 'read-linear');
  check(readLinear === 2 && await rowCount() === readLinear,
        `filtering "read-linear" leaves its ${readLinear} rows`);
  await page.fill('#results-filter', '');
  await page.selectOption('#results-status', 'error');
  const errorRows = data.rows.filter((r) => r.status === 'error').length;
  check(await rowCount() === errorRows, `the status filter shows the ${errorRows} error rows`);
  await page.selectOption('#results-status', 'all');
  await page.click('table.results th:has-text("id")');
  const ids = await page.$$eval('table.results tbody tr td:nth-child(2)', (c) =>
      c.map((cell) => cell.textContent.replaceAll('\u200b', '')));
  const sorted = ids.slice().sort((a, b) => a.localeCompare(b, undefined, {numeric: true}));
  check(JSON.stringify(ids) === JSON.stringify(sorted), 'clicking "id" sorts the rows by id');
  const widths = await page.$eval('table.results', (table) =>
      ({table: table.scrollWidth, wrap: table.parentElement.clientWidth}));
  check(widths.table <= widths.wrap + 1,
        `the results table fits the page (${widths.table} px in ${widths.wrap} px)`);


  // The sweeps page in a window of 1280 px: nothing wider than it, the winner card naming its
  // configuration and its speed-up over the default, a doubtful winner marked, a problem with
  // no winner said so, the axis's ticks on the values swept.
  await page.setViewportSize({width: 1280, height: 900});
  await page.goto(pathToFileURL(sweepsPath).href, {waitUntil: 'load'});
  await page.waitForSelector('body[data-ready="true"]', {timeout: 20000});
  await page.screenshot({path: path.join(artifactsDir, 'sweeps.png'), fullPage: true});
  const width = await page.evaluate(() => ({page: document.documentElement.scrollWidth,
                                             window: window.innerWidth}));
  check(width.page <= width.window, `the sweeps page fits a 1280 px window (${width.page} px)`);
  const card = await page.$eval(`article.card.sweep[data-category="${doubtful.category}"]`,
                                (node) => ({text: node.textContent,
                                            warned: node.querySelector('.unrepeatable') !== null,
                                            right: node.getBoundingClientRect().right,
                                            widest: Math.max(...Array.from(node.querySelectorAll('*'))
                                                .map((child) => child.getBoundingClientRect().right))}));
  check(card.warned && card.text.includes('unrepeatable, not to be trusted'),
        'the unrepeatable winner is marked on its card');
  check(card.text.includes('★ winner: ') && !card.text.includes('kernel_hash'),
        'the winner card names the winner by its axes, not its raw params');
  check(card.widest <= card.right + 1, `nothing overflows the winner's card (${card.widest} px ` +
        `past ${card.right})`);
  const noWinner = await page.$eval('article.card.sweep[data-category="reduction/sum-1m"]',
                                    (node) => node.textContent);
  check(noWinner.includes('no winner: every configuration failed (5)'),
        'a problem whose every configuration failed says it has no winner');
  const ticksOnData = await page.evaluate(() => window.refractReport.charts
      .filter((c) => c.kind === 'sweep')
      .every((c) => {
        const xs = Array.from(c.plot.data[0]);
        const ticks = c.plot.axes[0].splits(c.plot, 0, xs[0], xs[xs.length - 1]);
        return ticks.length >= 2 && ticks.every((t) => xs.includes(t));
      }));
  check(ticksOnData, 'every sweep chart ticks its axis on the values swept');
  const legendValues = await page.$$eval('.chart[data-kind="sweep"] .u-legend .u-value',
                                         (nodes) => nodes.map((n) => n.textContent));
  check(!legendValues.includes('—'), 'no sweep legend entry reads "—"');

  check(errors.length === 0, 'no console error' + (errors.length ? ': ' + errors.join(' | ') : ''));
  const others = requests.filter((r) => r !== url && r !== pathToFileURL(sweepsPath).href);
  check(others.length === 0, 'no request but the file itself' +
        (others.length ? ': ' + others.join(' ') : ` (${requests.length} request)`));
} finally {
  await browser.close();
  fs.rmSync(work, {recursive: true, force: true});
  fs.rmSync(profile, {recursive: true, force: true});
}

console.log(`${checks - failures.length} passed, ${failures.length} failed`);
process.exit(failures.length === 0 ? 0 : 1);
