// The everyday inventory questions (ADR 0189) on a shop of pieces and kilos, through the real HTTP
// server on both databases: out of stock now, slow movers, sales and stock by category, an average per
// day or week, the period before a named one, what arrives on a day — each figure computed here from
// the dataset, the "nothing" answers too, and the model's tools giving the engine's answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDay, formatDayRange, type AssistantBlock, type ChatMessage } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import type { FakeChatModel } from '../testing/fake-chat-model.ts';
import { modelToolResults, startServerWithModel, stopServerWithModel } from '../testing/model-tool-results.ts';

const DAY_MS = 86_400_000;
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const TODAY = new Date().toISOString().slice(0, 10);
const back = (day: string) => Math.round((Date.parse(`${TODAY}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / DAY_MS);

type Product = { code: string; name: string; category: string | null; unit: string | null; stock: number; cost: number; supplier: string | null; counted: boolean };
const products: Product[] = [
  { code: 'HEA-1', name: 'Oil Radiator', category: 'Heating', unit: null, stock: 20, cost: 40, supplier: 'Acme', counted: true },
  // Out of stock, a delivery on its way.
  { code: 'HEA-2', name: 'Fan Heater', category: 'Heating', unit: null, stock: 0, cost: 25, supplier: 'Acme', counted: true },
  // "Out" in its name: never read as "out of stock"; sold once in the last 90 days.
  { code: 'GAR-1', name: 'Outdoor Chair', category: 'Garden', unit: null, stock: 6, cost: 30, supplier: null, counted: true },
  // Sold below its count: out of stock, its delivery late. Its sales start ten days ago.
  { code: 'GAR-2', name: 'Garden Hose', category: 'Garden', unit: null, stock: -2, cost: 12, supplier: null, counted: true },
  { code: 'GAR-3', name: 'Compost', category: 'Garden', unit: 'kg', stock: 120.5, cost: 0.8, supplier: null, counted: true },
  // Out of stock by weight, no delivery.
  { code: 'PAN-1', name: 'Flour', category: 'Pantry', unit: 'kg', stock: 0, cost: 1.2, supplier: null, counted: true },
  // In stock, never sold: dead stock, the slowest mover.
  { code: 'PAN-2', name: 'Tea Tin', category: 'Pantry', unit: null, stock: 15, cost: 4, supplier: null, counted: true },
  { code: 'MISC-1', name: 'Gift Card Holder', category: null, unit: null, stock: 8, cost: 2, supplier: null, counted: true },
  // Never counted: its stock is not known, neither in nor out of stock.
  { code: 'OFF-1', name: 'Desk Lamp', category: 'Office', unit: null, stock: 0, cost: 15, supplier: null, counted: false },
];
const byCode = (code: string) => products.find((p) => p.code === code) as Product;

/** Quantity sold of a product on a day (`ago` days before today). */
function soldOn(code: string, ago: number): number {
  if (ago < 1 || ago > 200) return 0;
  if (code === 'HEA-1') return ago <= 60 ? 3 : 0;
  if (code === 'HEA-2') return ago >= 11 && ago <= 40 ? 1 : 0;
  if (code === 'GAR-1') return ago === 80 ? 1 : 0;
  if (code === 'GAR-2') return ago <= 10 ? 2 : 0;
  if (code === 'GAR-3') return ago <= 30 ? 2.5 : 0;
  if (code === 'PAN-1') return ago >= 31 && ago <= 60 ? 1.5 : 0;
  if (code === 'MISC-1') return ago % 7 === 0 ? 1 : 0;
  return 0;
}
type Range = { from: string; to: string };
const soldIn = (code: string, { from, to }: Range) => {
  let sum = 0;
  for (let day = from; day <= to; day = addDays(day, 1)) sum += soldOn(code, back(day));
  return Math.round(sum * 1000) / 1000;
};
const lastDays = (n: number): Range => ({ from: addDays(TODAY, -n), to: addDays(TODAY, -1) });
const daysOf = ({ from, to }: Range) => back(from) - back(to) + 1;
const monthStart = (offset: number) => new Date(Date.UTC(Number(TODAY.slice(0, 4)), Number(TODAY.slice(5, 7)) - 1 + offset, 1)).toISOString().slice(0, 10);
const previousMonth: Range = { from: monthStart(-1), to: addDays(monthStart(0), -1) };
const monthBefore: Range = { from: monthStart(-2), to: addDays(monthStart(-1), -1) };
const monday = addDays(TODAY, -((new Date(`${TODAY}T00:00:00Z`).getUTCDay() + 6) % 7));
const previousWeek: Range = { from: addDays(monday, -7), to: addDays(monday, -1) };
const weekBefore: Range = { from: addDays(monday, -14), to: addDays(monday, -8) };

const LONG = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** Days as the answers write them ("7 Dec 2026", "6 Nov–5 Dec 2026"): the app's one style. */
const dayWords = formatDay;
const rangeWords = ({ from, to }: Range) => formatDayRange(from, to);
const fmt = (n: number) => new Intl.NumberFormat('en', { maximumFractionDigits: 3 }).format(n);
const money = (n: number) => new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
const round2 = (n: number) => Math.round(n * 100) / 100;
/** Units of pieces or kilos, as answers write them. */
const amount = (n: number, unit: string | null) => (unit ? `${fmt(n)} ${unit}` : `${fmt(n)} ${n === 1 ? 'unit' : 'units'}`);
/** Pieces and kilos in a sentence, a unit with none left out ("12 units and 3.5 kg"; none: "0 units"). */
const amounts = (pieces: number, kg: number) => [...(pieces ? [amount(pieces, null)] : []), ...(kg ? [amount(kg, 'kg')] : [])].join(' and ') || amount(0, null);

const textOf = (message: ChatMessage | undefined) => message?.content ?? '';
const tableOf = (message: ChatMessage | undefined) => (message?.blocks ?? []).find((b): b is Extract<AssistantBlock, { type: 'table' }> => b.type === 'table');

/** Deliveries: tomorrow two (and a cancelled one), one in three days, one late, one received. */
const DELIVERIES = [
  { code: 'HEA-1', in: 1, quantity: 12, status: 'scheduled' as const },
  { code: 'HEA-1', in: 1, quantity: 99, status: 'cancelled' as const },
  { code: 'GAR-1', in: 1, quantity: 4, status: 'scheduled' as const },
  { code: 'HEA-2', in: 3, quantity: 30, status: 'scheduled' as const },
  { code: 'GAR-2', in: -2, quantity: 10, status: 'scheduled' as const },
  { code: 'HEA-1', in: -5, quantity: 40, status: 'received' as const },
];

async function loadShop(server: TestServer): Promise<Record<string, number>> {
  const db = server.database.db;
  const ids: Record<string, number> = {};
  for (const p of products) {
    ids[p.code] = (await db.insertInto('data.products').values({ product_code: p.code, name: p.name, category: p.category, unit: p.unit, current_stock: p.stock, unit_cost: p.cost, lead_time_days: 7, supplier: p.supplier }).returning('id').executeTakeFirstOrThrow()).id;
  }
  await db
    .insertInto('data.stock_snapshots')
    .values(products.filter((p) => p.counted).map((p) => ({ product_id: ids[p.code] as number, date: TODAY, stock_level: p.stock })))
    .execute();
  const sales = products.flatMap((p) => Array.from({ length: 200 }, (_, i) => i + 1).flatMap((ago) => (soldOn(p.code, ago) ? [{ product_id: ids[p.code] as number, date: addDays(TODAY, -ago), quantity: soldOn(p.code, ago) }] : [])));
  await db.insertInto('data.sales').values(sales).execute();
  // One delivery per product and day: the cancelled one is another day's row in the table's key, so it is a day apart.
  await db
    .insertInto('data.deliveries')
    .values(DELIVERIES.map((d) => ({ product_id: ids[d.code] as number, expected_date: addDays(TODAY, d.status === 'cancelled' ? d.in + 1 : d.in), quantity: d.quantity, status: d.status })))
    .execute();
  return ids;
}

/** On hand now as the answers count it: below 0 is 0. */
const onHand = (p: Product) => Math.max(0, p.stock);

describe.each(backends)('the everyday questions on %s', (backend) => {
  let server: TestServer;
  let viewer: Awaited<ReturnType<typeof signUpUser>>;
  const ask = async (content: string) => {
    const response = await server.request('/api/assistant/messages/', { token: viewer.access, body: { content } });
    expect(response.status, response.text).toBe(200);
    return (response.json.messages as ChatMessage[]).at(-1);
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    viewer = await signUpUser(server, { role: 'viewer' });
    await loadShop(server);
  });
  afterAll(() => server.stop());

  it('lists what is out of stock now with when each is expected back, in English, German and Dutch, and says the products never counted apart', async () => {
    const out = products.filter((p) => p.counted && p.stock <= 0).sort((a, b) => a.code.localeCompare(b.code));
    expect(out.map((p) => p.code)).toEqual(['GAR-2', 'HEA-2', 'PAN-1']);
    const expected = `${out.length} products are out of stock now (nothing on hand); 1 of them has no delivery scheduled. 1 product has never been counted, so whether it is in stock is not known.`;
    for (const question of ['which products are out of stock', 'how many products are out of stock?', 'sold out', 'out-of-stock items', 'what is out of stock right now', 'which products are out of stock and when will they be back?', 'Welche Produkte sind ausverkauft?', 'Welche Produkte sind ausverkauft und wann kommen sie wieder?', 'Was ist nicht vorrätig?', 'welke producten zijn uitverkocht', 'wat is niet op voorraad']) {
      const answer = await ask(question);
      expect(textOf(answer), question).toBe(expected);
    }
    const table = tableOf(await ask('which products are out of stock'));
    expect(table?.columns.map((c) => c.key)).toEqual(['styleCode', 'name', 'category', 'supplier', 'onHand', 'expected']);
    expect(table?.download).toBe('out-of-stock.csv');
    expect(table?.rows).toEqual([
      { styleCode: 'GAR-2', name: 'Garden Hose', category: 'Garden', supplier: null, onHand: 0, expected: `Late: expected ${dayWords(addDays(TODAY, -2))} (10 units)` },
      { styleCode: 'HEA-2', name: 'Fan Heater', category: 'Heating', supplier: 'Acme', onHand: 0, expected: `${dayWords(addDays(TODAY, 3))} (30 units)` },
      { styleCode: 'PAN-1', name: 'Flour', category: 'Pantry', supplier: null, onHand: 0, expected: 'No delivery scheduled' },
    ]);
    // Narrowed: a category, a supplier; none out of stock in one.
    expect(textOf(await ask('which garden products are out of stock?'))).toBe('In the Garden category, 1 is out of stock now (nothing on hand); a delivery is scheduled.');
    expect(textOf(await ask('what is out of stock from Acme?'))).toBe('Among the products from Acme, 1 is out of stock now (nothing on hand); a delivery is scheduled.');
    expect(textOf(await ask('which products without a supplier are out of stock?'))).toBe('Among the products without a supplier, 2 are out of stock now (nothing on hand); 1 of them has no delivery scheduled. 1 product has never been counted, so whether it is in stock is not known.');
    expect(textOf(await ask('which office products are out of stock'))).toBe(
      'In the Office category, none is out of stock: every product counted has stock on hand. 1 product has never been counted, so whether it is in stock is not known.',
    );
  });

  it('says nothing is out of stock when every product counted has stock', async () => {
    const db = server.database.db;
    const out = ['GAR-2', 'HEA-2', 'PAN-1'];
    await db.updateTable('data.products').set({ current_stock: 5 }).where('product_code', 'in', out).execute();
    try {
      const answer = await ask('what is out of stock?');
      expect(textOf(answer)).toBe('Nothing is out of stock: every product counted has stock on hand. 1 product has never been counted, so whether it is in stock is not known.');
      expect(tableOf(answer)).toBeUndefined();
    } finally {
      for (const code of out) await db.updateTable('data.products').set({ current_stock: byCode(code).stock }).where('product_code', '=', code).execute();
    }
  });

  it('keeps a product named "Out…", stock and run-out questions as they were: a named product out of stock gets its stock', async () => {
    expect(textOf(await ask('stock of Outdoor Chair'))).toContain('Outdoor Chair (GAR-1) has 6 units on hand');
    expect(textOf(await ask('is the Outdoor Chair out of stock?'))).toContain('Outdoor Chair (GAR-1) has 6 units on hand');
    expect(textOf(await ask('is the Fan Heater out of stock?'))).toContain('Fan Heater (HEA-2) has 0 units on hand');
    expect(textOf(await ask('when will Outdoor Chair run out?'))).toBe('Outdoor Chair (GAR-1) is not forecast to run out within the forecast horizon.');
    expect(textOf(await ask('what runs out first?'))).toBe('No product is forecast to run out within the forecast horizon (or no forecast has been made yet).');
    // Out of stock later: what runs out, as the forecast says.
    expect(textOf(await ask('which products will be out of stock next week?'))).toMatch(/^No product is forecast to run out next week \(/);
    expect(textOf(await ask('Wann ist Compost ausverkauft?'))).toBe('Compost (GAR-3) is not forecast to run out within the forecast horizon.');
    const totalUnits = products.filter((p) => p.unit === null).reduce((sum, p) => sum + onHand(p), 0);
    expect(textOf(await ask('how much stock do we have in total?'))).toBe(`There are ${fmt(totalUnits)} units, 120.5 kg on hand across ${products.length} products.`);
  });

  it('lists the slow movers: in stock, least sold in the last 90 days first, none sold included, each unit apart, with cover and value; dead stock the same products that sold nothing', async () => {
    const window = lastDays(90);
    const inStock = products.filter((p) => p.counted && p.stock > 0);
    const ranked = (unit: string | null, range = window) =>
      inStock
        .filter((p) => p.unit === unit)
        .map((p) => ({ ...p, sold: soldIn(p.code, range) }))
        .sort((a, b) => a.sold - b.sold || a.code.localeCompare(b.code));
    const rows = [...ranked(null), ...ranked('kg')];
    const cover = (p: (typeof rows)[number]) => (p.sold > 0 ? Math.round(p.stock / (p.sold / 90)) : 'No sales');
    for (const question of ['slow movers', 'slow moving items', 'our slowest sellers', 'slow-moving stock']) {
      const answer = await ask(question);
      expect(textOf(answer), question).toBe(
        `Slow movers in the last 90 days (${rangeWords(window)}): the ${rows.length} products of the ${inStock.length} in stock that sold least, each unit ranked on its own, least first. 1 of them sold nothing (dead stock). Days of cover: the stock on hand at the period's rate of sales.`,
      );
      expect(tableOf(answer)?.rows, question).toEqual(rows.map((p) => ({ styleCode: p.code, name: p.name, units: p.sold, unit: p.unit, onHand: p.stock, cover: cover(p), value: round2(p.stock * p.cost) })));
    }
    expect(tableOf(await ask('slow movers'))?.download).toBe('slow-movers.csv');
    // A number said, and a period.
    const two = await ask('top 2 slow movers last month');
    expect(textOf(two)).toMatch(new RegExp(`^Slow movers last month \\(${rangeWords(previousMonth)}\\): the 3 products of the 5 in stock that sold least, each unit ranked on its own`));
    expect(tableOf(two)?.rows.map((r) => r.styleCode)).toEqual([...ranked(null, previousMonth).slice(0, 2), ...ranked('kg', previousMonth)].map((p) => p.code));
    // Dead stock: the slow movers that sold nothing.
    const dead = await ask('dead stock');
    expect(tableOf(dead)?.rows.map((r) => r.styleCode)).toEqual(rows.filter((p) => p.sold === 0).map((p) => p.code));
    // The worst sellers still rank what sold in the last 30 days, as before.
    expect(textOf(await ask('what sells worst'))).toMatch(/^Worst sellers in the last 30 days .* by units sold, each unit ranked on its own: in units: Gift Card Holder/);
    // Nothing in stock in a category: said plainly.
    expect(textOf(await ask('slow movers in the office category'))).toBe('In the Office category, none is in stock, so none is a slow mover.');
  });

  it('compares a period with the one before it: the week before, the month before, the previous month', async () => {
    const columns = (message: ChatMessage | undefined) => tableOf(message)?.rows.map((row) => [row.period, row.units, row.units_kg]);
    const weekly = [
      [`from ${dayWords(weekBefore.from)} to ${dayWords(weekBefore.to)}`, ...['', 'kg'].map((unit) => products.filter((p) => (p.unit ?? '') === unit).reduce((sum, p) => sum + soldIn(p.code, weekBefore), 0))],
      [`last week (${rangeWords(previousWeek)})`, ...['', 'kg'].map((unit) => products.filter((p) => (p.unit ?? '') === unit).reduce((sum, p) => sum + soldIn(p.code, previousWeek), 0))],
    ];
    for (const question of ['sales last week vs the week before', 'how did sales last week compare to the week before?', 'did we sell more last week than the previous week?']) {
      const answer = await ask(question);
      expect(columns(answer), question).toEqual(weekly);
      expect(textOf(answer), question).not.toContain('I did not use');
    }
    const month = (range: Range) => `in ${LONG[Number(range.from.slice(5, 7)) - 1]} ${range.from.slice(0, 4)} (${rangeWords(range)})`;
    const heating = (range: Range) => soldIn('HEA-1', range) + soldIn('HEA-2', range);
    const monthly = await ask('sales in the heating category last month compared to the month before');
    expect(tableOf(monthly)?.rows.map((row) => [row.period, row.units])).toEqual([
      [month(monthBefore), heating(monthBefore)],
      [`last month (${rangeWords(previousMonth)})`, heating(previousMonth)],
    ]);
  });

  it('breaks sales down by category — units a column per unit, value at unit cost, "(no category)" last — ranked by value when the units differ', async () => {
    const window = previousMonth;
    const category = (name: string | null) => products.filter((p) => p.category === name);
    const sold = (name: string | null, unit: string | null) => category(name).filter((p) => p.unit === unit).reduce((sum, p) => sum + soldIn(p.code, window), 0);
    const value = (name: string | null) => round2(category(name).reduce((sum, p) => sum + soldIn(p.code, window) * p.cost, 0));
    const named = ['Garden', 'Heating', 'Office', 'Pantry'].sort((a, b) => value(b) - value(a) || a.localeCompare(b));
    const row = (name: string | null) => ({ category: name ?? '(no category)', units: sold(name, null), units_kg: sold(name, 'kg'), value: value(name), products: category(name).length });
    const answer = await ask('sales by category last month');
    const first = named[0] as string;
    expect(textOf(answer)).toBe(
      `Sales by category last month (${rangeWords(window)}), ranked by sales value at unit cost (no selling prices are kept, so revenue is counted at unit cost), as their units do not add up: ${first} sold the most, ${amounts(sold(first, null), sold(first, 'kg'))}, worth ${money(value(first))} at unit cost. 4 categories. 1 product has no category (the "(no category)" row).`,
    );
    const table = tableOf(answer);
    expect(table?.columns.map((c) => [c.key, c.label, c.kind])).toEqual([
      ['category', 'Category', 'category'],
      ['units', 'Units sold', undefined],
      ['units_kg', 'Sold (kg)', undefined],
      ['value', 'Sales value (at unit cost)', 'money'],
      ['products', 'Products', undefined],
    ]);
    expect(table?.rows).toEqual([...named, null].map(row));
    const all = [...named, null];
    expect(table?.totals).toEqual({ category: 'Total', units: all.reduce((sum, name) => sum + sold(name, null), 0), units_kg: all.reduce((sum, name) => sum + sold(name, 'kg'), 0), value: round2(all.reduce((sum, name) => sum + value(name), 0)), products: products.length });
    expect(table?.download).toBe('sales-by-category.csv');
    // The best (worst) selling category of the last 30 days, and "top 2" lists two.
    const recent = (name: string) => round2(category(name).reduce((sum, p) => sum + soldIn(p.code, lastDays(30)) * p.cost, 0));
    const byRecent = ['Garden', 'Heating', 'Office', 'Pantry'].sort((a, b) => recent(b) - recent(a) || a.localeCompare(b));
    expect(textOf(await ask("what's our best selling category?"))).toContain(`: ${byRecent[0]} sold the most,`);
    const leastRecent = ['Garden', 'Heating', 'Office', 'Pantry'].sort((x, y) => recent(x) - recent(y) || x.localeCompare(y));
    expect(textOf(await ask('which category sold least in the last 30 days?'))).toContain(`: ${leastRecent[0]} sold the least,`);
    const two = await ask('top 2 categories by sales');
    expect(tableOf(two)?.rows.map((r) => r.category)).toEqual(byRecent.slice(0, 2));
    expect(tableOf(two)?.totals).toBeNull();
    // A category named is no breakdown: its top sellers.
    expect(textOf(await ask('top sellers in the heating category'))).toMatch(/^Top sellers in the Heating category in the last 30 days/);
  });

  it('ranks categories by units sold when every product counted is of one unit, and says when no product has a category', async () => {
    // The products named Radiator are all pieces, of one category.
    const units = soldIn('HEA-1', previousMonth);
    // The category is named once, as the row it is (ADR 0189, amendment 2026-12-06 (3)).
    expect(textOf(await ask('sales by category of radiators last month'))).toBe(
      `Sales by category of products whose name holds "Radiator" (1 product: HEA-1) last month (${rangeWords(previousMonth)}), ranked by units sold: Heating sold the most, ${amount(units, null)}, worth ${money(units * 40)} at unit cost. 1 category.`,
    );
    const noCategories = await startTestServer(backend);
    try {
      const token = (await signUpUser(noCategories, { role: 'viewer' })).access;
      await noCategories.database.db.insertInto('data.products').values({ product_code: 'X-1', name: 'Widget', current_stock: 3, unit_cost: 1, lead_time_days: 5 }).execute();
      const asked = async (content: string) => ((await noCategories.request('/api/assistant/messages/', { token, body: { content } })).json.messages as ChatMessage[]).at(-1);
      for (const question of ['sales by category', 'stock value by category']) {
        expect(textOf(await asked(question)), question).toBe("No product has a category yet: set each product's Category on the Data screen, or import it with the products.");
      }
    } finally {
      await noCategories.stop();
    }
  });

  it('breaks the stock down by category as the stock value counts it, kilos and pieces apart', async () => {
    const category = (name: string | null) => products.filter((p) => p.category === name);
    const units = (name: string | null, unit: string | null) => category(name).filter((p) => p.unit === unit).reduce((sum, p) => sum + onHand(p), 0);
    // Never counted: its stored figure, as the stock value and the dashboard count it.
    const value = (name: string | null) => round2(category(name).reduce((sum, p) => sum + onHand(p) * p.cost, 0));
    const named = ['Garden', 'Heating', 'Office', 'Pantry'].sort((a, b) => value(b) - value(a) || a.localeCompare(b));
    const total = round2(products.reduce((sum, p) => sum + onHand(p) * p.cost, 0));
    const answer = await ask('stock value by category');
    const first = named[0] as string;
    expect(textOf(answer)).toBe(
      `Stock on hand by category, ranked by value at unit cost: ${money(total)} at unit cost in all, ${fmt(products.filter((p) => !p.unit).reduce((sum, p) => sum + onHand(p), 0))} units and 120.5 kg. ${first} holds the most: ${amount(units(first, null), null)}, worth ${money(value(first))}. 4 categories. 1 product has no category (the "(no category)" row).`,
    );
    const table = tableOf(answer);
    expect(table?.rows).toEqual([...named, null].map((name) => ({ category: name ?? '(no category)', products: category(name).length, onHand: units(name, null), onHand_kg: units(name, 'kg'), value: value(name) })));
    expect(table?.columns.find((c) => c.key === 'onHand_kg')?.label).toBe('On hand (kg)');
    expect(table?.totals?.value).toBe(total);
    // The same total as the stock value's answer.
    expect(textOf(await ask('what is our stock worth?'))).toContain(`worth ${money(total)} at unit cost`);
    expect(textOf(await ask('stock by category'))).toMatch(/^Stock on hand by category, ranked by value at unit cost/);
  });

  it('answers an average a day or a week: a product over its days with sales from its first, the catalogue per unit', async () => {
    const window = lastDays(30);
    expect(textOf(await ask('average daily sales of Oil Radiator'))).toBe(`Oil Radiator (HEA-1) sold 3 units a day on average in the last 30 days (${rangeWords(window)}): 90 units over 30 days.`);
    expect(textOf(await ask('what is the weekly average of Oil Radiator sales?'))).toBe(`Oil Radiator (HEA-1) sold 21 units a week on average in the last 30 days (${rangeWords(window)}): 90 units over 30 days.`);
    // Its sales start ten days ago: the average is over those days.
    const hose = { from: addDays(TODAY, -10), to: addDays(TODAY, -1) };
    expect(textOf(await ask('how many Garden Hose do we sell per day on average?'))).toBe(
      `Garden Hose (GAR-2) sold 2 units a day on average in the last 30 days (${rangeWords(window)}): 20 units over 10 days (${rangeWords(hose)}), from its first sale on ${dayWords(hose.from)}.`,
    );
    const month = previousMonth;
    const perDay = (unit: string | null) => products.filter((p) => p.unit === unit).reduce((sum, p) => sum + soldIn(p.code, month), 0);
    const figure = (n: number) => (n >= 10 ? Math.round(n) : Number(n.toPrecision(2)));
    const days = daysOf(month);
    const kg = perDay('kg');
    expect(textOf(await ask('average daily sales last month'))).toBe(
      `On average ${amount(figure(perDay(null) / days), null)}${kg ? ` and ${amount(figure(kg / days), 'kg')}` : ''} were sold a day last month (${rangeWords(month)}): ${amount(perDay(null), null)}${kg ? ` and ${amount(kg, 'kg')}` : ''} over ${days} days.`,
    );
    // Never sold: 0 a day.
    expect(textOf(await ask('average daily sales of Tea Tin'))).toBe(`Tea Tin (PAN-2) sold 0 units a day on average in the last 30 days (${rangeWords(window)}): 0 units over 30 days. It has no sales recorded.`);
  });

  it('answers what arrives on a day: tomorrow, on a weekday, this week; late deliveries said beside', async () => {
    const tomorrow = addDays(TODAY, 1);
    for (const question of ['what arrives tomorrow?', 'deliveries tomorrow', 'was kommt morgen an?']) {
      const answer = await ask(question);
      expect(textOf(answer), question).toBe(`2 deliveries are expected tomorrow (${dayWords(tomorrow)}); 1 late (expected before ${dayWords(TODAY)} and not received).\nLate:\nUpcoming:`);
      const tables = (answer?.blocks ?? []).filter((b): b is Extract<AssistantBlock, { type: 'table' }> => b.type === 'table');
      expect(tables.map((t) => t.rows.map((r) => [r.styleCode, r.quantity])), question).toEqual([[['GAR-2', 10]], [['GAR-1', 4], ['HEA-1', 12]]]);
    }
    const inThree = addDays(TODAY, 3);
    const weekday = WEEKDAYS[new Date(`${inThree}T00:00:00Z`).getUTCDay()] as string;
    expect(textOf(await ask(`deliveries on ${weekday}`))).toMatch(new RegExp(`^1 delivery is expected on ${weekday} \\(${dayWords(inThree)}\\); 1 late`));
    expect(textOf(await ask('what arrives the day after tomorrow'))).toMatch(new RegExp(`^0 deliveries are expected the day after tomorrow \\(${dayWords(addDays(TODAY, 2))}\\); 1 late`));
    const sunday = addDays(monday, 6);
    const thisWeek = DELIVERIES.filter((d) => d.status === 'scheduled' && d.in >= 0 && addDays(TODAY, d.in) <= sunday).length;
    expect(textOf(await ask("what's arriving this week?"))).toMatch(new RegExp(`^${thisWeek} ${thisWeek === 1 ? 'delivery is' : 'deliveries are'} expected by ${dayWords(sunday)} \\(this week\\); 1 late`));
  });
});

describe.each(backends)("the model's tools for the everyday questions on %s", (backend) => {
  let server: TestServer;
  let model: FakeChatModel;
  let viewer: Awaited<ReturnType<typeof signUpUser>>;
  beforeAll(async () => {
    ({ server, model } = await startServerWithModel(backend));
    viewer = await signUpUser(server, { role: 'viewer' });
    await loadShop(server);
  });
  afterAll(() => stopServerWithModel({ server, model }));
  const toolResults = (calls: { name: string; args: Record<string, unknown> }[]) => modelToolResults(server, model, viewer.access, calls);
  /** The engine's answer to a question, for a tool's to equal it (the model's path falls back to the engine when it answers nothing). */
  const engine = async (content: string) => {
    model.script([{ status: 500, body: { error: { message: 'down' } } }]);
    const response = await server.request('/api/assistant/messages/', { token: viewer.access, body: { content } });
    return (response.json.messages as ChatMessage[]).at(-1)?.content ?? '';
  };

  it('gives the model out of stock, slow movers, figures by category, averages, the period before and a day ahead, as the engine answers them', async () => {
    const { results, tools } = await toolResults([
      { name: 'out_of_stock', args: {} },
      { name: 'out_of_stock', args: { category: 'garden' } },
      { name: 'top_sellers', args: { in_stock: true, order: 'worst' } },
      { name: 'units_sold', args: { by: 'category', period: 'last month' } },
      { name: 'stock_value', args: { by: 'category' } },
      { name: 'sales_of_product', args: { product: 'Oil Radiator', average: 'day' } },
      { name: 'units_sold', args: { average: 'week', period: 'last month' } },
      { name: 'compare_sales', args: { period: 'last week', other_period: 'the week before' } },
      { name: 'deliveries', args: { window: 'tomorrow' } },
      { name: 'top_sellers', args: { in_stock: 'yes' } },
      { name: 'stock_value', args: { by: 'supplier' } },
      { name: 'units_sold', args: { by: 'day', average: 'day' } },
      { name: 'top_sellers', args: { in_stock: true, by: 'revenue' } },
    ]);
    const names = tools.map((tool) => tool.function.name);
    expect(names).toContain('out_of_stock');
    expect(tools.find((t) => t.function.name === 'units_sold')?.function.parameters.properties.by?.enum).toEqual(['day', 'week', 'month', 'quarter', 'year', 'category']);
    expect(tools.find((t) => t.function.name === 'top_sellers')?.function.parameters.properties.in_stock?.type).toBe('boolean');
    expect(results[0]?.text).toBe(await engine('which products are out of stock'));
    expect(results[0]?.tables[0]?.rows.map((r) => r.styleCode)).toEqual(['GAR-2', 'HEA-2', 'PAN-1']);
    expect(results[1]?.text).toBe('In the Garden category, 1 is out of stock now (nothing on hand); a delivery is scheduled.');
    expect(results[2]?.text).toBe(await engine('slow movers'));
    expect(results[3]?.text).toBe(await engine('sales by category last month'));
    expect(results[4]?.text).toBe(await engine('stock value by category'));
    expect(results[5]?.text).toBe(await engine('average daily sales of Oil Radiator'));
    expect(results[6]?.text).toBe(await engine('average weekly sales last month'));
    expect(results[7]?.tables[0]?.rows.map((r) => r.period)).toEqual([`from ${dayWords(weekBefore.from)} to ${dayWords(weekBefore.to)}`, `last week (${rangeWords(previousWeek)})`]);
    expect(results[8]?.text).toBe(await engine('what arrives tomorrow'));
    expect(results.slice(9).map((r) => r.text)).toEqual([
      `Error: 'in_stock' must be true or false; got "yes".`,
      `Error: 'by' must be one of "category"; got "supplier".`,
      "Error: Give 'average' or 'by', not both.",
      `Error: 'in_stock' ranks by units sold: leave out 'by' or give "units".`,
    ]);
  });
});
