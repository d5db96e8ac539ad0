// Statements compiled once per shape (compiled.ts): prepared ones are parsed and planned once per
// connection on PostgreSQL, and answer the same on both drivers; a pool's connections opened ahead.
import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { backends, useMigratedDatabase } from '../testing/test-server.ts';
import { executeCompiled, openConnections } from './compiled.ts';

describe.each(backends)('compiled statements on %s', (backend) => {
  const database = useMigratedDatabase(backend, 'stockwise-compiled');

  it('runs a prepared statement again with other values, prepared once on PostgreSQL', async () => {
    const { db, pool } = database();
    const doubled = (value: number) => executeCompiled<{ doubled: number }>(db, 'test|doubled', [value], () => CompiledQuery.raw('select $1::int * 2 as doubled', [value]), { prepared: true });
    expect(await doubled(2)).toEqual([{ doubled: 4 }]);
    expect(await doubled(21)).toEqual([{ doubled: 42 }]);
    if (backend === 'postgres' && pool) {
      // One connection at a time: the pool hands back the connection that ran the statement.
      const { rows } = await pool.query<{ statement: string }>("select statement from pg_prepared_statements where name = 'test|doubled'");
      expect(rows).toEqual([{ statement: 'select $1::int * 2 as doubled' }]);
    } else {
      expect(pool).toBeNull();
    }
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });
});

describe.each(backends)('connections opened ahead on %s', (backend) => {
  const database = useMigratedDatabase(backend, 'stockwise-connections');

  it('leaves the pool holding that many open connections, idle, and statements run as before', async () => {
    const { db, pool } = database();
    await openConnections(db, 3);
    if (backend === 'postgres' && pool) {
      expect(pool.totalCount).toBeGreaterThanOrEqual(3);
      expect(pool.idleCount).toBe(pool.totalCount);
    } else {
      expect(pool).toBeNull();
    }
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });
});
