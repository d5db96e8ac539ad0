// Seeds the demo data set on an empty database: products, two years of daily sales with trend,
// weekly and yearly seasonality, promotions and intermittent slow movers, an inventory simulation
// that yields stock snapshots, received and upcoming deliveries (and real stockouts), a user, and
// a few example reports (one pinned to the user's dashboard), as Metabase ships sample questions.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { hashPassword } from '../auth/passwords.ts';
import { insertSeededAdmin } from '../auth/service.ts';
import { insertPin } from '../dashboard/repo.ts';
import { insertReport, type ReportValues } from '../reports/repo.ts';
import { createRandom, type Random } from './random.ts';

export const DEMO_USERNAME = 'demo';
const DEMO_SEED = 20_261_122;
const DEMO_PRODUCT_COUNT = 240;
const HISTORY_DAYS = 730;
const INSERT_CHUNK_ROWS = 2000;
const DAY_MS = 86_400_000;

// `suppliers`: who a shop buys the category from, a wholesaler serving several (ADR 0184); its products take turns.
// `terms`: how the suppliers sell an item (ADR 0183), none where it is sold one at a time in any number.
type Category = {
  name: string;
  items: string[];
  suppliers: string[];
  terms: Partial<Record<string, SupplierTerms>>;
  yearlyPeakDay: number;
  yearlyAmplitude: number;
  costRange: [number, number];
};
type SupplierTerms = { order_multiple?: number; min_order_quantity?: number };

const categories: Category[] = [
  { name: 'Garden', items: ['Hose', 'Trowel', 'Planter', 'Seed Mix', 'Sprinkler', 'Gloves', 'Shears', 'Compost'], suppliers: ['GreenLeaf Garden Supply', 'Northfield Wholesale'], terms: { 'Seed Mix': { order_multiple: 20 }, Gloves: { order_multiple: 12 }, Compost: { min_order_quantity: 10 } }, yearlyPeakDay: 160, yearlyAmplitude: 0.6, costRange: [3, 45] },
  { name: 'Heating', items: ['Radiator', 'Heater', 'Thermostat', 'Blanket', 'Hot Water Bottle', 'Draught Excluder'], suppliers: ['WarmHome Distribution', 'Northfield Wholesale'], terms: { 'Hot Water Bottle': { order_multiple: 24 }, 'Draught Excluder': { min_order_quantity: 10 } }, yearlyPeakDay: 15, yearlyAmplitude: 0.7, costRange: [8, 140] },
  { name: 'Beverages', items: ['Sparkling Water', 'Iced Tea', 'Lemonade', 'Cold Brew', 'Cola', 'Juice'], suppliers: ['Fresh Drinks Co.', 'City Cash & Carry'], terms: { 'Sparkling Water': { order_multiple: 24 }, 'Iced Tea': { order_multiple: 24 }, Lemonade: { order_multiple: 24 }, 'Cold Brew': { order_multiple: 12 }, Cola: { order_multiple: 24 }, Juice: { order_multiple: 12 } }, yearlyPeakDay: 190, yearlyAmplitude: 0.35, costRange: [0.5, 4] },
  { name: 'Pantry', items: ['Pasta', 'Rice', 'Olive Oil', 'Canned Tomatoes', 'Flour', 'Coffee Beans', 'Tea'], suppliers: ['City Cash & Carry', 'Mediterraneo Foods'], terms: { Pasta: { order_multiple: 12 }, 'Olive Oil': { order_multiple: 6 }, 'Canned Tomatoes': { order_multiple: 12 }, 'Coffee Beans': { order_multiple: 6 } }, yearlyPeakDay: 340, yearlyAmplitude: 0.12, costRange: [0.8, 12] },
  { name: 'Office', items: ['Notebook', 'Pen Set', 'Stapler', 'Printer Paper', 'Desk Lamp', 'Folder'], suppliers: ['Paperline Office Supplies'], terms: { Notebook: { order_multiple: 10 }, 'Printer Paper': { order_multiple: 5 } }, yearlyPeakDay: 245, yearlyAmplitude: 0.25, costRange: [1, 35] },
  { name: 'Tools', items: ['Drill Bits', 'Hammer', 'Screwdriver Set', 'Tape Measure', 'Spirit Level', 'Spare Blade'], suppliers: ['Ironworks Tools', 'Northfield Wholesale'], terms: { 'Drill Bits': { order_multiple: 5, min_order_quantity: 20 }, 'Spare Blade': { order_multiple: 10 }, 'Tape Measure': { min_order_quantity: 6 } }, yearlyPeakDay: 120, yearlyAmplitude: 0.15, costRange: [4, 90] },
];
const variants = ['Small', 'Medium', 'Large', 'Classic', 'Pro', 'Eco', 'Plus', 'Mini'];
// Friday/Saturday peaks, a quiet Sunday: a typical retail week, Monday first.
const weekdayFactors = [0.85, 0.9, 0.95, 1.0, 1.15, 1.3, 0.85];

type DemoProduct = {
  product_code: string;
  name: string;
  category: string;
  unit_cost: number;
  supplier: string;
  lead_time_days: number;
  order_multiple: number | null;
  min_order_quantity: number | null;
  meanDailyDemand: number;
  intermittent: boolean;
  trendOverHistory: number;
  categoryProfile: Category;
};

/** What a new user finds on Reports: questions a buyer asks, each a starting point to copy and change. The first is pinned. */
export const demoReports: ReportValues[] = [
  {
    title: 'Units sold per month by category',
    description: 'How each category sold month by month, complete months only: the seasons show as peaks.',
    // Months filtered after grouping: bounds on s.date made the planner sort the sales, which
    // fails on a file-backed PGlite ("could not create temporary file"; docs/operations.md).
    sql_code: `select month, category, units
from (
  select date_trunc('month', s.date)::date as month, p.category, sum(s.quantity) as units
  from sales s
  join products p on p.id = s.product_id
  where s.date < date_trunc('month', current_date)
  group by 1, 2
) by_month
where month > (select min(date) from sales)
order by 1, 2`,
    chart_config: { type: 'line', x_field: 'month', series: [{ field: 'units' }], group_field: 'category', stacked: false, title: 'Units sold per month', sort: null },
    pseudocode: 'For every complete month of the sales history and every category: add up the units sold. One line per category.',
  },
  {
    title: 'Best sellers, last 90 days',
    description: 'The 20 products that sold the most units in the last 90 days, with their stock today.',
    sql_code: `select p.product_code, p.name, sum(s.quantity) as units_sold, p.current_stock
from sales s
join products p on p.id = s.product_id
where s.date > current_date - 90
group by p.id
order by units_sold desc
limit 20`,
    chart_config: { type: 'bar', x_field: 'product_code', series: [{ field: 'units_sold', label: 'Units sold' }], group_field: null, stacked: false, title: 'Best sellers, last 90 days', sort: null },
    pseudocode: 'For every product: add up the units sold in the last 90 days. Keep the 20 that sold most, with their stock today.',
  },
  {
    title: 'Stock value by category',
    description: 'What the stock on hand is worth at unit cost, per category.',
    sql_code: `select category, sum(current_stock) as units_in_stock, round(sum(current_stock * unit_cost), 2) as stock_value
from products
group by category
order by stock_value desc`,
    chart_config: { type: 'bar', x_field: 'category', series: [{ field: 'stock_value', label: 'Stock value' }], group_field: null, stacked: false, title: 'Stock value by category', sort: null, money_fields: ['stock_value'] },
    pseudocode: 'For every category: add up the units in stock and their value at unit cost. Most valuable first.',
  },
];

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);
/**
 * The month-days the demo shop is closed on: Christmas Day. Nothing is sold and no delivery is
 * taken in (one due then arrives the next day), so the catalogue run learns the day as closed, as
 * it would from a real shop's sales, and no arrival or order-by day is proposed on it (ADR 0165,
 * amendment 2026-12-06). Open every other day, Sundays included (a quiet day, not a closed one).
 */
export const DEMO_CLOSED_MONTH_DAYS: ReadonlySet<string> = new Set(['12-25']);

function buildCatalogue(random: Random, productCount: number): DemoProduct[] {
  const products: DemoProduct[] = [];
  for (let index = 0; index < productCount; index++) {
    const category = categories[index % categories.length] as Category;
    const intermittent = random.next() < 0.22;
    const item = random.pick(category.items);
    // Supplier and terms are not drawn from `random`: the demo's figures stay those of its seed.
    const terms = category.terms[item];
    products.push({
      product_code: `${category.name.slice(0, 3).toUpperCase()}-${String(1000 + index)}`,
      name: `${item} ${random.pick(variants)}`,
      category: category.name,
      unit_cost: Math.round(random.between(...category.costRange) * 100) / 100,
      supplier: category.suppliers[Math.floor(index / categories.length) % category.suppliers.length] as string,
      lead_time_days: random.integer(5, 21),
      order_multiple: terms?.order_multiple ?? null,
      min_order_quantity: terms?.min_order_quantity ?? null,
      meanDailyDemand: intermittent ? random.between(0.05, 0.6) : Math.exp(random.between(Math.log(3), Math.log(90))),
      intermittent,
      trendOverHistory: random.between(-0.25, 0.45),
      categoryProfile: category,
    });
  }
  return products;
}

type ProductHistory = {
  sales: { date: string; quantity: number }[];
  snapshots: { date: string; stock_level: number }[];
  deliveries: { expected_date: string; quantity: number; status: 'scheduled' | 'received' }[];
  finalStock: number;
};

function simulateProduct(random: Random, product: DemoProduct, firstDay: number, closedMonthDays: ReadonlySet<string>): ProductHistory {
  const demoClosedOn = (time: number) => closedMonthDays.has(isoDay(time).slice(5));
  const promotions = Array.from({ length: product.intermittent ? 0 : random.integer(2, 6) }, () => ({
    start: random.integer(0, HISTORY_DAYS - 10),
    uplift: random.between(1.3, 2.2),
  }));
  const coverDays = product.lead_time_days + 10;
  const reorderPoint = Math.ceil(product.meanDailyDemand * coverDays) + (product.intermittent ? 1 : 0);
  const orderQuantity = Math.max(1, Math.ceil(product.meanDailyDemand * 35));
  let stock = Math.ceil(product.meanDailyDemand * 30) + 2;
  let openOrder: { arrives: number; quantity: number } | null = null;
  const history: ProductHistory = { sales: [], snapshots: [], deliveries: [], finalStock: 0 };

  for (let day = 0; day < HISTORY_DAYS; day++) {
    const time = firstDay + day * DAY_MS;
    const date = isoDay(time);
    const closed = demoClosedOn(time);
    if (openOrder && openOrder.arrives === day && closed) openOrder.arrives += 1;
    else if (openOrder && openOrder.arrives === day) {
      stock += openOrder.quantity;
      history.deliveries.push({ expected_date: date, quantity: openOrder.quantity, status: 'received' });
      openOrder = null;
    }
    const weekday = (new Date(time).getUTCDay() + 6) % 7;
    const dayOfYear = Math.floor((time - Date.UTC(new Date(time).getUTCFullYear(), 0, 1)) / DAY_MS);
    const yearly = 1 + product.categoryProfile.yearlyAmplitude * Math.cos((2 * Math.PI * (dayOfYear - product.categoryProfile.yearlyPeakDay)) / 365.25);
    const trend = 1 + (product.trendOverHistory * day) / HISTORY_DAYS;
    const promotion = promotions.find((p) => day >= p.start && day < p.start + 7)?.uplift ?? 1;
    // Drawn on a closed day too, so the other days' draws are those of a shop open every day.
    const demand = random.poisson(product.meanDailyDemand * (weekdayFactors[weekday] ?? 1) * yearly * trend * promotion);
    // Sales are capped by stock: days out of stock sell nothing although demand was there.
    const sold = closed ? 0 : Math.min(demand, Math.max(stock, 0));
    stock -= sold;
    if (sold > 0) history.sales.push({ date, quantity: sold });
    if (!openOrder && stock <= reorderPoint) {
      // One order in twelve is late, which is where the stockouts in the demo history come from.
      const delay = random.next() < 1 / 12 ? random.integer(5, 15) : 0;
      openOrder = { arrives: day + product.lead_time_days + delay, quantity: orderQuantity };
    }
    if (weekday === 6 || day === HISTORY_DAYS - 1) history.snapshots.push({ date, stock_level: stock });
  }
  if (openOrder) {
    while (demoClosedOn(firstDay + openOrder.arrives * DAY_MS)) openOrder.arrives += 1;
    history.deliveries.push({
      expected_date: isoDay(firstDay + openOrder.arrives * DAY_MS),
      quantity: openOrder.quantity,
      status: openOrder.arrives >= HISTORY_DAYS ? 'scheduled' : 'received',
    });
  }
  history.finalStock = stock;
  return history;
}

async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK_ROWS) await insert(rows.slice(start, start + INSERT_CHUNK_ROWS));
}

/**
 * The demo products' codes and names, as seeded with any count up to the default (the catalogue is
 * drawn before any history, so a smaller seed holds the first of these): how the demo data is found
 * again to remove it.
 */
export const demoProductKeys = (): { code: string; name: string }[] =>
  buildCatalogue(createRandom(DEMO_SEED), DEMO_PRODUCT_COUNT).map((product) => ({ code: product.product_code, name: product.name }));

/**
 * The demo products and their simulated histories up to the day before `today`: the same every
 * time for the same day (a fixed seed). Also the forecast benchmark's demo set. `closedMonthDays`:
 * the shop's closed days, the demo's own unless a test asks what the seed made without them.
 */
export function demoCatalogue(today: Date, productCount = DEMO_PRODUCT_COUNT, closedMonthDays = DEMO_CLOSED_MONTH_DAYS): { product: DemoProduct; history: ProductHistory }[] {
  const random = createRandom(DEMO_SEED);
  const firstDay = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - HISTORY_DAYS * DAY_MS;
  return buildCatalogue(random, productCount).map((product) => ({ product, history: simulateProduct(random, product, firstDay, closedMonthDays) }));
}

export type DemoSeedResult = { seeded: boolean; products: number; salesRows: number };

/** Seeds only a database that has no products and no users; otherwise does nothing. */
export async function seedDemoData(
  db: Kysely<Database>,
  options: { password: string; today?: Date; productCount?: number },
): Promise<DemoSeedResult> {
  const existing = await db
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('users').select('id')).as('has_users'),
      eb.exists(eb.selectFrom('data.products').select('id')).as('has_products'),
    ])
    .executeTakeFirstOrThrow();
  if (existing.has_users || existing.has_products) return { seeded: false, products: 0, salesRows: 0 };

  const catalogue = demoCatalogue(options.today ?? new Date(), options.productCount);
  const passwordHash = await hashPassword(options.password);
  let salesRows = 0;

  await db.transaction().execute(async (trx) => {
    const user = await insertSeededAdmin(trx, { username: DEMO_USERNAME, email: 'demo@example.com', passwordHash });
    if (!user) throw new Error('The demo user could not be created.');
    // Inserted last one first: Reports lists the newest first, so it shows them in this order.
    let firstReportId = 0;
    for (const report of [...demoReports].reverse()) firstReportId = await insertReport(trx, { ...report, owner: user.id });
    await insertPin(trx, user.id, firstReportId);
    for (const { product, history } of catalogue) {
      const { id } = await trx
        .insertInto('data.products')
        .values({
          product_code: product.product_code,
          name: product.name,
          category: product.category,
          current_stock: history.finalStock,
          unit_cost: product.unit_cost,
          supplier: product.supplier,
          lead_time_days: product.lead_time_days,
          order_multiple: product.order_multiple,
          min_order_quantity: product.min_order_quantity,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await insertInChunks(history.sales, (chunk) =>
        trx.insertInto('data.sales').values(chunk.map((s) => ({ product_id: id, ...s }))).execute(),
      );
      await insertInChunks(history.snapshots, (chunk) =>
        trx.insertInto('data.stock_snapshots').values(chunk.map((s) => ({ product_id: id, ...s }))).execute(),
      );
      if (history.deliveries.length) {
        await trx.insertInto('data.deliveries').values(history.deliveries.map((d) => ({ product_id: id, ...d }))).execute();
      }
      salesRows += history.sales.length;
    }
  });
  return { seeded: true, products: catalogue.length, salesRows };
}
