import { describe, expect, it } from 'vitest';
import { forecastRow, productInput, type BatchContext } from './batch-task.ts';
import { dayNumber, forecastProduct } from '@stockwise/forecast';

const context: BatchContext = { today: '2026-01-11', horizon: 7, since: '2026-01-01', historyDays: 10, calendar: { closedDates: [], yearlyProfiles: {} }, firstSale: '2026-01-01' };
const product = { id: 1, product_code: 'P', category: null, lead_time_days: 7, unit: null, order_multiple: null, min_order_quantity: null, snapshots: '2026-01-09:12', deliveries: null, listed_after: null };

describe('batch task', () => {
  it('reads sales pairs as the database writes them: returns, decimals, missing days', () => {
    const input = productInput({ ...product, sales: '0:3,2:-2,3:1.5,9:12,12:4' }, context);
    // Days counted from the run's first day, 2026-01-01; day 12 is past the run's history (a sale
    // dated on or after its first forecast day, today's till so far): not history (ADR 0169).
    expect(input.sales).toEqual({ firstDay: dayNumber('2026-01-01'), days: [0, 2, 3, 9], units: [3, -2, 1.5, 12] });
    expect(input.stock).toEqual([{ ds: '2026-01-09', stock_level: 12 }]);
    expect(productInput({ ...product, sales: null }, context).sales).toEqual({ firstDay: dayNumber('2026-01-01'), days: [], units: [] });
  });

  it('tells the engine a product counted in a weight, length or volume is sold by measure, whatever the case or spaces; pieces and boxes are left to the sales', () => {
    for (const unit of ['kg', ' KG ', 'm', 'Ml']) expect(productInput({ ...product, unit, sales: '0:3' }, context).soldByMeasure, unit).toBe(true);
    for (const unit of [null, '', 'box', 'pcs', 'kgs']) expect(productInput({ ...product, unit, sales: '0:3' }, context).soldByMeasure, String(unit)).toBeUndefined();
  });

  it("passes the supplier's case size and minimum order to the engine where the product has them (ADR 0183)", () => {
    expect(productInput({ ...product, order_multiple: 24, min_order_quantity: 10, sales: '0:3' }, context)).toMatchObject({ orderMultiple: 24, minOrderQuantity: 10 });
    expect(productInput({ ...product, order_multiple: 2.5, sales: '0:3' }, context)).toMatchObject({ orderMultiple: 2.5 });
    const without = productInput({ ...product, sales: '0:3' }, context);
    expect('orderMultiple' in without || 'minOrderQuantity' in without).toBe(false);
  });

  it("passes its category's weekday profile, else the catalogue's, else none (a calendar stored before they were kept) (ADR 0198 F11)", () => {
    const paper = [0, 1.6, 1.5, 1.3, 1.5, 1.1, 0];
    const catalogue = [0, 1.7, 1.5, 1.3, 1.5, 1, 0];
    const calendar = { ...context.calendar, weekdayProfiles: { Paper: paper, '*': catalogue } };
    expect(productInput({ ...product, category: 'Paper', sales: '0:3' }, { ...context, calendar }).weekdayProfile).toEqual(paper);
    expect(productInput({ ...product, category: 'Filing', sales: '0:3' }, { ...context, calendar }).weekdayProfile).toEqual(catalogue);
    expect(productInput({ ...product, sales: '0:3' }, { ...context, calendar }).weekdayProfile).toEqual(catalogue);
    expect('weekdayProfile' in productInput({ ...product, category: 'Paper', sales: '0:3' }, context)).toBe(false);
  });

  it('dates when a product without sales was listed: after the sales day it was added on, else from the first sale, within the history read', () => {
    const long: BatchContext = { ...context, today: '2026-09-01', since: '2024-09-01', historyDays: 730, firstSale: '2026-02-13' };
    // Added with the shop's first import, before its sales: listed since the first of them.
    expect(productInput({ ...product, sales: null }, long).listedSince).toBe('2026-02-13');
    // Added when the sales reached 2026-08-20: listed from the next day.
    expect(productInput({ ...product, sales: null, listed_after: '2026-08-20' }, long).listedSince).toBe('2026-08-21');
    expect(productInput({ ...product, sales: null, listed_after: '2020-01-01' }, long).listedSince).toBe('2024-09-01');
    expect(productInput({ ...product, sales: null }, { ...long, firstSale: null }).listedSince).toBeUndefined();
    // A product with sales is dated by them.
    expect(productInput({ ...product, sales: '0:1' }, long).listedSince).toBeUndefined();
  });

  it('forecasts the sales columns as the same sales given as dated rows', () => {
    const sales = Array.from({ length: 120 }, (_, day) => `${day}:${day % 7 === 3 ? '2.5' : (day * 7) % 11}`).filter((_, day) => day % 9 !== 4);
    const long: BatchContext = { ...context, today: '2026-05-01', historyDays: 120, horizon: 30 };
    const columns = productInput({ ...product, sales: sales.join(',') }, long);
    const rows = sales.map((pair) => ({ ds: new Date(Date.UTC(2026, 0, 1 + Number(pair.split(':')[0]))).toISOString().slice(0, 10), y: Number(pair.split(':')[1]) }));
    expect(forecastProduct(columns)).toEqual(forecastProduct({ ...columns, sales: rows }));
  });

  it('gives the same forecast whatever the order of the sales pairs (the read does not sort them)', () => {
    const long: BatchContext = { ...context, today: '2026-05-01', since: '2026-01-01', historyDays: 120, horizon: 30 };
    const pairs = Array.from({ length: 120 }, (_, day) => `${day}:${(day * 7) % 11}`).filter((_, day) => day % 9 !== 4);
    const shuffled = pairs.map((pair, i) => ({ pair, key: (i * 37) % 101 })).sort((a, b) => a.key - b.key).map(({ pair }) => pair);
    expect(shuffled).not.toEqual(pairs);
    const inOrder = forecastRow({ ...product, sales: pairs.join(',') }, long);
    expect('row' in inOrder).toBe(true);
    expect(forecastRow({ ...product, sales: shuffled.join(',') }, long)).toEqual(inOrder);
  });
});
