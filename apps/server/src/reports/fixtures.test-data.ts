// A small, fully known inventory for report tests: products in three categories, 400 days of
// daily sales up to yesterday (no sales on Sundays, some days without any), deliveries, and stored
// forecasts whose projected stock runs out on known days. Tests compute expected answers from
// these arrays, independently of the SQL under test.
import { sql, type Kysely } from 'kysely';
import type { ProductForecast } from '@stockwise/forecast';
import type { Database } from '../db/schema.ts';
import { storedForecastJson } from '../forecasting/stored-forecast.ts';

export type FixtureProduct = { code: string; name: string; category: string; stock: number; unitCost: number; leadTime: number; runsOutInDays: number | null; reorderPoint: number; orderQuantity: number };
export type FixtureSale = { code: string; date: string; quantity: number };

export const fixtureProducts: FixtureProduct[] = [
  { code: 'TL-001', name: 'Claw hammer', category: 'Tools', stock: 40, unitCost: 12.5, leadTime: 10, runsOutInDays: 8, reorderPoint: 60, orderQuantity: 120 },
  { code: 'TL-002', name: 'Screwdriver set', category: 'Tools', stock: 250, unitCost: 18, leadTime: 14, runsOutInDays: 25, reorderPoint: 90, orderQuantity: 200 },
  { code: 'TL-003', name: 'Tape measure', category: 'Tools', stock: 95, unitCost: 6.4, leadTime: 7, runsOutInDays: null, reorderPoint: 30, orderQuantity: 80 },
  { code: 'GD-001', name: 'Garden hose 25m', category: 'Garden', stock: 12, unitCost: 24, leadTime: 21, runsOutInDays: 3, reorderPoint: 20, orderQuantity: 60 },
  { code: 'GD-002', name: 'Pruning shears', category: 'Garden', stock: 310, unitCost: 9.9, leadTime: 14, runsOutInDays: 70, reorderPoint: 50, orderQuantity: 100 },
  { code: 'KT-001', name: 'Chef knife', category: 'Kitchen', stock: 150, unitCost: 32, leadTime: 30, runsOutInDays: null, reorderPoint: 40, orderQuantity: 50 },
  { code: 'KT-002', name: 'Cutting board', category: 'Kitchen', stock: 0, unitCost: 7.25, leadTime: 14, runsOutInDays: 0, reorderPoint: 25, orderQuantity: 75 },
  { code: 'KT-003', name: 'Christmas cookie cutters', category: 'Kitchen', stock: 500, unitCost: 3.1, leadTime: 45, runsOutInDays: null, reorderPoint: 10, orderQuantity: 40 },
];

export const SALES_DAYS = 400;
export const FORECAST_DAYS = 90;

/** UTC calendar day `offset` days from today, as YYYY-MM-DD. */
export function dayFromToday(offset: number, today = new Date()): string {
  const date = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + offset));
  return date.toISOString().slice(0, 10);
}

export function fixtureSales(today = new Date()): FixtureSale[] {
  const sales: FixtureSale[] = [];
  fixtureProducts.forEach((product, index) => {
    for (let back = 1; back <= SALES_DAYS; back++) {
      const date = dayFromToday(-back, today);
      if (new Date(`${date}T00:00:00Z`).getUTCDay() === 0) continue; // closed on Sundays
      const quantity = (index * 7 + back * 3) % (5 + index);
      if (quantity === 0) continue; // no row on a day without sales
      sales.push({ code: product.code, date, quantity });
    }
  });
  return sales;
}

function forecastJson(product: FixtureProduct, today: Date): string {
  const days = Array.from({ length: FORECAST_DAYS }, (_, i) => dayFromToday(i, today));
  const dailyDemand = product.runsOutInDays === null ? 0.5 : product.runsOutInDays === 0 ? 1 : product.stock / product.runsOutInDays;
  const stock = days.map((ds, i) => {
    const level = product.runsOutInDays === null ? product.stock : product.stock - dailyDemand * (i + 1);
    return { ds, stock_level: level, stock_lower: level - 5, stock_upper: level + 5 };
  });
  const firstOut = stock.find((point) => point.stock_level <= 0)?.ds ?? null;
  const forecast: ProductForecast = {
    forecast: days.map((ds) => ({ ds, yhat: dailyDemand, yhat_lower: dailyDemand / 2, yhat_upper: dailyDemand * 2, yhat_lower_80: dailyDemand * 0.75, yhat_upper_80: dailyDemand * 1.5 })),
    stock,
    stockouts: firstOut ? [{ date: firstOut, type: 'stockForecast' }] : [],
    reorder: { reorderPoint: product.reorderPoint, safetyStock: product.reorderPoint / 2, orderQuantity: product.orderQuantity, orderBy: firstOut, leadTimeDays: product.leadTime, serviceLevel: 0.95 },
    model: { name: 'fixture', description: 'fixture', demandClass: 'smooth', history: 'full', patterns: [], backtest: { mase: 1, smape: 1, mae: 1 } },
    backtest: [],
  };
  return storedForecastJson(forecast);
}

/** Writes the fixture into an empty database (products, sales, deliveries, snapshots, stored forecasts). */
export async function loadReportFixture(db: Kysely<Database>, today = new Date()): Promise<void> {
  const ids = new Map<string, number>();
  for (const p of fixtureProducts) {
    const row = await db
      .insertInto('data.products')
      .values({ product_code: p.code, name: p.name, category: p.category, current_stock: p.stock, unit_cost: p.unitCost, lead_time_days: p.leadTime })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.set(p.code, row.id);
  }
  const sales = fixtureSales(today);
  for (let i = 0; i < sales.length; i += 1000) {
    await db
      .insertInto('data.sales')
      .values(sales.slice(i, i + 1000).map((s) => ({ product_id: ids.get(s.code) as number, date: s.date, quantity: s.quantity })))
      .execute();
  }
  await db
    .insertInto('data.deliveries')
    .values([
      { product_id: ids.get('TL-001') as number, expected_date: dayFromToday(5, today), quantity: 120, status: 'scheduled' },
      { product_id: ids.get('GD-001') as number, expected_date: dayFromToday(12, today), quantity: 60, status: 'scheduled' },
      { product_id: ids.get('KT-001') as number, expected_date: dayFromToday(-20, today), quantity: 50, status: 'received' },
    ])
    .execute();
  await db
    .insertInto('data.stock_snapshots')
    .values(fixtureProducts.map((p) => ({ product_id: ids.get(p.code) as number, date: dayFromToday(-1, today), stock_level: p.stock })))
    .execute();
  for (const p of fixtureProducts) {
    await db
      .insertInto('forecast_results')
      // On hand as a run stores it: yesterday's count, the last day of history, with nothing sold since.
      .values({ product_id: ids.get(p.code) as number, task_id: null, forecast_days: FORECAST_DAYS, forecast_start: dayFromToday(0, today), result: forecastJson(p, today), on_hand: p.stock, on_hand_counted: p.stock, on_hand_counted_on: dayFromToday(-1, today) })
      .execute();
  }
  await sql`analyze`.execute(db);
}
