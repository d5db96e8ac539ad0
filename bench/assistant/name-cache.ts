// The assistant's product-name words and phrases kept per catalogue state (plain-words/vocabulary.ts
// productNames) on 20,000 products with names of 4-5 words (the names of name-phrases.sql): a
// question when the names changed since the last one (read again, as every question was before the
// cache) against one when they did not (only the names' key is read), for productNames alone and for
// a whole built-in answer. PostgreSQL at BENCH_DATABASE_URL (default: the local server), and PGlite.
//   flock /tmp/heavy.lock bash scripts/with-node24.sh node bench/assistant/name-cache.ts [--products 20000] [--runs 7]
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { migrateToLatest, openDatabase } from '../../apps/server/src/db/database.ts';
import type { Database } from '../../apps/server/src/db/schema.ts';
import { createScratchDatabase } from '../../apps/server/src/testing/scratch-database.ts';
import { productNames } from '../../apps/server/src/plain-words/vocabulary.ts';
import { answerText } from '../../apps/server/src/assistant/answers.ts';

const { values: args } = parseArgs({ options: { products: { type: 'string', default: '20000' }, runs: { type: 'string', default: '7' } } });
const PRODUCTS = Number(args.products);
const RUNS = Number(args.runs);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const QUESTION = 'how many snow shovels did we sell last month';

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;
const ms = async (work: () => Promise<unknown>) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};

/** A rename that changes the names' key, as a Data screen edit or an import does: the next read is a miss. */
let renames = 0;
const rename = (db: Kysely<Database>) => sql`update data.products set name = ${`Snow Shovel Model${(renames += 1)}`} where id = 1`.execute(db);

async function measure(kind: 'postgres' | 'pglite-memory'): Promise<void> {
  const scratch = await createScratchDatabase(kind, { adminUrl: postgresUrl, namePrefix: 'name_cache_bench' });
  const database = await openDatabase(scratch.target);
  try {
    const db = database.db;
    await migrateToLatest(db);
    await sql`insert into data.products (product_code, name, current_stock, unit_cost, lead_time_days)
      select 'P-' || lpad(i::text, 5, '0'),
        initcap((array['snow','ice','pressure','stainless','garden','kitchen','copper','brass','oak','pine','steel','glass'])[1 + (i*7) % 12]) || ' ' ||
        initcap((array['treated','heavy','light','classic','premium','outdoor','indoor','large','small','round'])[1 + (i*3) % 10]) || ' ' ||
        initcap((array['shovel','lumber','screw','hinge','post','brush','melt','mug','pan','hook','rake','hose'])[1 + (i*11) % 12]) || ' ' || (i % 97)::text || 'pk ' || 'Model' || (i % 1000)::text,
        0, 1, 7
      from generate_series(1, ${PRODUCTS}) i`.execute(db);
    await sql`analyze data.products`.execute(db);
    const today = new Date().toISOString().slice(0, 10);
    // Warm both paths once (the statements' plans, the JIT-free first run).
    await productNames(db);
    await answerText(db, QUESTION, today);
    const sample = async (miss: boolean, work: () => Promise<unknown>) => {
      const runs: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        if (miss) await rename(db);
        runs.push(await ms(work));
      }
      return median(runs);
    };
    const rows = [
      ['productNames, names changed (read again: every question before)', await sample(true, () => productNames(db))],
      ['productNames, names unchanged (the key only)', await sample(false, () => productNames(db))],
      [`answer "${QUESTION}", names changed`, await sample(true, () => answerText(db, QUESTION, today))],
      [`answer "${QUESTION}", names unchanged`, await sample(false, () => answerText(db, QUESTION, today))],
    ] as const;
    console.log(`\n${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${PRODUCTS} products, median of ${RUNS} runs (ms)`);
    for (const [what, median] of rows) console.log(`| ${what} | ${median.toFixed(1)} |`);
  } finally {
    await database.close();
    await scratch.drop();
  }
}

await measure('postgres');
await measure('pglite-memory');
