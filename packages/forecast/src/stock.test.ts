import { describe, expect, it } from 'vitest';
import { dayNumber, formatDay } from './dates.ts';
import { forecastProduct, isForecastError } from './index.ts';
import { poisson, random } from './simulate.test-data.ts';
import { normalQuantile } from './stats.ts';
import { projectStock, reorderAdvice } from './stock.ts';

describe('reorderAdvice', () => {
  it('reads the daily error from the continuous 95% band, not the whole-unit one', () => {
    // Whole-unit upper bound 3 a day, continuous 1 + 1.96: σ_daily = 1, so the
    // safety stock is z(0.95) · 1 · √14, rounded up to a whole unit.
    const forecast = Array.from({ length: 20 }, (_, j) => ({ ds: `2025-01-${String(j + 1).padStart(2, '0')}`, yhat: 1, yhat_lower: 0, yhat_upper: 3, yhat_lower_80: 0, yhat_upper_80: 2 }));
    const advice = reorderAdvice({
      forecast,
      continuousUpper95: forecast.map(() => 1 + normalQuantile(0.975)),
      start: null,
      projection: [],
      deliveries: new Map(),
      leadTimeDays: 14,
      serviceLevel: 0.95,
      reviewPeriodDays: 30,
    });
    expect(advice.safetyStock).toBe(Math.ceil(normalQuantile(0.95) * Math.sqrt(14)));
    expect(advice.reorderPoint).toBe(Math.ceil(14 + normalQuantile(0.95) * Math.sqrt(14)));
  });

  // 10 on hand, 10 a day with no forecast error (no safety stock), 7 days to deliver, a 7-day review
  // period: the shelf is empty after day 1 and an order placed on day 0 arrives on day 7.
  const steady = Array.from({ length: 30 }, (_, j) => ({ ds: `2025-01-${String(j + 1).padStart(2, '0')}`, yhat: 10, yhat_lower: 10, yhat_upper: 10, yhat_lower_80: 10, yhat_upper_80: 10 }));
  const start = { day: 20088, level: 10 }; // 2024-12-31
  const adviceWith = (deliveries: Map<number, number>) =>
    reorderAdvice({
      forecast: steady,
      continuousUpper95: steady.map((row) => row.yhat),
      start,
      projection: projectStock(start, steady, deliveries, steady.map(() => 0)),
      deliveries,
      leadTimeDays: 7,
      serviceLevel: 0.95,
      reviewPeriodDays: 7,
    });
  const onDay = (index: number) => start.day + 1 + index;

  it('advises an order today for a product running out, and nothing more once that order is on its way (QA4 #4)', () => {
    const first = adviceWith(new Map());
    expect(first.orderBy).toBe('2025-01-01');
    expect(first.orderQuantity).toBeGreaterThan(0);
    // The advised order placed: it arrives on day 7, after 60 units of demand found the shelf empty.
    // Those sales are lost whatever is ordered now; they used to be ordered again (60 more, and again
    // at every run), now nothing is.
    const again = adviceWith(new Map([[onDay(7), first.orderQuantity]]));
    // The stockout stays (days 1–6), with the delivery that ends it: the advice says to hurry it.
    expect(again).toMatchObject({ orderQuantity: 0, orderBy: null, onOrderArrives: '2025-01-08' });
    expect(first.onOrderArrives).toBeUndefined();
  });

  it('orders the shortfall a new order can still fix: from its arrival to a later delivery, not the days before it arrives', () => {
    // 200 due on day 12: days 7–11 (50 units) run dry after a new order could arrive; days 1–6 cannot be helped.
    const advice = adviceWith(new Map([[onDay(12), 200]]));
    expect(advice).toMatchObject({ orderQuantity: 50, orderBy: '2025-01-01' });
  });
});

// ADR 0201 F9: advent calendars sell from 1 November to 24 December, 5 a day with a daily error of 1,
// nothing after; none on hand, a 14-day lead time and a 7-day review period, so an order is due today.
describe("a season-only item's safety stock", () => {
  const z = normalQuantile(0.95);
  const inSeason = (day: number) => {
    const monthDay = formatDay(day).slice(5);
    return monthDay >= '11-01' && monthDay <= '12-24';
  };
  const season = { from: dayNumber('2025-11-01'), to: dayNumber('2025-12-24'), isOn: inSeason };
  const adviceFrom = (firstDay: string, { seasonOnly = true, closed = [] as string[] } = {}) => {
    const first = dayNumber(firstDay);
    const isClosed = (day: number) => closed.includes(formatDay(day));
    const forecast = Array.from({ length: 60 }, (_, j) => {
      const yhat = inSeason(first + j) && !isClosed(first + j) ? 5 : 0;
      return { ds: formatDay(first + j), yhat, yhat_lower: yhat, yhat_upper: yhat, yhat_lower_80: yhat, yhat_upper_80: yhat };
    });
    const start = { day: first - 1, level: 0 };
    return reorderAdvice({
      forecast,
      continuousUpper95: forecast.map((row) => (row.yhat > 0 ? row.yhat + normalQuantile(0.975) : 0)),
      start,
      projection: projectStock(start, forecast, new Map(), forecast.map(() => 0)),
      deliveries: new Map(),
      leadTimeDays: 14,
      serviceLevel: 0.95,
      reviewPeriodDays: 7,
      isClosed,
      ...(seasonOnly ? { season } : {}),
    });
  };

  it("is the lead time's in mid-season, as before", () => {
    // Ordered on 1 November, arriving on the 15th: 40 selling days left, more than the lead time.
    const advice = adviceFrom('2025-11-01');
    expect(advice.safetyStock).toBe(Math.ceil(z * Math.sqrt(14)));
    expect(advice.orderQuantity).toBe(Math.ceil(7 * 5 + z * Math.sqrt(14)));
  });

  it("of the season's last order, is sized over the 4 selling days left from the arrival, and the order carries that", () => {
    // Ordered on 7 December, arriving on the 21st: 21–24 December sell, then nothing until November.
    // Before: z · √14 = 7 units of safety stock, every one left over on 27 December.
    const advice = adviceFrom('2025-12-07');
    expect(advice.safetyStock).toBe(Math.ceil(z * Math.sqrt(4)));
    expect(advice.safetyStock).toBeLessThan(adviceFrom('2025-11-01').safetyStock * 0.6);
    expect(advice).toMatchObject({ orderBy: '2025-12-07', orderQuantity: Math.ceil(4 * 5 + z * Math.sqrt(4)) });
    expect(advice.reorderPoint).toBe(Math.ceil(14 * 5 + z * Math.sqrt(4)));
  });

  it('counts no closed day among the selling days left', () => {
    const advice = adviceFrom('2025-12-07', { closed: ['2025-12-22'] });
    expect(advice.safetyStock).toBe(Math.ceil(z * Math.sqrt(3)));
    expect(advice.orderQuantity).toBe(Math.ceil(3 * 5 + z * Math.sqrt(3)));
  });

  it("is the lead time's for an item sold all year, whatever its forecast after 24 December", () => {
    const advice = adviceFrom('2025-12-07', { seasonOnly: false });
    expect(advice.safetyStock).toBe(Math.ceil(z * Math.sqrt(14)));
  });
});

describe('stock band from cumulative demand', () => {
  const DAY_MS = 86_400_000;
  const day = (t: number) => new Date(Date.parse('2025-01-01T00:00:00Z') + t * DAY_MS).toISOString().slice(0, 10);

  it('is narrower than the sum of daily bands, and runs out as often as it says', () => {
    const rate = 20;
    const horizon = 60;
    const histories = 10;
    const paths = 1000;
    const steps = [14, 30, 60];
    const below = steps.map(() => 0);
    const above = steps.map(() => 0);
    // One history's level estimate is off one way or the other for the whole horizon, so
    // "as often as it says" is a statement over histories: the share is averaged over ten.
    for (let h = 0; h < histories; h++) {
      const next = random(42 + h);
      const history = Array.from({ length: 365 }, (_, t) => ({ ds: day(t), y: poisson(rate, next) }));
      const result = forecastProduct({ sales: history, horizon, stock: [{ ds: day(364), stock_level: 1000 }] });
      if (isForecastError(result)) throw new Error(result.error);
      const last = result.stock[horizon - 1]!;
      const sumOfDailyHalfWidths = result.forecast.reduce((sum, row) => sum + (row.yhat_upper - row.yhat), 0);
      expect(last.stock_level - last.stock_lower).toBeLessThan(sumOfDailyHalfWidths / 3);

      // Simulated futures of the same process: the share below stock_lower is the stated 2.5 %.
      steps.forEach((k, i) => {
        for (let p = 0; p < paths; p++) {
          let demand = 0;
          for (let j = 0; j < k; j++) demand += poisson(rate, next);
          const stock = 1000 - demand;
          if (stock < result.stock[k - 1]!.stock_lower) below[i]!++;
          if (stock > result.stock[k - 1]!.stock_upper) above[i]!++;
        }
      });
    }
    steps.forEach((_, i) => {
      expect(below[i]! / (histories * paths)).toBeGreaterThan(0.01);
      expect(below[i]! / (histories * paths)).toBeLessThan(0.05);
      expect(above[i]! / (histories * paths)).toBeLessThan(0.06);
    });
  });
});
