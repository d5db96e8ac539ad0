// The cost of reading the shop's time zone, which every request sent without `time_zone` pays once
// (http/viewer-day.ts, ADR 0173's amendment): one row by its key, on PGlite and on PostgreSQL.
//   TEST_DATABASE_URL=postgres://… node bench/shop-zone/read.ts [--reads 5000]
import { parseArgs } from 'node:util';
import { migrateToLatest, openDatabase } from '../../apps/server/src/db/database.ts';
import { shopTimeZone } from '../../apps/server/src/shop/service.ts';
import { createScratchDatabase } from '../../apps/server/src/testing/scratch-database.ts';

const { values } = parseArgs({ options: { reads: { type: 'string', default: '5000' } } });
const reads = Number(values.reads);

for (const kind of ['pglite-memory', ...(process.env.TEST_DATABASE_URL ? ['postgres' as const] : [])] as const) {
  const scratch = await createScratchDatabase(kind, { namePrefix: 'zone_read' });
  const database = await openDatabase(scratch.target);
  try {
    await migrateToLatest(database.db);
    await database.db.insertInto('shop_settings').defaultValues().execute();
    await database.db.updateTable('shop_settings').set({ time_zone: 'Pacific/Auckland' }).execute();
    for (let i = 0; i < 200; i++) await shopTimeZone(database.db);
    const started = performance.now();
    for (let i = 0; i < reads; i++) await shopTimeZone(database.db);
    console.log(`${kind}: ${(((performance.now() - started) / reads) * 1000).toFixed(0)} µs per read (${reads} reads, one after another)`);
  } finally {
    await database.close();
    await scratch.drop();
  }
}
