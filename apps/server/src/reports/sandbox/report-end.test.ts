import { beforeAll, describe, expect, it } from 'vitest';
import { parseSync } from 'libpg-query';
import { loadSqlParser } from './gate.ts';
import { reportEndSql, reportStartSql } from './report-end.ts';

const selectOf = (sql: string) => (parseSync(sql).stmts?.[0]?.stmt as { SelectStmt: Record<string, unknown> }).SelectStmt;
const endOf = (sql: string) => reportEndSql(sql, selectOf(sql));
const startOf = (sql: string) => reportStartSql(sql, selectOf(sql));

describe("a report's own last day, read from its WHERE clause", () => {
  beforeAll(() => loadSqlParser());

  it('reads upper bounds on a column by a date, as SQL for the day they let in last', () => {
    expect(endOf("select 1 from sales s where s.date >= date_trunc('month', current_date) - interval '1 month' and s.date < date_trunc('month', current_date)::date group by 1")).toBe(
      "least(((date_trunc('month', current_date)::date)::timestamp - interval '1 microsecond')::date)::text",
    );
    expect(endOf("select 1 from sales s where s.date between date '2026-11-01' and (date '2026-11-30') and s.quantity > 0")).toBe("least(((date '2026-11-30'))::date)::text");
    expect(endOf("select 1 from sales where date <= '2026-11-30' and date < current_date - 3 order by 1")).toBe("least(('2026-11-30')::date, ((current_date - 3)::timestamp - interval '1 microsecond')::date)::text");
    expect(endOf('select 1 from sales where date = current_date')).toBe('least((current_date)::date)::text');
  });

  it('reads the bounds of a CTE or subquery the rows come from, over any depth, beside the outer ones', () => {
    expect(endOf("with s as (select date, quantity from sales where date <= '2026-11-30') select date_trunc('week', s.date)::date as week, sum(s.quantity) from s group by 1")).toBe(
      "least(('2026-11-30')::date)::text",
    );
    expect(endOf("select week, units from (select date_trunc('week', date)::date as week, sum(quantity) as units from sales where date < date '2026-12-01' group by 1) w where units > 0")).toBe(
      "least(((date '2026-12-01')::timestamp - interval '1 microsecond')::date)::text",
    );
    // A CTE read by another CTE, the outer query bounding it again: the earliest day counts.
    expect(endOf("with a as (select * from sales where date <= '2026-11-30'), b as (select * from a) select 1 from b join products p on p.id = b.product_id where b.date < current_date group by 1")).toBe(
      "least(((current_date)::timestamp - interval '1 microsecond')::date, ('2026-11-30')::date)::text",
    );
    // The kept side of a left join feeds the rows; the side that may be missing does not.
    expect(endOf("select 1 from (select * from sales where date <= '2026-11-30') s left join products p on p.id = s.product_id")).toBe("least(('2026-11-30')::date)::text");
    expect(endOf("select 1 from products p left join (select * from sales where date <= '2026-11-30') s on s.product_id = p.id")).toBeNull();
  });

  it('reads OR only when every branch bounds the same column: the latest day a branch lets in', () => {
    expect(endOf("select 1 from sales s where (s.date <= '2026-11-15' or s.date between '2026-11-20' and '2026-11-30') and s.quantity > 0")).toBe(
      "least(greatest(least(('2026-11-15')::date), least(('2026-11-30')::date)))::text",
    );
    expect(endOf("select 1 from sales s where (s.date <= '2026-11-15' and s.quantity > 0) or s.date = '2026-11-30'")).toBe("least(greatest(least(('2026-11-15')::date), least(('2026-11-30')::date)))::text");
    // Another column in one branch, or a branch without a bound, lets other days in: none is read.
    expect(endOf("select 1 from sales s where s.date <= '2026-11-15' or s.created_at <= '2026-11-30'")).toBeNull();
    expect(endOf("select 1 from sales s where s.date <= '2026-11-15' or s.quantity > 100")).toBeNull();
  });

  it('reads none from a bound that is no date, names a column or query, or sits in a query that feeds no row', () => {
    expect(endOf('select 1 from sales where quantity < 5')).toBeNull();
    expect(endOf('select 1 from sales s where s.date < (select max(date) from sales)')).toBeNull();
    expect(endOf('select 1 from sales s where s.date < s.created_at::date')).toBeNull();
    expect(endOf("select 1 from sales where date < '2026-12-01' or quantity > 3")).toBeNull();
    expect(endOf("select 1 from sales s where exists (select 1 from deliveries d where d.expected_date <= '2026-11-30')")).toBeNull();
    expect(endOf("with s as (select * from sales where date <= '2026-11-30') select 1 from sales")).toBeNull();
    expect(endOf("select * from (select date from sales where date <= '2026-11-30' union all select date from sales) u")).toBeNull();
    expect(endOf("select 1 from sales where current_date > date")).toBeNull();
    expect(endOf('select 1 from sales')).toBeNull();
  });

  it('reads lower bounds as their twin: the first day they let in, the latest of them counting', () => {
    expect(startOf("select 1 from sales s where s.date >= date '2026-03-15' and s.date < date_trunc('month', current_date)")).toBe("greatest((date '2026-03-15')::date)::text");
    expect(startOf("select 1 from sales where date > '2026-03-14' and date >= current_date - 30")).toBe("greatest((('2026-03-14')::date + 1), (current_date - 30)::date)::text");
    expect(startOf("select 1 from sales s where s.date between date '2026-03-15' and (date '2026-04-30')")).toBe("greatest((date '2026-03-15')::date)::text");
    expect(startOf("with s as (select * from sales where date >= '2026-03-15') select 1 from s")).toBe("greatest(('2026-03-15')::date)::text");
    // OR: the rows start at the earliest day a branch lets in.
    expect(startOf("select 1 from sales s where s.date >= '2026-03-15' or s.date = '2026-02-01'")).toBe("greatest(least(greatest(('2026-03-15')::date), greatest(('2026-02-01')::date)))::text");
    // Upper bounds start nothing, lower bounds end nothing.
    expect(startOf("select 1 from sales where date <= '2026-11-30'")).toBeNull();
    expect(endOf("select 1 from sales where date >= '2026-03-15'")).toBeNull();
    expect(startOf("select 1 from sales s where s.date >= (select min(date) from sales)")).toBeNull();
  });
});
