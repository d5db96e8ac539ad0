// One retry after a deadlock or serialization failure, then a 409 — against real databases.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientErrorOf } from '../http/errors.ts';
import { backends, databaseTargetFor, type Backend } from '../testing/test-server.ts';
import type { ScratchDatabase } from '../testing/scratch-database.ts';
import { openDatabase, type AppDatabase } from './database.ts';
import type { Database } from './schema.ts';
import { inTransaction } from './transaction.ts';

const raiseSerializationFailure = sql`do $$ begin raise exception 'could not serialize access' using errcode = 'serialization_failure'; end $$`;

/** A scratch database with two counters, for the tests of one describe block. */
function countersDatabase(backend: Backend): { db: () => Kysely<Database> } {
  let scratch: ScratchDatabase;
  let database: AppDatabase;
  beforeAll(async () => {
    scratch = await databaseTargetFor(backend);
    database = await openDatabase(scratch.target);
    await sql`create table counters (name text primary key, value integer not null)`.execute(database.db);
    await sql`insert into counters values ('a', 0), ('b', 0)`.execute(database.db);
  });
  afterAll(async () => {
    await database.close();
    await scratch.drop();
  });
  return { db: () => database.db };
}

describe.each(backends)('transactions on %s', (backend) => {
  const counters = countersDatabase(backend);

  it('runs a transaction again once after a serialization failure, and keeps only the second run', async () => {
    let attempts = 0;
    const result = await inTransaction(counters.db(), async (trx) => {
      attempts += 1;
      await sql`update counters set value = value + 1 where name = 'a'`.execute(trx);
      if (attempts === 1) await raiseSerializationFailure.execute(trx);
      return (await sql<{ value: number }>`select value from counters where name = 'a'`.execute(trx)).rows[0]?.value;
    });
    expect({ attempts, result }).toEqual({ attempts: 2, result: 1 });
  });

  it('gives up after the second failure with an error the handler answers as 409', async () => {
    let attempts = 0;
    const failure = await inTransaction(counters.db(), async (trx) => {
      attempts += 1;
      await raiseSerializationFailure.execute(trx);
    }).catch((error: unknown) => error);
    expect(attempts).toBe(2);
    const answer = clientErrorOf(failure);
    expect({ status: answer?.status, code: answer?.code }).toEqual({ status: 409, code: 'conflict' });
    expect(answer?.message).toBe('The database was busy with a conflicting change, and the request was not completed: try again.');
  });

});

// PGlite has one connection, so two transactions never run at once there.
describe.each(backends.filter((backend) => backend === 'postgres'))('deadlocks on %s', (backend) => {
  const counters = countersDatabase(backend);

  it('survives a real deadlock between two transactions: both complete', async () => {
    const db = counters.db();
    let arrived = 0;
    let release = () => {};
    const bothLocked = new Promise<void>((resolve) => (release = resolve));
    const meet = async () => {
      arrived += 1;
      if (arrived === 2) release();
      await bothLocked;
    };
    // Each locks one row, waits until the other has locked the other row, then wants it: PostgreSQL
    // ends one of them with 40P01, and inTransaction runs that one again. The second run waits for
    // the other transaction to finish first: on a loaded machine the retry's pause may not be enough
    // for the survivor to take its lock, and a second deadlock would be a 409, not this test's point.
    const finished: Promise<void>[] = [];
    const crosswise = (first: string, second: string, other: () => Promise<void> | undefined) => {
      let runs = 0;
      return inTransaction(db, async (trx) => {
        runs += 1;
        if (runs === 2) await other();
        await sql`update counters set value = value + 10 where name = ${first}`.execute(trx);
        if (runs === 1) await meet();
        await sql`update counters set value = value + 10 where name = ${second}`.execute(trx);
      });
    };
    const before = (await sql<{ name: string; value: number }>`select name, value from counters order by name`.execute(db)).rows;
    finished.push(crosswise('a', 'b', () => finished[1]), crosswise('b', 'a', () => finished[0]));
    await Promise.all(finished);
    const after = (await sql<{ name: string; value: number }>`select name, value from counters order by name`.execute(db)).rows;
    expect(after).toEqual(before.map((row) => ({ ...row, value: row.value + 20 })));
  });
});
