// The report sandbox against hostile SQL, on both database modes: every statement refused or cut
// with a clear error (never a 5xx), nothing secret in any answer, every table unchanged, and on
// PostgreSQL the report login itself holding the wall when the parser gate is taken away.
import fc from 'fast-check';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { loadReportFixture } from './fixtures.test-data.ts';
import { forbiddenCalls, forbiddenStatements, forbiddenTables, hostileStatements } from './hostile-sql.test-data.ts';
import { checkReportSql, loadSqlParser, SandboxRefusal } from './sandbox/gate.ts';

const TIMEOUT_MS = 2000;
const slowQuery = (rows: number) => `select x, md5(repeat(x::text, 10000)) as h from generate_series(1, ${rows}) x where md5(repeat(x::text, 10000)) like '0%'`;
const SLOW_ROWS = 200_000;
const SLOW_QUERY = slowQuery(SLOW_ROWS);
/** The part of SLOW_QUERY timed to tell how long the whole would run on this machine now (its first rows: the cheapest, so never an overestimate). */
const SAMPLE_ROWS = SLOW_ROWS / 50;

type Execute = { success: boolean; error: string | null; results: Record<string, unknown>[] };

async function tableChecksums(server: TestServer): Promise<Record<string, string>> {
  const { rows: tables } = await sql<{ name: string }>`
    select quote_ident(n.nspname) || '.' || quote_ident(c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname in ('public', 'data') order by 1`.execute(server.database.db);
  const sums: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ sum: string | null }>`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from ${sql.raw(name)} t`.execute(server.database.db);
    sums[name] = rows[0]?.sum ?? '';
  }
  return sums;
}

describe.each(backends)('report sandbox against hostile SQL on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let before: Record<string, string>;
  const execute = async (sqlCode: string, accessToken = token) => {
    const response = await server.request('/api/user-reports/execute/', { token: accessToken, body: { sql_code: sqlCode } });
    expect(response.status, `${sqlCode} → ${response.text}`).toBeLessThan(500);
    expect(response.text).not.toContain('$argon2id$');
    return response;
  };
  const expectRefused = async (sqlCode: string) => {
    const response = await execute(sqlCode);
    if (response.status === 200) {
      const body = response.json as unknown as Execute;
      expect(body.success, `${sqlCode} was answered: ${response.text.slice(0, 300)}`).toBe(false);
      expect(body.error).toMatch(/\w{4,}/);
    } else {
      expect([400, 429]).toContain(response.status);
    }
  };

  beforeAll(async () => {
    server = await startTestServer(backend, { REPORT_TIMEOUT_MS: String(TIMEOUT_MS) });
    token = (await signUpUser(server, { role: 'viewer' })).access;
    await loadReportFixture(server.database.db);
    await loadSqlParser();
    before = await tableChecksums(server);
  });
  afterAll(() => server.stop());

  it(`refuses or cuts each of ${hostileStatements.length} hostile statements with a clear error`, async () => {
    expect(hostileStatements.length).toBeGreaterThanOrEqual(60);
    for (const { sql: statement } of hostileStatements) await expectRefused(statement);
  });

  it('refuses generated variations (case, comments, quoting, unicode escapes, nesting)', async () => {
    const word = (text: string) =>
      fc.constantFrom(text, text.toUpperCase(), text.replace(/(^|_)(\w)/g, (_m, p: string, c: string) => p + c.toUpperCase()));
    const gap = fc.constantFrom(' ', '\n', ' /**/ ', ' /* x /* y */ z */ ', ' --c\n', '\t');
    const table = fc.constantFrom(...forbiddenTables).chain((name) =>
      fc.constantFrom(
        name,
        name.split('.').map((part) => `"${part}"`).join('.'),
        name.split('.').map((part) => `U&"${[...part].map((c) => `\\${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`).join('.'),
      ),
    );
    const hostile = fc.oneof(
      fc.tuple(word('select'), gap, word('from'), gap, table).map(([s, g1, f, g2, t]) => `${s}${g1}*${g2}${f} ${t}`),
      fc.tuple(gap, table).map(([g, t]) => `with x as (select * from${g}${t}) select * from x`),
      fc.tuple(gap, table).map(([g, t]) => `select * from products where id in (select id from${g}${t})`),
      fc.tuple(gap, fc.constantFrom(...forbiddenCalls)).map(([g, call]) => `select${g}${call}`),
      fc.tuple(gap, fc.constantFrom(...forbiddenCalls)).map(([g, call]) => `select * from products where${g}${call} is not null`),
      fc.tuple(gap, fc.constantFrom(...forbiddenStatements)).map(([g, statement]) => `select 1;${g}${statement}`),
      fc.constantFrom(...forbiddenStatements).map((statement) => `with x as (${statement} returning 1) select * from x`),
    );
    const readable = { byName: new Map([['products', 'products'], ['sales', 'sales']]), tables: new Set(['products', 'sales']) };
    // The gate itself over many variations (fast), then a sample through the API.
    fc.assert(
      fc.property(hostile, (statement) => {
        expect(() => checkReportSql(statement, { readable, embedded: backend === 'pglite' })).toThrow(SandboxRefusal);
      }),
      { numRuns: 500 },
    );
    for (const statement of fc.sample(hostile, { numRuns: 40, seed: 12 })) await expectRefused(statement);
  });

  it('leaves every table unchanged', async () => {
    expect(await tableChecksums(server)).toEqual(before);
  });

  // Wall-clock bounds measured against this machine as it is now (CI runs suites side by side, at
  // loads of 15 and more): what the timeout must achieve is that a query which would run far longer is
  // stopped far sooner, at its deadline counted from when the request came in, while other requests
  // are answered — not that a loaded machine answers within a fixed second of it.
  it('cancels four slow queries at once, far before they would end and together, while the API keeps answering', async () => {
    const users = await Promise.all([1, 2, 3, 4].map(() => signUpUser(server, { role: 'viewer' })));
    // How long SLOW_QUERY would run uncut, here and now: its first fiftieth, run as the app (no timeout), times fifty.
    const sampleStarted = performance.now();
    await sql.raw(`select count(*) from (${slowQuery(SAMPLE_ROWS)}) s`).execute(server.database.db);
    const naturalMs = (performance.now() - sampleStarted) * (SLOW_ROWS / SAMPLE_ROWS);
    // The test's premise: uncut, each would run several timeouts long (~20 s of CPU on this 2-core machine when quiet).
    expect(naturalMs).toBeGreaterThan(4 * TIMEOUT_MS);

    let probing = true;
    const probeTimes: number[] = [];
    const probe = (async () => {
      while (probing) {
        const started = performance.now();
        // PGlite has one session, held by the running report: its event loop still answers; PostgreSQL answers from the database too.
        const response = backend === 'postgres' ? await server.request('/api/user-reports/', { token }) : await server.request('/api/health');
        expect(response.status).toBe(200);
        probeTimes.push(performance.now() - started);
      }
    })();
    const started = performance.now();
    const runs = await Promise.all(
      users.map(async (user) => {
        const response = await execute(SLOW_QUERY, user.access);
        return { ms: performance.now() - started, body: response.json as unknown as Execute };
      }),
    );
    probing = false;
    await probe;
    const ends = runs.map((run) => run.ms);
    const figures = `runs ended after ${ends.map(Math.round).join(', ')} ms; uncut ~${Math.round(naturalMs)} ms; probes ${probeTimes.map(Math.round).join(', ')} ms`;
    for (const run of runs) {
      // Stopped by the deadline (PostgreSQL's statement_timeout, 57014; PGlite's check between batches), the server says.
      expect(run.body.success).toBe(false);
      expect(run.body.error).toMatch(/ran longer than 2 s/);
      // Far before it would have ended: uncut (no deadline set, or PGlite fetching every row in one go) it
      // runs naturalMs — or, on PostgreSQL, until the report login's own statement_timeout of 60 s (migration 0040).
      expect(run.ms, figures).toBeLessThan(Math.min(naturalMs, 60_000) / 2);
    }
    // Together: the deadline counts from when each request came in, so on PGlite's one session the
    // three that waited are stopped as the first is; given a timeout each as they took their turn,
    // they would end a timeout apart (three timeouts from first to last).
    expect(Math.max(...ends) - Math.min(...ends), figures).toBeLessThan(2 * TIMEOUT_MS);
    // Answered meanwhile, each sooner than a report took: a blocked event loop (PGlite) or a starved
    // pool (PostgreSQL) would keep the probe in flight when they started waiting about as long as
    // they ran. (At a load of 35 a probe took 1.2 s beside reports ending after 2.2 s and more.)
    expect(probeTimes.length, figures).toBeGreaterThan(3);
    expect(Math.max(...probeTimes), figures).toBeLessThan(0.75 * Math.min(...ends));
  });

  // The report login exists on PostgreSQL only.
  if (backend === 'postgres') {
    it('runs reports as a login that is not a superuser', async () => {
      const response = await execute('select session_user as login, current_user as acting');
      const row = (response.json as unknown as Execute).results[0] as { login: string; acting: string };
      expect(row.login).toMatch(/_report$/);
      expect(row.acting).toBe(row.login);
      const { rows } = await sql<{ rolsuper: boolean; rolinherit: boolean; rolbypassrls: boolean }>`select rolsuper, rolinherit, rolbypassrls from pg_roles where rolname = ${row.login}`.execute(server.database.db);
      expect(rows[0]).toEqual({ rolsuper: false, rolinherit: false, rolbypassrls: false });
    });

    it('holds the wall as the report login with no parser gate in front', async () => {
      const secrets = await server.database.db.selectFrom('app_secrets').select(['name', 'value']).where('name', 'in', ['report_role', 'report_role_password']).execute();
      const url = new URL(process.env.TEST_DATABASE_URL as string);
      url.pathname = `/${(await sql<{ db: string }>`select current_database() as db`.execute(server.database.db)).rows[0]?.db}`;
      url.username = secrets.find((s) => s.name === 'report_role')?.value as string;
      url.password = secrets.find((s) => s.name === 'report_role_password')?.value as string;
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        expect((await client.query('select count(*)::int as n from data.products')).rows[0].n).toBeGreaterThan(0);
        for (const statement of [
          'select * from public.users',
          'select * from public.refresh_tokens',
          'select * from public.app_secrets',
          'select * from pg_authid',
          'set role postgres',
          "select set_config('role', 'postgres', false)",
          'set session authorization postgres',
          "select pg_read_file('/etc/passwd')",
          "select lo_import('/etc/passwd')",
          "copy data.sales to program 'id'",
          "select query_to_xml('select * from public.users', true, true, '')",
          "insert into data.products (product_code, name) values ('EVIL-3', 'x')",
          'create table data.evil (id int)',
          "select nextval('data.sales_id_seq')",
        ]) {
          await expect(client.query(statement), statement).rejects.toThrow(/permission denied|must be|read-only|not allowed|only superuser/i);
        }
      } finally {
        await client.end();
      }
    });
  }
});
