// Throwaway databases for tests and benchmarks: PGlite in memory (empty, or migrated from the image
// of migrated-image.ts) or in a temporary data directory, or a fresh database on a PostgreSQL server.
// `env` starts a server process on the same database.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseTarget } from '../db/database.ts';
import { migratedPgliteImage } from './migrated-image.ts';

export type ScratchDatabase = { target: DatabaseTarget; env: Record<string, string>; drop(): Promise<void> };

export async function createScratchDatabase(
  kind: 'pglite-memory' | 'pglite-memory-migrated' | 'pglite-disk' | 'postgres',
  options: { adminUrl?: string; namePrefix?: string } = {},
): Promise<ScratchDatabase> {
  if (kind === 'pglite-memory') return { target: { kind: 'pglite', dataDir: null }, env: {}, drop: async () => {} };
  if (kind === 'pglite-memory-migrated') return { target: { kind: 'pglite', dataDir: null, image: await migratedPgliteImage() }, env: {}, drop: async () => {} };
  if (kind === 'pglite-disk') {
    const dataDir = mkdtempSync(path.join(tmpdir(), `${options.namePrefix ?? 'stockwise'}-`));
    return { target: { kind: 'pglite', dataDir }, env: { DATA_DIR: dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const adminUrl = options.adminUrl ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('A PostgreSQL scratch database needs an admin connection URL');
  const name = `${(options.namePrefix ?? 'stockwise').replaceAll('-', '_')}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    target: { kind: 'postgres', url: url.toString() },
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      // The report login role of migration 0040 belongs to the server, not the database.
      await client.query(`drop role if exists ${name}_report`);
      await client.end();
    },
  };
}

/** True when a PostgreSQL server answers at the URL (benchmarks skip it otherwise). */
export async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
