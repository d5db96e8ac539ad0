// The worst-case plan cost the embedded sandbox judges, on PGlite's own plans for 20,000 sales
// rows: each way the planner expects to stop early (LIMIT, semi and anti joins, EXISTS subqueries)
// is priced as if it never did, while plans without one keep the planner's cost; function scans,
// aggregates that sort their input, sorts of row values and nodes that read JSON are weighted,
// whatever the report's own words look like.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPLAIN_PLAN, worstCaseCost, type PlanNode } from './sandbox/plan-cost.ts';

describe('worst-case plan cost', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create();
    await db.exec(`create table sales (id serial primary key, product_id int not null, quantity int not null);
      insert into sales (product_id, quantity) select i % 240, (i * 7919) % 20 from generate_series(1, 20000) i;
      create table products (id int primary key, name text not null);
      insert into products select i, 'product ' || i from generate_series(0, 239) i;
      create table forecasts (product_id int primary key, result text not null);
      insert into forecasts select i, json_build_object('yhat', (select json_agg(d) from generate_series(1, 90) d))::text from generate_series(0, 239) i`);
  });
  afterAll(() => db.close());

  /** The planner's cost of the cursor the sandbox declares, and the worst case judged from the same plan. */
  const costs = async (sql: string) => {
    const explained = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`${EXPLAIN_PLAN}declare report_rows no scroll cursor for ${sql}`);
    const plan = (explained.rows[0]?.['QUERY PLAN'] as [{ Plan: PlanNode }])[0].Plan;
    return { planner: plan['Total Cost'], worst: worstCaseCost(plan) };
  };
  /** How many times the planner's cost the worst case is. */
  const weightOf = async (sql: string) => {
    const { planner, worst } = await costs(sql);
    return worst / planner;
  };
  /** The cost of 20,000 × 20,000 pairs: a nested loop over every row of sales against every row. */
  const crossJoin = async () => (await costs('select a.id from sales a, sales b where a.quantity * b.quantity = -7')).planner;

  it('judges a cross join under LIMIT 1 by the join, not by the first row the planner hopes for', async () => {
    const { planner, worst } = await costs('select a.id from sales a, sales b where a.quantity * b.quantity = -7 limit 1');
    expect(planner).toBeLessThan(10);
    expect(worst).toBe(await crossJoin());
  });

  it('judges a semi join the planner expects to match at once as if it never matched', async () => {
    // `<>` looks true for almost every pair to the planner; it is never true.
    const { planner, worst } = await costs('select a.id from sales a where exists (select 1 from sales b where a.quantity * b.quantity + 0 <> a.quantity * b.quantity)');
    expect(planner).toBeLessThan(100_000);
    expect(worst).toBeGreaterThan((await crossJoin()) / 2);
  });

  it('judges a hash semi join with a condition on both sides as every pair looked at', async () => {
    const { planner, worst } = await costs('select a.id from sales a where a.quantity in (select b.quantity from sales b where b.id > a.id + 1000000)');
    expect(planner).toBeLessThan(100_000);
    expect(worst).toBeGreaterThan((await crossJoin()) / 2);
  });

  it('counts an EXISTS subquery once per row that evaluates it, in full', async () => {
    const { planner, worst } = await costs('select a.id, exists (select 1 from sales b where a.quantity * b.quantity = -7) from sales a');
    expect(planner).toBeLessThan(1_000_000);
    expect(worst).toBeGreaterThan((await crossJoin()) / 2);
  });

  it('counts a hashed subquery once, as the planner does', async () => {
    const { planner, worst } = await costs('select * from sales where quantity not in (select quantity from sales where id < 5)');
    expect(worst).toBe(planner);
  });

  it('keeps the cost of a plan without early exits, and weighs function scans four times', async () => {
    const grouped = await costs('select product_id, sum(quantity) from sales group by 1');
    expect(grouped.worst).toBe(grouped.planner);
    // Aggregate 1,250,000 over a function scan of 1,000,000: three more function scans' worth.
    const series = await costs('select count(*) from generate_series(1, 100000000)');
    expect(series.planner).toBeCloseTo(1_250_000, 0);
    expect(series.worst).toBeCloseTo(4_250_000, 0);
  });

  it('counts a correlated subquery in full when a name or a string in the report reads "hashed SubPlan 1"', async () => {
    const exists = 'exists (select 1 from sales b where a.quantity * b.quantity = -7)';
    for (const sql of [
      `select a.id, ${exists} from sales as a where 'hashed SubPlan 1' <> a.id::text`,
      `select "hashed SubPlan 1".id, exists (select 1 from sales b where "hashed SubPlan 1".quantity * b.quantity = -7) from sales as "hashed SubPlan 1"`,
      `select a.id as "hashed SubPlan 1", ${exists} from sales a`,
    ]) {
      expect((await costs(sql)).worst, sql).toBeGreaterThan((await crossJoin()) / 2);
    }
  });

  it('weighs an aggregate ten times, with its input, when one of its aggregates sorts or de-duplicates', async () => {
    for (const sql of [
      'select count(distinct product_id) from sales',
      'select count(distinct (product_id, quantity)) from sales',
      "select product_id, string_agg(quantity::text, ',' order by id) from sales group by 1",
      'select product_id, array_agg(distinct quantity) from sales group by 1',
      'select product_id, percentile_cont(0.5) within group (order by quantity) from sales group by 1',
      'select product_id from sales group by 1 having count(distinct quantity) > 5',
      'select count(distinct product_id), count(distinct quantity), count(*) from sales',
    ]) {
      expect(await weightOf(sql), sql).toBeCloseTo(10, 6);
    }
    // Under a join, the aggregate's part is weighted, not the join over it.
    const joined = await costs('select * from sales s join (select product_id, count(distinct quantity) as n from sales group by 1) d on d.product_id = s.product_id');
    expect(joined.worst).toBeGreaterThan(joined.planner);
    expect(joined.worst).toBeLessThan(10 * joined.planner);
  });

  it("keeps the cost of aggregates that do not sort, whatever the report's strings, names and IS DISTINCT FROM read", async () => {
    for (const sql of [
      'select count(*) from sales',
      "select count(*), 'count(DISTINCT x)', min('string_agg(x, y ORDER BY z)') from sales",
      'select count(*) as "count(DISTINCT x)", sum(quantity) as " ORDER BY " from sales',
      'select count(*), sum("(DISTINCT x)") from (select quantity as "(DISTINCT x)" from sales offset 0) s',
      'select product_id, count(*) filter (where quantity is distinct from product_id) from sales group by 1',
      'select product_id, sum(quantity) over (partition by product_id order by id) from sales',
    ]) {
      expect(await weightOf(sql), sql).toBe(1);
    }
  });

  it('weighs the sort of row values eight times its own part, and refuses one over a large series', async () => {
    // Each next to the same sort of one integer column.
    for (const [rowValues, integers] of [
      ['select (product_id, quantity) from sales order by 1', 'select product_id from sales order by 1'],
      ['select s from sales s order by 1', 'select s.quantity from sales s order by 1'],
      ['select distinct (product_id, quantity) from sales', 'select distinct product_id * 100 + quantity from sales'],
    ] as const) {
      const plain = await costs(integers);
      expect((await costs(rowValues)).worst, rowValues).toBeGreaterThan(3 * plain.worst);
      expect(plain.worst, integers).toBe(plain.planner);
    }
    // 20,000 × 200 rows: a sort of a plain integer runs, of the same rows as row values is refused at the default ceiling.
    const integers = await costs('select count(*) from (select quantity + g from sales, generate_series(1, 200) g order by 1 offset 0) x');
    const rows = await costs('select count(*) from (select (quantity, g) from sales, generate_series(1, 200) g order by 1 offset 0) x');
    expect(integers.worst).toBeLessThan(3_000_000);
    expect(rows.worst).toBeGreaterThan(3_000_000);
  });

  it('keeps the cost of sorts of plain values, whatever strings and names with "ROW(", ".*" or "Sort" read', async () => {
    for (const sql of [
      'select product_id, quantity from sales order by quantity, id',
      "select quantity, 'ROW(a, b)' as k from sales order by 2 || quantity::text, id",
      'select "ROW(s.*) Sort" from (select quantity as "ROW(s.*) Sort" from sales offset 0) "x.*" order by 1',
      'select "s.*".quantity from sales as "s.*" order by "s.*".quantity',
    ]) {
      expect(await weightOf(sql), sql).toBe(1);
    }
  });

  it('runs an ordinary ORDER BY over a small table at its planner cost', async () => {
    const { planner, worst } = await costs('select id, name from products order by name');
    expect(worst).toBe(planner);
    expect(worst).toBeLessThan(100);
  });

  it('weighs a node that reads JSON forty times its own part, not the plan over it', async () => {
    const expanded = await costs(
      'select f.product_id, sum(d::float8) from forecasts f cross join lateral json_array_elements_text(f.result::json -> \'yhat\') d group by 1',
    );
    const plain = await costs('select f.product_id, sum(d::float8) from forecasts f cross join lateral generate_series(1, 90) d group by 1');
    // The same rows from generate_series (a function scan, ×4 as well): the JSON is what costs.
    expect(expanded.worst).toBeGreaterThan(5 * plain.worst);
    // The aggregate and the join over it keep their cost.
    expect(expanded.worst).toBeLessThan(20 * expanded.planner);
    const reads = await costs("select result::json ->> 'yhat' from forecasts");
    expect(reads.worst).toBeCloseTo(40 * reads.planner, 6);
  });

  it('does not take a string or a name that reads like JSON for JSON', async () => {
    for (const sql of [
      "select product_id, '->> ''a''' as x, 'json_each(x)' from forecasts",
      'select product_id as "x->>y", result as "json_each(" from forecasts as "f::json"',
      'select "json_agg(x)" from (select result as "json_agg(x)" from forecasts offset 0) s',
    ]) {
      expect(await weightOf(sql), sql).toBe(1);
    }
  });
});
