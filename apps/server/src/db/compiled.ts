// Statements of the hot read routes compiled once per shape (docs/adr/0081, 0082) and, on PostgreSQL,
// run straight on the driver's pool (docs/adr/0083): Kysely's executor wraps every statement in a
// connection provider, a connection object and a result object, about as much JavaScript per
// statement as the driver's own query. PGlite keeps Kysely's executor, whose lock orders the one
// session it shares with everything else.
import { isDeepStrictEqual } from 'node:util';
import { CompiledQuery, type Kysely } from 'kysely';
import type pg from 'pg';
import type { Database } from './schema.ts';

type Db = Kysely<Database>;

const pools = new WeakMap<Db, pg.Pool>();

/** Called by openDatabase: statements on `db` (not on its transactions) may take the pool directly. */
export const runCompiledOnPool = (db: Db, pool: pg.Pool) => void pools.set(db, pool);

// The key names everything that changes the text, the values are bound per request. The first
// compile of a shape checks that the values given are exactly the ones the builder binds, in order.
const compiledTexts = new WeakMap<Db, Map<string, string>>();
const MAX_COMPILED_SHAPES = 1000;

/**
 * Runs the statement `compile()` gives, compiled once per `shape` of a database, with `values` bound.
 * `prepared`: on PostgreSQL, a statement each connection parses and plans once, named by its shape
 * (for a large statement run again and again, where parsing and planning weigh; PostgreSQL switches
 * to a generic plan after five runs, so only for statements whose plan does not depend on the values).
 */
export async function executeCompiled<R>(db: Db, shape: string, values: readonly unknown[], compile: () => CompiledQuery<R>, options: { prepared?: boolean } = {}): Promise<R[]> {
  let texts = compiledTexts.get(db);
  if (!texts) compiledTexts.set(db, (texts = new Map()));
  let text = texts.get(shape);
  if (text === undefined) {
    const compiled = compile();
    if (!isDeepStrictEqual(compiled.parameters, values)) throw new Error(`Statement '${shape}': the values given are not the ones it binds.`);
    if (texts.size >= MAX_COMPILED_SHAPES) texts.clear();
    texts.set(shape, compiled.sql);
    text = compiled.sql;
  }
  const pool = pools.get(db);
  if (pool) return (await pool.query(options.prepared ? { name: shape, text, values: values as unknown[] } : { text, values: values as unknown[] })).rows as R[];
  return (await db.executeQuery<R>(CompiledQuery.raw(text, [...values]))).rows;
}

/**
 * Makes `db`'s pool hold at least `count` open connections, handed back idle (PostgreSQL; PGlite has
 * its one session). For work about to take both cores: a connection opened then (a backend process
 * started, its caches filled, while the cores are busy) kept the statement that asked for it waiting
 * 150–300 ms (docs/adr/0122).
 */
export async function openConnections(db: Db, count: number): Promise<void> {
  const pool = pools.get(db);
  if (!pool) return;
  const clients = await Promise.all(Array.from({ length: count }, () => pool.connect()));
  for (const client of clients) client.release();
}
