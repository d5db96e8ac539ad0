// Transactions that survive one deadlock or serialization failure: the whole transaction is run
// again once (safe, because it rolled back entirely and its work is all inside `work`), and a second
// failure reaches the error handler, which answers 409. Work with effects outside the database
// (sending a job, writing a file) must not run in here.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';
import { isTransientConflict } from './errors.ts';

/** Runs `attempt`; after a deadlock or serialization failure runs it once more. */
export async function retryingOnce<T>(attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!isTransientConflict(error)) throw error;
    return attempt();
  }
}

export const inTransaction = <T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> =>
  retryingOnce(() => db.transaction().execute(work));
