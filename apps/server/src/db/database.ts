// Opens the one database the product runs on: embedded PGlite (DATABASE_URL unset) or a
// PostgreSQL server. Both speak the same SQL; callers see one Kysely instance.
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { Database } from './schema.ts';
import { runCompiledOnPool } from './compiled.ts';
import { migrations } from './migrations/index.ts';
import { listenOnPglite, listenOnPostgres, type ChannelWatcher } from './notifications.ts';

/** `image`: a PGlite data directory (a tar, as dumpDataDir writes it) the database starts from instead of an empty one. */
export type DatabaseTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string | null; image?: Blob };

export type AppDatabase = {
  db: Kysely<Database>;
  target: DatabaseTarget;
  /** The embedded instance, when there is one (pg-boss needs it for its adapter). */
  pglite: PGlite | null;
  /** The PostgreSQL pool, when there is one (file import streams COPY through one of its clients). */
  pool: pg.Pool | null;
  /** Tells the watcher of the channel's notifications (LISTEN/NOTIFY) until the database closes. */
  listen(channel: string, watcher: ChannelWatcher): void;
  close(): Promise<void>;
};

// int8 ids and numeric columns as numbers, dates as 'YYYY-MM-DD' strings, identically on both drivers.
const INT8_OID = 20;
const NUMERIC_OID = 1700;
const DATE_OID = 1082;
const valueParsers: Record<number, (value: string) => unknown> = {
  [INT8_OID]: Number,
  [NUMERIC_OID]: Number,
  [DATE_OID]: (value) => value,
};

/** `applicationName`: how PostgreSQL lists the connections (pg_stat_activity), for a process that is not the server's own. */
export async function openDatabase(target: DatabaseTarget, options: { applicationName?: string } = {}): Promise<AppDatabase> {
  if (target.kind === 'pglite') {
    if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
    const pglite = await PGlite.create(target.dataDir ?? undefined, { parsers: valueParsers, extensions: { pg_trgm }, ...(target.image ? { loadDataDir: target.image } : {}) });
    const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
    const listeners: (() => Promise<void>)[] = [];
    return {
      db,
      target,
      pglite,
      pool: null,
      listen: (channel, watcher) => void listeners.push(listenOnPglite(pglite, channel, watcher)),
      close: async () => {
        await Promise.all(listeners.map((stop) => stop()));
        await db.destroy();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    ...(options.applicationName ? { application_name: options.applicationName } : {}),
    max: 10,
    // JIT compiles a statement whose estimated cost passes a threshold: a catalogue run's chunk reads
    // and its calendar's scan spent more compiling (up to 0.3 s per statement, in every parallel
    // worker) than the compiled code saved (docs/adr/0119).
    options: '-c jit=off',
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        valueParsers[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection can be ended by the server (restart, failover); the pool replaces it, and
  // without a listener the 'error' event would take the whole process down.
  pool.on('error', (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  runCompiledOnPool(db, pool);
  const listeners: (() => Promise<void>)[] = [];
  return {
    db,
    target,
    pglite: null,
    pool,
    listen: (channel, watcher) => void listeners.push(listenOnPostgres(target.url, channel, watcher)),
    close: async () => {
      await Promise.all(listeners.map((stop) => stop()));
      await db.destroy();
    },
  };
}

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

/** Migrations that exist in code but not in the database (CI fails on any). */
export async function pendingMigrations(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const all = await migrator.getMigrations();
  return all.filter((m) => !m.executedAt).map((m) => m.name);
}
