// Report writing through an OpenAI-compatible model: a real HTTP server on loopback plays the
// model. The prompt must carry the real schema; every SQL it answers is checked and test-run, and
// bad or hostile SQL is refused, never returned.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeChatModel, type FakeChatModel } from '../testing/fake-chat-model.ts';
import { signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { loadReportFixture } from './fixtures.test-data.ts';

const draft = (fields: Record<string, unknown>) => ({ content: `Here is the report:\n\`\`\`json\n${JSON.stringify(fields)}\n\`\`\`` });
const blank = { report_id: null, current_title: 'Untitled Report', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null };

describe('reports written by an OpenAI-compatible model', () => {
  let fake: FakeChatModel;
  let server: TestServer;
  let token: string;
  const generate = async (changeRequest: string) => (await server.request('/api/user-reports/generate-from-request/', { token, body: { ...blank, change_request: changeRequest } })).json as Record<string, unknown>;

  beforeAll(async () => {
    fake = await startFakeChatModel();
    server = await startTestServer('pglite', { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'inventory-sql-1', LLM_API_KEY: 'sk-loopback' });
    token = (await signUpUser(server, { role: 'editor' })).access;
    await loadReportFixture(server.database.db);
  });
  afterAll(async () => {
    await server.stop();
    await fake.close();
  });

  it('sends the readable schema and returns a checked, test-run draft', async () => {
    fake.script([
      draft({
        title: 'Units by category',
        description: 'Units sold per category.',
        sql_code: 'select p.category, sum(s.quantity) as units from sales s join products p on p.id = s.product_id group by 1 order by 1',
        chart_config: { type: 'bar', x_field: 'category', series: [{ field: 'units' }], stacked: false, title: '', sort: null },
        pseudocode: '1. Join sales to products.\n2. Sum units per category.',
      }),
    ]);
    const answer = await generate('units by category as bars');
    expect(answer).toMatchObject({ success: true, provider: 'model', title: 'Units by category', chart_config: { type: 'bar', x_field: 'category' } });
    const request = fake.requests.at(-1);
    expect(request?.authorization).toBe('Bearer sk-loopback');
    expect(request?.body.model).toBe('inventory-sql-1');
    const prompt = request?.body.messages.map((m) => m.content).join('\n') ?? '';
    for (const expected of ['products (table)', 'product_code character varying(64)', 'stock_projections (view)', 'projected_stock double precision', 'reorder_advice', 'units by category as bars']) {
      expect(prompt).toContain(expected);
    }
    expect(prompt).not.toMatch(/\busers\b|refresh_tokens|password/);
  });

  it("tells the model a southern shop's seasons and financial year, from the editor's time zone (QA7 F10, F11)", async () => {
    const units = { title: 'Units', description: 'Units sold.', sql_code: 'select sum(quantity) as units from sales', chart_config: null, pseudocode: '1. Sum units.' };
    const promptFor = async (query: string) => {
      fake.script([draft(units)]);
      const answer = await server.request(`/api/user-reports/generate-from-request/${query}`, { token, body: { ...blank, change_request: 'units sold last winter' } });
      expect(answer.json).toMatchObject({ success: true });
      return fake.requests.at(-1)?.body.messages.map((m) => m.content).join('\n') ?? '';
    };
    const melbourne = await promptFor('?time_zone=Australia%2FMelbourne');
    expect(melbourne).toContain('southern hemisphere (summer is December–February');
    expect(melbourne).toContain('financial year starts on 1 July');
    expect(await promptFor('')).not.toContain('hemisphere');
  });

  it('refuses hostile or broken SQL after one repair attempt, and changes nothing', async () => {
    const before = (await sql<{ n: number }>`select count(*)::int as n from data.sales`.execute(server.database.db)).rows[0]?.n;
    fake.script([
      draft({ title: 'Cleanup', description: 'x', sql_code: 'delete from sales' }),
      draft({ title: 'Cleanup', description: 'x', sql_code: "select password_hash from users; select set_config('role', 'postgres', true)" }),
    ]);
    const hostile = await generate('clean up old sales');
    expect(hostile.success).toBe(false);
    expect(hostile.sql_code).toBeNull();
    expect(hostile.error).toMatch(/refused by the report sandbox/);
    expect(fake.requests.at(-1)?.body.messages.at(-1)?.content).toMatch(/Your previous SQL failed: Reports only read data: DELETE is not allowed/);
    expect((await sql<{ n: number }>`select count(*)::int as n from data.sales`.execute(server.database.db)).rows[0]?.n).toBe(before);

    fake.script([draft({ title: 'Broken', description: 'x', sql_code: 'select nope from products' })]);
    const broken = await generate('something broken');
    expect(broken).toMatchObject({ success: false, sql_code: null });
    expect(broken.error).toMatch(/column "nope" does not exist/);

    // PostgreSQL's hint goes to the model's repair and to the answer; no place in SQL the answer does not carry.
    fake.script([draft({ title: 'Names', description: 'x', sql_code: 'select nmae from products' }), draft({ title: 'Names', description: 'x', sql_code: 'select\n  nmae from products' })]);
    const misspelt = await generate('product names');
    const hint = 'Perhaps you meant to reference the column "products.name".';
    expect(fake.requests.at(-1)?.body.messages.at(-1)?.content).toContain(`Your previous SQL failed: column "nmae" does not exist. ${hint}`);
    expect(misspelt).toMatchObject({ success: false, error: 'The generated SQL was refused by the report sandbox: column "nmae" does not exist.' });
    expect(misspelt.error_details).toEqual({ message: 'column "nmae" does not exist.', hint, detail: null, line: null, column: null });

    fake.script([{ content: 'I would rather not.' }]);
    expect((await generate('anything')).error).toBe('The language model did not answer with a JSON object.');
    fake.script([{ status: 500, body: { error: { message: 'model overloaded' } } }]);
    expect((await generate('anything')).error).toBe('The language model answered HTTP 500: model overloaded');
  });

  it('regenerates one field; a chart naming missing columns is replaced by one that fits', async () => {
    fake.script([{ content: '{"value": "Stock on hand by product"}' }]);
    const title = await server.request('/api/user-reports/regenerate/', { token, body: { ...blank, field_to_regenerate: 'title', current_sql_code: 'select product_code, current_stock from products' } });
    expect(title.json).toMatchObject({ success: true, generated_value: 'Stock on hand by product', provider: 'model' });
    fake.script([{ content: '{"value": {"type": "line", "x_field": "month", "series": [{"field": "revenue"}], "stacked": false, "title": "", "sort": null}}' }]);
    const chart = await server.request('/api/user-reports/regenerate/', { token, body: { ...blank, field_to_regenerate: 'chart_config', current_sql_code: 'select product_code, current_stock from products' } });
    expect(chart.json).toMatchObject({ success: true, generated_value: { type: 'bar', x_field: 'product_code', series: [{ field: 'current_stock' }] } });
    fake.script([{ content: '{"value": "select * from refresh_tokens"}' }]);
    const sqlAnswer = await server.request('/api/user-reports/regenerate/', { token, body: { ...blank, field_to_regenerate: 'sql_code' } });
    expect(sqlAnswer.json).toMatchObject({ success: false, generated_value: null, error_details: { line: null, column: null } });
    expect(sqlAnswer.json.error).toMatch(/Unknown table 'refresh_tokens'/);
  });
});
