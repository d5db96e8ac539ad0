// A migration test's database: a scratch database of its own on the backend, opened before the
// tests of the describe block that calls it and closed and dropped after them.
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, type AppDatabase } from '../db/database.ts';
import { createScratchDatabase } from './scratch-database.ts';
import type { Backend } from './test-server.ts';

/** The open database, once the block's tests run. */
export function migrationDatabase(backend: Backend, namePrefix: string): () => AppDatabase {
  let database: AppDatabase | null = null;
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const scratch = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-memory', { namePrefix });
    drop = scratch.drop;
    database = await openDatabase(scratch.target);
  });
  afterAll(async () => {
    await database?.close();
    await drop();
  });
  return () => {
    if (!database) throw new Error('The migration test database is not open yet.');
    return database;
  };
}
