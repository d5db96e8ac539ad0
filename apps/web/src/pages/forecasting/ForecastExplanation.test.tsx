// The forecast in a buyer's words: the reorder sentence when an order is due and when none is, and a
// new or short-lived product's explanation, which names no demand pattern it has not seen.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { ProductForecastResponse } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { ForecastExplanation } from './ForecastExplanation.tsx';
import { forecastFixture } from './fixtures.test-data.ts';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(cleanup);

const renderExplanation = (forecast: ProductForecastResponse) =>
  render(
    <MantineProvider>
      <ForecastExplanation forecast={forecast} />
    </MantineProvider>,
  );

describe('the forecast explained', () => {
  it('says how much to order by when', () => {
    renderExplanation(forecastFixture());
    expect(screen.getByTestId('reorder-summary').textContent).toContain('Order 40 units by');
    expect(screen.getByTestId('demand-class').textContent).toContain('smooth');
  });

  it('says no order is needed, not "order 0 units by no order", and names no demand pattern for a product without sales', () => {
    const base = forecastFixture();
    renderExplanation(
      forecastFixture({
        reorder: { ...base.reorder, orderQuantity: 0, orderBy: null },
        metrics: { ...base.metrics, model: { name: 'NewProduct', description: 'No sales history yet.', demandClass: 'intermittent', history: 'none', patterns: [] } },
      }),
    );
    const summary = screen.getByTestId('reorder-summary').textContent ?? '';
    expect(summary).toContain('No order is needed in the next 2 days');
    expect(summary).not.toMatch(/Order 0 units/);
    expect(screen.queryByTestId('demand-class')).toBeNull();
    expect(screen.getByTestId('history-note').textContent).toContain('no sales yet');
  });

  it('says a product with nothing on hand is out of stock now, where the chart finds no crossing', () => {
    const base = forecastFixture();
    const firstDay = base.forecast.stock[0]!.ds;
    renderExplanation(
      forecastFixture({
        product: { ...base.product, currentStock: 0 },
        stockouts: [
          { date: firstDay, type: 'stockForecast' },
          { date: firstDay, type: 'stockLowerBound' },
        ],
      }),
    );
    const summary = screen.getByTestId('stockout-summary').textContent ?? '';
    expect(summary).toMatch(/^Out of stock now: nothing on hand for the demand expected from /);
    expect(screen.queryByText(/1 in 40 chance/)).toBeNull();
  });

  it("reads the forecast's stockouts: one on the first forecast day is expected, not missed", () => {
    const base = forecastFixture();
    renderExplanation(forecastFixture({ product: { ...base.product, currentStock: 2 }, stockouts: [{ date: base.forecast.stock[0]!.ds, type: 'stockForecast' }] }));
    expect(screen.getByTestId('stockout-summary').textContent).toMatch(/^Stock is expected to run out on /);
    cleanup();
    renderExplanation(forecastFixture({ stockouts: [] }));
    expect(screen.getByTestId('stockout-summary').textContent).toBe('No stockout expected in 2 days.');
  });

  it('says the stock is unknown, not "no stockout expected", for a product without a stock count', () => {
    const base = forecastFixture();
    renderExplanation(forecastFixture({ forecast: { ...base.forecast, stock: [] }, stockouts: [], reorder: { ...base.reorder, orderQuantity: 0, orderBy: null } }));
    expect(screen.getByTestId('stockout-summary').textContent).toMatch(/^Stock unknown: no stock count of this product has been imported/);
    expect(screen.getByTestId('reorder-summary').textContent).toMatch(/how much to order and by when needs a stock count\.$/);
    expect(screen.getByTestId('reorder-summary').textContent).not.toMatch(/No order is needed/);
    // The advice's figures need the count too: not an order quantity and "no order needed".
    expect(screen.getByTestId('reorder-advice').textContent).toContain('Order quantityNeeds a stock countOrder byNeeds a stock count');
  });

  it('says an order is too late to avoid the stockout when even ordered today it arrives after it', () => {
    // Ordered on 4 Jan with a 7-day lead time it arrives on 11 Jan; the stock runs out on 6 Jan.
    renderExplanation(forecastFixture({ stockouts: [{ date: '2026-01-06', type: 'stockForecast' }] }));
    expect(screen.getByTestId('reorder-summary').textContent).toBe(
      'Order 40 units now: ordered on Jan 4, 2026, it arrives about Jan 11, 2026 — 5 days after the stock is expected to run out on Jan 6, 2026 (delivery takes about 7 days). Hurry the delivery or buy elsewhere to cover those days.',
    );
    cleanup();
    // Arriving on the day it runs out is in time.
    renderExplanation(forecastFixture({ stockouts: [{ date: '2026-01-11', type: 'stockForecast' }] }));
    expect(screen.getByTestId('reorder-summary').textContent).toContain('Order 40 units by Jan 4');
  });

  it("names no demand class for a few days of sales, but the shop's closed days", () => {
    const base = forecastFixture();
    renderExplanation(
      forecastFixture({
        metrics: { ...base.metrics, model: { name: 'RecentMean', description: 'Only 4 days of history.', demandClass: 'intermittent', history: 'short', patterns: ['closed_days'] } },
      }),
    );
    expect(screen.queryByTestId('demand-class')).toBeNull();
    expect(screen.getByTestId('patterns').textContent).toContain("the whole shop's, are forecast at zero");
    expect(screen.getByTestId('history-note').textContent).toContain('under four weeks of sales');
  });
});
