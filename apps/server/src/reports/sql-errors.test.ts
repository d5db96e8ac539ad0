// A report's SQL error points at the mistake, on both database modes: PostgreSQL's message and hint,
// and the line and column in the SQL the user wrote (characters, not bytes), traced back through
// the gate's rewrite and the cursor around it, or left out when not in the user's text. The gate's
// own refusals keep their words and say where too.
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import type { ExecuteResponse, RegenerateResponse } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { loadReportFixture } from './fixtures.test-data.ts';
import { placeIn } from './sandbox/error-place.ts';
import { checkReportSql, loadSqlParser } from './sandbox/gate.ts';

describe('placeIn', () => {
  it('counts lines at \\n, \\r\\n and \\r and columns in characters', () => {
    expect(placeIn('select x', 7)).toEqual({ line: 1, column: 8 });
    expect(placeIn('a\nbc\r\nd\re', 4)).toEqual({ line: 2, column: 3 });
    expect(placeIn('a\nbc\r\nd\re', 6)).toEqual({ line: 3, column: 1 });
    expect(placeIn('a\nbc\r\nd\re', 8)).toEqual({ line: 4, column: 1 });
    // An emoji is one character (two UTF-16 units), as PostgreSQL counts it.
    expect(placeIn("'😀€ä' x", 6)).toEqual({ line: 1, column: 7 });
  });

  it('places the end of the text (an error at end of input) and nothing past it', () => {
    expect(placeIn('select', 6)).toEqual({ line: 1, column: 7 });
    expect(placeIn('select', 7)).toBeNull();
    expect(placeIn('select', -1)).toBeNull();
    expect(placeIn('select', 1.5)).toBeNull();
  });
});

describe("the gate's source map", () => {
  const readable = { byName: new Map([['sales', 'sales']]), tables: new Set(['sales']) };
  beforeAll(() => loadSqlParser());

  it('traces a position in the cursor back through the rewrite, and not outside the user’s text', () => {
    const userSql = '\n  select * from sales s where s.quantiy > 1;  ';
    const checked = checkReportSql(userSql, { readable, embedded: true });
    const inCursor = (fragment: string) => [...checked.cursor.slice(0, checked.cursor.indexOf(fragment))].length;
    expect(checked.cursor).toContain('from data."sales" s where');
    expect(checked.sourceMap.place(inCursor('s.quantiy'))).toEqual({ line: 2, column: 31 });
    // Inside the name the gate wrote: the name the user wrote.
    expect(checked.sourceMap.place(inCursor('data."sales"'))).toEqual({ line: 2, column: 17 });
    expect(checked.sourceMap.place(inCursor('sales" s') + 1)).toEqual({ line: 2, column: 17 });
    // The cursor's own words and the line after the statement are no one's.
    expect(checked.sourceMap.place(0)).toBeNull();
    expect(checked.sourceMap.place(inCursor('select') - 1)).toBeNull();
    expect(checked.sourceMap.place([...checked.cursor].length - 1)).toBeNull();
    expect(checked.sourceMap.place([...checked.cursor].length + 5)).toBeNull();
  });
});

describe.each(backends)('report SQL errors on %s', (backend) => {
  let server: TestServer;
  let token: string;
  const run = async (sqlCode: string) => {
    const response = await server.request('/api/user-reports/execute/', { token, body: { sql_code: sqlCode } });
    expect(response.status).toBe(200);
    const body = response.json as unknown as ExecuteResponse;
    expect(body.success, sqlCode).toBe(false);
    expect(body.error_details?.message).toBe(body.error);
    return body;
  };
  const placeOf = async (sqlCode: string) => {
    const { error_details: details } = await run(sqlCode);
    return { line: details?.line, column: details?.column };
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'editor' })).access;
    await loadReportFixture(server.database.db);
  });
  afterAll(() => server.stop());

  it('gives the message, the hint for a misspelt column and where it is', async () => {
    const body = await run('select quantiy from sales');
    expect(body.error).toBe('column "quantiy" does not exist.');
    expect(body.error_details).toEqual({
      message: 'column "quantiy" does not exist.',
      hint: 'Perhaps you meant to reference the column "sales.quantity".',
      detail: null,
      line: 1,
      column: 8,
    });
  });

  it('counts lines and characters in the SQL as written, after names the gate rewrote', async () => {
    expect(await placeOf('select s.product_id,\n       s.quantiy\nfrom sales s')).toEqual({ line: 2, column: 8 });
    // Windows line ends and leading blank lines and comments, which the gate trims before running.
    expect(await placeOf('\r\n\r\n  -- units sold\r\n  select quantiy from sales')).toEqual({ line: 4, column: 10 });
    // Two names rewritten to longer ones (data."sales", data."products") before the mistake.
    expect(await placeOf('select * from sales s join products p on p.id = s.product_id where p.nmae is not null')).toEqual({ line: 1, column: 68 });
    // The same words earlier in a comment, and a quoted name the gate rewrote: PostgreSQL's place, not a text search.
    expect(await placeOf('/* sales quantiy */ select quantiy from "sales"')).toEqual({ line: 1, column: 28 });
  });

  it('counts characters, not bytes', async () => {
    expect(await placeOf("select 'ä€' as label, quantiy from sales")).toEqual({ line: 1, column: 23 });
    expect(await placeOf("select '😀' as label,\n  'Größe' as size, s.quantiy from sales s")).toEqual({ line: 2, column: 20 });
    const cast = await run("select 'zwölf €'::int as n");
    expect(cast.error).toBe('invalid input syntax for type integer: "zwölf €".');
    expect(cast.error_details).toMatchObject({ line: 1, column: 8 });
  });

  it('points into a CTE', async () => {
    const body = await run('with totals as (\n  select product_id, sum(quantiy) as units\n  from sales group by 1\n)\nselect * from totals');
    expect(body.error_details).toMatchObject({ hint: 'Perhaps you meant to reference the column "sales.quantity".', line: 2, column: 26 });
  });

  it('gives no place for an error PostgreSQL places nowhere (raised while the rows are fetched)', async () => {
    expect((await run('select 1 / (count(*) - count(*)) from sales')).error_details).toEqual({ message: 'division by zero.', hint: null, detail: null, line: null, column: null });
    const computed = await run("select ('x' || count(*))::int from sales");
    expect(computed.error).toMatch(/^invalid input syntax for type integer: "x\d+"\.$/);
    expect(computed.error_details).toMatchObject({ line: null, column: null });
  });

  it("places the gate's refusals and syntax errors, in the gate's words", async () => {
    const sleep = await run('select 1 as one,\n  pg_sleep(1)');
    expect(sleep.error).toMatch(/^The function pg_sleep\(\) is not allowed in reports: remove it from the SQL\./);
    expect(sleep.error_details).toMatchObject({ hint: null, line: 2, column: 3 });
    expect(await placeOf("select 'ä' as a from salse")).toEqual({ line: 1, column: 22 });
    expect((await run("select 'ä' as a from salse")).error).toMatch(/^Unknown table 'salse': reports can read /);
    expect(await placeOf("select '€'::regclass")).toEqual({ line: 1, column: 13 });
    const syntax = await run("select 'ä',\n  quantity frm sales");
    expect(syntax.error).toBe('The SQL could not be read: syntax error at or near "sales".');
    expect(syntax.error_details).toMatchObject({ line: 2, column: 16 });
    expect(await placeOf('select * from sales where')).toEqual({ line: 1, column: 26 });
    // What the gate cannot place says nothing about a place.
    expect(await placeOf('select 1; select 2')).toEqual({ line: null, column: null });
  });

  it('places an error of the current SQL when a chart is regenerated', async () => {
    const response = await server.request('/api/user-reports/regenerate/', {
      token,
      body: { field_to_regenerate: 'chart_config', current_title: 'Units', current_description: '', current_sql_code: 'select\n  quantiy from sales', current_chart_config: null },
    });
    const body = response.json as unknown as RegenerateResponse;
    expect(body).toMatchObject({ success: false, error: 'Run the report first: column "quantiy" does not exist.' });
    expect(body.error_details).toEqual({ message: 'column "quantiy" does not exist.', hint: 'Perhaps you meant to reference the column "sales.quantity".', detail: null, line: 2, column: 3 });
  });
});
