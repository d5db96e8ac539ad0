// Real servers for integration tests: an in-memory PGlite always, and a fresh PostgreSQL database
// per server when TEST_DATABASE_URL is set (CI sets it). Each server listens on a loopback port.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { Role } from '@stockwise/contract';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db/database.ts';
import { loadConfig, type ServerConfig } from '../environment.ts';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database.ts';
import { startServer, type RunningServer } from '../server.ts';

export type Backend = 'pglite' | 'postgres';

/** The backends integration tests run against. */
export const backends: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** A scratch database of the backend; on PGlite already migrated (a server's start checks that). */
export async function databaseTargetFor(backend: Backend, namePrefix = 'stockwise_test'): Promise<ScratchDatabase> {
  return createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-memory-migrated', { namePrefix });
}

/**
 * A scratch database of the backend, migrated, for the tests of the describe block that calls this
 * (tests of the database alone): opened before them, closed and dropped after them.
 */
export function useMigratedDatabase(backend: Backend, namePrefix: string): () => AppDatabase {
  let opened: { database: AppDatabase; drop(): Promise<void> } | null = null;
  beforeAll(async () => {
    const scratch = await databaseTargetFor(backend, namePrefix);
    opened = { database: await openDatabase(scratch.target), drop: scratch.drop };
    await migrateToLatest(opened.database.db);
  });
  afterAll(async () => {
    await opened?.database.close();
    await opened?.drop();
  });
  return () => {
    if (!opened) throw new Error('The scratch database is opened before the tests run.');
    return opened.database;
  };
}

type RequestOptions = { method?: string; body?: unknown; token?: string; headers?: Record<string, string> };
export type TestResponse = { status: number; headers: Headers; text: string; json: Record<string, unknown> };

async function request(baseUrl: string, path: string, options: RequestOptions = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${baseUrl}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? null : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // Not JSON (the web app, the docs page): tests read `text`.
  }
  return { status: response.status, headers: response.headers, text, json };
}

export type TestServer = RunningServer & { config: ServerConfig; request(path: string, options?: RequestOptions): Promise<TestResponse> };

export async function startTestServer(backend: Backend, env: Record<string, string> = {}): Promise<TestServer> {
  const database = await databaseTargetFor(backend);
  const config: ServerConfig = {
    ...loadConfig({ PORT: '0', LOG_LEVEL: 'silent', DEMO_DATA: 'false', ...env }),
    database: database.target,
  };
  const server = await startServer(config);
  return {
    ...server,
    config,
    request: (path, options) => request(server.url, path, options),
    stop: async () => {
      // The tests are over: a response body a test left unread holds its connection open, and the
      // server's close waited for it for over a minute (the order list's xlsx download).
      server.app.server.closeAllConnections();
      await server.stop();
      await database.drop();
    },
  };
}

let userCounter = 0;

/**
 * Registers a fresh, uniquely named user, gives it `role` (admin unless told otherwise; a factory
 * writes the role directly, as an administrator's approval would) and signs it in.
 */
export async function signUpUser(server: TestServer, options: { role?: Role } = {}) {
  userCounter += 1;
  const username = `user_${process.pid}_${userCounter}_${randomBytes(3).toString('hex')}`;
  const password = `Correct horse ${randomBytes(4).toString('hex')}`;
  const registered = await server.request('/api/accounts/register/', { body: { username, password } });
  if (registered.status !== 201) throw new Error(`registration failed: ${registered.text}`);
  const role = options.role ?? 'admin';
  await server.database.db.updateTable('users').set({ role }).where('id', '=', registered.json.id as number).execute();
  const signedIn = await server.request('/api/token/', { body: { username, password } });
  if (signedIn.status !== 200) throw new Error(`sign-in failed: ${signedIn.text}`);
  return { username, password, role, id: registered.json.id as number, access: signedIn.json.access as string, refresh: signedIn.json.refresh as string };
}

/**
 * A test server on `backend` for the describe block it is called in, started before its tests and
 * stopped after them, with a signed-in user of `role`: `server()` and `user()` read them.
 */
export function useServerWithUser(backend: Backend, role: Role) {
  let server: TestServer | undefined;
  let user: Awaited<ReturnType<typeof signUpUser>> | undefined;
  beforeAll(async () => {
    server = await startTestServer(backend);
    user = await signUpUser(server, { role });
  });
  afterAll(() => server?.stop());
  return { server: () => startedInBeforeAll(server), user: () => startedInBeforeAll(user) };
}

/** What a describe block's beforeAll started, read by its tests (which run after it). */
export function startedInBeforeAll<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('This is started in beforeAll, before the tests run.');
  return value;
}

/** An administrator's, an editor's and a viewer's access tokens, for a route's role checks. */
export async function signUpEachRole(server: TestServer): Promise<Record<Exclude<Role, 'pending'>, string>> {
  return { admin: (await signUpUser(server)).access, editor: (await signUpUser(server, { role: 'editor' })).access, viewer: (await signUpUser(server, { role: 'viewer' })).access };
}
