// The built-in generator against plain-language questions over the known fixture: each answer's
// SQL is run through the API and its rows compared with the answer computed here, in TypeScript,
// from the fixture's own arrays. At least 26 of the questions must come out right.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeCatalogueAdvice } from '../testing/stored-advice.ts';
import { sql } from 'kysely';
import { addDays, formatDay, formatRange } from '../plain-words/period.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { dayFromToday, FORECAST_DAYS, fixtureProducts, fixtureSales, loadReportFixture, type FixtureProduct } from './fixtures.test-data.ts';

type Row = Record<string, unknown>;
type Question = { question: string; expected: () => Row[]; ordered?: boolean };

const today = new Date();
const sales = fixtureSales(today);
const productOf = (code: string) => fixtureProducts.find((p) => p.code === code) as FixtureProduct;
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
const between = (from: string, to: string) => sales.filter((s) => s.date >= from && s.date < to);
const lastDays = (days: number) => between(dayFromToday(-days, today), dayFromToday(0, today));
const total = (rows: typeof sales) => rows.reduce((sum, s) => sum + s.quantity, 0);
const year = today.getUTCFullYear();
const monthStart = (date: string) => `${date.slice(0, 7)}-01`;
const monthOffset = (offset: number) => new Date(Date.UTC(year, today.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
/** The first day of the calendar quarter `offset` months from this one's start (0 = this quarter, -3 = the last). */
const quarterStart = (offset: number) => monthOffset(offset - (today.getUTCMonth() % 3));
const quarterOf = (date: string) => Math.ceil(Number(date.slice(5, 7)) / 3);
const monthName = (date: string) => ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][Number(date.slice(5, 7)) - 1] as string;
const weekStart = (date: string) => {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
};

function groupSum<K extends string>(rows: typeof sales, key: (s: (typeof sales)[number]) => K, value: (s: (typeof sales)[number]) => number = (s) => s.quantity): Map<K, number> {
  const sums = new Map<K, number>();
  for (const row of rows) sums.set(key(row), (sums.get(key(row)) ?? 0) + value(row));
  return sums;
}
const ranked = (sums: Map<string, number>, direction: 'asc' | 'desc', limit: number, name: string) =>
  [...sums.entries()]
    .sort(([codeA, a], [codeB, b]) => (direction === 'desc' ? b - a : a - b) || codeA.localeCompare(codeB))
    .slice(0, limit)
    .map(([product_code, value]) => ({ product_code, [name]: value }));
const byKey = (sums: Map<string, number>, key: string, name: string, digits?: number) =>
  [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => ({ [key]: k, [name]: digits === undefined ? v : round(v, digits) }));

/** Sums by month with every month from `from` to `to` (first days) in them, 0 where nothing sold: a "by month" report over a period shows its quiet months (QA5 #12). */
const everyMonth = (sums: Map<string, number>, from: string, to: string) => {
  const filled = new Map(sums);
  for (let month = from; month <= to; month = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1)).toISOString().slice(0, 10)) filled.set(month, filled.get(month) ?? 0);
  return filled;
};

/** Day of the forecast (0 = today) each product's projected stock first reaches zero, per the fixture. */
function firstStockout(product: FixtureProduct): number | null {
  if (product.runsOutInDays === null) return null;
  const daily = product.runsOutInDays === 0 ? 1 : product.stock / product.runsOutInDays;
  for (let i = 0; i < FORECAST_DAYS; i++) if (product.stock - daily * (i + 1) <= 0) return i;
  return null;
}
const dailyDemand = (p: FixtureProduct) => (p.runsOutInDays === null ? 0.5 : p.runsOutInDays === 0 ? 1 : p.stock / p.runsOutInDays);
const runsOutWithin = (days: number) =>
  fixtureProducts
    .map((p) => ({ product_code: p.code, day: firstStockout(p) }))
    .filter((p): p is { product_code: string; day: number } => p.day !== null && p.day < days)
    .sort((a, b) => a.day - b.day || a.product_code.localeCompare(b.product_code))
    .map((p) => ({ product_code: p.product_code, runs_out_on: dayFromToday(p.day, today) }));

const questions: Question[] = [
  { question: 'total units sold', expected: () => [{ units_sold: total(sales) }] },
  { question: 'How many units did we sell in the last 30 days?', expected: () => [{ units_sold: total(lastDays(30)) }] },
  { question: 'units sold by category', expected: () => byKey(groupSum(sales, (s) => productOf(s.code).category), 'category', 'units_sold') },
  { question: 'units sold per product in the last 7 days', expected: () => byKey(groupSum(lastDays(7), (s) => s.code), 'product_code', 'units_sold') },
  { question: 'top 3 products by units sold in the last 30 days', expected: () => ranked(groupSum(lastDays(30), (s) => s.code), 'desc', 3, 'units_sold'), ordered: true },
  // A ranking that names no period: the last 30 days, as the assistant's top sellers.
  { question: 'bottom 2 products by units sold', expected: () => ranked(groupSum(lastDays(30), (s) => s.code), 'asc', 2, 'units_sold'), ordered: true },
  { question: 'bottom 2 products by units sold of all time', expected: () => ranked(groupSum(sales, (s) => s.code), 'asc', 2, 'units_sold'), ordered: true },
  { question: 'top 3 products in the last 7 days', expected: () => ranked(groupSum(lastDays(7), (s) => s.code), 'desc', 3, 'units_sold'), ordered: true },
  { question: `monthly units sold in ${year}`, expected: () => byKey(everyMonth(groupSum(between(`${year}-01-01`, `${year + 1}-01-01`), (s) => monthStart(s.date)), `${year}-01-01`, monthOffset(0)), 'month', 'units_sold'), ordered: true },
  { question: `units sold by month in ${year - 1}`, expected: () => byKey(everyMonth(groupSum(between(`${year - 1}-01-01`, `${year}-01-01`), (s) => monthStart(s.date)), `${year - 1}-01-01`, `${year - 1}-12-01`), 'month', 'units_sold'), ordered: true },
  {
    question: 'sales value by category in the last 90 days',
    expected: () => byKey(groupSum(lastDays(90), (s) => productOf(s.code).category, (s) => s.quantity * productOf(s.code).unitCost), 'category', 'sales_value', 2),
  },
  {
    question: 'stock value by category',
    expected: () => byKey(new Map(['Garden', 'Kitchen', 'Tools'].map((c) => [c, fixtureProducts.filter((p) => p.category === c).reduce((sum, p) => sum + p.stock * p.unitCost, 0)])), 'category', 'stock_value', 2),
  },
  { question: 'What is our total stock value?', expected: () => [{ stock_value: round(fixtureProducts.reduce((sum, p) => sum + p.stock * p.unitCost, 0)) }] },
  {
    question: 'low stock products',
    expected: () => fixtureProducts.filter((p) => p.stock < 100).sort((a, b) => a.stock - b.stock || a.code.localeCompare(b.code)).map((p) => ({ product_code: p.code, on_hand: p.stock })),
    ordered: true,
  },
  { question: 'products with stock below 50', expected: () => fixtureProducts.filter((p) => p.stock < 50).map((p) => ({ product_code: p.code })) },
  { question: 'which products are out of stock', expected: () => fixtureProducts.filter((p) => p.stock <= 0).map((p) => ({ product_code: p.code })) },
  { question: 'which products run out in the next 30 days', expected: () => runsOutWithin(30), ordered: true },
  { question: 'products that will run out within 7 days', expected: () => runsOutWithin(7), ordered: true },
  {
    question: 'what should we reorder?',
    expected: () =>
      fixtureProducts
        .map((p) => ({ p, out: firstStockout(p) }))
        // The order advice's list: an order to place with a day to order by (the fixture's is the day stock runs out).
        .filter(({ out }) => out !== null)
        .sort((a, b) => (a.out as number) - (b.out as number) || a.p.code.localeCompare(b.p.code))
        .map(({ p }) => ({ product_code: p.code, order_quantity: p.orderQuantity })),
    ordered: true,
  },
  {
    question: 'products with no sales in the last 7 days',
    expected: () => fixtureProducts.filter((p) => !lastDays(7).some((s) => s.code === p.code)).map((p) => ({ product_code: p.code })),
  },
  { question: 'weekly units sold in the last 8 weeks', expected: () => byKey(groupSum(lastDays(56), (s) => weekStart(s.date)), 'week', 'units_sold'), ordered: true },
  {
    question: 'units sold by day of the week',
    expected: () =>
      byKey(groupSum(sales, (s) => String(((new Date(`${s.date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1)), 'weekday_number', 'units_sold').map((r) => ({ ...r, weekday_number: Number(r.weekday_number) })),
    ordered: true,
  },
  { question: 'how many products per category', expected: () => byKey(new Map(['Garden', 'Kitchen', 'Tools'].map((c) => [c, fixtureProducts.filter((p) => p.category === c).length])), 'category', 'products') },
  { question: 'number of products', expected: () => [{ products: fixtureProducts.length }] },
  { question: 'units sold this month', expected: () => [{ units_sold: total(between(monthOffset(0), monthOffset(1))) || null }] },
  { question: 'units sold last month', expected: () => [{ units_sold: total(between(monthOffset(-1), monthOffset(0))) }] },
  {
    question: 'top 5 products by sales value this year',
    expected: () => ranked(groupSum(between(`${year}-01-01`, `${year + 1}-01-01`), (s) => s.code, (s) => s.quantity * productOf(s.code).unitCost), 'desc', 5, 'sales_value').map((r) => ({ ...r, sales_value: round(r.sales_value as number) })),
    ordered: true,
  },
  {
    question: 'average daily units sold in the last 30 days',
    expected: () => [{ avg_daily_units: round(total(lastDays(30)) / new Set(lastDays(30).map((s) => s.date)).size) }],
  },
  { question: 'scheduled deliveries', expected: () => [{ product_code: 'TL-001', quantity: 120 }, { product_code: 'GD-001', quantity: 60 }], ordered: true },
  { question: 'deliveries arriving in the next 7 days', expected: () => [{ product_code: 'TL-001', quantity: 120 }] },
  {
    question: 'forecast demand for the next 14 days by product',
    expected: () =>
      fixtureProducts
        .map((p) => ({ product_code: p.code, forecast_units: round(dailyDemand(p) * 14, 1) }))
        .sort((a, b) => b.forecast_units - a.forecast_units || a.product_code.localeCompare(b.product_code)),
    ordered: true,
  },
  { question: 'units sold for Garden products in the last 30 days', expected: () => [{ units_sold: total(lastDays(30).filter((s) => productOf(s.code).category === 'Garden')) }] },
  { question: 'monthly sales of TL-002', expected: () => byKey(groupSum(sales.filter((s) => s.code === 'TL-002'), (s) => monthStart(s.date)), 'month', 'units_sold'), ordered: true },
  {
    question: 'days of stock cover',
    expected: () =>
      fixtureProducts
        .map((p) => {
          const daily = total(lastDays(30).filter((s) => s.code === p.code)) / 30;
          return { product_code: p.code, days_of_cover: daily ? round(p.stock / daily, 1) : null };
        })
        .sort((a, b) => (a.days_of_cover ?? 1e9) - (b.days_of_cover ?? 1e9) || a.product_code.localeCompare(b.product_code)),
    ordered: true,
  },
  { question: 'yearly units sold', expected: () => byKey(groupSum(sales, (s) => s.date.slice(0, 4)), 'year', 'units_sold').map((r) => ({ ...r, year: Number(r.year) })), ordered: true },
  { question: 'sales trend', expected: () => byKey(groupSum(sales, (s) => monthStart(s.date)), 'month', 'units_sold'), ordered: true },
  {
    question: 'monthly units sold for the top 2 products in the last 60 days',
    expected: () => {
      const top = ranked(groupSum(lastDays(60), (s) => s.code), 'desc', 2, 'units').map((r) => r.product_code);
      const sums = groupSum(lastDays(60).filter((s) => top.includes(s.code)), (s) => `${monthStart(s.date)}|${s.code}`);
      return [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, units_sold]) => ({ month: key.split('|')[0], product_code: key.split('|')[1], units_sold }));
    },
    ordered: true,
  },
];

function sameRows(actual: Row[], expected: Row[], ordered: boolean): boolean {
  const keys = Object.keys(expected[0] ?? {});
  const project = (rows: Row[]) => rows.map((row) => keys.map((key) => (typeof row[key] === 'number' ? round(row[key] as number) : (row[key] ?? null))));
  const text = (rows: unknown[][]) => rows.map((row) => JSON.stringify(row));
  const a = text(project(actual));
  const e = text(project(expected));
  if (!ordered) {
    a.sort();
    e.sort();
  }
  return JSON.stringify(a) === JSON.stringify(e);
}

describe('built-in report generator over a known dataset', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer('pglite');
    token = (await signUpUser(server, { role: 'editor' })).access;
    await loadReportFixture(server.database.db, today);
  });
  afterAll(() => server.stop());
  /** A report drafted from a change request to a report with this title and description (a new one by default). */
  const write = async (change: string, current = { title: 'Untitled Report', description: '' }) =>
    (
      await server.request('/api/user-reports/generate-from-request/', {
        token,
        body: { report_id: null, change_request: change, current_title: current.title, current_description: current.description, current_sql_code: 'SELECT 1;', current_chart_config: null },
      })
    ).json as { success: boolean; title: string; description: string; sql_code: string; pseudocode: string; chart_config: unknown; notice: string | null; error: string | null };
  const rowsOf = async (sqlCode: string) => ((await server.request('/api/user-reports/execute/', { token, body: { sql_code: sqlCode } })).json as { results: Row[] }).results;
  const codesOf = async (sqlCode: string) => (await rowsOf(sqlCode)).map((row) => row.product_code);

  it('reads "returns" as the units returned, the sales rows of negative quantity, and counts 0 where there are none (QA4 #15)', async () => {
    const returns = await write('returns last month');
    expect(returns).toMatchObject({ success: true, notice: null });
    expect(returns.title).toMatch(/^Units returned \(last month/);
    expect(returns.pseudocode).toContain('A return is a sales row with a negative quantity');
    // The fixture sells and never takes back: a plain 0, not a missing row or the units sold.
    expect(await rowsOf(returns.sql_code)).toEqual([{ units_returned: 0 }]);
    const [product] = await server.database.db.selectFrom('data.products').select('id').where('product_code', '=', 'TL-001').execute();
    // A day of last month the hammer sold nothing on: a product has one sales row a day (on 28 Feb 2027, 1 Jan had a sale).
    let refundDay = monthOffset(-1);
    while (sales.some((sale) => sale.code === 'TL-001' && sale.date === refundDay)) refundDay = addDays(refundDay, 1);
    expect(refundDay < monthOffset(0)).toBe(true);
    const refund = await server.database.db
      .insertInto('data.sales')
      .values({ product_id: product?.id as number, date: refundDay, quantity: -3 })
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      expect(await rowsOf(returns.sql_code)).toEqual([{ units_returned: 3 }]);
      const weekly = await write('units returned by week last month');
      expect(weekly).toMatchObject({ success: true, notice: null });
      const weeks = await rowsOf(weekly.sql_code);
      expect(weeks.find((row) => row.week === weekStart(refundDay))).toEqual({ week: weekStart(refundDay), units_returned: 3 });
      expect(weeks.reduce((sum, row) => sum + Number(row.units_returned), 0)).toBe(3);
    } finally {
      await server.database.db.deleteFrom('data.sales').where('id', '=', refund.id).execute();
    }
  });

  it(`answers at least 26 of ${questions.length} questions with the right rows`, async () => {
    expect(questions.length).toBeGreaterThanOrEqual(30);
    const wrong: string[] = [];
    for (const { question, expected, ordered } of questions) {
      const generated = await server.request('/api/user-reports/generate-from-request/', {
        token,
        body: { report_id: null, change_request: question, current_title: 'Untitled Report', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null },
      });
      expect(generated.status).toBe(200);
      const answer = generated.json as { success: boolean; sql_code: string; error: string | null; pseudocode: string; chart_config: unknown; notice: string | null };
      if (!answer.success) {
        wrong.push(`${question}: ${answer.error}`);
        continue;
      }
      // Every word of these questions is used: no notice to distract from the answer.
      expect(answer.notice, question).toBeNull();
      expect(answer.pseudocode).toMatch(/^1\. /);
      expect(answer.chart_config).not.toBeNull();
      const run = await server.request('/api/user-reports/execute/', { token, body: { sql_code: answer.sql_code } });
      const rows = (run.json as { results: Row[] }).results;
      if (!sameRows(rows, expected(), ordered === true)) wrong.push(`${question}: got ${JSON.stringify(rows).slice(0, 300)}\n  expected ${JSON.stringify(expected()).slice(0, 300)}\n  sql: ${answer.sql_code}`);
    }
    const score = questions.length - wrong.length;
    console.log(`built-in generator score: ${score}/${questions.length}${wrong.length ? `\nwrong:\n${wrong.join('\n')}` : ''}`);
    expect(score).toBeGreaterThanOrEqual(26);
  });

  it('reads a period as the assistant does, and says when a code names no product', async () => {
    const unitsOf = async (sqlCode: string) => Number(((await server.request('/api/user-reports/execute/', { token, body: { sql_code: sqlCode } })).json as { results: Row[] }).results[0]?.units_sold ?? 0);
    const assistantUnits = async (question: string) => {
      const reply = ((await server.request('/api/assistant/messages/', { token, body: { content: question } })).json.messages as { content: string }[])[1]?.content ?? '';
      const said = /^([\d,]+|No) units were sold/.exec(reply)?.[1];
      return said === 'No' ? 0 : Number(said?.replaceAll(',', '') ?? Number.NaN);
    };
    const todayIso = dayFromToday(0, today);
    // A month without a year is its latest occurrence that has started; numbers in a date read day-first.
    const octoberYear = Number(todayIso.slice(5, 7)) >= 10 ? year : year - 1;
    const since = dayFromToday(-20, today);
    // "By D" on sales: the year to date up to D.
    const by = dayFromToday(-10, today);
    const cases: [string, string, number][] = [
      ['units sold last month', 'how many units did we sell last month', total(between(monthOffset(-1), monthOffset(0)))],
      ['units sold in October', 'how many units did we sell in October', total(between(`${octoberYear}-10-01`, `${octoberYear}-11-01`))],
      [`units sold since ${Number(since.slice(8))}/${Number(since.slice(5, 7))}/${since.slice(0, 4)}`, `units sold since ${Number(since.slice(8))}/${Number(since.slice(5, 7))}`, total(between(since, dayFromToday(1, today)))],
      ['units sold from 28/12/2025 to 3/1/2026', 'how many units did we sell from 28/12/2025 to 3/1/2026', total(between('2025-12-28', '2026-01-04'))],
      [`units sold by ${Number(by.slice(8))}.${Number(by.slice(5, 7))}.`, `how many units did we sell by ${Number(by.slice(8))}/${Number(by.slice(5, 7))}`, total(between(`${by.slice(0, 4)}-01-01`, dayFromToday(-9, today)))],
      // Calendar quarters: last quarter whole, this quarter to date, a quarter without a year its latest started one.
      ['units sold last quarter', 'how many units did we sell last quarter', total(between(quarterStart(-3), quarterStart(0)))],
      ['units sold this quarter', 'how many units did we sell this quarter', total(between(quarterStart(0), quarterStart(3)))],
      [`units sold in Q${quarterOf(quarterStart(-3))}`, `how many units did we sell in Q${quarterOf(quarterStart(-3))}`, total(between(quarterStart(-3), quarterStart(0)))],
      [`units sold in Q${quarterOf(quarterStart(-3))} ${quarterStart(-3).slice(0, 4)}`, `how many units did we sell in the ${['first', 'second', 'third', 'fourth'][quarterOf(quarterStart(-3)) - 1]} quarter of ${quarterStart(-3).slice(0, 4)}`, total(between(quarterStart(-3), quarterStart(0)))],
    ];
    for (const [request, question, expected] of cases) {
      const report = await write(request);
      expect(report.notice, request).toBeNull();
      expect(await unitsOf(report.sql_code), request).toBe(expected);
      expect(await assistantUnits(question), question).toBe(expected);
    }
    expect(await write('monthly sales of NOPE-999')).toMatchObject({ success: false, error: 'There is no product NOPE-999. The built-in generator wrote no report.' });
    expect((await write('monthly sales of TL-02')).error).toBe('There is no product TL-02. Did you mean TL-002? The built-in generator wrote no report.');
  });

  it('says the words it did not use on "Apply change" and "Regenerate SQL" alike, a kind of products that matches none first; a word of product names filters on both', async () => {
    const regenerate = async (title: string, description: string, sqlCode = 'SELECT 1;') =>
      (
        await server.request('/api/user-reports/regenerate/', {
          token,
          body: { field_to_regenerate: 'sql_code', current_title: title, current_description: description, current_sql_code: sqlCode, current_chart_config: null },
        })
      ).json as { success: boolean; generated_value: string; notice: string | null };
    const assistant = async (question: string) => ((await server.request('/api/assistant/messages/', { token, body: { content: question } })).json.messages as { content: string }[])[1]?.content ?? '';
    // No product's name, category or code holds "Easter": all products, and said so first, in the same words on both paths and in the assistant.
    const easter = 'sales by month for the Easter items';
    const applied = await write(easter);
    const regenerated = await regenerate(easter, easter);
    expect(applied.notice).toMatch(/^No product or category matches "Easter": showing all products\. The built-in generator did not use "Easter": the report below does not filter or break down by it\./);
    expect(regenerated.notice).toBe(applied.notice);
    expect(regenerated.generated_value).toBe(applied.sql_code);
    expect(await assistant(easter)).toContain('No product or category matches "Easter": showing all products.');
    // "Christmas" is a word of the Christmas cookie cutters' name: both paths keep those products' sales only, with nothing to say.
    const christmas = 'sales by month for the Christmas items';
    const named = await write(christmas);
    expect(named.notice).toBeNull();
    expect(named.title).toContain('products named Christmas');
    const renamed = await regenerate(christmas, '');
    expect(renamed).toMatchObject({ success: true, generated_value: named.sql_code, notice: null });
    const months = await rowsOf(named.sql_code);
    expect(months.reduce((sum, row) => sum + Number(row.units_sold), 0)).toBe(total(sales.filter((s) => s.code === 'KT-003')));
    // A report the generator wrote regenerates without a notice: its own words are not a filter dropped.
    for (const question of ['what to reorder next week', 'overstock', 'dead stock', 'days of cover', 'how many cutters did we sell', 'products not sold in 60 days', 'low stock']) {
      const report = await write(question);
      expect((await regenerate(report.title, report.description)).notice, question).toBeNull();
    }
  });


  it('reads windows ahead for stock-out, delivery and forecast reports — next week or month, by or before a date — and reads its title back', async () => {
    const dayMonth = (day: string) => `${Number(day.slice(8))}/${Number(day.slice(5, 7))}`;
    const deliveries = [
      { product_code: 'TL-001', expected_date: dayFromToday(5, today) },
      { product_code: 'GD-001', expected_date: dayFromToday(12, today) },
    ];
    const nextWeek = { from: dayFromToday(7, new Date(`${weekStart(dayFromToday(0, today))}T00:00:00Z`)), to: dayFromToday(14, new Date(`${weekStart(dayFromToday(0, today))}T00:00:00Z`)) };
    const runOuts = fixtureProducts
      .map((p) => ({ product_code: p.code, day: firstStockout(p) }))
      .filter((p): p is { product_code: string; day: number } => p.day !== null)
      .map((p) => ({ product_code: p.product_code, runs_out_on: dayFromToday(p.day, today) }));
    const cases: [string, Row[], string][] = [
      [`scheduled deliveries by ${dayMonth(dayFromToday(7, today))}`, deliveries.filter((d) => d.expected_date <= dayFromToday(7, today)), 'product_code'],
      [`scheduled deliveries before ${dayMonth(dayFromToday(5, today))}`, [], 'product_code'],
      ['scheduled deliveries next week', deliveries.filter((d) => d.expected_date >= nextWeek.from && d.expected_date < nextWeek.to), 'product_code'],
      ['which products run out next month', runOuts.filter((p) => p.runs_out_on >= monthOffset(1) && p.runs_out_on < monthOffset(2)), 'runs_out_on'],
      [`which products run out by ${dayMonth(dayFromToday(20, today))}`, runOuts.filter((p) => p.runs_out_on <= dayFromToday(20, today)), 'runs_out_on'],
      // A month or quarter named: its next occurrence, this one from today on; with a year, that one.
      [`which products run out in ${monthName(monthOffset(0))}`, runOuts.filter((p) => p.runs_out_on < monthOffset(1)), 'runs_out_on'],
      [`which products run out in ${monthName(monthOffset(1))}`, runOuts.filter((p) => p.runs_out_on >= monthOffset(1) && p.runs_out_on < monthOffset(2)), 'runs_out_on'],
      [`what runs out in Q${quarterOf(quarterStart(0))}`, runOuts.filter((p) => p.runs_out_on < quarterStart(3)), 'runs_out_on'],
      [`what runs out in Q${quarterOf(quarterStart(3))} ${quarterStart(3).slice(0, 4)}`, runOuts.filter((p) => p.runs_out_on >= quarterStart(3) && p.runs_out_on < quarterStart(6)), 'runs_out_on'],
      [`scheduled deliveries in ${monthName(monthOffset(0))} ${monthOffset(0).slice(0, 4)}`, deliveries.filter((d) => d.expected_date < monthOffset(1)), 'product_code'],
    ];
    for (const [question, expected, sortKey] of cases) {
      const report = await write(question);
      expect(report.notice, question).toBeNull();
      const rows = (await rowsOf(report.sql_code)).map((row) => ({ product_code: row.product_code, [sortKey]: row[sortKey] }));
      const wanted = expected.map((row) => ({ product_code: row.product_code, [sortKey]: row[sortKey] }));
      expect(rows, `${question}\n${report.sql_code}`).toEqual(sortKey === 'product_code' ? wanted : [...wanted].sort((a, b) => String(a[sortKey]).localeCompare(String(b[sortKey])) || String(a.product_code).localeCompare(String(b.product_code))));
      // A later change ("only Garden products") starts from the title and description: the window reads back the same.
      const again = await write('only Garden products', { title: report.title, description: report.description });
      const window = /(min\(sp\.date\)|d\.expected_date) >= [^\n]*/.exec(report.sql_code)?.[0] as string;
      expect(again.sql_code, report.title).toContain(window);
      expect(again.sql_code).toMatch(/Garden/);
    }
    expect((await write(`which products run out by ${dayMonth(dayFromToday(20, today))}`)).title).toBe(`Products that run out by ${formatDay(dayFromToday(20, today))}`);
    expect((await write(`which products run out in ${monthName(monthOffset(1))}?`)).title).toBe(`Products that run out in ${monthName(monthOffset(1))}`);
    // A window that starts later keeps what first runs out within it, as the assistant counts it: the Cutting board, out
    // today, is in a window from today and not in next week; its title and description say the window so.
    const outToday = runOuts.filter((p) => p.runs_out_on === dayFromToday(0, today)).map((p) => p.product_code);
    expect(outToday).toEqual(['KT-002']);
    const nextWeekReport = await write('which products run out next week');
    expect(nextWeekReport).toMatchObject({ title: 'Products that run out next week', description: expect.stringContaining('first reaches zero next week') });
    expect(await codesOf(nextWeekReport.sql_code)).toEqual(
      runOuts
        .filter((p) => p.runs_out_on >= nextWeek.from && p.runs_out_on < nextWeek.to)
        .sort((a, b) => a.runs_out_on.localeCompare(b.runs_out_on) || a.product_code.localeCompare(b.product_code))
        .map((p) => p.product_code),
    );
    for (const fromToday of ['which products run out in the next 7 days', 'which products run out by Sunday', `which products run out in ${monthName(monthOffset(0))}`]) {
      expect(await codesOf((await write(fromToday)).sql_code), fromToday).toContain('KT-002');
    }
    // Last month's name is next year's, past the stored forecasts: nothing yet, not last month's stock-outs.
    expect(await rowsOf((await write(`which products run out in ${monthName(monthOffset(-1))}`)).sql_code)).toEqual([]);
    // Words it cannot read are said back, not a server error.
    const smarch = await write('which products run out in Smarch');
    expect(smarch).toMatchObject({ success: true, title: 'Products that run out in the next 30 days' });
    expect(smarch.notice).toMatch(/did not use "Smarch"/);
    expect((await write('units sold by 31/02')).notice).toMatch(/did not use "31\/02"/);
    // Sales asked for days still to come are not a report of every sale so far: the writer says so, as the assistant does.
    for (const question of ['units sold next week', `units sold in Q1 ${year + 1}`, 'sales value in the next 30 days', `units sold by ${dayMonth(dayFromToday(10, today))}`]) {
      const refused = (await write(question)) as unknown as { success: boolean; error: string };
      expect(refused.success, question).toBe(false);
      expect(refused.error, question).toMatch(/^There are no sales after today: the period asked for, .+, is still to come\./);
    }
  });

  it('reads a window on a reorder report as the assistant reads an order question: every order due by its last day, overdue ones included', async () => {
    const todayIso = dayFromToday(0, today);
    const monday = weekStart(todayIso);
    const nextMonday = dayFromToday(7, new Date(`${monday}T00:00:00Z`));
    // The Claw hammer's order was due three days ago: overdue, still to be placed.
    const overdue = dayFromToday(-3, today);
    const setOrderBy = (day: string) =>
      sql`update forecast_results set reorder = jsonb_set(reorder, '{orderBy}', to_jsonb(${day}::text)) where product_id = (select id from data.products where product_code = 'TL-001')`.execute(server.database.db);
    await setOrderBy(overdue);
    try {
      /** The reorder list (an order to place, with its order-by day) with each order's due day, most urgent first. */
      const orders = fixtureProducts
        .map((p) => ({ p, out: firstStockout(p) }))
        .filter(({ out }) => out !== null)
        .map(({ p, out }) => ({ code: p.code, due: p.code === 'TL-001' ? overdue : dayFromToday(out as number, today) }))
        .sort((a, b) => a.due.localeCompare(b.due) || a.code.localeCompare(b.code));
      expect(orders.map((o) => o.code)).toEqual(['TL-001', 'KT-002', 'GD-001', 'TL-002', 'GD-002']);
      const dueBy = (last: string) => orders.filter((o) => o.due <= last).map((o) => o.code);
      const cases: [string, string[]][] = [
        ['what should we reorder?', orders.map((o) => o.code)],
        // Every window keeps what is due by its last day: the overdue order, and before a window that starts later.
        ['what to reorder in the next 7 days', dueBy(dayFromToday(6, today))],
        ['what to reorder today', dueBy(todayIso)],
        ['reorder this week', dueBy(dayFromToday(6, new Date(`${monday}T00:00:00Z`)))],
        // PostgreSQL has no quarter interval: this quarter is three months from its first day.
        ['what to reorder this quarter', dueBy(dayFromToday(-1, new Date(`${quarterStart(3)}T00:00:00Z`)))],
        [`what to reorder by ${Number(dayFromToday(2, today).slice(8))}/${Number(dayFromToday(2, today).slice(5, 7))}`, dueBy(dayFromToday(2, today))],
        [`what to reorder in ${monthName(monthOffset(0))}`, dueBy(dayFromToday(-1, new Date(`${monthOffset(1)}T00:00:00Z`)))],
        ['what must I order next week', dueBy(dayFromToday(6, new Date(`${nextMonday}T00:00:00Z`)))],
        [`what to reorder in ${monthName(monthOffset(1))}`, dueBy(dayFromToday(-1, new Date(`${monthOffset(2)}T00:00:00Z`)))],
      ];
      for (const [question, expected] of cases) {
        const report = await write(question);
        expect(report.notice, question).toBeNull();
        expect(await codesOf(report.sql_code), `${question}\n${report.sql_code}`).toEqual(expected);
        // A later change starts from the title and description: the window reads back the same.
        const again = await write('only Garden products', { title: report.title, description: report.description });
        expect(again.title).toBe(`${report.title} (category Garden)`);
        expect(await codesOf(again.sql_code), `${question}: ${report.title}`).toEqual(expected.filter((code) => code.startsWith('GD-')));
      }
      // The title says the window; the pseudocode says its days as the assistant does, and when they were counted.
      const nextWeek = await write('what must I order next week');
      expect(nextWeek.title).toBe('What to reorder next week');
      expect(nextWeek.description).toContain('only the orders due next week or earlier, overdue ones included.');
      expect(nextWeek.pseudocode).toContain(`Keep the orders due by ${formatDay(dayFromToday(6, new Date(`${nextMonday}T00:00:00Z`)))} (next week), overdue ones included.`);
      expect(nextWeek.pseudocode).toContain(`The days are those of ${formatDay(todayIso)}, when this was written`);
      const thisWeek = await write('reorder this week');
      expect(thisWeek).toMatchObject({ title: 'What to reorder this week', description: expect.stringContaining('only the orders due this week, overdue ones included') });
      expect(thisWeek.pseudocode).toContain(`Keep the orders due by ${formatDay(dayFromToday(6, new Date(`${monday}T00:00:00Z`)))} (this week), overdue ones included`);
      const byDay = await write(`what to reorder by ${Number(dayFromToday(2, today).slice(8))}/${Number(dayFromToday(2, today).slice(5, 7))}`);
      expect(byDay.title).toBe(`What to reorder by ${formatDay(dayFromToday(2, today))}`);
      expect(byDay.pseudocode).not.toContain('when this was written');
      // A window said with a year that has ended is refused, as the assistant answers it; so is a stock-out report's.
      const lastMonth = monthOffset(-1);
      for (const question of [`what to reorder in ${monthName(lastMonth)} ${lastMonth.slice(0, 4)}`, `which products run out in ${monthName(lastMonth)} ${lastMonth.slice(0, 4)}`]) {
        expect(await write(question), question).toMatchObject({
          success: false,
          error: `The window asked for, by ${formatDay(dayFromToday(-1, new Date(`${monthOffset(0)}T00:00:00Z`)))} (${monthName(lastMonth)} ${lastMonth.slice(0, 4)}), ended before today: the forecasts look ahead from today. Ask for a window still to come, such as next month, in January or by 24/12. The built-in generator wrote no report.`,
        });
      }
      // A stock-out report reads "this week" as the assistant does (it used to fall back to the next 30 days).
      const outThisWeek = await write('which products run out this week');
      expect(outThisWeek.title).toBe('Products that run out this week');
      expect(await codesOf(outThisWeek.sql_code)).toEqual(
        fixtureProducts
          .map((p) => ({ code: p.code, out: firstStockout(p) }))
          .filter((p): p is { code: string; out: number } => p.out !== null && dayFromToday(p.out, today) < nextMonday)
          .sort((a, b) => a.out - b.out || a.code.localeCompare(b.code))
          .map((p) => p.code),
      );
    } finally {
      await setOrderBy(dayFromToday(firstStockout(productOf('TL-001')) as number, today));
    }
  });

  it("leaves out of the reorder report what the Forecasting screen's lists leave out: nothing to order, or no sales in the 90 days before the forecast", async () => {
    const db = server.database.db;
    const todayIso = dayFromToday(0, today);
    const added = await db
      .insertInto('data.products')
      .values([
        { product_code: 'ZZ-DEAD', name: 'Linen tablecloth', category: 'Kitchen', current_stock: 0, unit_cost: 9, lead_time_days: 14 },
        { product_code: 'ZZ-NEW', name: 'Velvet tablecloth', category: 'Kitchen', current_stock: 0, unit_cost: 9, lead_time_days: 14 },
        { product_code: 'ZZ-STALE', name: 'Cotton tablecloth', category: 'Kitchen', current_stock: 0, unit_cost: 9, lead_time_days: 14 },
      ])
      .returning(['id', 'product_code'])
      .execute();
    const [dead, launch, stale] = added.map((row) => row.id) as [number, number, number];
    // Its last sale was 100 days ago, 70 days before its forecast's first day (a run 30 days old):
    // the order list counts the 90 days from that first day, and so must the report.
    await db.insertInto('data.sales').values({ product_id: stale, date: dayFromToday(-100, today), quantity: 3 }).execute();
    const monthAgo = dayFromToday(-30, today);
    const reorder = { safetyStock: 0, leadTimeDays: 14, serviceLevel: 0.95 };
    await storeCatalogueAdvice(db, [
      { productId: stale, forecastStart: monthAgo, stockouts: [{ date: monthAgo, type: 'stockForecast' }], reorder: { ...reorder, reorderPoint: 6, orderQuantity: 12, orderBy: monthAgo } },
      // At its reorder point with nothing to order (a zero forecast).
      { productId: dead, forecastStart: todayIso, stockouts: [], reorder: { ...reorder, reorderPoint: 0, orderQuantity: 0, orderBy: null } },
      // Out of stock with an order, but no sale of its own yet: the lists show it only under their filter.
      { productId: launch, forecastStart: todayIso, stockouts: [{ date: todayIso, type: 'stockForecast' }], reorder: { ...reorder, reorderPoint: 60, orderQuantity: 154, orderBy: todayIso } },
    ]);
    try {
      const report = await write('what should we reorder?');
      const codes = await codesOf(report.sql_code);
      expect(codes).toEqual(expect.arrayContaining(['TL-001', 'KT-002', 'GD-001']));
      expect(codes).not.toContain('ZZ-DEAD');
      expect(codes).not.toContain('ZZ-NEW');
      expect(codes).toContain('ZZ-STALE');
      const list = (await server.request('/api/forecasting/latest-report/?page_size=200', { token })).json as { report: { products: { styleCode: string }[] } };
      expect(list.report.products.map((p) => p.styleCode)).toContain('ZZ-STALE');
      expect(report.pseudocode).toContain('Keep the products it advises to order: a quantity to order and a day to order by.');
      expect(report.pseudocode).toContain("Leave out those with no sales in the 90 days before their forecast's first day");
    } finally {
      await db.deleteFrom('data.sales').where('product_id', '=', stale).execute();
      await db.deleteFrom('forecast_results').where('product_id', 'in', [dead, launch, stale]).execute();
      await db.deleteFrom('data.products').where('id', 'in', [dead, launch, stale]).execute();
    }
  });

  it('reads "not sold in 60 days" as the last 60 days, a category in any case, the best month and two periods side by side, as the assistant does', async () => {
    // The number said is the period: not the next 60 days, nor the default.
    for (const question of ['products not sold in 60 days', 'which products have not sold in 60 days?', "what haven't we sold in 60 days"]) {
      const report = await write(question);
      expect(report, question).toMatchObject({ success: true, title: 'Products with no sales in the last 60 days', notice: null });
      expect(report.sql_code, question).toContain('s.date >= current_date - 60 and s.date < current_date');
    }
    // No number: the last 90 days, as the assistant and the dashboard have it.
    expect((await write('products with no sales')).title).toBe('Products with no sales in the last 90 days');
    // Only TL-003 sells nothing for a week: the fixture's quiet products in the last 7 days, read as "in 7 days".
    expect(await codesOf((await write('products not sold in 7 days')).sql_code)).toEqual(fixtureProducts.filter((p) => !lastDays(7).some((s) => s.code === p.code)).map((p) => p.code));

    // A category in lower case, with "category" or in the plural, filters; "sells best" ranks the products (of the last 30 days: no period is said).
    const kitchenTop = ranked(groupSum(lastDays(30).filter((s) => productOf(s.code).category === 'Kitchen'), (s) => s.code), 'desc', 10, 'units_sold');
    for (const question of ['what sells best in the kitchen category?', 'top sellers in Kitchen', 'best selling kitchen products']) {
      const report = await write(question);
      expect(report, question).toMatchObject({ success: true, title: 'Units sold: top 10 products (the last 30 days, category Kitchen)', notice: null });
      expect(await rowsOf(report.sql_code), question).toEqual(kitchenTop.map((r) => ({ product_code: r.product_code, name: productOf(r.product_code as string).name, units_sold: r.units_sold })));
    }
    expect((await codesOf((await write('units sold by product in tools')).sql_code)).sort()).toEqual(['TL-001', 'TL-002', 'TL-003']);

    // The best month of last year: the months, best first.
    const lastYear = between(`${year - 1}-01-01`, `${year}-01-01`);
    const months = [...groupSum(lastYear, (s) => monthStart(s.date)).entries()].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([month, units_sold]) => ({ month, units_sold }));
    for (const question of ['what was the best month last year?', `best selling month in ${year - 1}`]) {
      const report = await write(question);
      expect(report, question).toMatchObject({ success: true, notice: null });
      expect(report.title, question).toMatch(/^Units sold by month, best month first/);
      expect(await rowsOf(report.sql_code), question).toEqual(months);
      // Read back through a change request, it stays the best months.
      expect(await rowsOf((await write('by month', { title: report.title, description: report.description })).sql_code), question).toEqual(months);
    }
    const worst = await write('worst week this year');
    // Whole weeks of this year that have ended: not the one cut by New Year, nor this one.
    const weeks = [...groupSum(between(`${year}-01-01`, `${year + 1}-01-01`), (s) => weekStart(s.date)).entries()]
      .filter(([week]) => week >= `${year}-01-01` && dayFromToday(6, new Date(`${week}T00:00:00Z`)) < dayFromToday(0, today))
      .sort(([a, x], [b, y]) => x - y || a.localeCompare(b));
    expect((await rowsOf(worst.sql_code))[0]).toEqual({ week: weeks[0]?.[0], units_sold: weeks[0]?.[1] });

    // Two periods side by side: a row each, the earlier first, with the change; the assistant gives the same units.
    // This month under way: it runs to the last day with sales, and last month counts as many days from its start (the whole of it on a month's last day).
    const tomorrow = dayFromToday(1, today);
    const lastSale = sales.reduce((last, s) => (s.date > last && s.date <= dayFromToday(0, today) ? s.date : last), '');
    const through = lastSale < monthOffset(0) ? monthOffset(0) : lastSale;
    const sameDaysEnd = addDays(monthOffset(-1), daysBetween(monthOffset(0), through) + 1);
    const lastMonthEnd = tomorrow >= monthOffset(1) || sameDaysEnd > monthOffset(0) ? monthOffset(0) : sameDaysEnd;
    const [before, after] = [total(between(monthOffset(-1), lastMonthEnd)), total(between(monthOffset(0), monthOffset(1)))];
    expect(before).toBeGreaterThan(0);
    const compared = await write('sales this month vs last month');
    expect(compared).toMatchObject({ success: true, title: 'Units sold: this month vs last month', notice: null });
    const rows = await rowsOf(compared.sql_code);
    expect(rows.map((r) => [r.period, Number(r.units_sold), r.change === null ? null : Number(r.change)])).toEqual([['last month', before, null], ['this month', after, after - before]]);
    const reply = ((await server.request('/api/assistant/messages/', { token, body: { content: 'sales this month vs last month' } })).json.messages as { content: string }[])[1]?.content ?? '';
    expect(reply).toContain(`: ${before.toLocaleString('en')}; this month`);
    expect(reply).toContain(`: ${after.toLocaleString('en')}. That is`);
    const decembers = await write(`compare December ${year - 1} against December ${year - 2} by product`);
    const december = (y: number) => groupSum(between(`${y}-12-01`, `${y + 1}-01-01`), (s) => s.code);
    const expected = fixtureProducts
      .map((p) => p.code)
      .sort()
      .flatMap((code) => [
        { product_code: code, period: `December ${year - 2}`, units_sold: december(year - 2).get(code) ?? 0 },
        { product_code: code, period: `December ${year - 1}`, units_sold: december(year - 1).get(code) ?? 0 },
      ])
      .filter((r) => december(year - 2).has(r.product_code) || december(year - 1).has(r.product_code));
    expect((await rowsOf(decembers.sql_code)).map(({ product_code, period, units_sold }) => ({ product_code, period, units_sold: Number(units_sold) }))).toEqual(expected);
  });

  it('ranks top sellers over the last 30 days unless a period is said, as the assistant does, saying so in the title; all time when asked', async () => {
    const assistant = async (question: string) => ((await server.request('/api/assistant/messages/', { token, body: { content: question } })).json.messages as { content: string }[])[1]?.content ?? '';
    const units = (rows: Row[]) => rows.map((r) => ({ product_code: r.product_code, units_sold: Number(r.units_sold) }));
    const yesterday = dayFromToday(-1, today);
    const top = await write('top sellers');
    expect(top).toMatchObject({ success: true, title: 'Units sold: top 10 products (the last 30 days)', notice: null });
    const recent = ranked(groupSum(lastDays(30), (s) => s.code), 'desc', 10, 'units_sold');
    expect(units(await rowsOf(top.sql_code))).toEqual(recent);
    // The assistant's top five, for the same days, said with them.
    const named = (rows: Row[]) => rows.slice(0, 5).map((r) => `${productOf(r.product_code as string).name} (${(r.units_sold as number).toLocaleString('en')} units)`).join(', ');
    expect(await assistant('top sellers')).toContain(`Top sellers in the last 30 days (${formatRange({ from: dayFromToday(-30, today), to: yesterday })}) by units sold: ${named(recent)}.`);
    // Read back through a change request, the period stays.
    expect((await write('in Kitchen', { title: top.title, description: top.description })).title).toBe('Units sold: top 10 products (the last 30 days, category Kitchen)');

    // "All time", "ever": every sale up to today, for both.
    const everything = ranked(groupSum(sales, (s) => s.code), 'desc', 10, 'units_sold');
    for (const question of ['top sellers of all time', 'best selling products ever', 'all-time top 10 products']) {
      const report = await write(question);
      expect(report, question).toMatchObject({ success: true, title: 'Units sold: top 10 products (all time)', notice: null });
      expect(units(await rowsOf(report.sql_code)), question).toEqual(everything);
    }
    const firstSale = sales.reduce((first, s) => (s.date < first ? s.date : first), yesterday);
    expect(await assistant('top sellers of all time')).toContain(`Top sellers of all time (${formatRange({ from: firstSale, to: dayFromToday(0, today) })}) by units sold: ${named(everything)}.`);
    const ever = await write('top sellers of all time');
    expect((await write('in Kitchen', { title: ever.title, description: ever.description })).title).toBe('Units sold: top 10 products (all time, category Kitchen)');
  });

  it('lists overstock against the forecast demand and dead stock with the value tied up, as the assistant does', async () => {
    const overstocked = (days: number) =>
      fixtureProducts
        .filter((p) => p.stock > 0 && p.stock > days * dailyDemand(p))
        .map((p) => ({ product_code: p.code, days_of_cover: Math.round(p.stock / dailyDemand(p)), stock_value: round(p.stock * p.unitCost) }))
        .sort((a, b) => b.stock_value - a.stock_value || a.product_code.localeCompare(b.product_code));
    const ask = async (question: string) => ((await server.request('/api/assistant/messages/', { token, body: { content: question } })).json.messages as { content: string; blocks: { type: string; rows?: Row[] }[] }[])[1];
    for (const [question, days] of [['which products are overstocked?', 180], ['too much stock', 180], ['excess stock with more than 250 days of stock', 250], ['overstock: more than 6 months of stock', 180], ['overstocked products over 2 months', 60]] as const) {
      const expected = overstocked(days);
      const report = await write(question);
      expect(report, question).toMatchObject({ success: true, title: `Overstocked: more than ${days} days of stock at the forecast demand`, notice: null });
      expect((await rowsOf(report.sql_code)).map(({ product_code, days_of_cover, stock_value }) => ({ product_code, days_of_cover: Number(days_of_cover), stock_value: Number(stock_value) })), question).toEqual(expected);
      // Read back through a change request: the same days.
      expect((await write('by product', { title: report.title, description: report.description })).title).toBe(report.title);
      const answer = await ask(question);
      expect(answer?.content, question).toContain(`${expected.length} products have more than ${days} days of stock at the forecast demand: ${expected.reduce((sum, r) => sum + r.stock_value, 0).toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} tied up at unit cost.`);
      expect(answer?.blocks.find((b) => b.type === 'table')?.rows?.map((r) => r.styleCode), question).toEqual(expected.map((r) => r.product_code));
    }
    // Dead stock: in stock, no sales in the last 90 days (none in the fixture), or in the days said.
    const dead = (days: number) => fixtureProducts.filter((p) => p.stock > 0 && !lastDays(days).some((s) => s.code === p.code)).map((p) => p.code);
    const deadReport = await write('dead stock');
    expect(deadReport).toMatchObject({ title: 'Dead stock: products in stock with no sales in the last 90 days', notice: null });
    expect(await codesOf(deadReport.sql_code)).toEqual(dead(90));
    const week = await write('dead stock in 7 days');
    expect(await codesOf(week.sql_code)).toEqual(dead(7));
    const said = (await ask('dead stock in 7 days'))?.content;
    expect(said).toContain(dead(7).length ? `${dead(7).length} ${dead(7).length === 1 ? 'product' : 'products'} in stock had no sales in the last 7 days` : 'No product in stock went without sales in the last 7 days');
  });

  it('reads seasons and a word of product names as the assistant does', async () => {
    const winterOf = (start: number) => ({ from: `${start}-12-01`, to: `${start + 1}-03-01` });
    const winter = [year, year - 1, year - 2].map(winterOf).find((range) => range.to <= dayFromToday(0, today)) as { from: string; to: string };
    const start = Number(winter.from.slice(0, 4));
    const hammers = total(between(winter.from, winter.to).filter((s) => s.code === 'TL-001'));
    const report = await write('how many hammers did we sell last winter?');
    expect(report).toMatchObject({ success: true, title: `Units sold (winter ${start}–${String((start + 1) % 100).padStart(2, '0')}, products named hammer)`, notice: null });
    expect(await rowsOf(report.sql_code)).toEqual([{ units_sold: hammers }]);
    const reply = ((await server.request('/api/assistant/messages/', { token, body: { content: 'how many hammers did we sell last winter?' } })).json.messages as { content: string }[])[1]?.content ?? '';
    expect(reply).toContain(`${hammers.toLocaleString('en')} units were sold of products whose name holds "hammer" (1 product in the Tools category: TL-001) in winter`);
    // Read back through a change request: the same season and products.
    expect(await rowsOf((await write('by product', { title: report.title, description: report.description })).sql_code)).toEqual([{ product_code: 'TL-001', name: 'Claw hammer', units_sold: hammers }]);
    // Last autumn: the latest September–November that has ended ("fall" too).
    const autumnYear = [year, year - 1].find((y) => `${y}-12-01` <= dayFromToday(0, today)) as number;
    const autumn = byKey(groupSum(between(`${autumnYear}-09-01`, `${autumnYear}-12-01`), (s) => productOf(s.code).category), 'category', 'units_sold');
    expect(autumn.length).toBeGreaterThan(0);
    for (const question of ['units sold last autumn by category', 'units sold last fall by category']) expect(await rowsOf((await write(question)).sql_code), question).toEqual(autumn);
  });

  it('reads "last Christmas", "at Christmas 2025" as the season 1–24 December, not the category Christmas, narrows "christmas trees" to its products named Tree, and shows the months with no sales (QA5 #7, #8, #12)', async () => {
    const db = server.database.db;
    const inserted = await db
      .insertInto('data.products')
      .values([
        { product_code: 'XG-1', name: 'Christmas Tree 6ft', category: 'Christmas', current_stock: 20, unit_cost: 30, lead_time_days: 5 },
        { product_code: 'XG-2', name: 'Holly Wreath', category: 'Christmas', current_stock: 10, unit_cost: 9, lead_time_days: 5 },
      ])
      .returning(['id', 'product_code'])
      .execute();
    const idOf = (code: string) => inserted.find((row) => row.product_code === code)?.id as number;
    const added = [
      { code: 'XG-2', date: '2025-06-15', quantity: 1 },
      { code: 'XG-1', date: '2025-12-10', quantity: 4 },
      { code: 'XG-2', date: '2025-12-20', quantity: 3 },
      { code: 'XG-1', date: '2025-12-27', quantity: 2 },
    ];
    await db.insertInto('data.sales').values(added.map((sale) => ({ product_id: idOf(sale.code), date: sale.date, quantity: sale.quantity }))).execute();
    const addedIn = (from: string, to: string, codes = ['XG-1', 'XG-2']) => added.filter((sale) => sale.date >= from && sale.date <= to && codes.includes(sale.code)).reduce((sum, sale) => sum + sale.quantity, 0);
    try {
      const lastSeason = dayFromToday(0, today) > `${year}-12-24` ? year : year - 1;
      const last = await write('what did we sell last Christmas');
      expect(last).toMatchObject({ success: true, title: `Units sold (Christmas ${lastSeason})`, notice: null });
      expect(await rowsOf(last.sql_code)).toEqual([{ units_sold: total(between(`${lastSeason}-12-01`, `${lastSeason}-12-25`)) + addedIn(`${lastSeason}-12-01`, `${lastSeason}-12-24`) }]);
      expect((await write('what sold best last Christmas')).title).toBe(`Units sold: top 10 products (Christmas ${lastSeason})`);
      const trees = await write('how many christmas trees did we sell at Christmas 2025');
      expect(trees).toMatchObject({ success: true, title: 'Units sold (Christmas 2025, category Christmas, products named Tree)', notice: null });
      expect(await rowsOf(trees.sql_code)).toEqual([{ units_sold: addedIn('2025-12-01', '2025-12-24', ['XG-1']) }]);
      // "Christmas" alone is the category; by month, the months between with no sales are there as 0.
      const months = await write('sales by month for christmas');
      expect(months.title).toBe('Units sold by month (all time, category Christmas)');
      expect(await rowsOf(months.sql_code)).toEqual(['06', '07', '08', '09', '10', '11', '12'].map((month) => ({ month: `2025-${month}-01`, units_sold: addedIn(`2025-${month}-01`, `2025-${month}-31`) })));
    } finally {
      await db.deleteFrom('data.sales').where('product_id', 'in', inserted.map((row) => row.id)).execute();
      await db.deleteFrom('data.products').where('id', 'in', inserted.map((row) => row.id)).execute();
    }
  });

  it('breaks down by a period and category at once: a row per period and category, drawn as a line per category', async () => {
    const perMonthAndCategory = (rows: typeof sales) =>
      [...groupSum(rows, (s) => `${monthStart(s.date)}|${productOf(s.code).category}`).entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, units_sold]) => ({ month: key.split('|')[0], category: key.split('|')[1], units_sold }));
    // A product group is the shop's word for a category (QA garden centre F11: "by group" was not used).
    for (const question of ['units sold per month by category', 'units sold by month and category', 'units sold per month by group', 'units sold per month by product group']) {
      const report = await write(question);
      expect(report, question).toMatchObject({ success: true, title: 'Units sold by month and category (all time)', notice: null });
      expect(report.chart_config).toMatchObject({ type: 'line', x_field: 'month', series: [{ field: 'units_sold' }], group_field: 'category' });
      // Ordered by month, then category.
      expect(await rowsOf(report.sql_code)).toEqual(perMonthAndCategory(sales));
      // A later change starts from the title: the breakdown reads back the same.
      const narrowed = await write('only the last 90 days', { title: report.title, description: report.description });
      expect(await rowsOf(narrowed.sql_code)).toEqual(perMonthAndCategory(lastDays(90)));
    }
    const weekly = await write('weekly sales value by category in the last 4 weeks');
    expect(weekly).toMatchObject({ title: 'Sales value (at unit cost) by week and category (the last 28 days)', notice: null });
    const weeklyValue = groupSum(lastDays(28), (s) => `${weekStart(s.date)}|${productOf(s.code).category}`, (s) => s.quantity * productOf(s.code).unitCost);
    expect(await rowsOf(weekly.sql_code)).toEqual([...weeklyValue.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, value]) => ({ week: key.split('|')[0], category: key.split('|')[1], sales_value: round(value) })));
    // Ranked: the top 2 categories overall, then each one's months.
    const top = await write('monthly units sold for the top 2 categories');
    expect(top).toMatchObject({ title: 'Units sold by month for the top 2 categories (all time)', notice: null });
    const topCategories = ranked(groupSum(sales, (s) => productOf(s.code).category), 'desc', 2, 'units').map((r) => r.product_code);
    expect(await rowsOf(top.sql_code)).toEqual(perMonthAndCategory(sales.filter((s) => topCategories.includes(productOf(s.code).category))));
    // "Average daily units by category" stays a breakdown by category: "daily" belongs to the measure.
    expect((await write('average daily units sold by category')).title).toBe('Average daily units sold by category (all time)');
  });

  it('breaks down by quarter ("per quarter", "quarterly"), year and day as by month, this quarter named "to date"; the assistant reads the same words the same way', async () => {
    type Execute = { results: Row[]; unfinished_period: unknown };
    type Reply = { content: string; blocks: { type: string; rows?: Row[] }[] };
    const assistant = async (question: string) => ((await server.request('/api/assistant/messages/', { token, body: { content: question } })).json.messages as Reply[])[1] as Reply;
    const periodRows = (reply: Reply) => reply.blocks.find((block) => block.type === 'table')?.rows ?? [];
    const quarterOfDay = (date: string) => `${date.slice(0, 4)}-${String(3 * quarterOf(date) - 2).padStart(2, '0')}-01`;
    const byQuarter = (rows: typeof sales) => byKey(groupSum(rows, (s) => quarterOfDay(s.date)), 'quarter', 'units_sold');
    const yesterday = dayFromToday(-1, today);
    const todayIso = dayFromToday(0, today);
    const quarterName = (start: string) => `Q${quarterOf(start)} ${start.slice(0, 4)}`;
    for (const question of ['sales by quarter', 'units sold per quarter', 'quarterly sales', 'sales quarter by quarter']) {
      const report = await write(question);
      expect(report, question).toMatchObject({ success: true, title: 'Units sold by quarter (all time)', notice: null });
      expect(report.chart_config, question).toMatchObject({ type: 'line', x_field: 'quarter', series: [{ field: 'units_sold' }] });
      expect(await rowsOf(report.sql_code), question).toEqual(byQuarter(sales));
    }
    // The run names the quarter under way (the sales run to yesterday): the chart writes it "Q4 2026 (to date)".
    const quarterly = (await server.request('/api/user-reports/execute/', { token, body: { sql_code: (await write('sales by quarter')).sql_code } })).json as Execute;
    expect(quarterly.unfinished_period).toEqual(quarterStart(0) <= yesterday ? { field: 'quarter', value: quarterStart(0), unit: 'quarter', from: quarterStart(0), through: todayIso, ends: 'today' } : null);

    const perCategory = await write('units sold per quarter by category');
    expect(perCategory).toMatchObject({ success: true, title: 'Units sold by quarter and category (all time)', notice: null });
    expect(perCategory.chart_config).toMatchObject({ type: 'line', x_field: 'quarter', group_field: 'category' });
    expect(await rowsOf(perCategory.sql_code)).toEqual(
      [...groupSum(sales, (s) => `${quarterOfDay(s.date)}|${productOf(s.code).category}`).entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, units_sold]) => ({ quarter: key.split('|')[0], category: key.split('|')[1], units_sold })),
    );
    const hammers = await write('quarterly sales for hammers');
    expect(hammers).toMatchObject({ success: true, title: 'Units sold by quarter (all time, products named hammer)', notice: null });
    expect(await rowsOf(hammers.sql_code)).toEqual(byQuarter(sales.filter((s) => s.code === 'TL-001')));

    // Years and days likewise.
    const byYear = byKey(groupSum(sales, (s) => s.date.slice(0, 4)), 'year', 'units_sold').map((r) => ({ ...r, year: Number(r.year) }));
    for (const question of ['units sold per year', 'sales by year', 'annual sales', 'sales year by year']) {
      const report = await write(question);
      expect(report, question).toMatchObject({ success: true, title: 'Units sold by year (all time)', notice: null });
      expect(await rowsOf(report.sql_code), question).toEqual(byYear);
    }
    // Every day of the period, 0 on a day with no sales (QA5 #12).
    const sold = groupSum(lastDays(7), (s) => s.date);
    const lastWeek = byKey(new Map(Array.from({ length: 7 }, (_, i) => dayFromToday(i - 7, today)).map((day) => [day, sold.get(day) ?? 0])), 'day', 'units_sold');
    for (const question of ['daily sales in the last 7 days', 'units sold per day in the last 7 days', 'sales day by day in the last 7 days']) {
      const report = await write(question);
      expect(report, question).toMatchObject({ success: true, title: 'Units sold by day (the last 7 days)', notice: null });
      expect(await rowsOf(report.sql_code), question).toEqual(lastWeek);
    }

    // The assistant: the same quarters with the same units (all time, from the first sale), the one
    // under way "(to date)", the first with the days it holds when the sales began within it.
    const firstSale = sales.reduce((first, s) => (s.date < first ? s.date : first), yesterday);
    const quarters = byQuarter(sales).map((r) => ({ start: r.quarter as string, units: r.units_sold as number }));
    if (quarters.at(-1)?.start !== quarterStart(0)) quarters.push({ start: quarterStart(0), units: 0 });
    const quarterEnd = (start: string) => addDays(new Date(Date.UTC(Number(start.slice(0, 4)), Number(start.slice(5, 7)) + 2, 1)).toISOString().slice(0, 10), -1);
    const named = quarters.map(({ start, units }, index) => ({
      period: index === quarters.length - 1 ? `${quarterName(start)} (to date)` : index === 0 && firstSale > start ? `${quarterName(start)} (${formatRange({ from: firstSale, to: quarterEnd(start) })})` : quarterName(start),
      units,
    }));
    for (const question of ['sales by quarter', 'how many units did we sell per quarter', 'quarterly sales']) {
      const reply = await assistant(question);
      expect(reply.content, question).toContain(`${total(sales).toLocaleString('en')} units were sold of all time (${formatRange({ from: firstSale, to: todayIso })}). By quarter:`);
      expect(reply.content, question).not.toContain('I did not use');
      expect(periodRows(reply), question).toEqual(named);
    }
    const hammerUnits = new Map(byQuarter(sales.filter((s) => s.code === 'TL-001')).map((r) => [r.quarter, r.units_sold]));
    expect(periodRows(await assistant('quarterly sales for hammers'))).toEqual(named.map(({ period }, i) => ({ period, units: hammerUnits.get(quarters[i]?.start) ?? 0 })));
    const daily = await assistant('daily sales in the last 7 days');
    // Every day, a Sunday (closed) with 0.
    const week = Array.from({ length: 7 }, (_, i) => dayFromToday(i - 7, today));
    expect(periodRows(daily)).toEqual(week.map((day) => ({ period: formatDay(day), units: total(between(day, addDays(day, 1))) })));
    // Today's row is under way (its sales not in yet), as on a report chart.
    if (weekStart(todayIso) < todayIso) expect(periodRows(await assistant('daily sales this week')).at(-1)).toEqual({ period: `${formatDay(todayIso)} (to date)`, units: 0 });
  });

  it('breaks down by a period and product at once: the top 10 products by the measure unless a number is said, drawn as a line per product', async () => {
    /** Each period's units per product, for the `limit` products that sold the most over all of `rows`. */
    const perPeriodAndProduct = (rows: typeof sales, period: (day: string) => string, name: string, limit: number) => {
      const top = ranked(groupSum(rows, (s) => s.code), 'desc', limit, 'units').map((r) => r.product_code);
      return [...groupSum(rows.filter((s) => top.includes(s.code)), (s) => `${period(s.date)}|${s.code}`).entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, units_sold]) => ({ [name]: key.split('|')[0], product_code: key.split('|')[1], units_sold }));
    };
    expect(fixtureProducts.length).toBeLessThan(10);
    for (const question of ['units sold per month by product', 'units sold by month and product', 'monthly units sold by product', 'sales trend by product']) {
      const report = await write(question);
      expect(report, question).toMatchObject({
        success: true,
        title: 'Units sold by month for the top 10 products (all time)',
        description: 'Units sold by month for the top 10 products (all time): the top 10 products by units sold over the whole period, each by month.',
        notice: null,
      });
      expect(report.chart_config).toMatchObject({ type: 'line', x_field: 'month', series: [{ field: 'units_sold' }], group_field: 'product_code' });
      expect(report.sql_code).toMatch(/limit 10\b/);
      // Ordered by month, then product.
      expect(await rowsOf(report.sql_code)).toEqual(perPeriodAndProduct(sales, monthStart, 'month', 10));
      // A later change starts from the title and description: the breakdown reads back the same.
      const narrowed = await write('only the last 90 days', { title: report.title, description: report.description });
      expect(narrowed.title).toBe('Units sold by month for the top 10 products (the last 90 days)');
      expect(await rowsOf(narrowed.sql_code)).toEqual(perPeriodAndProduct(lastDays(90), monthStart, 'month', 10));
    }
    // A number said ranks that many: here fewer than the catalogue holds.
    const weekly = await write('weekly units sold by product in the last 4 weeks, top 3');
    expect(weekly).toMatchObject({ title: 'Units sold by week for the top 3 products (the last 28 days)', notice: null });
    expect(await rowsOf(weekly.sql_code)).toEqual(perPeriodAndProduct(lastDays(28), weekStart, 'week', 3));
    // "Average daily units by product" stays a breakdown by product: "daily" belongs to the measure.
    expect((await write('average daily units sold by product')).title).toBe('Average daily units sold by product (all time)');
  });

  it('applies a change request to the current report and regenerates single fields', async () => {
    const generate = (change: string, current: { title: string; description: string; sql: string; chart: unknown }) =>
      server.request('/api/user-reports/generate-from-request/', {
        token,
        body: { report_id: null, change_request: change, current_title: current.title, current_description: current.description, current_sql_code: current.sql, current_chart_config: current.chart },
      });
    const first = (await generate('units sold by category', { title: 'Untitled Report', description: '', sql: 'SELECT 1;', chart: null })).json as Record<string, unknown>;
    expect(first.chart_config).toMatchObject({ type: 'bar', x_field: 'category', series: [{ field: 'units_sold' }] });
    const narrowed = (await generate('only the last 30 days', { title: first.title as string, description: first.description as string, sql: first.sql_code as string, chart: first.chart_config })).json as Record<string, unknown>;
    expect(narrowed.success).toBe(true);
    expect(narrowed.sql_code).toMatch(/current_date - 30/);
    expect(narrowed.sql_code).toMatch(/category/);
    const asPie = (await generate('as a pie chart', { title: narrowed.title as string, description: narrowed.description as string, sql: narrowed.sql_code as string, chart: narrowed.chart_config })).json as Record<string, unknown>;
    expect(asPie.sql_code).toBe(narrowed.sql_code);
    expect(asPie.chart_config).toMatchObject({ type: 'pie', x_field: 'category' });
    expect([first.notice, narrowed.notice, asPie.notice]).toEqual([null, null, null]);

    // What it cannot express is named in a notice beside the draft it could write, in the request's order.
    const byStore = (await generate('units sold by store in the last 30 days', { title: 'Untitled Report', description: '', sql: 'SELECT 1;', chart: null })).json as Record<string, unknown>;
    expect(byStore.success).toBe(true);
    expect(byStore.notice).toMatch(/^The built-in generator did not use "store": the report below does not filter or break down by it\./);
    const priced = (await generate('units sold by month for Garden products with a price over 10', { title: 'Untitled Report', description: '', sql: 'SELECT 1;', chart: null })).json as Record<string, unknown>;
    expect(priced.sql_code).toMatch(/Garden/);
    expect(priced.notice).toMatch(/did not use "price over 10"/);

    const regenerate = (field: string) =>
      server.request('/api/user-reports/regenerate/', {
        token,
        body: { field_to_regenerate: field, current_title: 'Stock value by category', current_description: '', current_sql_code: 'select 1 as x', current_chart_config: null },
      });
    const sqlAnswer = (await regenerate('sql_code')).json as { success: boolean; generated_value: string };
    expect(sqlAnswer.success).toBe(true);
    expect(sqlAnswer.generated_value).toMatch(/greatest\(o\.on_hand, 0\) \* p\.unit_cost/);
    // A report shown as a table whose SQL now gives months: the chart asked anew is a line.
    const monthly = await server.request('/api/user-reports/regenerate/', {
      token,
      body: {
        field_to_regenerate: 'chart_config',
        current_title: 'Units sold by month',
        current_description: '',
        current_sql_code: "select to_char(date, 'YYYY-MM') as month, sum(quantity) as units_sold from sales group by 1 order by 1",
        current_chart_config: { type: 'table', x_field: null, series: [], group_field: null, stacked: false, title: '', sort: null },
      },
    });
    expect(monthly.json).toMatchObject({ success: true, generated_value: { type: 'line', x_field: 'month', series: [{ field: 'units_sold' }] } });
    const pseudo = (await regenerate('pseudocode')).json as { generated_value: string };
    expect(pseudo.generated_value).toMatch(/^1\. Compute values without reading a table\./);
    const puzzled = (await generate('make it sparkle', { title: 'Untitled Report', description: '', sql: 'SELECT 1;', chart: null })).json as Record<string, unknown>;
    expect(puzzled.success).toBe(false);
    expect(puzzled.error).toMatch(/did not understand "make it sparkle"/);
  });
});

// The note against the SQL, and the writer's reading of words, on both databases (the drafts are
// test-run in the sandbox of each): every measure, breakdown and period it can combine writes SQL the
// sandbox runs; "garden products by week" is a category by week; a period is said in the request's
// words with its days; German words are read, and a measure not read is never silently replaced.
type Draft = { success: boolean; title: string; description: string; sql_code: string; pseudocode: string; notice: string | null; error: string | null };

// The grid: measure words × breakdown words × period words, in English and German. Each combination
// gets one of the filters in turn, so filters meet every measure without multiplying the grid.
const MEASURE_WORDS = ['units sold', 'revenue', 'number of sales', 'average daily units', 'stock', 'stock value', 'number of products', 'Umsatz', 'Bestand'];
const SPLIT_WORDS = ['', 'by product', 'by category', 'by day', 'by week', 'by month', 'by quarter', 'by year', 'by weekday', 'per month by category', 'per week by product', 'top 5 products', 'best month', 'pro Woche nach Kategorie'];
const PERIOD_WORDS = ['', 'last month', 'this year', 'in the last 30 days', 'in October', 'last quarter', 'yesterday', 'this month vs last month', 'letzten Monat'];
const FILTER_WORDS = ['', 'of garden products', 'of TL-001', 'in the Garden category', 'of hammers'];

describe.each(backends)('the report writer\'s note and reading of words on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'editor' })).access;
    await loadReportFixture(server.database.db, today);
  });
  afterAll(() => server.stop());
  const write = async (change: string) =>
    (
      await server.request('/api/user-reports/generate-from-request/', {
        token,
        body: { report_id: null, change_request: change, current_title: 'Untitled Report', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null },
      })
    ).json as Draft;
  const regenerate = async (title: string, description: string) =>
    (
      await server.request('/api/user-reports/regenerate/', {
        token,
        body: { field_to_regenerate: 'sql_code', current_title: title, current_description: description, current_sql_code: 'SELECT 1;', current_chart_config: null },
      })
    ).json as { success: boolean; generated_value: string; notice: string | null };
  const rowsOf = async (sqlCode: string) => ((await server.request('/api/user-reports/execute/', { token, body: { sql_code: sqlCode } })).json as { results: Row[] }).results;

  it("derives its note from what the SQL uses: the words of a part the report leaves out are named, those it uses never", async () => {
    // Every part used: the category, the period and the weeks are in the SQL, and the note says nothing.
    const garden = await write('sales of garden products last month by week');
    expect(garden.sql_code).toContain("p.category = 'Garden'");
    expect(garden.sql_code).toContain("date_trunc('week', s.date)");
    expect(garden.sql_code).toContain("date_trunc('month', current_date) - interval '1 month'");
    expect(garden.notice).toBeNull();
    // A low-stock list has no period and no weeks: the words read for them are named, not silently dropped.
    const lowStock = await write('low stock garden products last month by week');
    expect(lowStock.sql_code).toContain("p.category = 'Garden'");
    expect(lowStock.sql_code).not.toContain('s.date');
    expect(lowStock.notice).toMatch(/^The built-in generator did not use "last month week": /);
    expect(lowStock.notice).not.toContain('garden');
    // "Regenerate SQL" says the same of a title and description that ask for them.
    const regenerated = (
      await server.request('/api/user-reports/regenerate/', {
        token,
        body: { field_to_regenerate: 'sql_code', current_title: 'Low stock of garden products last month by week', current_description: '', current_sql_code: 'SELECT 1;', current_chart_config: null },
      })
    ).json as { generated_value: string; notice: string | null };
    expect(regenerated.generated_value).toBe(lowStock.sql_code);
    expect(regenerated.notice).toMatch(/did not use "last month week"/);
    // What the SQL does, in steps: one row is "the first row".
    const steps = (
      await server.request('/api/user-reports/regenerate/', {
        token,
        body: { field_to_regenerate: 'pseudocode', current_title: 'First product', current_description: '', current_sql_code: 'select product_code from products order by product_code limit 1', current_chart_config: null },
      })
    ).json as { generated_value: string };
    expect(steps.generated_value).toContain('Keep the first row.');
  });

  it('writes SQL the sandbox runs for every measure, breakdown and period it can combine', async () => {
    const failed: string[] = [];
    let index = 0;
    for (const measure of MEASURE_WORDS) {
      for (const split of SPLIT_WORDS) {
        for (const period of PERIOD_WORDS) {
          const request = [measure, FILTER_WORDS[index++ % FILTER_WORDS.length], split, period].filter(Boolean).join(' ');
          // generate-from-request test-runs the draft in the report sandbox and answers its error.
          const draft = await write(request);
          if (!draft.success) failed.push(`${request}: ${draft.error}`);
        }
      }
    }
    expect(index).toBe(MEASURE_WORDS.length * SPLIT_WORDS.length * PERIOD_WORDS.length);
    expect(failed).toEqual([]);
  }, 600_000);

  it('reads a stock measure with a sales period and weeks as the stock it has, naming the period and weeks it cannot break stock down by', async () => {
    const stock = await write('stock of garden products last month by week');
    expect(stock.success).toBe(true);
    expect(stock.sql_code).toContain("p.category = 'Garden'");
    expect(stock.sql_code).not.toMatch(/\bs\./);
    expect(await rowsOf(stock.sql_code)).toEqual([{ on_hand: fixtureProducts.filter((p) => p.category === 'Garden').reduce((sum, p) => sum + p.stock, 0) }]);
    expect(stock.notice).toMatch(/^The built-in generator did not use "last month week": /);
    // Beside the months, the category is still the stock's breakdown; only the months are named.
    const byCategory = await write('stock value per month by category');
    expect(byCategory.title).toBe('Stock value by category');
    expect(byCategory.notice).toMatch(/^The built-in generator did not use "month": /);
  });

  it("reads stock per month by product as every product's month-end stock from its counts, less sales since; only top N limits it", async () => {
    const db = server.database.db;
    // An older count of the hammer: its month ends since then are that count less its sales after it, until yesterday's count.
    const hammer = (await db.selectFrom('data.products').select('id').where('product_code', '=', 'TL-001').executeTakeFirstOrThrow()).id;
    // 75 days back spans three months on any day (60 from 30 Jan is 1 Dec: two).
    const olderCount = { day: dayFromToday(-75, today), level: 900 };
    await db.insertInto('data.stock_snapshots').values({ product_id: hammer, date: olderCount.day, stock_level: olderCount.level }).execute();
    try {
      const todayIso = dayFromToday(0, today);
      const yesterday = dayFromToday(-1, today);
      const months: string[] = [];
      for (let month = monthStart(olderCount.day); month <= todayIso; month = monthStart(addDays(month, 32))) months.push(month);
      const monthEnd = (month: string) => {
        const last = addDays(monthStart(addDays(month, 32)), -1);
        return last < todayIso ? last : todayIso;
      };
      // Every product was counted yesterday at its stock (none sold since); the hammer also 75 days ago.
      const levelOf = (p: FixtureProduct, end: string): number | null => {
        if (end >= yesterday) return p.stock;
        if (p.code !== 'TL-001' || end < olderCount.day) return null;
        const soldSince = sales.filter((s) => s.code === p.code && s.date > olderCount.day && s.date <= end).reduce((sum, s) => sum + s.quantity, 0);
        return Math.max(0, olderCount.level - soldSince);
      };
      const expected = months.flatMap((month) =>
        [...fixtureProducts]
          .sort((a, b) => a.code.localeCompare(b.code))
          .flatMap((p) => {
            const level = levelOf(p, monthEnd(month));
            return level === null ? [] : [{ month, product_code: p.code, stock_on_hand: level }];
          }),
      );
      expect(months.length).toBeGreaterThanOrEqual(3);
      const asNumbers = (rows: Row[]) => rows.map((row) => ({ ...row, stock_on_hand: Number(row.stock_on_hand) }));
      const draft = await write('stock per month by product');
      expect(draft).toMatchObject({ success: true, title: "Stock on hand at each month's end by product", notice: null });
      expect(draft.sql_code).not.toMatch(/\blimit\b/);
      expect(asNumbers(await rowsOf(draft.sql_code))).toEqual(expected);
      // Read back from its own title and description, the same report.
      expect(await regenerate(draft.title, draft.description)).toMatchObject({ success: true, generated_value: draft.sql_code, notice: null });
      // "Top 2" keeps the two with the most stock at the latest month's end, every month of theirs.
      const top2 = await write('top 2 products Bestand pro Monat');
      expect(top2.title).toBe("Stock on hand at each month's end for the top 2 products");
      expect(asNumbers(await rowsOf(top2.sql_code))).toEqual(expected.filter((row) => ['KT-003', 'GD-002'].includes(row.product_code)));
    } finally {
      await db.deleteFrom('data.stock_snapshots').where('product_id', '=', hammer).where('date', '=', olderCount.day).execute();
    }
  });

  it('reads "garden products by week" as the Garden category week by week, not a ranking of products', async () => {
    const weekly = await write('units sold of garden products by week');
    expect(weekly.title).toBe('Units sold by week (all time, category Garden)');
    expect(weekly.sql_code).not.toContain('product_code');
    expect(weekly.notice).toBeNull();
    const expected = new Map<string, number>();
    for (const sale of sales.filter((s) => productOf(s.code).category === 'Garden')) expected.set(weekStart(sale.date), (expected.get(weekStart(sale.date)) ?? 0) + sale.quantity);
    expect(await rowsOf(weekly.sql_code)).toEqual([...expected.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([week, units_sold]) => ({ week, units_sold })));
    // "Products by" followed by a measure still ranks products.
    expect((await write('top products by revenue last month')).title).toBe('Sales value (at unit cost): top 10 products (last month)');
  });

  it('names "all time" in the title of sales that name no period, so a saved report is not taken for this month\'s; stock is now, not a period', async () => {
    const everything = await write('sales value by category');
    expect(everything.title).toBe('Sales value (at unit cost) by category (all time)');
    expect(everything.notice).toBeNull();
    expect(await rowsOf(everything.sql_code)).toEqual(byKey(groupSum(sales, (s) => productOf(s.code).category, (s) => s.quantity * productOf(s.code).unitCost), 'category', 'sales_value', 2));
    // Read back from its title, the same report; a period asked for later takes the place of "all time".
    expect(await regenerate(everything.title, everything.description)).toMatchObject({ success: true, generated_value: everything.sql_code, notice: null });
    const changed = await server.request('/api/user-reports/generate-from-request/', {
      token,
      body: { report_id: null, change_request: 'last month', current_title: everything.title, current_description: everything.description, current_sql_code: everything.sql_code, current_chart_config: null },
    });
    expect(changed.json.title).toBe('Sales value (at unit cost) by category (last month)');
    expect((await write('units sold')).title).toBe('Units sold (all time)');
    expect((await write('stock value by category')).title).toBe('Stock value by category');
  });

  it('says the period in the request’s words with its days, and reads "previous calendar month" as last month', async () => {
    const lastMonth = await write('units sold last month');
    expect(lastMonth.title).toBe('Units sold (last month)');
    expect(lastMonth.pseudocode).toContain(`Keep last month (${monthName(monthOffset(-1))} ${monthOffset(-1).slice(0, 4)}). The days are those of `);
    expect(lastMonth.pseudocode).not.toMatch(/calendar/);
    // A description in other words for the same month is not named as a filter dropped.
    const regenerated = await regenerate('Units sold (last month)', 'Units sold in the previous calendar month.');
    expect(regenerated).toMatchObject({ success: true, generated_value: lastMonth.sql_code, notice: null });
  });

  it('reads the German words a shop types for measures, breakdowns and periods', async () => {
    const lastThirty = sales.filter((s) => s.date >= dayFromToday(-30, today) && s.date < dayFromToday(0, today));
    const value = new Map<string, number>();
    for (const sale of lastThirty) value.set(sale.code, (value.get(sale.code) ?? 0) + sale.quantity * productOf(sale.code).unitCost);
    const topByValue = [...value.entries()].sort(([codeA, a], [codeB, b]) => b - a || codeA.localeCompare(codeB)).slice(0, 10);
    // "Umsatz" is revenue: the worst case was units sold without a word.
    const umsatz = await write('Umsatz der Top 10 Produkte');
    expect(umsatz.title).toBe('Sales value (at unit cost): top 10 products (the last 30 days)');
    expect(umsatz.notice).toBeNull();
    expect((await rowsOf(umsatz.sql_code)).map((row) => [row.product_code, Number(row.sales_value)])).toEqual(topByValue.map(([code, sum]) => [code, round(sum)]));
    const cases: [string, string, string][] = [
      ['verkaufte Stück letzte Woche nach Produkt', 'Units sold by product (last week)', "date_trunc('week', current_date) - interval '1 week'"],
      ['Menge pro Tag im letzten Monat', 'Units sold by day (last month)', "date_trunc('month', current_date) - interval '1 month'"],
      ['Umsatz je Monat nach Kategorie dieses Jahr', 'Sales value (at unit cost) by month and category (this year)', "date_trunc('year', current_date)"],
      ['Umsatz monatlich in den letzten 3 Monaten', 'Sales value (at unit cost) by month (the last 3 months)', "interval '3 months'"],
      ['Bestand je Kategorie', 'Current stock by category', 'sum(greatest(o.on_hand, 0))'],
      ['Lagerbestand in der Kategorie Garden', 'Current stock (category Garden)', "p.category = 'Garden'"],
      ['Lagerwert nach Kategorie', 'Stock value by category', 'greatest(o.on_hand, 0) * p.unit_cost'],
      ['verkauft wöchentlich dieses Quartal', 'Units sold by week (this quarter)', "date_trunc('quarter', current_date)"],
      // German month names that differ from the English ones.
      ['Umsatz im Oktober nach Kategorie', 'Sales value (at unit cost) by category (October (the latest))', ', 10, 1)'],
      ['Stück pro Woche Dez. 2025', 'Units sold by week (December 2025)', "date '2025-12-01'"],
    ];
    for (const [request, title, inSql] of cases) {
      const draft = await write(request);
      expect([draft.title, draft.notice], request).toEqual([title, null]);
      expect(draft.sql_code, request).toContain(inSql);
    }
  });

  it('never measures what the request did not name without saying so: the unread word is named and the assumption given', async () => {
    const profit = await write('Gewinn der Top 10 Produkte');
    expect(profit.title).toBe('Units sold: top 10 products (the last 30 days)');
    expect(profit.notice).toMatch(/^The built-in generator read this as units sold, because the request names no measure it knows \(.*\); .* The built-in generator did not use "Gewinn": /);
    // Regenerating from such words says it too.
    expect((await regenerate('Margin of the top 5 products', '')).notice).toMatch(/^The built-in generator read this as units sold, because .* did not use "Margin"/);
    // A ranking whose every word is read is the top sellers by units, as the title says: no note.
    expect((await write('top 3 products last week')).notice).toBeNull();
  });
});
