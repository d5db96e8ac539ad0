// Stored forecasts as JSON text (migration 0140, docs/adr/0083), their daily rows as columns (migration
// 0290, docs/adr/0152): the answer of a forecast read carries the engine's figures unchanged, and the
// report views and the order advice read the same after the migrations as before them, for forecasts
// stored before them (rewritten) and after them.
import { sql, type Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productForecastResponse, type ProductForecastResponse } from '@stockwise/contract';
import { forecastProduct, isForecastError, type ProductForecast } from '@stockwise/forecast';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db/database.ts';
import { migrations } from '../db/migrations/index.ts';
import type { Database } from '../db/schema.ts';
import { seedDemoData } from '../demo/seed.ts';
import { createScratchDatabase } from '../testing/scratch-database.ts';
import { backends, useMigratedDatabase, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { storeForecastRows } from './repo.ts';
import { BACKTEST_FIELDS, dailyRowsJson, FORECAST_FIELDS, STOCK_FIELDS, storedForecastJson } from './stored-forecast.ts';
import { jsonObjectMembers } from './stored-json.ts';

/** A stored forecast with its daily rows as the contract has them. */
function storedAsRows(stored: string): ProductForecast {
  const members = jsonObjectMembers(stored);
  const rows = (key: string, fields: readonly string[]) => JSON.parse(dailyRowsJson(members.get(key) as string, fields)) as unknown;
  return { ...(JSON.parse(stored) as ProductForecast), forecast: rows('forecast', FORECAST_FIELDS), backtest: rows('backtest', BACKTEST_FIELDS), stock: rows('stock', STOCK_FIELDS) } as ProductForecast;
}

describe('a stored forecast', () => {
  const forecast = {
    forecast: [
      { ds: '2026-02-28', yhat: 1.23456, yhat_lower: 0.0004, yhat_upper: 3.9996, yhat_lower_80: 1, yhat_upper_80: 2.00049 },
      { ds: '2026-03-01', yhat: 1e-7, yhat_lower: 0, yhat_upper: 1234567.8915, yhat_lower_80: 0, yhat_upper_80: 0.5 },
    ],
    backtest: [{ ds: '2026-01-04', yhat: 2.0005, yhat_lower: 1, yhat_upper: 3 }],
    stock: [],
    stockouts: [],
    model: { name: 'm', description: 'd', demandClass: 'smooth', history: 'full', patterns: [], backtest: { mase: 0.123456, smape: null, mae: null } },
    reorder: { reorderPoint: 1, safetyStock: 1, orderQuantity: 0, orderBy: null, leadTimeDays: 7, serviceLevel: 0.95 },
  } as ProductForecast;

  it('keeps each daily series as its first day and a column of figures per field, rounded to three decimals each on its own', () => {
    const stored = JSON.parse(storedForecastJson(forecast)) as Record<string, unknown>;
    expect(stored.forecast).toEqual({ from: '2026-02-28', yhat: [1.235, 0], yhat_lower: [0, 0], yhat_upper: [4, 1234567.892], yhat_lower_80: [1, 0], yhat_upper_80: [2, 0.5] });
    expect(stored.backtest).toEqual({ from: '2026-01-04', yhat: [2.001], yhat_lower: [1], yhat_upper: [3] });
    expect(stored.stock).toEqual({ from: null, stock_level: [], stock_upper: [], stock_lower: [] });
    expect(stored.model).toEqual(forecast.model);
    expect(Object.keys(stored)).toEqual(Object.keys(forecast));
  });

  it("writes the rows back as the contract's JSON, byte for byte what stringifying the rounded rows gives", () => {
    const members = jsonObjectMembers(storedForecastJson(forecast));
    const rounded = forecast.forecast.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, typeof value === 'number' ? Math.round(value * 1000) / 1000 : value])));
    expect(dailyRowsJson(members.get('forecast') as string, FORECAST_FIELDS)).toBe(JSON.stringify(rounded));
    expect(dailyRowsJson(members.get('stock') as string, STOCK_FIELDS)).toBe('[]');
    // A shorter series from the same first day as a longer one written before: its own days only.
    expect(JSON.parse(dailyRowsJson('{"from":"2026-02-28","yhat":[1],"yhat_lower":[0],"yhat_upper":[2]}', BACKTEST_FIELDS))).toEqual([{ ds: '2026-02-28', yhat: 1, yhat_lower: 0, yhat_upper: 2 }]);
    // PostgreSQL's spacing (a text written by the database) reads the same.
    expect(dailyRowsJson('{"from" : "2026-12-31", "yhat" : [1, 2.5], "yhat_lower" : [0, null], "yhat_upper" : [3, 4]}', BACKTEST_FIELDS)).toBe(
      '[{"ds":"2026-12-31","yhat":1,"yhat_lower":0,"yhat_upper":3},{"ds":"2027-01-01","yhat":2.5,"yhat_lower":null,"yhat_upper":4}]',
    );
  });
});

/** What a reader of the answer gets from the stored forecast: the engine's figures, as the contract names them. */
const answerPartsOf = (engine: ProductForecast) => ({
  forecast: { sales: engine.forecast, stock: engine.stock },
  backtest: engine.backtest,
  stockouts: engine.stockouts,
  reorder: engine.reorder,
  model: { name: engine.model.name, description: engine.model.description, demandClass: engine.model.demandClass, history: engine.model.history, patterns: engine.model.patterns },
  accuracy: engine.model.backtest,
});

describe.each(backends)('a stored forecast read over HTTP on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    await seedDemoData(server.database.db, { password: 'unused password', productCount: 3, today: new Date('2026-11-22T00:00:00Z') });
    token = (await signUpUser(server)).access;
  });
  afterAll(() => server.stop());

  it("answers the engine's stored figures unchanged, in exactly the contract's shape", async () => {
    const product = await server.database.db.selectFrom('data.products').select(['id', 'product_code']).orderBy('id').executeTakeFirstOrThrow();
    // The first read forecasts the product and stores it; the second is the stored row alone.
    expect((await server.request(`/api/forecasting/forecasts/${product.product_code}`, { token })).status).toBe(200);
    const response = await server.request(`/api/forecasting/forecasts/${product.product_code}`, { token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const stored = await server.database.db.selectFrom('forecast_results').select(['result', 'model_name', 'reorder', 'stockouts']).where('product_id', '=', product.id).executeTakeFirstOrThrow();
    const engine = storedAsRows(stored.result);
    const answer = response.json as unknown as ProductForecastResponse;
    const { forecast, backtest, stockouts, reorder, metrics } = answer;
    expect({ forecast, backtest, stockouts, reorder, model: metrics.model, accuracy: metrics.accuracy }).toEqual(answerPartsOf(engine));
    expect(answer.forecast.sales.length).toBeGreaterThan(0);
    // Every field the contract names, and nothing else.
    expect(productForecastResponse.parse(answer)).toEqual(answer);
    expect(stored).toMatchObject({ model_name: engine.model.name, reorder: engine.reorder, stockouts: engine.stockouts });
  });
});

const day = (offset: number) => new Date(Date.UTC(2026, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * A forecast from the engine with its figures as the catalogue run stores them, of 100 days of
 * steady sales and a stock that runs out (or no stock count: no stock rows).
 */
function engineForecast(dailyUnits: number, options: { stockCounted: boolean } = { stockCounted: true }): ProductForecast {
  const result = forecastProduct({
    sales: Array.from({ length: 100 }, (_, t) => ({ ds: day(t), y: dailyUnits + (t % 7 === 5 ? 4 : 0) })),
    stock: options.stockCounted ? [{ ds: day(99), stock_level: 8 * dailyUnits }] : [],
    horizon: 30,
    leadTimeDays: 3,
  });
  if (isForecastError(result)) throw new Error(result.error);
  return storedAsRows(storedForecastJson(result));
}

type ViewRow = Record<string, unknown>;
const viewRows = async (db: Kysely<Database>) => ({
  forecasts: (await sql<ViewRow>`select * from data.product_forecasts order by product_id, date`.execute(db)).rows,
  projections: (await sql<ViewRow>`select * from data.stock_projections order by product_id, date`.execute(db)).rows,
  advice: (await sql<ViewRow>`select * from data.reorder_advice order by product_id`.execute(db)).rows,
});

describe.each(backends)('migrations 0140 and 0290 on %s', (backend) => {
  let database: AppDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const scratch = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-memory', { namePrefix: 'stockwise-forecast-text' });
    drop = scratch.drop;
    database = await openDatabase(scratch.target);
  });
  afterAll(async () => {
    await database.close();
    await drop();
  });

  it('keeps forecasts stored as jsonb and as rows, and the report views and the order advice read the same before and after', async () => {
    const { db } = database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const before = await migrator.migrateTo('0130-import-id-cache');
    expect(before.error).toBeUndefined();
    const products = await db
      .insertInto('data.products')
      .values([5, 9, 3].map((units) => ({ product_code: `TEXT-${units}`, name: `Sold ${units} a day`, current_stock: 8 * units, unit_cost: 2, lead_time_days: 3 })))
      .returning('id')
      .execute();
    const engines = [engineForecast(5), engineForecast(9), engineForecast(3, { stockCounted: false })];
    expect(engines[0]?.stockouts.length).toBeGreaterThan(0);
    expect(engines[0]?.backtest.length).toBeGreaterThan(0);
    expect(engines[2]?.stock).toEqual([]);
    for (const [i, { id }] of products.entries())
      await sql`insert into forecast_results (product_id, forecast_days, forecast_start, result) values (${id}, 30, ${day(100)}, ${JSON.stringify(engines[i])}::jsonb)`.execute(db);
    const viewsBefore = await viewRows(db);
    expect(viewsBefore.forecasts).toHaveLength(90);
    expect(viewsBefore.projections).toHaveLength(60);
    expect(viewsBefore.advice.slice(0, 2).every((row) => row.stockout_date !== null && row.order_quantity !== null)).toBe(true);

    await migrateToLatest(db);
    // Migration 0330 adds the forecast's first day to the advice, 0690 the supplier and its terms (none
    // here: the need is the order), 0740 made_here (none is); the rest reads as before.
    const supplierTerms = (row: ViewRow) => ({ supplier: null, order_multiple: null, min_order_quantity: null, order_quantity_needed: row.order_quantity, made_here: false });
    expect(await viewRows(db)).toEqual({ ...viewsBefore, advice: viewsBefore.advice.map((row) => ({ ...row, forecast_start: day(100), ...supplierTerms(row) })) });
    const stored = await db.selectFrom('forecast_results').select(['product_id', 'result', 'stockouts', 'reorder', 'model_name']).orderBy('product_id').execute();
    expect(stored.map((row) => ({ ...row, result: JSON.parse(row.result) as unknown }))).toEqual(
      products.map(({ id }, i) => ({ product_id: id, result: JSON.parse(storedForecastJson(engines[i] as ProductForecast)), stockouts: engines[i]?.stockouts, reorder: engines[i]?.reorder, model_name: engines[i]?.model.name })),
    );
    if (backend === 'postgres') {
      const { rows } = await sql<{ lz4: boolean; compression: string }>`
        select exists (select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any(enumvals)) as lz4,
               (select attcompression::text from pg_attribute where attrelid = 'forecast_results'::regclass and attname = 'result') as compression`.execute(db);
      expect(rows[0]?.compression).toBe(rows[0]?.lz4 ? 'l' : '');
    }

    // Written after the migration: a changed forecast (updated) and a new one (inserted) read the same way.
    const [first] = products;
    const changed = engineForecast(7);
    const added = await db.insertInto('data.products').values({ product_code: 'TEXT-NEW', name: 'New', current_stock: 0, unit_cost: 1, lead_time_days: 3 }).returning('id').executeTakeFirstOrThrow();
    const summary = { cumDemand: [1], cumVariance: [1], firstStockout: null, orderQuantity: 1 };
    const rows = [first?.id as number, added.id].map((productId) => ({ productId, resultJson: storedForecastJson(changed), ...summary }));
    expect(await storeForecastRows(db, rows, { taskId: null, forecastDays: 30, forecastStart: day(100), inputsReadAt: new Date().toISOString() })).toBe(2);
    const after = await viewRows(db);
    const changedFirst = after.forecasts.filter((row) => row.product_id === first?.id);
    expect(changedFirst.map((row) => row.demand)).toEqual(changed.forecast.map((row) => row.yhat));
    expect(after.forecasts.filter((row) => row.product_id === added.id)).toHaveLength(30);
    const adviceOf = async (id: number) => db.selectFrom('forecast_results').select(['stockouts', 'reorder', 'model_name']).where('product_id', '=', id).executeTakeFirstOrThrow();
    for (const id of [first?.id as number, added.id]) expect(await adviceOf(id)).toEqual({ stockouts: changed.stockouts, reorder: changed.reorder, model_name: changed.model.name });
  });
});

describe.each(backends)('the order advice columns (migration 0150) on %s', (backend) => {
  const database = useMigratedDatabase(backend, 'stockwise-forecast-advice');

  const adviceOf = (id: number) => database().db.selectFrom('forecast_results').select(['stockouts', 'reorder', 'model_name']).where('product_id', '=', id).executeTakeFirstOrThrow();
  const adviceIn = (engine: ProductForecast) => ({ stockouts: engine.stockouts, reorder: engine.reorder, model_name: engine.model.name });
  const summary = { cumDemand: [1], cumVariance: [1], firstStockout: null, orderQuantity: 1 };

  it("stores the catalogue run's advice as given, and reads it from the text for writes that do not give it", async () => {
    const { db } = database();
    const [given, written] = await db
      .insertInto('data.products')
      .values(['GIVEN', 'WRITTEN'].map((code) => ({ product_code: code, name: code, current_stock: 40, unit_cost: 2, lead_time_days: 3 })))
      .returning('id')
      .execute();
    const [runOut, steady] = [engineForecast(5), engineForecast(1)];
    expect(runOut.stockouts.length).toBeGreaterThan(0);
    expect(adviceIn(runOut)).not.toEqual(adviceIn(steady));

    // The writer's values are stored as given: a name the text does not have shows the text was not read.
    const row = { productId: given?.id as number, resultJson: storedForecastJson(runOut), stockoutsJson: '[]', reorderJson: JSON.stringify(runOut.reorder), modelName: 'Given by the run', ...summary };
    expect(await storeForecastRows(db, [row], { taskId: null, forecastDays: 30, forecastStart: day(100), inputsReadAt: new Date().toISOString() })).toBe(1);
    expect(await adviceOf(given?.id as number)).toEqual({ stockouts: [], reorder: runOut.reorder, model_name: 'Given by the run' });
    // A changed forecast with new advice: stored as given again (the update path).
    expect(await storeForecastRows(db, [{ ...row, resultJson: storedForecastJson(steady), stockoutsJson: JSON.stringify(steady.stockouts), modelName: steady.model.name }], { taskId: null, forecastDays: 30, forecastStart: day(100), inputsReadAt: new Date().toISOString() })).toBe(1);
    expect(await adviceOf(given?.id as number)).toEqual({ stockouts: steady.stockouts, reorder: runOut.reorder, model_name: steady.model.name });

    // A hand-written insert of the text alone, then an update of the text alone: the advice follows the text.
    await sql`insert into forecast_results (product_id, forecast_days, forecast_start, result) values (${written?.id}, 30, ${day(100)}, ${storedForecastJson(runOut)})`.execute(db);
    expect(await adviceOf(written?.id as number)).toEqual(adviceIn(runOut));
    await sql`update forecast_results set result = ${storedForecastJson(steady)} where product_id = ${written?.id}`.execute(db);
    expect(await adviceOf(written?.id as number)).toEqual(adviceIn(steady));
    // A writer that gives the advice the row already has, with a changed text: read from the text.
    await sql`update forecast_results set result = ${storedForecastJson(runOut)}, stockouts = stockouts, model_name = model_name where product_id = ${written?.id}`.execute(db);
    expect(await adviceOf(written?.id as number)).toEqual(adviceIn(runOut));
  });
});

describe.each(backends)('a slice of forecasts stored (docs/adr/0122) on %s', (backend) => {
  const database = useMigratedDatabase(backend, 'stockwise-forecast-slice');

  it('looks each product up by its id, not by a scan of the whole catalogue', async () => {
    const { db } = database();
    await sql`insert into data.products (product_code, name, current_stock, unit_cost, lead_time_days) select 'SLICE-' || i, 'Slice ' || i, 10, 1, 3 from generate_series(1, 2000) as i`.execute(db);
    await sql`analyze data.products`.execute(db);
    const ids = (await db.selectFrom('data.products').select('id').orderBy('id').limit(50).execute()).map((row) => row.id);
    const rows = ids.map((productId) => ({ productId, resultJson: storedForecastJson(engineForecast(2)), cumDemand: [1], cumVariance: [1], firstStockout: null, orderQuantity: 1 }));
    // Scans counted by this connection since its statistics were last flushed: compared within one transaction, none is.
    const scansOfProducts = async (trx: Kysely<Database>) => {
      const { rows: counts } = await sql<{ seq: string; idx: string }>`select seq_scan as seq, idx_scan as idx from pg_stat_xact_user_tables where relid = 'data.products'::regclass`.execute(trx);
      return { seq: Number(counts[0]?.seq), idx: Number(counts[0]?.idx) };
    };
    const [before, after] = await db.transaction().execute(async (trx) => {
      const counted = await scansOfProducts(trx);
      expect(await storeForecastRows(trx, rows, { taskId: null, forecastDays: 30, forecastStart: day(100), inputsReadAt: new Date().toISOString() })).toBe(50);
      return [counted, await scansOfProducts(trx)];
    });
    expect(after.seq - before.seq).toBe(0);
    expect(after.idx - before.idx).toBeGreaterThanOrEqual(50);
  });
});
