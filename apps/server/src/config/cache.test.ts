// The configuration cache (docs/adr/0081): every change of the database overlay reaches every
// instance, whoever made it, and a lost listening connection never leaves an instance on a stale copy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startServer, type RunningServer } from '../server.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { CONFIG_CHANGED_CHANNEL } from './cache.ts';

type Entities = { name: string; key: string[] }[];

/** Asks until `check` holds (a notification is asynchronous), at most two seconds. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + 2000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('not within 2 s');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(backends)('configuration cache on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server)).access;
  });
  afterAll(() => server.stop());

  const entitiesOf = async (url: string) => {
    const response = await fetch(`${url}/api/yaml/config/`, { headers: { authorization: `Bearer ${token}` } });
    return ((await response.json()) as { content: { inventory: { entities: Entities } } }).content.inventory.entities;
  };
  const keyOf = async (url: string, name: string) => (await entitiesOf(url)).find((entity) => entity.name === name)?.key;

  it('sees a change written with plain SQL, past the API', async () => {
    expect(await keyOf(server.url, 'sql_written')).toBeUndefined();
    await server.database.db
      .insertInto('config_entities')
      .values({ name: 'sql_written', config: JSON.stringify({ table: 'products', key: ['product_code'] }) })
      .execute();
    await eventually(async () => (await keyOf(server.url, 'sql_written'))?.[0] === 'product_code');
    await server.database.db.deleteFrom('config_entities').where('name', '=', 'sql_written').execute();
    await eventually(async () => (await keyOf(server.url, 'sql_written')) === undefined);
  });

  // Several instances and a connection to lose exist on PostgreSQL only (PGlite lives in one process).
  if (backend !== 'postgres') return;

  it('shows an update made through another instance', async () => {
    const other: RunningServer = await startServer(server.config);
    try {
      expect(await keyOf(other.url, 'from_elsewhere')).toBeUndefined();
      expect(await keyOf(server.url, 'from_elsewhere')).toBeUndefined();
      const update = await fetch(`${other.url}/api/yaml/update-entity/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ entity_name: 'from_elsewhere', config: { table: 'sales', key: ['product_id', 'date'] } }),
      });
      expect(update.status).toBe(200);
      // The instance that wrote answers from the new state at once; the other one when notified.
      expect(await keyOf(other.url, 'from_elsewhere')).toEqual(['product_id', 'date']);
      await eventually(async () => (await keyOf(server.url, 'from_elsewhere'))?.length === 2);
    } finally {
      await other.stop();
    }
  });

  it('reads the database while its listening connection is down, and listens again', async () => {
    const listener = () =>
      sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and application_name = ${`stockwise listen ${CONFIG_CHANGED_CHANNEL}`}`.execute(server.database.db);
    await eventually(async () => (await listener()).rows.length === 1);
    expect(await keyOf(server.url, 'while_down')).toBeUndefined();
    const [connection] = (await listener()).rows;
    await sql`select pg_terminate_backend(${connection?.pid})`.execute(server.database.db);
    await server.database.db
      .insertInto('config_entities')
      .values({ name: 'while_down', config: JSON.stringify({ table: 'products', key: ['product_code'] }) })
      .execute();
    await eventually(async () => (await keyOf(server.url, 'while_down'))?.[0] === 'product_code');
    await eventually(async () => (await listener()).rows.some((row) => row.pid !== connection?.pid));
    await server.database.db.deleteFrom('config_entities').where('name', '=', 'while_down').execute();
    await eventually(async () => (await keyOf(server.url, 'while_down')) === undefined);
  });
});
