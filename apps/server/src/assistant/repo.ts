// SQL of the assistant: its history per user and the data functions its answers (and the model's
// tool calls) read. Every function is a fixed, parameterised query: no SQL comes from the question.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { groupByUnit, isMeasureUnit, quantitiesByUnit, roundQuantity, type UnitQuantity } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { escapeRegExp } from '../plain-words/reading.ts';
import { comparedName, fullNamePattern, nameWordSqlPattern, UNEVEN_WHITE_SPACE, WHITE_SPACE, wordsInEitherNumber } from '../plain-words/catalogue.ts';
import { onHandNowUnits } from '../stock/repo.ts';
import { outOfSeasonNow } from '../forecasting/repo.ts';
import { lockDeliveryDays, notBought, notStocked } from '../order-advice/repo.ts';
import { unitsForTotal } from '../dashboard/repo.ts';

type Db = Kysely<Database>;

// History -------------------------------------------------------------------------------------

const messageColumns = ['id', 'role', 'content', 'blocks', 'created_at'] as const;

export const insertMessage = (db: Db, message: { userId: number; role: 'user' | 'assistant'; content: string; blocks: unknown[]; context: Record<string, unknown> | null }) =>
  db
    .insertInto('assistant_messages')
    .values({ user_id: message.userId, role: message.role, content: message.content, blocks: JSON.stringify(message.blocks), context: message.context ? JSON.stringify(message.context) : null })
    .returning(messageColumns)
    .executeTakeFirstOrThrow();

/** The latest messages of one user, oldest first. */
export const recentMessages = async (db: Db, userId: number, limit: number) =>
  (await db.selectFrom('assistant_messages').select(messageColumns).where('user_id', '=', userId).orderBy('id', 'desc').limit(limit).execute()).reverse();

// Data ------------------------------------------------------------------------------------------

/**
 * Of `productIds`, those whose stored forecast rests on under four weeks of sales (its model's
 * `history` 'short'), with the first and last day they sold on before it starts: a stock-out day
 * said of them is an early estimate (ADR 0070, amendment 2026-12-06 (2)).
 */
export const shortHistorySpans = async (db: Db, productIds: readonly number[]): Promise<Map<number, { from: string; to: string }>> =>
  productIds.length === 0
    ? new Map()
    : new Map(
        (
          await sql<{ product_id: number; first: string; last: string }>`
            select f.product_id, min(s.date)::text as first, max(s.date)::text as last
            from forecast_results f join data.sales s on s.product_id = f.product_id and s.date < f.forecast_start and s.quantity <> 0
            where f.product_id in (${sql.join([...productIds])}) and (f.result::json -> 'model' ->> 'history') = 'short'
            group by f.product_id`.execute(db)
        ).rows.map((row) => [Number(row.product_id), { from: row.first, to: row.last }]),
      );

export type ProductRow = { id: number; product_code: string; name: string; current_stock: number; unit: string | null; unit_cost: number; lead_time_days: number; supplier: string | null };
// A product's supplier as stored: the answers name it by its supplier's one spelling (ADR 0186).
const productColumns = ['p.id', 'p.product_code', 'p.name', 'p.current_stock', 'p.unit', 'p.unit_cost', 'p.lead_time_days', 'p.supplier'] as const;

/**
 * A stored name as `comparedName` reads one, in SQL: lower case, an apostrophe straight, white space
 * single and none at either end ("  Paper  bag " is "paper bag"); the stored name is unchanged. The
 * regular expression that makes white space single runs only on a name whose white space is uneven:
 * on every name it doubled the pick's time (docs/performance.md).
 */
const fullNameSql = (name: RawBuilder<string>) => {
  const straight = sql<string>`translate(lower(${name}), ${'\u2019'}, ${"'"})`;
  return sql<string>`(case when ${name} ~ ${UNEVEN_WHITE_SPACE} then trim(regexp_replace(${straight}, ${WHITE_SPACE}, ' ', 'g')) else ${straight} end)`;
};

/**
 * The products the text names, in the order it names them: by code (a whole word of it) or by name —
 * whole words, its last word in either number (`fullNamePattern`: "paper bags" is "Paper bag", never
 * "paper bag" and an "s"; "crew t-shirts" is "Crew T-Shirt"), white space and apostrophes as
 * `comparedName` reads them on both sides. A name inside a longer named one counts once, so "Blue Mug
 * Large" is not also "Blue Mug"; of two names on the same words the one written as the text writes it
 * ("Paper bag" for "paper bag" where "Paper bags" is a product too).
 */
export async function productsNamedIn(db: Db, text: string): Promise<ProductRow[]> {
  const lowered = comparedName(text);
  const words = [...new Set(lowered.split(' ').map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')).filter(Boolean))];
  // Names written as the text writes them, or whose words before the last are in it and whose last is one of its words in either
  // number; each is matched below. Plain string functions but for `fullNameSql`'s test of the white space, read once per name
  // (`offset 0` keeps the subquery, so it is not repeated at each use): this runs over every name on every question
  // (docs/performance.md).
  const name = sql.ref('p.compared');
  const last = sql`reverse(split_part(reverse(${name}), ' ', 1))`;
  const found = await db
    .selectFrom(
      db
        .selectFrom('data.products as p')
        .select([...productColumns, fullNameSql(sql.ref('p.name')).as('compared')])
        .offset(0)
        .as('p'),
    )
    .select(productColumns)
    .where((eb) =>
      eb.or([
        sql<boolean>`lower(p.product_code) = any(${words}::text[])`,
        sql<boolean>`length(${name}) >= 3 and (strpos(${lowered}, ${name}) > 0 or (${last} = any(${wordsInEitherNumber(lowered)}::text[]) and strpos(${lowered}, left(${name}, -length(${last}))) > 0))`,
      ]),
    )
    .orderBy(sql`greatest(length(${name}), length(p.product_code))`, 'desc')
    .limit(50)
    .execute();
  const codeAt = (row: ProductRow) => new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(row.product_code.toLowerCase())}($|[^\\p{L}\\p{N}])`, 'u').exec(lowered)?.index ?? -1;
  const matches = found.flatMap((row) => {
    const byCode = codeAt(row);
    if (byCode >= 0) return [{ row, at: byCode, length: row.product_code.length + 1, asWritten: true }];
    const byName = fullNamePattern(row.name).exec(lowered);
    return byName ? [{ row, at: byName.index, length: byName[0].length, asWritten: byName[0] === comparedName(row.name) }] : [];
  });
  // Longest first, then as written: a shorter match inside one already taken is part of that name.
  matches.sort((a, b) => b.length - a.length || Number(b.asWritten) - Number(a.asWritten));
  const named: typeof matches = [];
  for (const match of matches) if (!named.some((taken) => match.at >= taken.at && match.at + match.length <= taken.at + taken.length)) named.push(match);
  return named.sort((a, b) => a.at - b.at).map(({ row }) => row);
}

export const productCodes = async (db: Db): Promise<string[]> => (await db.selectFrom('data.products').select('product_code').orderBy('product_code').execute()).map((row) => row.product_code);

/** The last day with sales anywhere, to say so when a period has none because the data ends before it. */
export const lastSalesDay = async (db: Db): Promise<string | null> =>
  (await sql<{ day: string | null }>`select max(date)::text as day from data.sales`.execute(db)).rows[0]?.day ?? null;

/** The first day with sales anywhere: where "all time" starts. */
export const firstSalesDay = async (db: Db): Promise<string | null> =>
  (await sql<{ day: string | null }>`select min(date)::text as day from data.sales`.execute(db)).rows[0]?.day ?? null;

/** Units one product sold from `from` to `to` (both included), and its first day with sales ever. */
export async function unitsSold(db: Db, productId: number, from: string, to: string): Promise<{ units: number; returned: number; firstSale: string | null }> {
  const row = (
    await sql<{ units: number; returned: number; first_sale: string | null }>`
      select coalesce(sum(quantity) filter (where date between ${from}::date and ${to}::date), 0)::float8 as units,
             coalesce(-sum(quantity) filter (where date between ${from}::date and ${to}::date and quantity < 0), 0)::float8 as returned,
             min(date)::text as first_sale
      from data.sales where product_id = ${productId}`.execute(db)
  ).rows[0];
  return { units: Number(row?.units ?? 0), returned: Number(row?.returned ?? 0), firstSale: row?.first_sale ?? null };
}

/**
 * The stored forecast's demand of each product summed over the days from `from` to `to` it reaches
 * (`first`, `last`: those days; none when it reaches none of them), and `spread95`: the half-width
 * of the stored stock band on the last of them — the 95 % range of the demand summed from the
 * forecast's first day (ADR 0108, 0110) — when the days start on that first day; null otherwise or
 * when the stock, and so the band, is not known.
 */
export async function forecastDemand(db: Db, productIds: number[], from: string, to: string): Promise<Map<number, { units: number; first: string; last: string; spread95: number | null }>> {
  if (!productIds.length) return new Map();
  const rows = (
    await sql<{ product_id: number; units: number; first: string; last: string; spread95: number | null }>`
      with days as (
        select product_id, date, demand, stock_level - stock_lower as spread, min(date) over (partition by product_id) as forecast_first
        from data.product_forecasts
        where product_id in (${sql.join(productIds)})
      )
      select product_id, sum(demand)::float8 as units, min(date)::text as first, max(date)::text as last,
        case when min(date) = min(forecast_first) then (array_agg(spread order by date desc))[1] end::float8 as spread95
      from days
      where date between ${from}::date and ${to}::date and demand is not null
      group by product_id`.execute(db)
  ).rows;
  return new Map(rows.map((r) => [r.product_id, { units: Number(r.units), first: r.first, last: r.last, spread95: r.spread95 === null ? null : Number(r.spread95) }]));
}

/**
 * The products whose name holds `word` as a word (either number is the caller's: the catalogue's own
 * word), of `category` when one is given (a category alone: its products), by code.
 */
export const productsWithNameWord = (db: Db, word: string | null, category: string | null = null): Promise<(ProductRow & { category: string | null })[]> =>
  db
    .selectFrom('data.products as p')
    .select([...productColumns, 'p.category'])
    .$if(word !== null, (query) => query.where(sql<boolean>`lower(p.name) ~ ${nameWordSqlPattern(word as string)}`))
    .$if(category !== null, (query) => query.where('p.category', '=', category as string))
    .orderBy('p.product_code')
    .execute();

/** The products bought from a supplier (`holds`: SupplierNames.holds, any of its spellings; of null, those with none), by id. */
export const productIdsOfSupplier = async (db: Db, holds: RawBuilder<boolean>): Promise<number[]> =>
  (await db.selectFrom('data.products as p').select('p.id').where(holds).execute()).map((row) => row.id);

/** The first `limit` products with no supplier (`none`: SupplierNames.holds(null) — none, or a blank one), by code. */
export const productsWithoutSupplier = (db: Db, none: RawBuilder<boolean>, limit: number): Promise<{ product_code: string; name: string; category: string | null }[]> =>
  db.selectFrom('data.products as p').select(['p.product_code', 'p.name', 'p.category']).where(none).orderBy('p.product_code').limit(limit).execute();

/** The product `p` sold nothing from `from` to `to` (both included). */
const soldNothingBetween = (from: string, to: string) =>
  sql`not exists (select 1 from data.sales s where s.product_id = p.id and s.quantity > 0 and s.date between ${from}::date and ${to}::date)`;

/**
 * What product `p` has on hand now, as its Forecasting header and the lists say it (ADR 0030,
 * amendment 2026-12-04): the figure stored with its forecast (`f`, left-joined), else, before its
 * first run, its latest count; null where it was never counted (a legacy row's stored figure without
 * a count row included), never 0 for that.
 */
const onHandNow = sql<number | null>`(case when f.product_id is null and not exists (select 1 from data.stock_snapshots k where k.product_id = p.id) then null else ${onHandNowUnits} end)`;

/** Which products a sales answer counts: all, one category's, or those listed (by id). */
export type Scope = { category: string | null; productIds: number[] | null };
export const ALL_PRODUCTS: Scope = { category: null, productIds: null };
const inScope = (scope: Scope) =>
  sql`(${scope.category}::text is null or p.category = ${scope.category}) and (${scope.productIds === null} or p.id = any(${scope.productIds ?? []}::int8[]))`;

/**
 * Units sold from `from` to `to` (both included) — all added (`units`) and one total per product unit
 * (`byUnit`, ADR 0177, amendment 2026-12-06 (2)) — the products that sold them, and their value at unit
 * cost (revenue as the report writer counts it: no selling prices are kept).
 */
export async function totalUnitsSold(db: Db, from: string, to: string, scope: Scope = ALL_PRODUCTS): Promise<{ units: number; byUnit: UnitQuantity[]; products: number; value: number }> {
  // One scan: the whole row (the empty grouping set) and one per unit as stored; quantitiesByUnit takes " kg" and "KG" as one.
  const { rows } = await sql<{ whole: boolean; unit: string | null; units: number; products: number; value: number }>`
      select grouping(p.unit) = 1 as whole, p.unit, coalesce(sum(s.quantity), 0)::float8 as units, count(distinct s.product_id) filter (where s.quantity > 0)::int as products,
        coalesce(round(sum(s.quantity * p.unit_cost)::numeric, 2), 0)::float8 as value
      from data.sales s join data.products p on p.id = s.product_id
      where s.date between ${from}::date and ${to}::date and ${inScope(scope)}
      group by grouping sets ((p.unit), ())`.execute(db);
  const whole = rows.find((row) => row.whole);
  const byUnit = quantitiesByUnit(rows.filter((row) => !row.whole).map((row) => ({ unit: row.unit, quantity: Number(row.units) })));
  return { units: Number(whole?.units ?? 0), byUnit, products: whole?.products ?? 0, value: Number(whole?.value ?? 0) };
}

/** What sales are counted in: units sold, or their value at unit cost (`totalUnitsSold`). */
export type SalesMeasure = 'units' | 'value';
/**
 * The products in scope ranked by `measure` sold from `from` to `to`, with both measures. By units,
 * each unit is ranked on its own, the first `limit` of each, grouped as `groupByUnit` orders units
 * (pieces first): 12.5 kg and 10 mugs are no one ranking (ADR 0177, amendment 2026-12-06 (4)). By
 * value, one ranking: money adds up whatever the unit.
 */
export async function topSellers(db: Db, from: string, to: string, rank: { direction: 'desc' | 'asc'; limit: number }, scope: Scope = ALL_PRODUCTS, measure: SalesMeasure = 'units') {
  const rows = (
    await sql<{ product_code: string; name: string; unit: string | null; units: number; value: number }>`
      with sold as (
        select p.product_code, p.name, p.unit, sum(s.quantity)::float8 as units, round(sum(s.quantity * p.unit_cost)::numeric, 2)::float8 as value
        from data.sales s join data.products p on p.id = s.product_id
        where s.date between ${from}::date and ${to}::date and ${inScope(scope)}
        group by p.id, p.product_code, p.name, p.unit
        having sum(s.quantity) > 0
      ),
      ranked as (
        select sold.*, row_number() over (
          ${measure === 'units' ? sql`partition by lower(btrim(coalesce(unit, '')))` : sql``}
          order by ${sql.ref(measure)} ${rank.direction === 'asc' ? sql`asc` : sql`desc`}, product_code) as place
        from sold
      )
      select product_code, name, unit, units, value from ranked
      where place <= ${rank.limit}
      order by place, product_code`.execute(db)
  ).rows;
  return measure === 'units' ? groupByUnit(rows, (row) => row.unit).flatMap((group) => group.items) : rows;
}

/** The periods of a breakdown, and what each sold of each unit (`sold[i]`: of `units[i]`). */
export type SalesPerPeriod = {
  /** The units sold in the periods, pieces (null) first (groupByUnit), each with its total; none without sales. */
  units: UnitQuantity[];
  periods: { start: string; last: string; sold: number[] }[];
};

/**
 * What the products in scope sold from `from` to `to` (both included) per day, week, month, quarter
 * or year, oldest first, one unit at a time (ADR 0177, amendment 2026-12-06 (2)): every period those
 * days touch (`start`, `last`: its first and last day), 0 for one without sales; one cut by `from` or
 * `to` counts only the days within.
 */
export async function unitsPerPeriod(db: Db, from: string, to: string, unit: 'day' | 'week' | 'month' | 'quarter' | 'year', scope: Scope = ALL_PRODUCTS): Promise<SalesPerPeriod> {
  const step = unit === 'quarter' ? '3 months' : `1 ${unit}`;
  const [periods, sold] = await Promise.all([
    sql<{ start: string; last: string }>`
      select g::date::text as start, ((g + ${step}::interval)::date - 1)::text as last
      from generate_series(date_trunc(${unit}, ${from}::date::timestamp), ${to}::date::timestamp, ${step}::interval) g
      order by g`.execute(db),
    sql<{ start: string; unit: string | null; units: number }>`
      select date_trunc(${unit}, s.date::timestamp)::date::text as start, p.unit, sum(s.quantity)::float8 as units
      from data.sales s join data.products p on p.id = s.product_id
      where s.date between ${from}::date and ${to}::date and ${inScope(scope)}
      group by 1, p.unit`.execute(db),
  ]);
  // Per unit, what each period sold: the spellings of one unit ("kg", "KG") added.
  const byUnit = groupByUnit(sold.rows, (row) => row.unit).map(({ unit: counted, items }) => {
    const perPeriod = new Map<string, number>();
    for (const row of items) perPeriod.set(row.start, (perPeriod.get(row.start) ?? 0) + row.units);
    return { unit: counted, perPeriod };
  });
  return {
    units: byUnit.map(({ unit: counted, perPeriod }) => ({ unit: counted, quantity: roundQuantity([...perPeriod.values()].reduce((sum, units) => sum + units, 0)) })),
    periods: periods.rows.map((period) => ({ ...period, sold: byUnit.map(({ perPeriod }) => roundQuantity(perPeriod.get(period.start) ?? 0)) })),
  };
}

/** The last day the stored forecasts reach (each runs from its start for its days): what falls after it is not forecast yet. */
export const forecastLastDay = async (db: Db): Promise<string | null> =>
  (await sql<{ day: string | null }>`select max(forecast_start + forecast_days - 1)::text as day from forecast_results`.execute(db)).rows[0]?.day ?? null;

/** Products in scope with a forecast stockout, soonest first. */
export const firstStockouts = async (db: Db, limit: number, scope: Scope = ALL_PRODUCTS, notBoughtOnes: 'left out' | 'included' = 'left out') =>
  (
    await sql<{ product_code: string; name: string; on_hand: number | null; first_stockout: string }>`
      select p.product_code, p.name, ${onHandNow}::float8 as on_hand, s.first_stockout::text as first_stockout
      from dashboard_product_summary s join data.products p on p.id = s.product_id
      left join forecast_results f on f.product_id = p.id
      where s.first_stockout is not null and ${inScope(scope)}${notBoughtOnes === 'left out' ? sql` and not ${notBought}` : sql``}
      order by s.first_stockout, p.product_code
      limit ${limit}`.execute(db)
  ).rows;

/** Which of the products (ids) are not stocked (ADR 0200): one named in a runs-out question has no stock to run out of. */
export const notStockedOf = async (db: Db, ids: readonly number[]): Promise<Set<number>> =>
  new Set((await sql<{ id: string }>`select p.id::text as id from data.products p where p.id = any(${ids}::int8[]) and ${notStocked}`.execute(db)).rows.map((row) => Number(row.id)));

/**
 * How many products in scope that are not stocked (ADR 0200) and, of the others, made here (ADR 0194)
 * are forecast to run out by `by` (any day: null): what a runs-out answer leaves out.
 */
export const notBoughtStockouts = async (db: Db, scope: Scope, by: string | null): Promise<{ madeHere: number; notStocked: number }> => {
  const row = (
    await sql<{ made_here: number; not_stocked: number }>`
      select count(*) filter (where not ${notStocked})::int as made_here, count(*) filter (where ${notStocked})::int as not_stocked
      from dashboard_product_summary s join data.products p on p.id = s.product_id
      left join forecast_results f on f.product_id = p.id
      where s.first_stockout is not null and ${notBought} and ${inScope(scope)}${by === null ? sql`` : sql` and s.first_stockout <= ${by}::date`}`.execute(db)
  ).rows[0];
  return { madeHere: row?.made_here ?? 0, notStocked: row?.not_stocked ?? 0 };
};

/**
 * Products in scope that sold nothing from `from` to `to` (both included), and apart from them
 * (`outOfSeason`) how many are between the seasons they sell in (outOfSeasonNow, QA5 #14).
 */
export async function productsWithoutSales(db: Db, from: string, to: string, limit: number, scope: Scope = ALL_PRODUCTS) {
  const unsold = sql`from data.products p left join forecast_results f on f.product_id = p.id where ${inScope(scope)} and ${soldNothingBetween(from, to)}`;
  const counts = (await sql<{ total: number; outOfSeason: number }>`select (count(*) filter (where not ${outOfSeasonNow}))::int as total, (count(*) filter (where ${outOfSeasonNow}))::int as "outOfSeason" ${unsold}`.execute(db)).rows[0];
  const rows = (await sql<{ product_code: string; name: string; on_hand: number | null }>`select p.product_code, p.name, ${onHandNow}::float8 as on_hand ${unsold} and not ${outOfSeasonNow} order by p.product_code limit ${limit}`.execute(db)).rows;
  return { total: counts?.total ?? 0, outOfSeason: counts?.outOfSeason ?? 0, rows };
}

/** Whether any stored forecast has daily demand (`data.product_forecasts`): overstock is measured against it. */
export const hasForecastDemand = async (db: Db): Promise<boolean> =>
  (await sql<{ found: boolean }>`select exists (select 1 from data.product_forecasts where demand is not null) as found`.execute(db)).rows[0]?.found === true;

/**
 * The rows of a shelf list, and how many products not stocked (ADR 0200: a service or fee, no stock
 * kept) it would have held: each row says `not_stocked`, read by the one rule (`notStocked`).
 */
const leftOutNotStocked = <Row extends { not_stocked: boolean }>(rows: Row[]) => ({
  rows: rows.filter((row) => !row.not_stocked),
  notStocked: rows.filter((row) => row.not_stocked).length,
});

/**
 * Products in scope whose stock on hand now lasts more than `days` days at their latest forecast's
 * average daily demand from `today` on (any stock when it forecasts none; ADR 0155), the most value
 * tied up first. Never counted: not in stock. The excess in whole units, or to a thousandth for a
 * product sold by weight, length or volume: 2.35 kg is not 2 (ADR 0177, amendment 2026-12-06 (4)).
 * Products not stocked are left out and counted (`notStocked`): a fee holds no stock to tie money up.
 */
export const overstocked = async (db: Db, today: string, days: number, scope: Scope) => {
  const listed = leftOutNotStocked(
    (
      await sql<{ product_code: string; name: string; unit: string | null; on_hand: number; daily: number; cover: number | null; excess: number; value: number; not_stocked: boolean }>`
        with demand as (
          select product_id, avg(demand) as daily from data.product_forecasts where date >= ${today}::date group by product_id
        ),
        stocked as (
          select p.product_code, p.name, p.unit, p.unit_cost, ${onHandNow} as on_hand, d.daily, ${notStocked} as not_stocked
          from data.products p join demand d on d.product_id = p.id left join forecast_results f on f.product_id = p.id
          where ${inScope(scope)}
        )
        select product_code, name, unit, on_hand::float8 as on_hand, daily::float8 as daily,
          round((on_hand / nullif(daily, 0))::numeric)::float8 as cover,
          greatest(on_hand - ${days} * daily, 0)::float8 as excess,
          round((on_hand * unit_cost)::numeric, 2)::float8 as value, not_stocked
        from stocked
        where on_hand > 0 and on_hand > ${days} * daily
        order by value desc, product_code`.execute(db)
    ).rows,
  );
  return { ...listed, rows: listed.rows.map((row) => ({ ...row, excess: isMeasureUnit(row.unit) ? roundQuantity(row.excess) : Math.round(row.excess) })) };
};

/**
 * Products in scope with stock on hand now and no sales from `from` to `to` (both included), the most
 * value tied up first; `out_of_season`: between the seasons it sells in (outOfSeasonNow, QA5 #14).
 * Products not stocked are left out and counted (`notStocked`): a gift card "on hand" is no shelf stock.
 */
export const deadStock = async (db: Db, from: string, to: string, scope: Scope) =>
  leftOutNotStocked(
    (
      await sql<{ product_code: string; name: string; unit: string | null; on_hand: number; value: number; out_of_season: boolean; not_stocked: boolean }>`
        with stocked as (
          select p.product_code, p.unit_cost, p.name, p.unit, ${onHandNow} as on_hand, ${outOfSeasonNow} as out_of_season, ${notStocked} as not_stocked
          from data.products p left join forecast_results f on f.product_id = p.id
          where ${inScope(scope)} and ${soldNothingBetween(from, to)}
        )
        select product_code, name, unit, on_hand::float8 as on_hand, round((on_hand * unit_cost)::numeric, 2)::float8 as value, out_of_season, not_stocked
        from stocked
        where on_hand > 0
        order by value desc, product_code`.execute(db)
    ).rows,
  );

/** A product's category as the answers group by it: trimmed, a blank one none. */
const storedCategory = sql<string | null>`nullif(btrim(p.category), '')`;

/** How many products in scope not stocked (ADR 0200) have `onHand` (a condition of the "On hand now" figure): what a shelf list leaves out. */
const notStockedHolding = async (db: Db, scope: Scope, onHand: RawBuilder<unknown>): Promise<number> =>
  (await sql<{ count: number }>`select count(*)::int as count from data.products p left join forecast_results f on f.product_id = p.id where ${inScope(scope)} and ${notStocked} and ${onHand}`.execute(db)).rows[0]?.count ?? 0;

/**
 * Products in scope out of stock now: counted, with nothing on hand (the "On hand now" figure, 0 or
 * below), by code, the first `limit`, each with its next scheduled delivery (the earliest still
 * scheduled, a late one included); `total` of them, `withoutDelivery` of them with none scheduled,
 * and `uncounted`: the products in scope never counted, whose stock is not known (ADR 0189).
 * Products not stocked are in none of these (an Odoo "Delivery Charge" at 0 is not out of stock):
 * `notStocked` counts those at 0 or never counted, that the list would otherwise name.
 */
export async function outOfStock(db: Db, limit: number, scope: Scope) {
  const [counts, notStockedCount, rows] = await Promise.all([
    sql<{ total: number; uncounted: number; withoutDelivery: number }>`
      select (count(*) filter (where ${onHandNow} <= 0))::int as total, (count(*) filter (where ${onHandNow} is null))::int as uncounted,
        (count(*) filter (where ${onHandNow} <= 0 and not exists (select 1 from data.deliveries d where d.product_id = p.id and d.status = 'scheduled')))::int as "withoutDelivery"
      from data.products p left join forecast_results f on f.product_id = p.id where ${inScope(scope)} and not ${notStocked}`.execute(db),
    notStockedHolding(db, scope, sql`coalesce(${onHandNow}, 0) <= 0`),
    sql<{ product_code: string; name: string; category: string | null; supplier: string | null; unit: string | null; on_hand: number; expected_date: string | null; quantity: number | null }>`
      select p.product_code, p.name, ${storedCategory} as category, p.supplier, p.unit, ${onHandNow}::float8 as on_hand,
        next.expected_date, next.quantity::float8 as quantity
      from data.products p left join forecast_results f on f.product_id = p.id
      left join lateral (
        select d.expected_date::text as expected_date, d.quantity from data.deliveries d
        where d.product_id = p.id and d.status = 'scheduled' order by d.expected_date limit 1
      ) next on true
      where ${inScope(scope)} and ${onHandNow} <= 0 and not ${notStocked}
      order by p.product_code
      limit ${limit}`.execute(db),
  ]);
  return { total: counts.rows[0]?.total ?? 0, uncounted: counts.rows[0]?.uncounted ?? 0, withoutDelivery: counts.rows[0]?.withoutDelivery ?? 0, notStocked: notStockedCount, rows: rows.rows };
}

/**
 * Products in scope in stock now (the "On hand now" figure above 0), ranked by units sold from `from`
 * to `to` (both included; none sold counts 0), least first (`direction` asc) or most; each unit ranked
 * on its own, the first `limit` of each, as `topSellers` ranks (ADR 0177, amendment 2026-12-06 (4)).
 * Products between the seasons they sell in are left out, as dead stock leaves them (`outOfSeason`:
 * how many), and so are products not stocked (ADR 0200; `notStocked`: how many, of those with stock
 * on hand, in season or not); `inStock`: how many were ranked.
 */
export async function inStockBySales(db: Db, from: string, to: string, rank: { direction: 'desc' | 'asc'; limit: number }, scope: Scope) {
  const stocked = sql`
    stocked as (
      select p.id, p.product_code, p.name, p.unit, p.unit_cost, ${onHandNow} as on_hand, ${outOfSeasonNow} as out_of_season
      from data.products p left join forecast_results f on f.product_id = p.id
      where ${inScope(scope)} and not ${notStocked}
    )`;
  const [counts, notStockedCount, rows] = await Promise.all([
    sql<{ inStock: number; outOfSeason: number }>`with ${stocked}
      select (count(*) filter (where not out_of_season))::int as "inStock", (count(*) filter (where out_of_season))::int as "outOfSeason" from stocked where on_hand > 0`.execute(db),
    notStockedHolding(db, scope, sql`${onHandNow} > 0`),
    sql<{ product_code: string; name: string; unit: string | null; on_hand: number; units: number; value: number }>`
      with ${stocked},
      sold as (select s.product_id, sum(s.quantity) as units from data.sales s where s.date between ${from}::date and ${to}::date group by s.product_id),
      ranked as (
        select st.product_code, st.name, st.unit, st.on_hand, coalesce(sold.units, 0) as units, round((st.on_hand * st.unit_cost)::numeric, 2) as value,
          row_number() over (partition by lower(btrim(coalesce(st.unit, ''))) order by coalesce(sold.units, 0) ${rank.direction === 'asc' ? sql`asc` : sql`desc`}, st.product_code) as place
        from stocked st left join sold on sold.product_id = st.id
        where st.on_hand > 0 and not st.out_of_season
      )
      select product_code, name, unit, on_hand::float8 as on_hand, units::float8 as units, value::float8 as value from ranked
      where place <= ${rank.limit}
      order by place, product_code`.execute(db),
  ]);
  return { inStock: counts.rows[0]?.inStock ?? 0, outOfSeason: counts.rows[0]?.outOfSeason ?? 0, notStocked: notStockedCount, rows: groupByUnit(rows.rows, (row) => row.unit).flatMap((group) => group.items) };
}

/** One category's figures of one unit as stored (`unit`): the answers add a category's units up one total per unit. */
export type CategoryUnitRow = { category: string | null; unit: string | null; products: number; units: number; value: number };

/**
 * Per category (null: none) and unit as stored, the products in scope, what they sold from `from` to
 * `to` (both included; a category without sales 0) and its value at unit cost.
 */
export const salesPerCategory = async (db: Db, from: string, to: string, scope: Scope): Promise<CategoryUnitRow[]> =>
  (
    await sql<CategoryUnitRow>`
      with sold as (
        select s.product_id, sum(s.quantity) as units from data.sales s
        where s.date between ${from}::date and ${to}::date group by s.product_id
      )
      select ${storedCategory} as category, p.unit, count(*)::int as products, coalesce(sum(sold.units), 0)::float8 as units,
        coalesce(round(sum(sold.units * p.unit_cost)::numeric, 2), 0)::float8 as value
      from data.products p left join sold on sold.product_id = p.id
      where ${inScope(scope)}
      group by 1, p.unit`.execute(db)
  ).rows;

/**
 * Per category (null: none) and unit as stored, the products in scope, their units on hand now and
 * its worth at unit cost, as the stock value counts them (`unitsForTotal`, products not stocked left
 * out as the dashboard's total leaves them: ADR 0200, amendment 2026-12-07); `withoutCost`: those on
 * hand whose unit cost is 0.
 */
export const stockPerCategory = async (db: Db, scope: Scope): Promise<(CategoryUnitRow & { withoutCost: number })[]> =>
  (
    await sql<CategoryUnitRow & { withoutCost: number }>`
      select ${storedCategory} as category, p.unit, count(*)::int as products, coalesce(sum(${unitsForTotal}), 0)::float8 as units,
        coalesce(sum(${unitsForTotal} * p.unit_cost), 0)::float8 as value, (count(*) filter (where p.unit_cost = 0 and ${unitsForTotal} > 0))::int as "withoutCost"
      from data.products p left join forecast_results f on f.product_id = p.id
      where ${inScope(scope)} and not ${notStocked}
      group by 1, p.unit`.execute(db)
  ).rows;

/**
 * Scheduled deliveries, soonest first; with `window`, the late ones (expected before `today`) and
 * those expected from its first day (today when it starts today) to its last.
 */
export const scheduledDeliveries = async (db: Db, limit: number, window: { today: string; from: string; to: string } | null = null) =>
  (
    await sql<{ product_code: string; name: string; expected_date: string; quantity: number }>`
      select p.product_code, p.name, d.expected_date::text as expected_date, d.quantity
      from data.deliveries d join data.products p on p.id = d.product_id
      where d.status = 'scheduled'
        ${window ? sql`and (d.expected_date < ${window.today}::date or d.expected_date between ${window.from}::date and ${window.to}::date)` : sql``}
      order by d.expected_date, p.product_code
      limit ${limit}`.execute(db)
  ).rows;

/**
 * The advised orders as scheduled deliveries of the advised quantity, arriving on each order's
 * `arrival` day. A product with a scheduled delivery still to come is already on order and is left
 * alone; one whose arrival day already holds a delivery (received or cancelled) is skipped. Run in a
 * transaction: it takes the products' delivery days first, as a recorded order does, so the day's
 * check holds on a database without the deliveries' unique key (migration 0020).
 */
export async function createAdvisedDeliveries(db: Db, today: string, orders: { productId: number; quantity: number; arrival: string }[]): Promise<{ createdFor: number[]; alreadyOrdered: number }> {
  await lockDeliveryDays(db, orders.map((o) => o.productId));
  const result = await sql<{ created_for: string[]; already: number }>`
    with advised as (
      select a.product_id, a.quantity, a.arrival,
        exists (select 1 from data.deliveries d where d.product_id = a.product_id and d.status = 'scheduled' and d.expected_date >= ${today}::date) as on_order
      from unnest(${orders.map((o) => o.productId)}::int8[], ${orders.map((o) => o.quantity)}::numeric[], ${orders.map((o) => o.arrival)}::date[]) as a(product_id, quantity, arrival)
    ),
    inserted as (
      insert into data.deliveries (product_id, expected_date, quantity, status)
      select product_id, arrival, quantity, 'scheduled' from advised a
      where not on_order and not exists (select 1 from data.deliveries d where d.product_id = a.product_id and d.expected_date = a.arrival)
      on conflict do nothing
      returning product_id
    )
    select array(select product_id::text from inserted) as created_for, (select count(*) from advised where on_order)::int as already`.execute(db);
  return { createdFor: (result.rows[0]?.created_for ?? []).map(Number), alreadyOrdered: result.rows[0]?.already ?? 0 };
}

/** Each scheduled integration with its latest run (none yet: the run's fields null), in the order they were made. */
export const integrationRuns = async (db: Db) =>
  (
    await sql<{
      id: number;
      endpoint: string;
      target_entity: string;
      enabled: boolean;
      schedule_frequency: 'every_15_minutes' | 'hourly' | 'daily' | 'weekly' | 'custom';
      cron_expression: string | null;
      time_zone: string;
      status: 'running' | 'success' | 'failed' | null;
      started_at: Date | null;
      finished_at: Date | null;
      written: number | null;
      rejected: number | null;
      filtered: number | null;
      skipped: number | null;
      created: number | null;
      error_message: string | null;
    }>`
      select i.id, i.endpoint, i.target_entity, i.enabled, i.schedule_frequency, i.cron_expression, i.time_zone,
        l.status, l.started_at, l.finished_at, l.rows_inserted + l.rows_updated as written, l.rows_rejected as rejected,
        l.rows_filtered as filtered, l.rows_skipped as skipped, l.products_created as created, l.error_message
      from integrations i
      left join lateral (select * from integration_logs l where l.integration_id = i.id order by l.started_at desc, l.id desc limit 1) l on true
      order by i.id`.execute(db)
  ).rows;
