import { beforeAll, describe, expect, it } from 'vitest';
import { parseSync } from 'libpg-query';
import { loadSqlParser } from './gate.ts';
import { reportEndSql } from './report-end.ts';

const endOf = (sql: string) => reportEndSql(sql, (parseSync(sql).stmts?.[0]?.stmt as { SelectStmt: Record<string, unknown> }).SelectStmt);

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

  it('reads none from a bound that is no date, names a column or query, or sits inside OR', () => {
    expect(endOf('select 1 from sales where quantity < 5')).toBeNull();
    expect(endOf('select 1 from sales s where s.date < (select max(date) from sales)')).toBeNull();
    expect(endOf('select 1 from sales s where s.date < s.created_at::date')).toBeNull();
    expect(endOf("select 1 from sales where date < '2026-12-01' or quantity > 3")).toBeNull();
    expect(endOf("select 1 from sales where current_date > date")).toBeNull();
    expect(endOf('select 1 from sales')).toBeNull();
  });
});
