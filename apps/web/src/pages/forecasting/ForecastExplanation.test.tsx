// The forecast in a buyer's words: the reorder sentence when an order is due and when none is, and a
// new or short-lived product's explanation, which names no demand pattern it has not seen.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { earlyEstimateWords, type ProductForecastResponse } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { ForecastExplanation } from './ForecastExplanation.tsx';
import { forecastFixture, stockPoint } from './fixtures.test-data.ts';
import { accessTokenWithRole } from '../../test/role-token.ts';
import { useSessionStore } from '../../stores/session.ts';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(cleanup);

// The day before the fixture's first forecast day: its order-by day (4 Jan) is still ahead.
const renderExplanation = (forecast: ProductForecastResponse, today = '2026-01-03') =>
  render(
    <MantineProvider>
      <ForecastExplanation forecast={forecast} today={today} />
    </MantineProvider>,
  );

describe('the forecast explained', () => {
  it('offers an editor "Record order…" beside an order it advises, and none where it advises none (ADR 0182)', () => {
    useSessionStore.setState({ isLoading: true, isLoggedIn: false, accessToken: accessTokenWithRole('editor') });
    const base = forecastFixture();
    renderExplanation(base);
    // The product's own forecast carries no list row's open arrival day: its hint says the day it proposes is today plus the lead time.
    fireEvent.click(screen.getByRole('button', { name: 'Record order… for W-1 — Widget' }));
    expect(screen.getByText(/today plus the lead time of \d+ days is proposed\.$/)).toBeTruthy();
    cleanup();
    renderExplanation(forecastFixture({ reorder: { ...base.reorder, orderQuantity: 0, orderBy: null } }));
    expect(screen.queryByRole('button', { name: /^Record order/ })).toBeNull();
    cleanup();
    useSessionStore.setState({ accessToken: accessTokenWithRole('viewer') });
    renderExplanation(base);
    expect(screen.queryByRole('button', { name: /^Record order/ })).toBeNull();
    useSessionStore.setState({ accessToken: null });
  });

  it('says "Made here — not ordered" for a product made here, with no order, advice list or Record order, and no stockout warned of (ADR 0194)', () => {
    useSessionStore.setState({ isLoading: true, isLoggedIn: false, accessToken: accessTokenWithRole('editor') });
    const base = forecastFixture();
    renderExplanation({ ...base, product: { ...base.product, madeHere: true } });
    expect(screen.getByTestId('reorder-summary').textContent).toBe('Made here — not ordered');
    expect(screen.queryByTestId('reorder-advice')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Record order/ })).toBeNull();
    expect(screen.getByTestId('stockout-summary').textContent).toBe('Made here: no stockout is warned of, as its stock is what is made.');
    // Still forecast: how it was forecast is said as for any product.
    expect(screen.getByTestId('model-description')).toBeTruthy();
    useSessionStore.setState({ accessToken: null });
  });

  it('says "Not stocked — a service or fee" for a product not stocked, with how to undo it, no order, advice list or Record order, and no stockout warned of (ADR 0200)', () => {
    useSessionStore.setState({ isLoading: true, isLoggedIn: false, accessToken: accessTokenWithRole('editor') });
    const base = forecastFixture();
    // Marked made here too: not stocked is what it says (it keeps no stock either way).
    renderExplanation({ ...base, product: { ...base.product, notStocked: true, madeHere: true } });
    expect(screen.getByTestId('reorder-summary').textContent).toBe('Not stocked — a service or fee: no stock is kept, nothing is ordered');
    expect(screen.getByText(/untick Not stocked \(a service or fee\) on the Data screen to stock it\./)).toBeTruthy();
    expect(screen.queryByTestId('reorder-advice')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Record order/ })).toBeNull();
    expect(screen.getByTestId('stockout-summary').textContent).toBe('Not stocked: no stock is kept, so no stockout is warned of.');
    expect(screen.queryByTestId('stockout-chance')).toBeNull();
    expect(screen.getByTestId('model-description')).toBeTruthy();
    useSessionStore.setState({ accessToken: null });
  });

  it('says how much to order by when', () => {
    renderExplanation(forecastFixture());
    expect(screen.getByTestId('reorder-summary').textContent).toContain('Order 40 units by');
    expect(screen.getByTestId('demand-class').textContent).toContain('smooth');
  });

  it("says the order and the stock levels in the product's unit, to the gram, when it has one (ADR 0177)", () => {
    const base = forecastFixture();
    renderExplanation(forecastFixture({ product: { ...base.product, unit: 'kg' }, reorder: { ...base.reorder, reorderPoint: 4.125, safetyStock: 1.5, orderQuantity: 2.35 } }));
    const summary = screen.getByTestId('reorder-summary').textContent ?? '';
    expect(summary).toContain('Reorder when stock falls to 4.125 kg (this keeps 1.5 kg of safety stock');
    expect(summary).toContain('Order 2.35 kg by 4 Jan 2026');
    expect(summary).not.toContain('units');
    const advice = [...screen.getByTestId('reorder-advice').querySelectorAll('dd')].map((value) => value.textContent);
    expect(advice.slice(0, 3)).toEqual(['4.125 kg', '1.5 kg', '2.35 kg']);
    cleanup();
    // Without a unit: bare figures in the list, "units" in the sentence, "1 unit" for one.
    renderExplanation(forecastFixture({ reorder: { ...base.reorder, orderQuantity: 1 } }));
    expect(screen.getByTestId('reorder-summary').textContent).toContain('Order 1 unit by');
    expect([...screen.getByTestId('reorder-advice').querySelectorAll('dd')].map((value) => value.textContent)[2]).toBe('1');
  });

  it('says an order due after the next 90 days (a longer look ahead) is not on the order lists yet', () => {
    const base = forecastFixture();
    renderExplanation(forecastFixture({ reorder: { ...base.reorder, orderBy: '2026-05-01' } }));
    expect(screen.getByTestId('reorder-summary').textContent).toContain('Order 40 units by 1 May 2026');
    expect(screen.getByTestId('order-beyond-lists').textContent).toContain('not on the order lists yet: they look 90 days ahead');
    cleanup();
    renderExplanation(forecastFixture({ reorder: { ...base.reorder, orderBy: '2026-04-03' } }));
    expect(screen.queryByTestId('order-beyond-lists')).toBeNull();
  });

  it('says no order is needed, not "order 0 units by no order"', () => {
    const base = forecastFixture();
    renderExplanation(forecastFixture({ reorder: { ...base.reorder, orderQuantity: 0, orderBy: null } }));
    const summary = screen.getByTestId('reorder-summary').textContent ?? '';
    expect(summary).toContain('No order is needed in the next 2 days');
    expect(summary).not.toMatch(/Order 0 units/);
  });

  it("says how it forecast in plain words once, the model's name and statistics only under the technical details", () => {
    const base = forecastFixture();
    const description = "No sales history yet: the forecast is the typical daily demand of its category's new products in their first four weeks, with a wide band until sales come in.";
    renderExplanation(
      forecastFixture({
        activity: { recentDemand: 0, inactiveDays: 90 },
        metrics: { ...base.metrics, model: { name: 'NewProduct', description, demandClass: 'none', history: 'none', patterns: [] }, accuracy: { mase: null, smape: null, mae: null } },
      }),
    );
    const explanation = screen.getByTestId('forecast-explanation');
    const details = screen.getByTestId('model-details');
    const outside = (explanation.textContent ?? '').replace(details.textContent ?? '', '');
    expect(outside.split('No sales history yet').length - 1).toBe(1);
    expect(outside).not.toMatch(/NewProduct|Not enough history|MASE/);
    expect(screen.queryByTestId('demand-class')).toBeNull();
    expect(details.querySelector('summary')?.textContent).toBe('Technical details');
    expect(details.textContent).toContain('Model: NewProduct');
    cleanup();
    // A full history's figures: in words, the MASE figure with the model under the details.
    renderExplanation(forecastFixture({ metrics: { ...base.metrics, model: { ...base.metrics.model, name: 'ETS(A,N,N)' }, accuracy: { mase: 0.77, smape: 30, mae: 1.2 } } }));
    expect(screen.getByTestId('accuracy').textContent).toContain('Its errors have been about 23% smaller than those of guessing “the same as last time”.');
    expect(screen.getByTestId('accuracy').textContent).not.toContain('MASE');
    expect(screen.getByTestId('model-details').textContent).toBe('Technical detailsModel: ETS(A,N,N)MASE 0.77: the errors against that guess (below 1 is better).');
    expect(screen.getByTestId('accuracy').textContent).toContain('Typical daily error ≈ 1.2 units.');
    cleanup();
    // In the product's unit when it has one (ADR 0177, amendment 2026-12-06); "1 unit" for one.
    renderExplanation(forecastFixture({ product: { ...base.product, unit: 'kg' }, metrics: { ...base.metrics, accuracy: { mase: 0.77, smape: 30, mae: 1.234 } } }));
    expect(screen.getByTestId('accuracy').textContent).toContain('Typical daily error ≈ 1.23 kg.');
    cleanup();
    renderExplanation(forecastFixture({ metrics: { ...base.metrics, accuracy: { mase: 0.77, smape: 30, mae: 1 } } }));
    expect(screen.getByTestId('accuracy').textContent).toContain('Typical daily error ≈ 1 unit.');
  });

  it('says a backtest over days without sales measures nothing, not "error ≈ 0, 100% smaller than guessing" (QA garden centre F8)', () => {
    const base = forecastFixture();
    renderExplanation(forecastFixture({ metrics: { ...base.metrics, accuracy: { mase: 0, smape: 0, mae: 0 } } }));
    const accuracy = screen.getByTestId('accuracy').textContent;
    expect(accuracy).toContain('tested on recent days the product sold next to nothing on');
    expect(accuracy).not.toContain('smaller than');
    expect(accuracy).not.toContain('Typical daily error');
  });

  it('advises no order for a product that has not sold since it was listed, and says the lists leave it out', () => {
    const base = forecastFixture();
    renderExplanation(
      forecastFixture({
        product: { ...base.product, currentStock: 0, onHand: { units: 0, countedUnits: 0, countedOn: '2026-01-03' } },
        activity: { recentDemand: 0, inactiveDays: 90 },
        // A zero forecast's rule-of-three band still sets a safety stock of a few units.
        reorder: { ...base.reorder, reorderPoint: 4, safetyStock: 4, orderQuantity: 4, orderBy: '2026-01-04' },
        metrics: { ...base.metrics, model: { name: 'Zero', description: 'No sales in the 60 days of history, so no demand is expected.', demandClass: 'none', history: 'full', patterns: [] } },
      }),
    );
    expect(screen.getByTestId('reorder-summary').textContent).toBe(
      'It has not sold since it was listed, so no order is advised: the report and the low-stock list leave it out (switch on “Show products without sales in the last 90 days” there to see it).',
    );
    expect(screen.getByTestId('reorder-advice').textContent).toContain('Order quantityNone advisedOrder byNone advised');
    expect(screen.queryByTestId('demand-class')).toBeNull();
    expect(screen.queryByTestId('patterns')).toBeNull();
  });

  it('never says hurry for a product without sales of its own: a new one is stocked for its first weeks, off the lists', () => {
    const base = forecastFixture();
    const firstDay = base.forecast.stock[0]!.ds;
    renderExplanation(
      forecastFixture({
        product: { ...base.product, currentStock: 0, onHand: { units: 0, countedUnits: 0, countedOn: '2026-01-03' } },
        activity: { recentDemand: 0, inactiveDays: 90 },
        stockouts: [{ date: firstDay, type: 'stockForecast' }],
        reorder: { ...base.reorder, orderQuantity: 154, orderBy: firstDay },
        metrics: { ...base.metrics, model: { name: 'NewProduct', description: 'No sales history yet.', demandClass: 'none', history: 'none', patterns: [] } },
      }),
    );
    const summary = screen.getByTestId('reorder-summary').textContent ?? '';
    expect(summary).not.toMatch(/Hurry|now:/);
    expect(summary).toBe(
      'No sales yet, so the report and the low-stock list leave it out (switch on “Show products without sales in the last 90 days” there to see it). To stock its first weeks at the demand expected of it, order 154 units by 4 Jan 2026; delivery takes about 7 days.',
    );
    expect(screen.getByTestId('stockout-summary').textContent).toBe('Nothing on hand yet for the demand expected of it from 4 Jan 2026.');
  });

  it('urges no late order for a product that sold before but not in the last 90 days', () => {
    renderExplanation(forecastFixture({ activity: { recentDemand: 0, inactiveDays: 90 }, stockouts: [{ date: '2026-01-06', type: 'stockForecast' }] }));
    const summary = screen.getByTestId('reorder-summary').textContent ?? '';
    expect(summary).toMatch(/^No sales in the last 90 days, so the report and the low-stock list leave it out \(.*\), and no order is urged\. Should it sell as forecast, 40 units by 4 Jan 2026 would cover it/);
    expect(summary).not.toMatch(/Hurry/);
  });

  it('says a product with nothing on hand is out of stock now, where the chart finds no crossing', () => {
    const base = forecastFixture();
    const firstDay = base.forecast.stock[0]!.ds;
    renderExplanation(
      forecastFixture({
        product: { ...base.product, currentStock: 0, onHand: { units: 0, countedUnits: 0, countedOn: '2026-01-03' } },
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

  it('says an empty shelf is out of stock now even when no demand is expected, and its 1-in-40 chance is of demand it cannot meet (QA F8)', () => {
    const base = forecastFixture();
    renderExplanation(
      forecastFixture({
        product: { ...base.product, currentStock: 0, onHand: { units: 0, countedUnits: 0, countedOn: '2026-01-03' } },
        forecast: { ...base.forecast, stock: [stockPoint('2026-01-04', 0, -1, 0), stockPoint('2026-01-05', 0, -3, 0)] },
        stockouts: [{ date: '2026-01-05', type: 'stockLowerBound' }],
      }),
    );
    expect(screen.getByTestId('stockout-summary').textContent).toBe('Out of stock now: nothing on hand, though no demand is expected in the next 2 days.');
    expect(screen.getByTestId('stockout-chance').textContent).toBe('There is a 1 in 40 chance (2.5 %) of demand by 5 Jan 2026, which nothing on hand could meet.');
    expect(screen.getByTestId('forecast-explanation').textContent).not.toMatch(/No stockout expected|runs out by/);
  });

  it('reads what is on hand now, not the stored count: a count of 50 sold down to 0 since is out of stock now (QA F4)', () => {
    const base = forecastFixture();
    const firstDay = base.forecast.stock[0]!.ds;
    renderExplanation(
      forecastFixture({
        product: { ...base.product, currentStock: 50, onHand: { units: -3, countedUnits: 50, countedOn: '2025-12-20' } },
        stockouts: [
          { date: firstDay, type: 'stockForecast' },
          { date: firstDay, type: 'stockLowerBound' },
        ],
      }),
    );
    expect(screen.getByTestId('stockout-summary').textContent).toBe('Out of stock now: nothing on hand for the demand expected from 4 Jan 2026.');
    expect(screen.queryByTestId('stockout-chance')).toBeNull();
  });

  it("reads the forecast's stockouts: one on the first forecast day is expected, not missed", () => {
    const base = forecastFixture();
    renderExplanation(forecastFixture({ product: { ...base.product, currentStock: 2, onHand: { units: 2, countedUnits: 2, countedOn: '2026-01-03' } }, stockouts: [{ date: base.forecast.stock[0]!.ds, type: 'stockForecast' }] }));
    expect(screen.getByTestId('stockout-summary').textContent).toMatch(/^Stock is expected to run out on /);
    cleanup();
    renderExplanation(forecastFixture({ stockouts: [] }));
    expect(screen.getByTestId('stockout-summary').textContent).toBe('No stockout expected in 2 days.');
  });

  it('says the stock is unknown, not "no stockout expected", for a product without a stock count', () => {
    const base = forecastFixture();
    // Never counted: no count on hand nor any later one (the server's `lastCount` null).
    renderExplanation(forecastFixture({ product: { ...base.product, onHand: null, lastCount: null }, forecast: { ...base.forecast, stock: [] }, stockouts: [], reorder: { ...base.reorder, orderQuantity: 0, orderBy: null } }));
    expect(screen.getByTestId('stockout-summary').textContent).toMatch(/^Stock unknown: no stock count of this product has been imported/);
    expect(screen.getByTestId('reorder-summary').textContent).toMatch(/how much to order and by when needs a stock count\.$/);
    expect(screen.getByTestId('reorder-summary').textContent).not.toMatch(/No order is needed/);
    // The advice's figures need the count too: not an order quantity and "no order needed".
    expect(screen.getByTestId('reorder-advice').textContent).toContain('Order quantityNeeds a stock countOrder byNeeds a stock count');
  });

  // ADR 0193 F9: counted, but after the sales data ends — the header shows the count, so the
  // explanation says what is missing (the sales since), not that there is no count.
  it('says a product counted after the sales data ends needs the sales since, not a count', () => {
    const base = forecastFixture();
    const firstDay = base.forecast.sales[0]!.ds;
    renderExplanation(
      forecastFixture({
        product: { ...base.product, onHand: null, lastCount: { units: 24, date: '2026-01-09' } },
        forecast: { ...base.forecast, stock: [] },
        stockouts: [],
        reorder: { ...base.reorder, orderQuantity: 0, orderBy: null },
      }),
    );
    expect(firstDay).toBe('2026-01-04');
    expect(screen.getByTestId('stockout-summary').textContent).toBe(
      'Counted on 9 Jan 2026, after the sales data ends on 3 Jan 2026: the sales since are missing, so when it runs out cannot be told. Import the sales after 3 Jan 2026 (Settings → Data integration, sales).',
    );
    expect(screen.getByTestId('reorder-summary').textContent).toMatch(/how much to order and by when needs the sales after 3 Jan 2026\.$/);
    expect(screen.getByTestId('reorder-advice').textContent).toContain('Order quantityNeeds the sales since the countOrder byNeeds the sales since the count');
  });

  it('says an order is too late to avoid the stockout when even ordered today it arrives after it', () => {
    // Ordered on 4 Jan with a 7-day lead time it arrives on 11 Jan; the stock runs out on 6 Jan.
    renderExplanation(forecastFixture({ stockouts: [{ date: '2026-01-06', type: 'stockForecast' }] }));
    expect(screen.getByTestId('reorder-summary').textContent).toBe(
      'Order 40 units now: it arrives about 11 Jan 2026 — 5 days after the stock is expected to run out on 6 Jan 2026 (delivery takes about 7 days). Hurry the delivery or buy elsewhere to cover those days.',
    );
    cleanup();
    // Arriving on the day it runs out is in time.
    renderExplanation(forecastFixture({ stockouts: [{ date: '2026-01-11', type: 'stockForecast' }] }));
    expect(screen.getByTestId('reorder-summary').textContent).toContain('Order 40 units by 4 Jan 2026');
  });

  it('says "order now" once the order-by day has come or passed, and dates the delivery from today, never next to a past day (QA F12)', () => {
    renderExplanation(forecastFixture(), '2026-01-04');
    expect(screen.getByTestId('reorder-summary').textContent).toMatch(/\. Order 40 units now; delivery takes about 7 days\.$/);
    expect(screen.getByTestId('reorder-advice').textContent).toContain('Order byNow');
    cleanup();
    // A forecast made days ago, read on 8 Jan: ordered today the delivery arrives on 15 Jan, after the stockout on 10 Jan.
    renderExplanation(forecastFixture({ stockouts: [{ date: '2026-01-10', type: 'stockForecast' }] }), '2026-01-08');
    const summary = screen.getByTestId('reorder-summary').textContent;
    expect(summary).toBe(
      'Order 40 units now: it arrives about 15 Jan 2026 — 5 days after the stock is expected to run out on 10 Jan 2026 (delivery takes about 7 days). Hurry the delivery or buy elsewhere to cover those days.',
    );
    expect(summary).not.toContain('4 Jan');
  });

  it('says a delivery on its way arrives after the stockout, when no new order is advised (QA4 #4)', () => {
    const base = forecastFixture();
    const onOrder = { ...base.reorder, orderQuantity: 0, orderBy: null, onOrderArrives: '2026-01-23' };
    renderExplanation(forecastFixture({ stockouts: [{ date: '2026-01-06', type: 'stockForecast' }], reorder: onOrder }));
    expect(screen.getByTestId('reorder-summary').textContent).toBe(
      'No new order is needed: the delivery on its way arrives about 23 Jan 2026 — 17 days after the stock is expected to run out on 6 Jan 2026 (an order placed now takes about 7 days). Hurry the delivery or buy elsewhere to cover those days.',
    );
    cleanup();
    // Without a delivery after the stockout (a forecast stored before the field): the plain sentence.
    renderExplanation(forecastFixture({ stockouts: [{ date: '2026-01-06', type: 'stockForecast' }], reorder: { ...onOrder, onOrderArrives: undefined } }));
    expect(screen.getByTestId('reorder-summary').textContent).toMatch(/No order is needed in the next/);
  });

  it('says an order for a season-only item would come after the season: none, buy elsewhere, and when next season’s buying starts (QA5 #5)', () => {
    const base = forecastFixture();
    const tooLate = { ...base.reorder, orderQuantity: 0, orderBy: null, tooLateForSeason: { arrives: '2027-01-01', seasonFrom: '2026-11-15', seasonTo: '2026-12-24', nextOrderFrom: '2027-10-18' } };
    renderExplanation(forecastFixture({ stockouts: [{ date: '2026-12-07', type: 'stockForecast' }], reorder: tooLate }));
    expect(screen.getByTestId('reorder-summary').textContent).toBe(
      "Too late to order for this season: an order placed now arrives about 1 Jan 2027, after the season ends (Nov–Dec). Next season's buying starts about 18 Oct 2027. The stock is expected to run out on 7 Dec 2026: buy elsewhere to cover the rest of the season.",
    );
    cleanup();
    // Enough on the shelf for the rest of the season: nothing to buy elsewhere.
    renderExplanation(forecastFixture({ stockouts: [], reorder: { ...tooLate, tooLateForSeason: { ...tooLate.tooLateForSeason, seasonFrom: '2026-12-01' } } }));
    expect(screen.getByTestId('reorder-summary').textContent).toBe("Too late to order for this season: an order placed now arrives about 1 Jan 2027, after the season ends (Dec). Next season's buying starts about 18 Oct 2027.");
  });

  it('says an item sold in its season only is seasonal, not intermittent for its empty off-season days', () => {
    const base = forecastFixture();
    const description = "Sells in its season only (20 Nov–24 Dec): the forecast follows last year's season, scaled to this year's level, and is zero outside it.";
    renderExplanation(forecastFixture({ metrics: { ...base.metrics, model: { name: 'YearlyNaive', description, demandClass: 'intermittent', history: 'full', patterns: ['season_only'] } } }));
    expect(screen.getByTestId('model-description').textContent).toBe(description);
    expect(screen.getByTestId('demand-class').textContent).toBe('Demand is seasonal: it sells in its season, and the days without sales are the rest of the year.');
    expect(screen.getByTestId('patterns').textContent).toBe('Sells in its season only: the forecast follows the same weeks of last year and is zero outside them.');
    expect(screen.getByTestId('forecast-explanation').textContent).not.toMatch(/intermittent|small, similar amounts/);
  });

  // ADR 0171, amendment 2026-12-05: a day the shop set in its settings is its own closed day, not a public holiday.
  it("says the shop's own closed days as the shop's, the note shown as text, beside the public holidays", () => {
    const base = forecastFixture();
    const description = "A weekly pattern, level with recent weeks. Closed on public holidays. Closed on 28 Dec (Bank holiday (substitute)) and 4 Jan (<b>Stock-take</b>), as the shop's settings say.";
    const { container } = renderExplanation(forecastFixture({ metrics: { ...base.metrics, model: { name: 'ETS(A,N,A)', description, demandClass: 'smooth', history: 'full', patterns: ['weekly', 'holidays', 'shop_closed'] } } }));
    expect(screen.getByTestId('model-description').textContent).toBe(description);
    expect(container.querySelector('[data-testid="model-description"] b')).toBeNull();
    const patterns = [...screen.getByTestId('patterns').querySelectorAll('li')].map((item) => item.textContent);
    expect(patterns).toHaveLength(3);
    expect(patterns[1]).toMatch(/^Closed on public holidays: /);
    expect(patterns[2]).toBe("Your shop's closed days: the dates set in Settings → Shop, and those the whole shop was closed on in past years that are no public holiday (three weeks every August, say), are forecast at zero, so no sales are expected on them.");
  });

  // ADR 0188: a bank holiday that moves with the weekday is named by its rule and what it is called.
  it('names the weekday-of-month holidays the engine found, and says what a public holiday is', () => {
    const base = forecastFixture();
    const description =
      'A weekly pattern, level with recent weeks. Closed on the first Monday of May (early May bank holiday), the last Monday of August (summer bank holiday) and other public holidays.';
    renderExplanation(forecastFixture({ metrics: { ...base.metrics, model: { name: 'ETS(A,N,A)', description, demandClass: 'smooth', history: 'full', patterns: ['weekly', 'holidays'] } } }));
    expect(screen.getByTestId('model-description').textContent).toBe(description);
    const patterns = [...screen.getByTestId('patterns').querySelectorAll('li')].map((item) => item.textContent);
    expect(patterns[1]).toBe('Closed on public holidays: days the whole shop sold nothing on in past years (such as 25 December, or the last Monday of August) are forecast at zero.');
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
    expect(screen.getByTestId('model-description').textContent).toBe('Only 4 days of history.');
    // Its order is advised as any other, with a word that it rests on a few days.
    expect(screen.getByTestId('short-history-caution').textContent).toMatch(/^This order rests on under four weeks of sales/);
  });

  it("says a stock-out day drawn from under four weeks of the product's own sales is an early estimate, in the dashboard's words (ADR 0070, amendment 2026-12-06 (2))", () => {
    const base = forecastFixture();
    const short = { ...base.metrics, model: { name: 'RecentMean', description: 'Only 3 days of history.', demandClass: 'smooth', history: 'short' as const, patterns: [] } };
    renderExplanation(forecastFixture({ metrics: short, stockouts: [{ date: '2026-01-05', type: 'stockForecast' }] }));
    expect(screen.getByTestId('stockout-summary').textContent).toContain('5 Jan 2026');
    const said = 'An early estimate: drawn from 3 days of sales (1 Jan 2026 – 3 Jan 2026). It settles once there are 4 weeks of sales.';
    expect(screen.getByTestId('stockout-early-estimate').textContent).toBe(said);
    // One wording: the assistant's sentence, and the dashboard's note.
    expect(earlyEstimateWords({ from: '2026-01-01', to: '2026-01-03', days: 3 })).toBe(said);
    cleanup();
    // Its days are those it sold on: a day without sales before the first is not one of them.
    renderExplanation(forecastFixture({ metrics: short, historical: { ...base.historical, sales: [{ ds: '2026-01-02', y: 0 }, { ds: '2026-01-03', y: 4 }] } }));
    expect(screen.getByTestId('stockout-early-estimate').textContent).toBe('An early estimate: drawn from 1 day of sales (3 Jan 2026). It settles once there are 4 weeks of sales.');
    cleanup();
    // Four weeks or more of its own sales, or no stock count (no stock-out day is stated): nothing.
    renderExplanation(forecastFixture({ stockouts: [{ date: '2026-01-05', type: 'stockForecast' }] }));
    expect(screen.queryByTestId('stockout-early-estimate')).toBeNull();
    cleanup();
    renderExplanation(forecastFixture({ metrics: short, forecast: { ...base.forecast, stock: [] } }));
    expect(screen.queryByTestId('stockout-early-estimate')).toBeNull();
  });

  it('adds no short-history caution to an order on a full history, or to a short history without an order', () => {
    const base = forecastFixture();
    renderExplanation(base);
    expect(screen.queryByTestId('short-history-caution')).toBeNull();
    cleanup();
    renderExplanation(
      forecastFixture({
        reorder: { ...base.reorder, orderQuantity: 0, orderBy: null },
        metrics: { ...base.metrics, model: { name: 'RecentMean', description: 'Only 4 days of history.', demandClass: 'intermittent', history: 'short', patterns: [] } },
      }),
    );
    expect(screen.queryByTestId('short-history-caution')).toBeNull();
  });
  describe("an order in the supplier's cases and minimum (ADR 0183)", () => {
    const base = forecastFixture();
    const summaryOf = (reorder: Partial<ProductForecastResponse['reorder']>, unit: string | null = null) => {
      renderExplanation(forecastFixture({ product: { ...base.product, unit }, reorder: { ...base.reorder, ...reorder } }));
      return screen.getByTestId('reorder-summary').textContent ?? '';
    };
    const adviceList = () => Object.fromEntries([...screen.getByTestId('reorder-advice').querySelectorAll('dt')].map((term) => [term.textContent, term.nextElementSibling?.textContent]));

    it('says the cases, and the need where the cases made the order larger', () => {
      expect(summaryOf({ orderQuantity: 48, orderMultiple: 24, orderQuantityNeeded: 40 })).toContain('Order 48 units (2 cases of 24; 40 needed) by 4 Jan 2026;');
      expect(adviceList()).toMatchObject({ 'Order quantity': '48 (2 cases of 24; 40 needed)', 'Case size': '24' });
      cleanup();
      // Whole cases already: the cases, and no need beside them.
      expect(summaryOf({ orderQuantity: 48, orderMultiple: 24 })).toContain('Order 48 units (2 cases of 24) by 4 Jan 2026;');
      cleanup();
      expect(summaryOf({ orderQuantity: 24, orderMultiple: 24, orderQuantityNeeded: 5 })).toContain('Order 24 units (1 case of 24; 5 needed) by');
    });

    it("says when the supplier's minimum set the order, and nothing where the need is above it", () => {
      expect(summaryOf({ orderQuantity: 10, minOrderQuantity: 10, orderQuantityNeeded: 3 })).toContain("Order 10 units (the supplier's minimum; 3 needed) by 4 Jan 2026;");
      expect(adviceList()).toMatchObject({ 'Order quantity': "10 (the supplier's minimum; 3 needed)", 'Minimum order': '10' });
      cleanup();
      expect(summaryOf({ orderQuantity: 12, orderMultiple: 6, minOrderQuantity: 10, orderQuantityNeeded: 3 })).toContain("Order 12 units (2 cases of 6, to reach the supplier's minimum of 10; 3 needed) by");
      cleanup();
      expect(summaryOf({ orderQuantity: 48, orderMultiple: 24, minOrderQuantity: 48, orderQuantityNeeded: 3 })).toContain("Order 48 units (2 cases of 24, the supplier's minimum; 3 needed) by");
      cleanup();
      expect(summaryOf({ orderQuantity: 40, minOrderQuantity: 10 })).toContain('Order 40 units by 4 Jan 2026;');
      expect(adviceList()).toMatchObject({ 'Order quantity': '40', 'Minimum order': '10' });
    });

    it("says them in the product's unit", () => {
      expect(summaryOf({ orderQuantity: 50, orderMultiple: 2.5, orderQuantityNeeded: 48.2 }, 'kg')).toContain('Order 50 kg (20 cases of 2.5 kg; 48.2 kg needed) by 4 Jan 2026;');
      expect(adviceList()).toMatchObject({ 'Order quantity': '50 kg (20 cases of 2.5 kg; 48.2 kg needed)', 'Case size': '2.5 kg' });
    });

    it('says nothing of cases without an order, and nothing without terms', () => {
      expect(summaryOf({ orderQuantity: 0, orderBy: null, orderMultiple: 24, minOrderQuantity: 10 })).not.toMatch(/case|minimum/);
      expect(adviceList()).toMatchObject({ 'Order quantity': '0', 'Case size': '24', 'Minimum order': '10' });
      cleanup();
      summaryOf({});
      expect(Object.keys(adviceList())).toEqual(['Reorder point', 'Safety stock', 'Order quantity', 'Order by', 'Lead time', 'Service level']);
      expect(screen.queryByTestId('left-after-season')).toBeNull();
    });

    it("says how much of a season-only item's order is left when its season ends", () => {
      summaryOf({ orderQuantity: 48, orderMultiple: 24, orderQuantityNeeded: 40, leftAfterSeason: 8 });
      expect(screen.getByTestId('left-after-season').textContent).toBe('About 8 units of this order will be left when the season ends: the supplier sells no fewer.');
    });
  });
});
