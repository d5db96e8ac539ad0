import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { fixtureProducts, fixtureSales, loadReportFixture } from './fixtures.test-data.ts';

type Report = { id: number; title: string; owner: number; owner_username: string; sql_code: string; chart_config: unknown; description: string; pseudocode: string; created_at: string; updated_at: string };
type Execute = { success: boolean; results: Record<string, unknown>[]; columns: { name: string; type: string; db_type: string }[]; truncated: boolean; error: string | null };

describe.each(backends)('reports on %s', (backend) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signUpUser>>;
  let editor: Awaited<ReturnType<typeof signUpUser>>;
  let otherEditor: Awaited<ReturnType<typeof signUpUser>>;
  let viewer: Awaited<ReturnType<typeof signUpUser>>;
  const run = async (sqlCode: string, token = viewer.access) => {
    const response = await server.request('/api/user-reports/execute/', { token, body: { sql_code: sqlCode } });
    expect(response.status).toBe(200);
    return response.json as unknown as Execute;
  };

  beforeAll(async () => {
    server = await startTestServer(backend, { REPORT_MAX_ROWS: '500' });
    admin = await signUpUser(server);
    editor = await signUpUser(server, { role: 'editor' });
    otherEditor = await signUpUser(server, { role: 'editor' });
    viewer = await signUpUser(server, { role: 'viewer' });
    await loadReportFixture(server.database.db);
  });
  afterAll(() => server.stop());

  it('names the month a monthly result runs into that has not ended on the day it ran', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const months = (last: string) =>
      `select date_trunc('month', d)::date as month, count(*)::int as days from generate_series(${last} - 70, ${last}, interval '1 day') d group by 1 order by 1`;
    const running = (await server.request('/api/user-reports/execute/', { token: viewer.access, body: { sql_code: months('current_date') } })).json;
    expect(running.unfinished_period).toEqual({ field: 'month', value: `${today.slice(0, 8)}01`, unit: 'month', from: `${today.slice(0, 8)}01`, through: today, ends: 'today' });
    // Its row holds the days so far, not a month.
    expect((running.results as { month: string; days: number }[]).at(-1)).toEqual({ month: `${today.slice(0, 8)}01`, days: Number(today.slice(8)) });
    const ended = await run(months("(date_trunc('month', current_date) - interval '1 day')::date"));
    expect((ended as Execute & { unfinished_period: unknown }).unfinished_period).toBeNull();
  });

  it("names the week cut by the report's own filter by the days it holds, not as under way (QA4 #6)", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const day = (iso: string, by: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + by * 86_400_000).toISOString().slice(0, 10);
    const lastMonthEnd = day(`${today.slice(0, 8)}01`, -1);
    const monday = day(lastMonthEnd, -((new Date(`${lastMonthEnd}T00:00:00Z`).getUTCDay() + 6) % 7));
    // "Units sold by week last month" as the report writer bounds it: from the 1st of last month, before the 1st of this one.
    const lastMonthByWeek = `select date_trunc('week', d)::date as week, count(*)::int as days from generate_series(current_date - 70, current_date, interval '1 day') d
      where d >= date_trunc('month', current_date) - interval '1 month' and d < date_trunc('month', current_date)::date group by 1 order by 1`;
    const weekly = (await run(lastMonthByWeek)) as Execute & { unfinished_period: unknown };
    const lastWeekDays = (Date.parse(lastMonthEnd) - Date.parse(monday)) / 86_400_000 + 1;
    expect(weekly.results.at(-1)).toEqual({ week: monday, days: lastWeekDays });
    // A week that ends on the month's last day (a Sunday) is whole: nothing to name.
    expect(weekly.unfinished_period).toEqual(lastWeekDays === 7 ? null : { field: 'week', value: monday, unit: 'week', from: monday, through: lastMonthEnd, ends: 'report' });
    // The same bound in a CTE or subquery the weeks are read from, or in OR branches that all bound the one column: the same week, cut the same way.
    const expected = lastWeekDays === 7 ? null : { field: 'week', value: monday, unit: 'week', from: monday, through: lastMonthEnd, ends: 'report' };
    const lastMonthDays = `select d from generate_series(current_date - 70, current_date, interval '1 day') d where d >= date_trunc('month', current_date) - interval '1 month' and d < date_trunc('month', current_date)::date`;
    const fed = {
      cte: `with days as (${lastMonthDays}) select date_trunc('week', d)::date as week, count(*)::int as days from days group by 1 order by 1`,
      subquery: `select week, count(*)::int as days from (select date_trunc('week', d)::date as week from (${lastMonthDays}) month_days) w group by 1 order by 1`,
      or: `select date_trunc('week', d)::date as week, count(*)::int as days from generate_series(current_date - 70, current_date, interval '1 day') d
        where d < date_trunc('month', current_date) - interval '1 month' or (d >= date_trunc('month', current_date) - interval '10 days' and d < date_trunc('month', current_date)::date) group by 1 order by 1`,
    };
    for (const [shape, sqlCode] of Object.entries(fed)) {
      const answer = (await run(sqlCode)) as Execute & { unfinished_period: unknown };
      expect(answer.results.at(-1), shape).toEqual({ week: monday, days: lastWeekDays });
      expect(answer.unfinished_period, shape).toEqual(expected);
    }
    // By month, last month is whole.
    expect(((await run(lastMonthByWeek.replace("date_trunc('week', d)::date as week", "date_trunc('month', d)::date as month"))) as Execute & { unfinished_period: unknown }).unfinished_period).toBeNull();
    // A bound that fails when read but never ran in the report (`false and …` is never evaluated) leaves the run as it was.
    const unread = await run(`select d::date as day from generate_series(current_date - 7, current_date, interval '1 day') d where false and d <= make_date(extract(year from current_date)::int, 13, 1)`);
    expect(unread).toMatchObject({ success: true, results: [], error: null });
  });

  it("names the first month cut by the report's own first day by the days it holds, on hand-written SQL and the report writer's", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const monthOf = new Date(`${today.slice(0, 8)}01T00:00:00Z`);
    monthOf.setUTCMonth(monthOf.getUTCMonth() - 3);
    const first = monthOf.toISOString().slice(0, 10);
    const fifteenth = `${first.slice(0, 8)}15`;
    const nextMonth = new Date(monthOf);
    nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1);
    const lastDay = new Date(nextMonth.getTime() - 86_400_000).toISOString().slice(0, 10);
    const expected = { field: 'month', value: first, unit: 'month', from: fifteenth, through: lastDay };
    const sinceFifteenth = `select date_trunc('month', d)::date as month, count(*)::int as days from generate_series(current_date - 200, current_date, interval '1 day') d where d >= date '${fifteenth}' group by 1 order by 1`;
    const handWritten = (await run(sinceFifteenth)) as Execute & { first_period_cut: unknown; unfinished_period: unknown };
    expect(handWritten.results[0]).toEqual({ month: first, days: Number(lastDay.slice(8)) - 14 });
    expect(handWritten.first_period_cut).toEqual(expected);
    // The last month is still the one under way.
    expect(handWritten.unfinished_period).toMatchObject({ ends: 'today', through: today });
    // From the 1st, the month is whole.
    expect(((await run(sinceFifteenth.replace(fifteenth, first))) as Execute & { first_period_cut: unknown }).first_period_cut).toBeNull();
    // The report writer's "by month since the 15th": its months are every one of the period, the first named cut the same way.
    const monthName = monthOf.toLocaleString('en', { month: 'long', timeZone: 'UTC' });
    const written = await server.request('/api/user-reports/generate-from-request/', {
      token: editor.access,
      body: { report_id: null, change_request: `units sold by month since 15 ${monthName}`, current_title: 'Untitled Report', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null },
    });
    expect(written.json.success, written.text).toBe(true);
    const writerRun = (await run(written.json.sql_code as string)) as Execute & { first_period_cut: unknown };
    expect(writerRun.results[0]?.month).toBe(first);
    expect(writerRun.first_period_cut).toEqual(expected);
  });

  it("names this quarter, this year and today's row as not finished, on a run and on a saved report's data", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const month = Number(today.slice(5, 7));
    const quarterStart = `${today.slice(0, 5)}${String(month - ((month - 1) % 3)).padStart(2, '0')}-01`;
    const year = Number(today.slice(0, 4));
    const days = (last: string, select: string) => `select ${select}, count(*)::int as days from generate_series(${last} - 400, ${last}, interval '1 day') d group by 1 order by 1`;
    const unfinished = async (sql: string) => ((await run(sql)) as Execute & { unfinished_period: unknown }).unfinished_period;
    expect(await unfinished(days('current_date', "date_trunc('quarter', d)::date as quarter"))).toEqual({ field: 'quarter', value: quarterStart, unit: 'quarter', from: quarterStart, through: today, ends: 'today' });
    expect(await unfinished(days('current_date', 'extract(year from d)::int as year'))).toEqual({ field: 'year', value: year, unit: 'year', from: `${year}-01-01`, through: today, ends: 'today' });
    // Last year's rows only: every year in them has ended.
    expect(await unfinished(days("date_trunc('year', current_date)::date - 1", 'extract(year from d)::int as year'))).toBeNull();
    // A saved daily report (the report writer's `s.date as day`) whose rows run to today.
    const created = await server.request('/api/user-reports/', { token: editor.access, body: { title: 'Days to today', sql_code: "select d::date as day, 1 as units from generate_series(current_date - 6, current_date, interval '1 day') d order by 1" } });
    const data = await server.request(`/api/user-reports/${(created.json as unknown as Report).id}/data/`, { token: editor.access });
    expect(data.status).toBe(200);
    expect(data.json.unfinished_period).toEqual({ field: 'day', value: today, unit: 'day', from: today, through: today, ends: 'today' });
    // Days that run on past today are a projection, not a history: nothing is under way.
    expect(await unfinished("select d::date as day, 1 as units from generate_series(current_date - 6, current_date + 6, interval '1 day') d")).toBeNull();
  });

  it('names the month under way when the period is a timestamp (date_trunc without ::date) or written as text (to_char), as the rows hold it', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const month = `${today.slice(0, 8)}01`;
    // generate_series over dates gives timestamptz: `d` is a moment at midnight UTC.
    const byMonth = (select: string) => `select ${select}, count(*)::int as days from generate_series(current_date - 70, current_date, interval '1 day') d group by 1 order by 1`;
    const unfinished = async (sql: string) => ((await run(sql)) as Execute & { unfinished_period: unknown }).unfinished_period;
    // PostgreSQL's own text for the driver at hand, in the run's UTC session.
    const stamped = await run(byMonth("date_trunc('month', d::timestamp) as month"));
    expect(stamped.columns[0]).toMatchObject({ name: 'month', type: 'datetime' });
    expect(stamped.results.at(-1)?.month).toBe(`${month} 00:00:00`);
    expect((stamped as Execute & { unfinished_period: unknown }).unfinished_period).toEqual({ field: 'month', value: `${month} 00:00:00`, unit: 'month', from: month, through: today, ends: 'today' });
    expect(await unfinished(byMonth("date_trunc('month', d) as month"))).toMatchObject({ value: `${month} 00:00:00+00`, unit: 'month', from: month });
    expect(await unfinished(byMonth("to_char(d, 'YYYY-MM') as month"))).toMatchObject({ value: today.slice(0, 7), unit: 'month', from: month });
    const shortName = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][Number(today.slice(5, 7)) - 1];
    expect(await unfinished(byMonth("to_char(d, 'Mon YYYY') as period"))).toMatchObject({ value: `${shortName} ${today.slice(0, 4)}`, unit: 'month', from: month });
    // A moment of the day (now()) is no period; nor are words that name none.
    expect(await unfinished("select now() as created_at, 1 as units")).toBeNull();
    expect(await unfinished("select 'Garden' as category, 1 as units")).toBeNull();
  });

  it('creates a report with the spec defaults, owned by the caller', async () => {
    const created = await server.request('/api/user-reports/', { token: editor.access, body: {} });
    expect(created.status).toBe(201);
    const report = created.json as unknown as Report;
    expect(report).toMatchObject({ title: 'Untitled Report', description: '', sql_code: 'SELECT 1;', chart_config: null, owner: editor.id, owner_username: editor.username, pseudocode: '' });
    expect(Date.parse(report.created_at)).not.toBeNaN();
    const listed = await server.request('/api/user-reports/', { token: viewer.access });
    expect((listed.json as unknown as Report[]).map((r) => r.id)).toContain(report.id);
  });

  it('lets an owner edit, others read only, and an admin do everything', async () => {
    const report = (await server.request('/api/user-reports/', { token: editor.access, body: { title: 'Units by category', sql_code: 'select 1 as one' } })).json as unknown as Report;
    const chart = { type: 'bar', x_field: 'category', series: [{ field: 'units' }], stacked: false, title: 'Units', sort: null };
    const edited = await server.request(`/api/user-reports/${report.id}/`, { method: 'PUT', token: editor.access, body: { title: 'Units by category (all time)', chart_config: chart } });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ title: 'Units by category (all time)', chart_config: chart });
    expect(Date.parse(edited.json.updated_at as string)).toBeGreaterThanOrEqual(Date.parse(report.updated_at));

    const byOther = await server.request(`/api/user-reports/${report.id}/`, { method: 'PUT', token: otherEditor.access, body: { title: 'mine now' } });
    expect(byOther.status).toBe(403);
    expect(byOther.json.code).toBe('forbidden');
    for (const [method, token] of [['PUT', viewer.access], ['DELETE', viewer.access], ['DELETE', otherEditor.access]] as const) {
      const refused = await server.request(`/api/user-reports/${report.id}/`, { method, token, ...(method === 'PUT' ? { body: { title: 'x' } } : {}) });
      expect(refused.status).toBe(403);
    }
    expect((await server.request('/api/user-reports/', { token: viewer.access, body: {} })).status).toBe(403);
    expect((await server.request(`/api/user-reports/${report.id}/`, { token: viewer.access })).json.title).toBe('Units by category (all time)');

    expect((await server.request(`/api/user-reports/${report.id}/`, { method: 'PUT', token: admin.access, body: { description: 'checked by admin' } })).status).toBe(200);
    expect((await server.request(`/api/user-reports/${report.id}/`, { method: 'DELETE', token: admin.access })).status).toBe(204);
    const gone = await server.request(`/api/user-reports/${report.id}/`, { token: viewer.access });
    expect(gone.status).toBe(404);
    expect(gone.json.detail).toBe(`Report '${report.id}' not found.`);
  });

  it('refuses bad input with 400 and names the field', async () => {
    const blank = await server.request('/api/user-reports/', { token: editor.access, body: { title: '   ' } });
    expect(blank.status).toBe(400);
    expect(blank.json.errors).toHaveProperty('title');
    const badChart = await server.request('/api/user-reports/', { token: editor.access, body: { chart_config: { type: 'radar' } } });
    expect(badChart.status).toBe(400);
    expect((await server.request('/api/user-reports/abc/', { token: viewer.access })).status).toBe(400);
    for (const [path, body] of [
      ['/api/user-reports/', { title: 'a\u0000b' }],
      ['/api/user-reports/execute/', { sql_code: "select 'a\u0000'" }],
      ['/api/user-reports/generate-from-request/', { change_request: 'by month \ud800' }],
    ] as const) {
      const refused = await server.request(path, { token: editor.access, body });
      expect(refused.status, path).toBe(400);
    }
    const empty = await server.request('/api/user-reports/execute/', { token: viewer.access, body: { sql_code: '  ' } });
    expect(empty.status).toBe(400);
    expect(empty.json.detail).toBe('No SQL code to execute.');
  });

  it('runs joins over the plain table names with columns and types', async () => {
    const result = await run(`
      select p.category, sum(s.quantity) as units, count(distinct p.id) as products
      from sales s join products p on p.id = s.product_id
      group by p.category order by p.category`);
    expect(result.error).toBeNull();
    const expected = new Map<string, number>();
    for (const sale of fixtureSales()) {
      const category = fixtureProducts.find((p) => p.code === sale.code)?.category as string;
      expected.set(category, (expected.get(category) ?? 0) + sale.quantity);
    }
    expect(result.results).toEqual([...expected.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([category, units]) => ({ category, units, products: 3 - (category === 'Garden' ? 1 : 0) })));
    expect(result.columns).toEqual([
      { name: 'category', type: 'text', db_type: 'varchar' },
      // A sum of quantities is numeric since they hold 3 places (ADR 0176).
      { name: 'units', type: 'number', db_type: 'numeric' },
      { name: 'products', type: 'number', db_type: 'int8' },
    ]);
    expect(result.truncated).toBe(false);
  });

  it('runs CTEs and window functions, and caps rows with truncated', async () => {
    const ranked = await run(`
      with totals as (select product_id, sum(quantity) as units from sales group by product_id)
      select p.product_code, t.units, rank() over (order by t.units desc) as position,
             sum(t.units) over () as all_units
      from totals t join products p on p.id = t.product_id order by position, product_code`);
    expect(ranked.error).toBeNull();
    expect(ranked.results).toHaveLength(fixtureProducts.length);
    expect(ranked.results[0]?.position).toBe(1);
    expect(ranked.results[0]?.all_units).toBe(fixtureSales().reduce((sum, s) => sum + s.quantity, 0));

    const capped = await run('select * from sales order by id');
    expect(capped.success).toBe(true);
    expect(capped.results).toHaveLength(500);
    expect(capped.truncated).toBe(true);
  });

  it('reads the forecast views: daily demand, stock projection with bounds, reorder advice', async () => {
    const projection = await run(`
      select product_code, min(date) as first_out
      from stock_projections where projected_stock <= 0 group by product_code order by first_out, product_code`);
    expect(projection.error).toBeNull();
    expect(projection.results.map((r) => r.product_code)).toEqual(['KT-002', 'GD-001', 'TL-001', 'TL-002', 'GD-002']);
    expect(projection.columns.find((c) => c.name === 'first_out')?.type).toBe('date');
    const bounds = await run(`select projected_stock, stock_lower, stock_upper, days_ahead from stock_projections where product_code = 'TL-003' order by date limit 1`);
    expect(bounds.results[0]).toEqual({ projected_stock: 95, stock_lower: 90, stock_upper: 100, days_ahead: 1 });
    const demand = await run(`select round(sum(demand)::numeric, 1) as demand from product_forecasts where product_code = 'KT-003'`);
    expect(demand.results[0]?.demand).toBe(45);
    const advice = await run(`select product_code, order_quantity from reorder_advice where current_stock <= reorder_point order by product_code`);
    expect(advice.results).toEqual(
      fixtureProducts.filter((p) => p.stock <= p.reorderPoint).map((p) => ({ product_code: p.code, order_quantity: p.orderQuantity })).sort((a, b) => a.product_code.localeCompare(b.product_code)),
    );
  });

  it('makes a table created on the Data screen readable by its display name', async () => {
    const created = await server.request('/api/records/tables/create/', { token: admin.access, body: { name: 'Supplier Notes', folder: 'Inventory' } });
    expect(created.status).toBe(201);
    await server.request('/api/records/tables/Supplier Notes/rows/add/', { token: admin.access, body: { name: 'Acme', notes: 'ships Mondays' } });
    const result = await run('select name, notes from "Supplier Notes"');
    expect(result.error).toBeNull();
    expect(result.results).toEqual([{ name: 'Acme', notes: 'ships Mondays' }]);
    const schema = await server.request('/api/user-reports/schema/', { token: viewer.access });
    const names = (schema.json.relations as { name: string }[]).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['products', 'sales', 'product_forecasts', 'stock_projections', 'reorder_advice', 'Supplier Notes']));
    expect(names).not.toContain('users');
  });

  it('answers a saved report by id and by URL-encoded title for the dashboard; a missing one is 404', async () => {
    const chart = { type: 'bar', x_field: 'category', series: [{ field: 'stock_value' }], stacked: false, title: '', sort: null };
    const report = (
      await server.request('/api/user-reports/', {
        token: editor.access,
        body: { title: 'Stock value / category', sql_code: 'select category, sum(current_stock * unit_cost) as stock_value from products group by category order by category', chart_config: chart },
      })
    ).json as unknown as Report;
    const byId = await server.request(`/api/user-reports/${report.id}/data/`, { token: viewer.access });
    expect(byId.status).toBe(200);
    expect(byId.json).toMatchObject({ success: true, id: report.id, title: 'Stock value / category', chart_config: chart });
    expect((byId.json.results as unknown[]).length).toBe(3);
    const byTitle = await server.request(`/api/user-reports/${encodeURIComponent('Stock value / category')}/data/`, { token: viewer.access });
    expect(byTitle.status).toBe(200);
    expect(byTitle.json.results).toEqual(byId.json.results);
    const missing = await server.request(`/api/user-reports/${encodeURIComponent('No such report')}/data/`, { token: viewer.access });
    expect(missing.status).toBe(404);
    expect(missing.json.detail).toBe("Report 'No such report' not found.");
  });
});
