// A generated catalogue for the forecast benchmarks (run.ts, list-run.ts): N products, two years of
// daily sales each, a stock count yesterday.
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type DatabaseTarget } from '../../apps/server/src/db/database.ts';

/** N products, 730 days of sales with weekly and yearly seasonality; every fifth product intermittent. */
export async function generateCatalogue(target: DatabaseTarget, products: number) {
  const database = await openDatabase(target);
  await migrateToLatest(database.db);
  const started = performance.now();
  await sql`select setseed(0.42)`.execute(database.db);
  await sql`insert into data.products (product_code, name, category, current_stock, unit_cost, lead_time_days)
    select 'GEN-' || lpad(i::text, 6, '0'), 'Generated product ' || i, 'Generated', 40 + (i * 37) % 600, 1 + (i % 100), 7 + (i % 14)
    from generate_series(1, ${products}) as i`.execute(database.db);
  await sql`insert into data.sales (product_id, date, quantity)
    select p.id, d::date, q.quantity
    from data.products p
    cross join generate_series(current_date - 730, current_date - 1, interval '1 day') as d
    cross join lateral (select case
        when p.id % 5 = 0 then (case when random() < 0.15 then 1 + floor(random() * 4) else 0 end)
        else greatest(0, round((3 + p.id % 40) * (1 + 0.3 * sin(2 * pi() * extract(doy from d) / 365.25))
             * (case extract(isodow from d) when 5 then 1.15 when 6 then 1.3 when 7 then 0.85 else 1 end)
             * (0.7 + 0.6 * random())))
      end::int as quantity) as q
    where q.quantity > 0`.execute(database.db);
  await sql`insert into data.stock_snapshots (product_id, date, stock_level) select id, current_date - 1, current_stock from data.products`.execute(database.db);
  // As autovacuum would soon after the bulk insert (this machine's server has it off): the visibility
  // map set, so a product's sales are read from the index alone (migration 0160).
  await sql`vacuum analyze`.execute(database.db);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from data.sales`.execute(database.db);
  await database.close();
  console.log(`  generated ${products.toLocaleString()} products, ${rows[0]?.n.toLocaleString()} sales rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
