// The catalogue calendar's input (repo.categoryDailySales): units per category and day, the same
// whether each sale's category is looked up by product id in an array of codes (dense ids) or
// joined from products (ids too sparse for the array).
import { describe, expect, it } from 'vitest';
import { backends, useMigratedDatabase } from '../testing/test-server.ts';
import { categoryDailySales } from './repo.ts';

const SINCE = '2026-01-01';
const day = (offset: number) => new Date(Date.UTC(2026, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);

describe.each(backends)('units per category and day on %s', (backend) => {
  const database = useMigratedDatabase(backend, 'stockwise-category-sales');

  /** Sales of a product: `units` on each of days 0–3 after SINCE, and one before it (not counted). */
  async function addProduct(code: string, category: string | null, units: number, id?: number) {
    const product = await database().db
      .insertInto('data.products')
      .values({ ...(id === undefined ? {} : { id }), product_code: code, name: code, category, current_stock: 0, unit_cost: 1, lead_time_days: 3 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await database().db
      .insertInto('data.sales')
      .values([-1, 0, 1, 2, 3].map((offset) => ({ product_id: product.id, date: day(offset), quantity: units })))
      .execute();
  }

  const sorted = (rows: { category: string | null; day: number; units: number }[]) =>
    [...rows].sort((a, b) => String(a.category).localeCompare(String(b.category)) || a.day - b.day);
  const expected = (totals: Record<string, number>) =>
    sorted(Object.entries(totals).flatMap(([category, units]) => [0, 1, 2, 3].map((d) => ({ category: category === 'none' ? null : category, day: d, units }))));

  it('sums each category (returns only days as no sales), products without one together, for dense ids, ids with a gap and then sparse ids', async () => {
    await addProduct('A-1', 'Paper', 2);
    await addProduct('A-2', 'Paper', 3);
    await addProduct('B-1', 'Glue', 5);
    await addProduct('N-1', null, 7);
    expect(sorted(await categoryDailySales(database().db, SINCE))).toEqual(expected({ Paper: 5, Glue: 5, none: 7 }));

    // A product's days of returns only (-4 a day) sell nothing: its category's days are not lowered, nor made negative.
    await addProduct('R-1', 'Paper', -4);
    await addProduct('R-2', 'Returns only', -4);
    expect(sorted(await categoryDailySales(database().db, SINCE))).toEqual(expected({ Paper: 5, Glue: 5, none: 7, 'Returns only': 0 }));

    // Ids with a gap (a deleted product) still fit the array: the gap's entries name no category.
    const { last } = await database().db.selectFrom('data.products').select((eb) => eb.fn.max('id').as('last')).executeTakeFirstOrThrow();
    await addProduct('G-1', 'Paper', 13, Number(last) + 3);
    expect(sorted(await categoryDailySales(database().db, SINCE))).toEqual(expected({ Paper: 18, Glue: 5, none: 7, 'Returns only': 0 }));

    // An id far beyond the others: the codes' array would span a million entries.
    await addProduct('FAR-1', 'Glue', 11, 1_000_000);
    expect(sorted(await categoryDailySales(database().db, SINCE))).toEqual(expected({ Paper: 18, Glue: 16, none: 7, 'Returns only': 0 }));
  });
});
