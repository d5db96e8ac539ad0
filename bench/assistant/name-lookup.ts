// What reading names with hyphens, apostrophes and odd white space costs the assistant at 20,000
// products (ADR 0189, amendments 2026-12-06 (5) and (6)): the name-word cache's read after the names
// changed (plain-words/vocabulary.ts productNames) and the pick of the products a question names by
// their whole name (assistant/repo.ts productsNamedIn), for each source tree given, on the same
// database, the trees taking turns run by run. Two catalogues: plain names (those of name-cache.ts)
// and names of which a third are joined by hyphens, a sixth hold an apostrophe and a tenth have
// doubled or leading white space. PostgreSQL at BENCH_DATABASE_URL (default: the local server), and
// PGlite. A reference tree is an extracted commit beside this one (its node_modules a link to this
// tree's), e.g.:
//   mkdir -p /tmp/ref && git archive 8f9f8084 apps/server packages | tar -x -C /tmp/ref && ln -s "$PWD/node_modules" /tmp/ref/node_modules
//   flock /tmp/heavy.lock bash scripts/with-node24.sh node bench/assistant/name-lookup.ts --tree base=/tmp/ref [--products 20000] [--runs 7]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { migrateToLatest, openDatabase } from '../../apps/server/src/db/database.ts';
import type { Database } from '../../apps/server/src/db/schema.ts';
import { createScratchDatabase } from '../../apps/server/src/testing/scratch-database.ts';

const { values: args } = parseArgs({ options: { products: { type: 'string', default: '20000' }, runs: { type: 'string', default: '7' }, tree: { type: 'string', multiple: true, default: [] } } });
const PRODUCTS = Number(args.products);
const RUNS = Number(args.runs);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const QUESTION = 'how many crew t-shirts did we sell last month';

type Tree = { label: string; productNames: (db: Kysely<Database>) => Promise<unknown>; productsNamedIn: (db: Kysely<Database>, text: string) => Promise<unknown[]> };
const load = async (label: string, root: string): Promise<Tree> => ({
  label,
  productNames: (await import(resolve(root, 'apps/server/src/plain-words/vocabulary.ts'))).productNames,
  productsNamedIn: (await import(resolve(root, 'apps/server/src/assistant/repo.ts'))).productsNamedIn,
});
const trees = [...(await Promise.all((args.tree as string[]).map((each) => load(each.split('=')[0] as string, each.split('=').slice(1).join('='))))), await load('this', resolve(import.meta.dirname, '../..'))];

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;
const ms = async (work: () => Promise<unknown>) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};

const word = (list: string, at: string) => `(array[${list
  .split(' ')
  .map((each) => `'${each.replace(/'/g, "''")}'`)
  .join(',')}])[1 + (${at}) % ${list.split(' ').length}]`;
/** The names of name-cache.ts: four words and a model, letters only but for the pack size. */
const PLAIN = `initcap(${word('snow ice pressure stainless garden kitchen copper brass oak pine steel glass', 'i*7')}) || ' ' ||
  initcap(${word('treated heavy light classic premium outdoor indoor large small round', 'i*3')}) || ' ' ||
  initcap(${word('shovel lumber screw hinge post brush melt mug pan hook rake hose', 'i*11')}) || ' ' || (i % 97)::text || 'pk ' || 'Model' || (i % 1000)::text`;
/** A boutique's: a third with a word joined by hyphens, a sixth with an apostrophe, a tenth with doubled or leading white space. */
const JOINED = `(case when i % 10 = 0 then ' ' else '' end) ||
  initcap(${word('crew v-neck linen-blend merino cotton slim-fit oversized organic roll-neck striped', 'i*7')}) || (case when i % 10 = 5 then '  ' else ' ' end) ||
  (case when i % 3 = 0 then ${word("T-Shirt Polo-Shirt Hoodie-Dress Tank-Top Pull-On", 'i*11')} when i % 6 = 1 then ${word("Men's Women's Kids' Children's", 'i*5')} || ' ' || initcap(${word('jumper cardigan shirt sock', 'i*13')}) else initcap(${word('jumper cardigan shirt sock scarf glove', 'i*13')}) end) || ' ' || (array['XS','S','M','L','XL'])[1 + i % 5] || ' Model' || (i % 1000)::text`;

let renames = 0;
/** A rename that changes the names' key, as a Data screen edit or an import does: the next read of the words is a miss. */
const rename = (db: Kysely<Database>) => sql`update data.products set name = ${`Crew T-Shirt Model${(renames += 1)}`} where id = 1`.execute(db);

async function measure(kind: 'postgres' | 'pglite-memory', catalogue: 'plain' | 'joined'): Promise<void> {
  const scratch = await createScratchDatabase(kind, { adminUrl: postgresUrl, namePrefix: 'name_lookup_bench' });
  const database = await openDatabase(scratch.target);
  try {
    const db = database.db;
    await migrateToLatest(db);
    await sql`insert into data.products (product_code, name, current_stock, unit_cost, lead_time_days)
      select 'P-' || lpad(i::text, 5, '0'), ${sql.raw(catalogue === 'plain' ? PLAIN : JOINED)}, 0, 1, 7 from generate_series(1, ${PRODUCTS}) i`.execute(db);
    // The product the question names, by its whole name in the other number (found by "this" only, where joined words have numbers).
    await sql`insert into data.products (product_code, name, current_stock, unit_cost, lead_time_days) values ('CT-1', 'Crew T-Shirt', 0, 1, 7)`.execute(db);
    await sql`analyze data.products`.execute(db);
    const samples = new Map<string, number[]>();
    const add = (key: string, value: number) => samples.set(key, [...(samples.get(key) ?? []), value]);
    // A warm-up round (plans, caches), then RUNS rounds, the trees taking turns in each.
    for (let run = 0; run <= RUNS; run++) {
      for (const tree of trees) {
        await rename(db);
        const read = await ms(() => tree.productNames(db));
        const pick = await ms(() => tree.productsNamedIn(db, QUESTION));
        if (run > 0) {
          add(`names|${tree.label}`, read);
          add(`pick|${tree.label}`, pick);
        }
      }
    }
    const named = await Promise.all(trees.map(async (tree) => `${(await tree.productsNamedIn(db, QUESTION)).length} (${tree.label})`));
    console.log(`\n${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${PRODUCTS} products, ${catalogue} names, median of ${RUNS} runs (ms); products "${QUESTION}" names: ${named.join(', ')}`);
    console.log(`| measure | ${trees.map((tree) => tree.label).join(' | ')} |`);
    console.log(`|---|${trees.map(() => '---|').join('')}`);
    for (const [what, key] of [['productNames, names changed', 'names'], ['productsNamedIn', 'pick']] as const) console.log(`| ${what} | ${trees.map((tree) => median(samples.get(`${key}|${tree.label}`) ?? []).toFixed(1)).join(' | ')} |`);
  } finally {
    await database.close();
    await scratch.drop();
  }
}

for (const kind of ['postgres', 'pglite-memory'] as const) for (const catalogue of ['plain', 'joined'] as const) await measure(kind, catalogue);
