// The product header's stock figure in words (QA F4, F9): on hand now with the count beside it when
// sales came off it since, one figure when the count is the latest day's, "Not counted yet" rather
// than the stored 0.
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n.ts';
import { initTestI18n } from '../../test/i18n.ts';
import { forecastFixture } from './fixtures.test-data.ts';
import { onHandWords } from './on-hand.ts';

beforeAll(initTestI18n);

const base = forecastFixture();
const words = (product: Partial<typeof base.product>, forecastStart = '2026-11-30') =>
  onHandWords({ product: { ...base.product, ...product }, metrics: { ...base.metrics, display_window: { forecast_start: forecastStart } } }, i18n.t);

describe('the stock figure of the product header', () => {
  it('says about how many are on hand now, with the count and its day beside', () => {
    expect(words({ currentStock: 50, lastCount: { units: 50, date: '2026-11-20' }, onHand: { units: 35, countedUnits: 50, countedOn: '2026-11-20' } })).toEqual({
      figure: '≈ 35',
      beside: 'counted 50 on 20 Nov 2026',
      counted: true,
    });
  });

  it("says the product's unit after each figure when it has one: 12.5 kg, counted 14 kg (ADR 0177)", () => {
    expect(words({ unit: 'kg', onHand: { units: 12.5, countedUnits: 14, countedOn: '2026-11-20' } })).toEqual({ figure: '≈ 12.5 kg', beside: 'counted 14 kg on 20 Nov 2026', counted: true });
    expect(words({ unit: 'kg', onHand: { units: 12.5, countedUnits: 12.5, countedOn: '2026-11-30' } })).toEqual({ figure: '12.5 kg', beside: null, counted: true });
    expect(words({ unit: 'm', onHand: { units: -0.75, countedUnits: 3, countedOn: '2026-11-30' } }, '2026-12-03').beside).toBe('counted 3 m on 30 Nov 2026, and 0.75 m more sold since than that count held: count again');
  });

  it('never says a shelf holds less than nothing: 0, with how many more were sold than counted and to count again', () => {
    expect(words({ currentStock: 0, lastCount: { units: 0, date: '2026-11-30' }, onHand: { units: -1, countedUnits: 0, countedOn: '2026-11-30' } }, '2026-12-03')).toEqual({
      figure: '0',
      beside: 'counted 0 on 30 Nov 2026, and 1 more sold since than that count held: count again',
      counted: true,
    });
  });

  it('gives one figure when the count is of the last day (or the first forecast day), and its day when it is older but nothing sold since', () => {
    expect(words({ onHand: { units: 40, countedUnits: 40, countedOn: '2026-11-30' } })).toEqual({ figure: '40', beside: null, counted: true });
    expect(words({ onHand: { units: 40, countedUnits: 40, countedOn: '2026-12-01' } })).toEqual({ figure: '40', beside: null, counted: true });
    expect(words({ onHand: { units: 40, countedUnits: 40, countedOn: '2026-11-02' } })).toEqual({ figure: '40', beside: 'counted on 2 Nov 2026', counted: true });
  });

  it('says "Not counted yet" and what to do for a product never counted, not its stored 0', () => {
    const never = words({ currentStock: 0, lastCount: null, onHand: null });
    expect(never).toEqual({ figure: 'Not counted yet', beside: expect.stringMatching(/^Add a stock count on the Data screen/) as unknown as string, counted: false });
  });

  it('gives a count dated after the sales history as it is, with its day', () => {
    expect(words({ currentStock: 12, lastCount: { units: 12, date: '2026-12-03' }, onHand: null })).toEqual({ figure: '12', beside: 'counted on 3 Dec 2026', counted: true });
  });
});
