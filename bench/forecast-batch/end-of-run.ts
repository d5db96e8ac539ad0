// The catalogue summary a whole-catalogue run ends with (refreshCatalogueSummary), timed alone on a
// catalogue kept by run.ts after a run, for one checkout or several alternating (ADR 0112, 2026-11-24
// amendment): the threads are idle while it runs, so its wall time is the run's.
//   node bench/forecast-batch/end-of-run.ts --generated-url postgres://…/db [--roots /path/a,/path/b] [--repeats 5]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const { values: args } = parseArgs({
  options: {
    'generated-url': { type: 'string' },
    // Checkouts whose apps/server is timed; default this one.
    roots: { type: 'string', default: fileURLToPath(new URL('../..', import.meta.url)) },
    repeats: { type: 'string', default: '5' },
  },
});
if (!args['generated-url']) throw new Error('--generated-url of a catalogue kept by run.ts (after a run) is required');

type Checkout = { root: string; refresh(db: unknown, taskId?: string): Promise<void>; close(): Promise<void>; db: unknown };

async function checkoutOf(root: string): Promise<Checkout> {
  const database = await import(`${root}/apps/server/src/db/database.ts`);
  const dashboard = await import(`${root}/apps/server/src/dashboard/repo.ts`);
  const opened = await database.openDatabase({ kind: 'postgres', url: args['generated-url'] });
  return { root, db: opened.db, refresh: dashboard.refreshCatalogueSummary, close: () => opened.close() };
}

const checkouts = await Promise.all(args.roots.split(',').map(checkoutOf));
const { sql } = await import('kysely');
const task = await sql<{ id: string }>`select id from forecast_tasks where style_code is null and status = 'completed' order by created_at desc limit 1`.execute(checkouts[0]!.db as never);
const taskId = task.rows[0]?.id;
if (!taskId) throw new Error('no completed catalogue run in that database');

const times = new Map<string, number[]>(checkouts.map((c) => [c.root, []]));
for (let repeat = 0; repeat < Number(args.repeats); repeat++) {
  for (const checkout of checkouts) {
    const started = performance.now();
    await checkout.refresh(checkout.db, taskId);
    times.get(checkout.root)!.push(performance.now() - started);
  }
}
console.log(`load (1 min) ${loadavg()[0]!.toFixed(1)}`);
console.log('| checkout | refreshCatalogueSummary ms (each repeat) | median |');
console.log('|---|---|---|');
for (const [root, samples] of times) {
  const median = [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
  console.log(`| ${root} | ${samples.map((ms) => ms.toFixed(0)).join(', ')} | ${median.toFixed(0)} |`);
}
await Promise.all(checkouts.map((c) => c.close()));
