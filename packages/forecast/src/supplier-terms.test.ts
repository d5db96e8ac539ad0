// An order due, as the supplier sells it (ADR 0183): in whole cases, at least the supplier's
// minimum; the order-by date, the stockouts and every other figure as without them.
import { describe, expect, it } from 'vitest';
import { forecastProduct, isForecastError } from './index.ts';
import { random } from './simulate.test-data.ts';
import { projectStock, reorderAdvice, type ReorderInputs, type SupplierTerms } from './stock.ts';
import type { ForecastRow, ReorderAdvice } from './types.ts';

const START = { day: 20088, level: 0 }; // 2024-12-31
const dayOf = (index: number) => new Date((START.day + 1 + index) * 86_400_000).toISOString().slice(0, 10);
const row = (j: number, yhat: number): ForecastRow => ({ ds: dayOf(j), yhat, yhat_lower: yhat, yhat_upper: yhat, yhat_lower_80: yhat, yhat_upper_80: yhat });

/**
 * `daily` a day for 30 days without forecast error (no safety stock), nothing on hand, 7 days to
 * deliver and a 7-day review period: an order today, for 14 days' demand (the 7 before it arrives
 * are lost, so the need is the 7 after it plus the 7 of the review period).
 */
function adviceFor(daily: number, supplier: SupplierTerms | undefined, options: Partial<ReorderInputs> = {}): ReorderAdvice {
  const forecast = Array.from({ length: 30 }, (_, j) => row(j, daily));
  const deliveries = options.deliveries ?? new Map<number, number>();
  const start = options.start ?? START;
  return reorderAdvice({
    forecast,
    continuousUpper95: forecast.map((r) => r.yhat),
    start,
    projection: projectStock(start, forecast, deliveries, forecast.map(() => 0)),
    deliveries,
    leadTimeDays: 7,
    serviceLevel: 0.95,
    reviewPeriodDays: 7,
    ...(supplier ? { supplier } : {}),
    ...options,
  });
}

describe("an order in the supplier's cases and minimum", () => {
  it('rounds an order up to whole cases and keeps the need beside it', () => {
    expect(adviceFor(40 / 14, undefined)).toMatchObject({ orderQuantity: 40, orderBy: '2025-01-01' });
    const advice = adviceFor(40 / 14, { orderMultiple: 24 });
    expect(advice).toMatchObject({ orderQuantity: 48, orderQuantityNeeded: 40, orderMultiple: 24, orderBy: '2025-01-01' });
    expect(advice.minOrderQuantity).toBeUndefined();
  });

  it('leaves an order that already fills whole cases as it is, without a need beside it', () => {
    const advice = adviceFor(48 / 14, { orderMultiple: 24 });
    expect(advice).toMatchObject({ orderQuantity: 48, orderMultiple: 24 });
    expect(advice.orderQuantityNeeded).toBeUndefined();
  });

  it("raises an order to the supplier's minimum, and leaves one above it alone", () => {
    expect(adviceFor(3 / 14, { minOrderQuantity: 10 })).toMatchObject({ orderQuantity: 10, orderQuantityNeeded: 3, minOrderQuantity: 10 });
    const above = adviceFor(40 / 14, { minOrderQuantity: 10 });
    expect(above).toMatchObject({ orderQuantity: 40, minOrderQuantity: 10 });
    expect(above.orderQuantityNeeded).toBeUndefined();
  });

  it('takes the fewest whole cases that hold both the need and the minimum', () => {
    // A minimum in whole cases: max(minimum, cases) as a buyer works it out.
    expect(adviceFor(3 / 14, { orderMultiple: 24, minOrderQuantity: 48 })).toMatchObject({ orderQuantity: 48, orderQuantityNeeded: 3 });
    expect(adviceFor(50 / 14, { orderMultiple: 24, minOrderQuantity: 48 })).toMatchObject({ orderQuantity: 72, orderQuantityNeeded: 50 });
    // A minimum of 10 sold by the 6: 10 cannot be ordered, 12 can.
    expect(adviceFor(3 / 14, { orderMultiple: 6, minOrderQuantity: 10 })).toMatchObject({ orderQuantity: 12, orderQuantityNeeded: 3 });
  });

  it('does not take floating-point noise for one more case: 48.0000001 needed is 2 cases of 24, not 3', () => {
    const need = 48.0000001;
    expect(adviceFor(need / 14, { orderMultiple: 24 }).orderQuantity).toBe(48);
    expect(adviceFor(need / 14, { orderMultiple: 24 }, { wholeUnits: false }).orderQuantity).toBe(48);
    // …while a real shortfall past the case is one more case.
    expect(adviceFor(48.01 / 14, { orderMultiple: 24 }, { wholeUnits: false })).toMatchObject({ orderQuantity: 72, orderQuantityNeeded: 48.01 });
  });

  it('orders a product sold by measure in whole wheels of a decimal size, to a thousandth', () => {
    expect(adviceFor(48.2 / 14, { orderMultiple: 2.5 }, { wholeUnits: false })).toMatchObject({ orderQuantity: 50, orderQuantityNeeded: 48.2 });
    // 3 × 0.1 is 0.3, not 0.30000000000000004 (nor 0.4 for the noise in 0.3 / 0.1).
    expect(adviceFor(0.3 / 14, { orderMultiple: 0.1 }, { wholeUnits: false }).orderQuantity).toBe(0.3);
    expect(adviceFor(0.25 / 14, { orderMultiple: 0.1 }, { wholeUnits: false })).toMatchObject({ orderQuantity: 0.3, orderQuantityNeeded: 0.25 });
  });

  it("orders nothing when nothing is needed: the supplier's minimum is not an order of its own", () => {
    // 500 due tomorrow covers the month.
    const covered = adviceFor(10, { orderMultiple: 24, minOrderQuantity: 100 }, { deliveries: new Map([[START.day + 1, 500]]) });
    expect(covered).toMatchObject({ orderQuantity: 0, orderBy: null, orderMultiple: 24, minOrderQuantity: 100 });
    expect(covered.orderQuantityNeeded).toBeUndefined();
    // Plenty on hand: no order, whatever the minimum.
    expect(adviceFor(1, { minOrderQuantity: 100 }, { start: { day: START.day, level: 1000 } })).toMatchObject({ orderQuantity: 0, orderBy: null });
  });

  it('rounds what is left to order after the deliveries on their way, not the whole need', () => {
    // 14 days of 10 needed, 100 of it on its way and due the day the order arrives: 40 to order, 48 in cases.
    const advice = adviceFor(10, { orderMultiple: 24 }, { deliveries: new Map([[START.day + 1 + 7, 100]]) });
    expect(advice).toMatchObject({ orderQuantity: 48, orderQuantityNeeded: 40, orderBy: '2025-01-01' });
  });

  it('says how much a season-only item keeps after its season when whole cases are more than the season takes', () => {
    // Sells 5 a day for 10 days, then its season is over; 2 days to deliver, a 30-day review period.
    const forecast = Array.from({ length: 30 }, (_, j) => row(j, j < 10 ? 5 : 0));
    const season = { from: START.day + 1, to: START.day + 10, isOn: (day: number) => day >= START.day + 1 && day <= START.day + 10 };
    const seasonal = (supplier?: SupplierTerms) =>
      reorderAdvice({
        forecast,
        continuousUpper95: forecast.map((r) => r.yhat),
        start: START,
        projection: projectStock(START, forecast, new Map(), forecast.map(() => 0)),
        deliveries: new Map(),
        leadTimeDays: 2,
        serviceLevel: 0.95,
        reviewPeriodDays: 30,
        season,
        ...(supplier ? { supplier } : {}),
      });
    // The 8 days from its arrival: 40 (the 2 days before are lost).
    expect(seasonal()).toMatchObject({ orderQuantity: 40, orderBy: '2025-01-01' });
    expect(seasonal().leftAfterSeason).toBeUndefined();
    // Still whole cases — the supplier sells no fewer — and 8 of them are left when the season ends.
    expect(seasonal({ orderMultiple: 24 })).toMatchObject({ orderQuantity: 48, orderQuantityNeeded: 40, leftAfterSeason: 8 });
    // A case the season uses up leaves nothing over.
    expect(seasonal({ orderMultiple: 20 }).leftAfterSeason).toBeUndefined();
  });

  it('changes nothing but the quantity, and nothing at all without terms, whatever the forecast, stock and deliveries', () => {
    const next = random(183);
    let ordered = 0;
    let raised = 0;
    for (let trial = 0; trial < 300; trial++) {
      const wholeUnits = next() < 0.7;
      const days = 20 + Math.floor(next() * 60);
      const forecast = Array.from({ length: days }, (_, j) => {
        const yhat = next() < 0.2 ? 0 : next() * 20;
        return { ...row(j, yhat), yhat_upper: yhat + next() * 8 };
      });
      const start = { day: START.day, level: next() * 200 - 20 };
      const deliveries = new Map<number, number>();
      if (next() < 0.5) deliveries.set(START.day + 1 + Math.floor(next() * days), Math.round(next() * 150));
      const inputs: ReorderInputs = {
        forecast,
        continuousUpper95: forecast.map((r) => r.yhat_upper),
        start,
        projection: projectStock(start, forecast, deliveries, forecast.map(() => 0)),
        deliveries,
        leadTimeDays: 1 + Math.floor(next() * 20),
        serviceLevel: 0.95,
        reviewPeriodDays: 1 + Math.floor(next() * 30),
        wholeUnits,
      };
      const plain = reorderAdvice(inputs);
      // Without terms: the advice's fields as before them, none added.
      expect(Object.keys(plain).sort()).toEqual(['leadTimeDays', 'orderBy', 'orderQuantity', 'reorderPoint', 'safetyStock', 'serviceLevel', ...(plain.onOrderArrives ? ['onOrderArrives'] : [])].sort());
      expect(reorderAdvice({ ...inputs, supplier: {} })).toEqual(plain);
      // A case of one step changes nothing but naming it.
      const step = wholeUnits ? 1 : 0.001;
      expect(reorderAdvice({ ...inputs, supplier: { orderMultiple: step } })).toEqual({ ...plain, orderMultiple: step });

      const multiple = wholeUnits ? 1 + Math.floor(next() * 30) : Math.round(next() * 5000) / 1000 + 0.001;
      const minimum = next() < 0.5 ? Math.round(next() * 100) + 1 : undefined;
      const terms = { orderMultiple: multiple, ...(minimum ? { minOrderQuantity: minimum } : {}) };
      const { orderQuantity, orderQuantityNeeded, orderMultiple, minOrderQuantity, ...rest } = reorderAdvice({ ...inputs, supplier: terms });
      const { orderQuantity: needed, ...plainRest } = plain;
      expect(rest, `trial ${trial}`).toEqual(plainRest);
      expect({ orderMultiple, minOrderQuantity }).toEqual({ orderMultiple: multiple, minOrderQuantity: minimum });
      if (plain.orderBy === null) {
        // No order due: none in cases either, whatever the minimum.
        expect(orderQuantity).toBe(needed);
        expect(orderQuantityNeeded).toBeUndefined();
        continue;
      }
      const cases = orderQuantity / multiple;
      expect(Math.abs(cases - Math.round(cases)), `trial ${trial}: ${orderQuantity} in cases of ${multiple}`).toBeLessThan(1e-6);
      expect(orderQuantity).toBeGreaterThanOrEqual(Math.max(needed, minimum ?? 0));
      // The fewest cases: one fewer would not hold the need or the minimum.
      expect(orderQuantity - multiple).toBeLessThan(Math.max(needed, minimum ?? 0));
      expect(orderQuantityNeeded).toBe(orderQuantity > needed ? needed : undefined);
      ordered++;
      if (orderQuantityNeeded !== undefined) raised++;
    }
    // Enough of both kinds for the rules to have been tried.
    expect(ordered).toBeGreaterThan(100);
    expect(raised).toBeGreaterThan(50);
    expect(raised).toBeLessThan(ordered);
  });
});

describe('forecastProduct with supplier terms', () => {
  const sales = Array.from({ length: 60 }, (_, t) => ({ ds: new Date(Date.parse('2025-01-01T00:00:00Z') + t * 86_400_000).toISOString().slice(0, 10), y: 3 + (t % 4) }));
  const input = { sales, stock: [{ ds: '2025-03-01', stock_level: 5 }], leadTimeDays: 7 };

  it('passes them to the advice: the same forecast, stockouts and order-by date, the quantity in cases', () => {
    const plain = forecastProduct(input);
    const cased = forecastProduct({ ...input, orderMultiple: 50, minOrderQuantity: 200 });
    if (isForecastError(plain) || isForecastError(cased)) throw new Error('forecast failed');
    expect(cased.forecast).toEqual(plain.forecast);
    expect(cased.stockouts).toEqual(plain.stockouts);
    expect(cased.reorder.orderBy).toBe(plain.reorder.orderBy);
    expect(plain.reorder.orderQuantity).toBeGreaterThan(0);
    expect(cased.reorder).toMatchObject({ orderQuantity: Math.max(200, Math.ceil(plain.reorder.orderQuantity / 50) * 50), orderMultiple: 50, minOrderQuantity: 200 });
  });

  it('refuses a case size or minimum of 0 or below', () => {
    expect(forecastProduct({ ...input, orderMultiple: 0 })).toEqual({ error: 'orderMultiple must be a number above 0.', code: 'invalid_input' });
    expect(forecastProduct({ ...input, minOrderQuantity: -5 })).toEqual({ error: 'minOrderQuantity must be a number above 0.', code: 'invalid_input' });
    expect(forecastProduct({ ...input, orderStep: 0 })).toEqual({ error: 'orderStep must be a number above 0.', code: 'invalid_input' });
  });
});

// A weighed product is ordered to a step a buyer orders in (ADR 0203 F3): a kilo's tenth (the server's
// orderStep for kg, l, lb, m), a gram's whole; pieces have no step and keep whole units.
describe("an order in the product's order step", () => {
  const byWeight = (need: number, supplier: SupplierTerms | undefined, orderStep: number, options: Partial<ReorderInputs> = {}) => adviceFor(need / 14, supplier, { wholeUnits: false, orderStep, ...options });

  it('rounds a kilo product up to the hundred grams, its reorder point too, with no need beside it', () => {
    // The Lyon fromagerie's Comté: 63.817 kg needed, 7 of its 14 days before the order arrives.
    const comte = byWeight(63.817, undefined, 0.1);
    expect(comte).toMatchObject({ orderQuantity: 63.9, reorderPoint: 32, safetyStock: 0, orderBy: '2025-01-01' });
    expect(comte.orderQuantityNeeded).toBeUndefined();
    expect(byWeight(29.309, undefined, 0.1).orderQuantity).toBe(29.4);
    // Already on the step (floating-point noise aside): not one more.
    expect(byWeight(10.6, undefined, 0.1).orderQuantity).toBe(10.6);
    // A tiny need is one step, not nothing.
    expect(byWeight(0.004, undefined, 0.1).orderQuantity).toBe(0.1);
  });

  it("rounds a case size's order to whole cases as before, the need beside it on the step", () => {
    expect(byWeight(63.817, { orderMultiple: 0.5 }, 0.1)).toMatchObject({ orderQuantity: 64, orderQuantityNeeded: 63.9, orderMultiple: 0.5 });
    expect(byWeight(63.817, { orderMultiple: 10 }, 0.1)).toMatchObject({ orderQuantity: 70, orderQuantityNeeded: 63.9, orderMultiple: 10 });
    expect(byWeight(0.004, { orderMultiple: 0.5 }, 0.1)).toMatchObject({ orderQuantity: 0.5, orderQuantityNeeded: 0.1 });
    // A minimum without a case size: the minimum, or the need on the step above it.
    expect(byWeight(3.217, { minOrderQuantity: 5 }, 0.1)).toMatchObject({ orderQuantity: 5, orderQuantityNeeded: 3.3 });
    expect(byWeight(6.217, { minOrderQuantity: 5 }, 0.1).orderQuantity).toBe(6.3);
  });

  it('rounds a gram product up to the whole gram', () => {
    expect(byWeight(437.2, undefined, 1)).toMatchObject({ orderQuantity: 438, reorderPoint: 219 });
  });

  it('leaves pieces (no step) in whole units, and an order of nothing at nothing', () => {
    expect(adviceFor(40.2 / 14, undefined)).toMatchObject({ orderQuantity: 41 });
    const covered = byWeight(20, undefined, 0.1, { start: { day: START.day, level: 1000 } });
    expect(covered).toMatchObject({ orderQuantity: 0, orderBy: null, reorderPoint: 10 });
  });
});
