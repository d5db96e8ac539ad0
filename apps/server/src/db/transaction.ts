// Transactions that survive one deadlock or serialization failure: the whole transaction is run
// again once (safe, because it rolled back entirely and its work is all inside `work`), and a second
// failure reaches the error handler, which answers 409. Work with effects outside the database
// (sending a job, writing a file) must not run in here.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';
import { isTransientConflict } from './errors.ts';

/**
 * A short random pause before the retry: run at once, it can take the row lock the surviving
 * transaction was just woken up to take, and deadlock with it again.
 */
const RETRY_PAUSE_MS = { min: 20, spread: 80 };

/** Runs `attempt`; after a deadlock or serialization failure runs it once more. */
export async function retryingOnce<T>(attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!isTransientConflict(error)) throw error;
    await sleep(RETRY_PAUSE_MS.min + Math.random() * RETRY_PAUSE_MS.spread);
    return attempt();
  }
}

export const inTransaction = <T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> =>
  retryingOnce(() => db.transaction().execute(work));
