/// <reference lib="dom" />
// Data screen scroll benchmark: a 100,000-row table seeded through the server's own functions, the
// real server in its own process serving the built web app, Chromium signed in through the login
// screen. Phase 1 scrolls as a user would until every page is loaded; phase 2 scrolls the loaded
// grid from top to bottom in steps while a PerformanceObserver records long tasks and
// requestAnimationFrame records frame times. Target: no long task over 50 ms while scrolling.
//   node bench/datatab-scroll/run.ts [--rows 100000] [--page-size 1000] [--step-rows 100]
// --page-size goes to the UI's own `page_size` address option (/app/datatab?table=…&page_size=N);
// pass 50 to page exactly like the default UI (2,000 requests for 100,000 rows).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { chromium, type Page } from 'playwright-core';
import { productConfig, type ColumnDefinition } from '@stockwise/contract';
import { migrateToLatest, openDatabase } from '../../apps/server/src/db/database.ts';
import { CatalogueCache } from '../../apps/server/src/tables/catalogue-cache.ts';
import { createTable } from '../../apps/server/src/tables/service.ts';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    'page-size': { type: 'string', default: '1000' },
    'step-rows': { type: 'string', default: '100' },
    /** Also print where the long animation frames spent their time (script attribution). */
    diagnose: { type: 'boolean', default: false },
  },
});
const ROWS = Number(args.rows);
const PAGE_SIZE = Number(args['page-size']);
const STEP_ROWS = Number(args['step-rows']);
const ROW_HEIGHT = 34; // gridRowHeight in apps/web/src/pages/datatab/DataGrid.tsx
const TABLE = 'scroll bench';
const USER = { username: 'scrollbench', password: 'scroll bench password 2026' };
const repositoryRoot = path.resolve(import.meta.dirname, '../..');
const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const columns: ColumnDefinition[] = [
  { key: 'sku', label: 'SKU', type: 'CharField', max_length: 32, required: true },
  { key: 'name', label: 'Name', type: 'CharField', max_length: 100, required: true },
  { key: 'qty', label: 'Quantity', type: 'IntegerField', required: true },
  { key: 'price', label: 'Price', type: 'DecimalField', max_digits: 10, decimal_places: 2 },
  { key: 'day', label: 'Day', type: 'DateField' },
  { key: 'active', label: 'Active', type: 'BooleanField' },
];

async function seed(dataDir: string): Promise<void> {
  const database = await openDatabase({ kind: 'pglite', dataDir });
  await migrateToLatest(database.db);
  const emptyConfig = productConfig.parse({});
  const table = await createTable({ db: database.db, loadConfig: async () => emptyConfig, catalogueCache: new CatalogueCache() }, { name: TABLE, folder: 'Bench', columns });
  await sql`insert into ${sql.id('data', table.encodedName)} (sku, name, qty, price, day, active)
    select 'SKU-' || lpad(i::text, 7, '0'), 'Item ' || i || case when i % 3 = 0 then ' with a longer description' else '' end,
      (i * 7919) % 1000, (i % 10000) / 100.0, date '2024-01-01' + (i % 700), i % 2 = 0
    from generate_series(1, ${ROWS}) as i`.execute(database.db);
  await sql`analyze ${sql.id('data', table.encodedName)}`.execute(database.db);
  await database.close();
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

async function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(repositoryRoot, 'apps/server/src/main.ts')], {
    cwd: repositoryRoot,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DEMO_DATA: 'false', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error('server exited before it was healthy');
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 250)); // polling the server's readiness
  }
  child.kill('SIGKILL');
  throw new Error('server did not become healthy');
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username', { exact: true }).fill(USER.username);
  await page.getByLabel('Password', { exact: true }).fill(USER.password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
  await page.waitForURL('**/app/home');
}

const gridState = (page: Page) =>
  page.getByTestId('data-grid').evaluate((el) => ({ loaded: Number(el.getAttribute('data-rows-loaded')), hasNext: el.getAttribute('data-has-next') === 'true' }));

/**
 * Phase 0: on the freshly opened grid, End (Ctrl+End): how long until the table's last row is on
 * screen, and how many page requests it took (one read from the end, not every page before it).
 */
async function jumpToEnd(page: Page): Promise<{ seconds: number; requests: number; lastRowId: string | null }> {
  let requests = 0;
  const count = (request: { url: () => string }) => {
    if (request.url().includes('/data/?')) requests++;
  };
  page.on('request', count);
  const grid = page.getByTestId('data-grid');
  const started = performance.now();
  await grid.focus();
  await page.keyboard.press('Control+End');
  await page.waitForFunction(() => {
    const element = document.querySelector('[data-testid="data-grid"]');
    const focused = element?.querySelector('[data-focused][data-row-id]');
    return Number(element?.getAttribute('data-tail-rows')) > 0 && focused !== null && focused !== undefined;
  }, undefined, { timeout: 60_000 });
  const seconds = (performance.now() - started) / 1000;
  page.off('request', count);
  const lastRowId = await grid.locator('[data-focused]').getAttribute('data-row-id');
  await page.keyboard.press('Control+Home');
  await grid.locator('[data-row-id]').first().waitFor();
  return { seconds, requests, lastRowId };
}

/**
 * Phase 1: scroll to the last loaded row again and again, as a user would, until no next page is
 * left. (The scrollbar spans the whole table; its bottom would read the last page directly.)
 */
async function loadEveryPage(page: Page): Promise<{ loaded: number; seconds: number; requests: number }> {
  let requests = 0;
  page.on('request', (request) => {
    if (request.url().includes('/data/?')) requests++;
  });
  const started = performance.now();
  for (;;) {
    const { loaded, hasNext } = await gridState(page);
    if (!hasNext) return { loaded, seconds: (performance.now() - started) / 1000, requests };
    await page.getByTestId('data-grid').evaluate((el, [rows, rowHeight]) => el.scrollTo({ top: rows * rowHeight - el.clientHeight }), [loaded, ROW_HEIGHT] as const);
    await page.waitForFunction(
      (before) => {
        const grid = document.querySelector('[data-testid="data-grid"]');
        return Number(grid?.getAttribute('data-rows-loaded')) > before || grid?.getAttribute('data-has-next') === 'false';
      },
      loaded,
      { timeout: 60_000 },
    );
  }
}

type ScrollFigures = { seconds: number; steps: number; longTasks: number[]; frames: number[]; domRows: number; slowFrames: string[]; scriptHeavyFrames: number[] };

/** Phase 2: top to bottom in steps of STEP_ROWS rows, two frames per step, observing long tasks. */
async function scrollTopToBottom(page: Page): Promise<ScrollFigures> {
  await page.getByTestId('data-grid').evaluate((el) => el.scrollTo({ top: 0 }));
  return page.getByTestId('data-grid').evaluate(async (el, stepPx) => {
    const longTasks: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push(entry.duration);
    });
    observer.observe({ type: 'longtask' });
    // Long animation frames say what ran: scripts (with their source) versus style and layout.
    const slowFrames: string[] = [];
    const scriptHeavyFrames: number[] = [];
    const frameObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { blockingDuration: number; renderStart: number; styleAndLayoutStart: number; scripts: { duration: number; invoker: string; sourceFunctionName: string; sourceURL: string; sourceCharPosition: number }[] })[]) {
        if (entry.duration < 50) continue;
        const scriptTime = entry.scripts.reduce((sum, script) => sum + script.duration, 0);
        if (scriptTime > 50) scriptHeavyFrames.push(scriptTime);
        const scripts = entry.scripts.map((s) => `${s.invoker} ${s.sourceFunctionName}@${s.sourceURL.split('/').pop()}:${s.sourceCharPosition} ${s.duration.toFixed(0)}ms`).join('; ');
        const layout = entry.startTime + entry.duration - entry.styleAndLayoutStart;
        slowFrames.push(`${entry.duration.toFixed(0)} ms (style+layout ${layout.toFixed(0)} ms) ${scripts}`);
      }
    });
    try {
      frameObserver.observe({ type: 'long-animation-frame' });
    } catch {
      // not supported
    }
    const frames: number[] = [];
    let last = 0;
    const nextFrame = () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame((now) => {
          if (last) frames.push(now - last);
          last = now;
          resolve();
        }),
      );
    await nextFrame();
    const started = performance.now();
    let steps = 0;
    let domRows = 0;
    while (el.scrollTop + el.clientHeight < el.scrollHeight - 1) {
      el.scrollTop += stepPx;
      steps++;
      await nextFrame();
      await nextFrame();
      domRows = Math.max(domRows, el.querySelectorAll('[data-row-id]').length);
    }
    const seconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 100)); // let the observer deliver the last entries
    observer.disconnect();
    frameObserver.disconnect();
    return { seconds, steps, longTasks, frames, domRows, slowFrames, scriptHeavyFrames };
  }, STEP_ROWS * ROW_HEIGHT);
}

const percentile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

if (!existsSync(path.join(repositoryRoot, 'apps/web/dist/index.html'))) {
  console.log('apps/web/dist is missing: building the web app first (npm run build)');
  execFileSync('npm', ['run', 'build'], { cwd: repositoryRoot, stdio: 'inherit' });
}
const dataDir = mkdtempSync(path.join(tmpdir(), 'stockwise-scroll-bench-'));
console.log(`Data screen scroll benchmark: ${ROWS.toLocaleString('en')} rows, UI page size ${PAGE_SIZE}, scroll steps of ${STEP_ROWS} rows`);
let server: { url: string; child: ChildProcess } | null = null;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: chromiumArgs });
try {
  const seedStart = performance.now();
  await seed(dataDir);
  console.log(`  seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  server = await startServer(dataDir);
  const register = await fetch(`${server.url}/api/accounts/register/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(USER) });
  if (!register.ok) throw new Error(`register: HTTP ${register.status}`);

  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1400, height: 900 } });
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  await signIn(page);
  await page.goto(`/app/datatab?table=${encodeURIComponent(TABLE)}&page_size=${PAGE_SIZE}`);
  await page.getByTestId('data-grid').locator('[data-row-id]').first().waitFor();
  const countText = (await page.getByTestId('row-count').textContent()) ?? '';

  const end = await jumpToEnd(page);
  console.log(`  End on a fresh grid: last row (id ${end.lastRowId}) on screen in ${end.seconds.toFixed(2)} s with ${end.requests} page request(s)`);
  const load = await loadEveryPage(page);
  console.log(`  loaded ${load.loaded.toLocaleString('en')} rows in ${load.seconds.toFixed(1)} s (${load.requests} page requests); count shown: "${countText}"`);
  const profiler = args.diagnose ? await page.context().newCDPSession(page) : null;
  if (profiler) {
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.start');
  }
  const scroll = await scrollTopToBottom(page);
  if (profiler) {
    const { profile } = await profiler.send('Profiler.stop');
    const interval = (profile.endTime - profile.startTime) / 1000 / Math.max(1, profile.samples?.length ?? 1);
    const self = new Map<string, number>();
    for (const node of profile.nodes) {
      const { functionName, url, lineNumber, columnNumber } = node.callFrame;
      const key = `${functionName || '(anonymous)'} ${url.split('/').pop() ?? ''}:${lineNumber}:${columnNumber}`;
      self.set(key, (self.get(key) ?? 0) + (node.hitCount ?? 0) * interval);
    }
    const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
    for (const [name, ms] of top) console.log(`  self ${ms.toFixed(0).padStart(6)} ms  ${name}`);
  }
  const over50 = scroll.longTasks.filter((d) => d > 50);
  const lines = [
    '| rows loaded | page size | scroll steps | total scroll time | long tasks > 50 ms | longest task | frames with > 50 ms of script | p95 frame | max frame | max rows in DOM |',
    '|---|---|---|---|---|---|---|---|---|---|',
    `| ${load.loaded.toLocaleString('en')} | ${PAGE_SIZE} | ${scroll.steps} × ${STEP_ROWS} rows | ${scroll.seconds.toFixed(1)} s | ${over50.length} | ${scroll.longTasks.length ? `${Math.max(...scroll.longTasks).toFixed(0)} ms` : 'none'} | ${scroll.scriptHeavyFrames.length} | ${percentile(scroll.frames, 0.95).toFixed(1)} ms | ${Math.max(0, ...scroll.frames).toFixed(1)} ms | ${scroll.domRows} |`,
  ];
  console.log(lines.join('\n'));
  const load1 = loadavg()[0] ?? 0;
  console.log(`  machine: ${cpus().length} cores, load average ${load1.toFixed(1)} at the end (other processes stretch tasks and frames)`);
  if (args.diagnose) for (const frame of scroll.slowFrames) console.log(`  slow frame: ${frame}`);
  if (load.loaded !== ROWS) console.log(`  NOTE: ${ROWS - load.loaded} rows were not reachable through next links (see the report).`);
  await context.close();
} finally {
  await browser.close();
  if (server) {
    const child = server.child;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  }
  rmSync(dataDir, { recursive: true, force: true });
}
