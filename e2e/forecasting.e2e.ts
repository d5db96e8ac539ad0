// The Forecasting screen through the real UI: product search beyond the first page, the chart with
// its bands and stockout markers (close ones sharing a label, every date in the legend and the day's
// readout; axe), the historical forecast toggle, regeneration with progress, the latest inventory
// report, the low-stock panel (the same order advice) with what is on hand now, and the CSV and
// Excel exports (the report's of its whole list).
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser } from './support/browser.ts';
import { quantityFormat, supplierOrderNote, supplierOrderWords } from '@stockwise/contract';
import { demoUser } from './support/context.ts';
import { axeViolations } from './support/axe.ts';
import { dayOfMonth, fullDay } from './support/days.ts';

const browser = useBrowser();

type OnHand = { units: number; countedUnits: number; countedOn: string } | null;
type ReportProduct = { styleCode: string; name: string; currentStock: number; onHand: OnHand; unit: string | null; unitCost: number; firstStockout: string | null; orderQuantity: number; orderBy: string | null; urgencyDays: number; shortHistory: boolean; onOrderArrives?: string; orderMultiple?: number; minOrderQuantity?: number; orderQuantityNeeded?: number };
type ProductRow = { id: number; product_code: string; name: string; current_stock: number; unit_cost: number };

let token = '';
let reportProducts: ReportProduct[] = [];
let firstPageCodes = new Set<string>();
let reportDay = '';

async function apiGet<T>(path: string): Promise<T> {
  const answer = await fetch(`${inject('baseUrl')}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
  if (!answer.ok) throw new Error(`GET ${path}: ${answer.status}`);
  return (await answer.json()) as T;
}

/**
 * A fresh demo database forecasts the whole catalogue in the background right after seeding; the
 * latest report appears when that run ends. Waits for that server state (bounded), not for time.
 */
async function waitForLatestReport(): Promise<{ products: ReportProduct[]; total: number; on_order_late?: number }> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const answer = await apiGet<{ success: boolean; report?: { timestamp: string; products: ReportProduct[]; total: number; on_order_late?: number } }>('/forecasting/latest-report/');
    if (answer.success && answer.report) {
      reportDay = answer.report.timestamp.slice(0, 10);
      return answer.report;
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // polling the server's background run
  }
  throw new Error('no latest report after 120 s');
}

beforeAll(async () => {
  const answer = await fetch(`${inject('baseUrl')}/api/token/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(demoUser) });
  token = ((await answer.json()) as { access: string }).access;
  reportProducts = (await waitForLatestReport()).products;
  const firstPage = await apiGet<{ results: ProductRow[] }>('/records/tables/products/data/?page=1&page_size=50');
  firstPageCodes = new Set(firstPage.results.map((row) => row.product_code));
}, 150_000);

const shiftDay = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const money = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** The browser's day (YYYY-MM-DD), which an order-by day is due by. */
const browserToday = (page: Page) => page.evaluate(() => new Intl.DateTimeFormat('en-CA').format(new Date()));
/** An order-by cell as the lists write it: "Now" once its day has come (ADR 0169, amendment 2026-12-05), else the day. */
const orderByCell = (orderBy: string | null, today: string) => (orderBy === null ? '' : orderBy <= today ? 'Now' : fullDay(orderBy));

async function openForecasting(page: Page): Promise<void> {
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Forecasting', exact: true }).click();
  await page.waitForURL('**/app/forecasting');
  await page.getByRole('heading', { name: 'Forecasting', level: 1 }).waitFor();
  // The assistant starts collapsed here, so it does not cover the chart (issue #15).
  await page.getByRole('button', { name: 'Ask the assistant' }).waitFor();
}

/** Types into the picker and chooses the product with the keyboard. */
async function pickProduct(page: Page, code: string): Promise<void> {
  const picker = page.getByRole('combobox', { name: 'Product' });
  await picker.click();
  await picker.fill(code);
  await page.getByRole('option', { name: new RegExp(`^${code} — `) }).waitFor();
  // The server search answers after the debounce; the first option is then the typed code.
  await expect.poll(() => page.getByRole('option').first().textContent()).toMatch(new RegExp(`^${code} — `));
  await picker.press('ArrowDown');
  await picker.press('Enter');
  await page.locator(`[data-testid="selected-style-code"]:text-is("${code}")`).waitFor();
}

const chart = (page: Page) => page.getByTestId('forecast-chart');
/** The two history lines (one SVG path each) and the two forecast lines (Recharts series). */
const lineSelector = '.history-line, .recharts-line-curve';

type StockPoint = { ds: string; stock_level: number; stock_lower: number };
type Crossing = { date: string; type: 'stockForecast' | 'stockLowerBound' };
/** The chart's markers (spec §4): where the forecast stock or its lower bound goes from above zero to zero or below. */
const crossingsOf = (stock: StockPoint[]): Crossing[] =>
  stock.slice(1).flatMap((day, i): Crossing[] => [
    ...(stock[i]!.stock_level > 0 && day.stock_level <= 0 ? [{ date: day.ds, type: 'stockForecast' as const }] : []),
    ...(stock[i]!.stock_lower > 0 && day.stock_lower <= 0 ? [{ date: day.ds, type: 'stockLowerBound' as const }] : []),
  ]);

describe('forecasting screen', () => {
  it('finds a product beyond the first 50 by its code and shows the chart with bands and its stockouts, close ones under one label', async () => {
    const { page } = browser;
    // A stockout after the first forecast days (the chart marks crossings between forecast days), and
    // a second one a delivery later, within 40 days: on the two-year view (a day is under two
    // pixels) their markers are closer than a label is wide.
    let target: ReportProduct | undefined;
    let crossings: Crossing[] = [];
    let stock: StockPoint[] = [];
    for (const product of reportProducts.filter((p) => p.firstStockout !== null && !firstPageCodes.has(p.styleCode) && p.firstStockout > shiftDay(reportDay, 2))) {
      stock = (await apiGet<{ forecast: { stock: StockPoint[] } }>(`/forecasting/forecasts/${encodeURIComponent(product.styleCode)}`)).forecast.stock;
      crossings = crossingsOf(stock);
      const [first, second] = crossings.filter((crossing) => crossing.type === 'stockForecast');
      if (first && second && second.date <= shiftDay(first.date, 40)) {
        target = product;
        break;
      }
    }
    expect(target, 'a report product outside the first page that runs out twice within 40 days').toBeDefined();
    await openForecasting(page);
    await page.getByTestId('no-product').getByText('No product selected. Choose one in the product list above to see its forecast.').waitFor();
    // Before a product is chosen the chart is an empty frame: axes, no lines, nothing to step through.
    const emptyFrame = page.getByRole('group', { name: 'Sales and stock chart, no forecast shown yet' });
    await emptyFrame.locator('.recharts-cartesian-grid').first().waitFor({ state: 'attached' });
    expect(await emptyFrame.locator('.history-line').evaluateAll((paths) => paths.map((path) => path.getAttribute('d')))).toEqual(['', '']);
    expect(await emptyFrame.locator('.zero-crossing, .forecast-start').count()).toBe(0);
    expect(await emptyFrame.locator('[tabindex="0"]').count()).toBe(0);

    await pickProduct(page, target!.styleCode);
    await page.getByRole('group', { name: `Sales and stock chart for ${target!.styleCode}` }).waitFor();
    expect(await page.getByTestId('no-product').count()).toBe(0);
    // The two day readouts are the chart's only tab stops.
    expect(await chart(page).locator('[tabindex="0"]').evaluateAll((stops) => stops.map((stop) => stop.getAttribute('aria-label')))).toEqual([
      'Daily sales chart: arrow keys move through the days',
      'Stock chart: arrow keys move through the days',
    ]);
    expect(await page.getByTestId('selected-name').textContent()).toBe(target!.name);

    // Bands: the area between the lower and upper bounds, for sales and for stock.
    await chart(page).locator('.sales-band path.recharts-area-area').waitFor();
    expect(await chart(page).locator('.stock-band path.recharts-area-area').count()).toBe(1);
    expect(await chart(page).locator('.sales-band path.recharts-area-area').getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+L/);
    // The time axis names months, short enough for a phone ("Jan 2026"), the same on both charts.
    const ticks = (name: string) => chart(page).locator(`.${name} .recharts-xAxis-tick-labels text`).allTextContents();
    const monthTicks = await ticks('sales-chart');
    expect(monthTicks.length).toBeGreaterThan(3);
    for (const tick of monthTicks) expect(tick).toMatch(/^[A-Z][a-z]{2} \d{4}$/);
    expect(await ticks('stock-chart')).toEqual(monthTicks);
    // Actual and forecast lines and the forecast start line.
    expect(await chart(page).locator(lineSelector).count()).toBe(4);
    expect(await chart(page).getByText('Forecast starts').count()).toBe(2);

    // A marker a stockout; labelled with its date, close ones sharing a label that lists or counts them.
    const markers = chart(page).locator('.zero-crossing');
    expect(await markers.evaluateAll((dots) => dots.map((dot) => dot.getAttribute('data-date')))).toEqual(crossings.map((crossing) => crossing.date));
    const labels = chart(page).locator('.zero-crossing-label');
    const labelTexts = await labels.allTextContents();
    const expected = target!.firstStockout!;
    expect(labelTexts.join(' | ')).toMatch(new RegExp(`(?<!\\d)${dayOfMonth(expected)}\\b`));
    const datesIn = (text: string) => Number(/ (\d+) times,/.exec(text)?.[1] ?? text.match(/\d{1,2} [A-Z][a-z]{2}/g)?.length ?? 0);
    for (const [type, words] of [['stockForecast', 'Runs out'], ['stockLowerBound', 'May run out']] as const) {
      const ofType = labelTexts.filter((text) => text.startsWith(`${words} `));
      expect(ofType.reduce((sum, text) => sum + datesIn(text), 0), type).toBe(crossings.filter((crossing) => crossing.type === type).length);
    }
    expect(labelTexts.length).toBeLessThan(crossings.length);
    // No two labels of one side of the zero line overlap; each stays inside the plot.
    const plot = (await chart(page).locator('.stock-chart .recharts-cartesian-grid').boundingBox())!;
    const boxes = await labels.evaluateAll((texts) => texts.map((text) => ({ type: text.getAttribute('class'), ...text.getBoundingClientRect().toJSON() as DOMRect })));
    for (const [i, a] of boxes.entries()) {
      expect(a.left >= plot.x - 1 && a.right <= plot.x + plot.width + 1, `${labelTexts[i]} inside the plot`).toBe(true);
      for (const b of boxes.slice(i + 1)) if (a.type === b.type) expect(a.right <= b.left || b.right <= a.left, `${labelTexts[i]} clear of the next`).toBe(true);
    }
    // Every date, as text: the legend under the stock chart, which the stock readout is described by.
    const dateList = new Intl.ListFormat('en', { type: 'conjunction' });
    const listed = (type: Crossing['type']) => dateList.format(crossings.filter((crossing) => crossing.type === type).map((crossing) => dayOfMonth(crossing.date)));
    const legend = chart(page).locator('.legend-marker');
    expect(await legend.allTextContents()).toEqual([
      `Runs out ${listed('stockForecast')}`,
      ...(crossings.some((crossing) => crossing.type === 'stockLowerBound') ? [`May run out ${listed('stockLowerBound')}`] : []),
    ]);
    const stockReadout = chart(page).getByRole('application', { name: /Stock chart/ });
    expect(await stockReadout.getAttribute('aria-describedby')).toBe((await legend.evaluateAll((items) => items.map((item) => item.id))).join(' '));
    // The keyboard reaches each marker's day: from the last day back to the second stockout, the readout says so.
    const second = crossings.filter((crossing) => crossing.type === 'stockForecast')[1]!;
    await stockReadout.focus();
    await page.keyboard.press('End');
    for (let day = stock.at(-1)!.ds; day > second.date; day = shiftDay(day, -1)) await page.keyboard.press('ArrowLeft');
    const readout = chart(page).locator('.stock-chart .day-readout [role="status"]');
    expect(await readout.locator('div').first().textContent()).toBe(fullDay(second.date));
    expect(await readout.locator('.readout-event').allTextContents()).toContain('● Runs out');
    // A shelf holds no fewer than 0: on the stockout's day the words say 0, and what is short (QA F19).
    expect(await readout.textContent()).toMatch(/Forecast stock: 0( \(short by [\d.,]+\))?(?!\d)/);
    await page.keyboard.press('Escape');
    expect(await axeViolations(page, '[data-testid="forecast-chart"]')).toEqual([]);
    await page.getByTestId('forecast-explanation').waitFor();
    expect(await page.getByTestId('reorder-advice').textContent()).toContain('Reorder point');
  });

  it('toggles the historical forecast: the forecast line reaches back before the forecast start', async () => {
    const { page } = browser;
    const target = reportProducts.find((product) => product.firstStockout !== null)!;
    await openForecasting(page);
    await pickProduct(page, target.styleCode);
    const forecastLine = chart(page).locator('.sales-forecast path.recharts-line-curve');
    // A flat forecast is a path of no height, which Playwright calls hidden: read its box directly.
    await forecastLine.waitFor({ state: 'attached' });
    const leftOf = (locator: typeof forecastLine) => locator.evaluate((element) => element.getBoundingClientRect().x);
    const startX = await leftOf(chart(page).locator('.sales-chart .forecast-start line').first());
    expect(await leftOf(forecastLine)).toBeGreaterThanOrEqual(startX - 1);

    const toggle = page.getByRole('switch', { name: 'Show historical forecast' });
    await toggle.focus();
    await page.keyboard.press('Space');
    expect(await toggle.isChecked()).toBe(true);
    await expect.poll(() => leftOf(forecastLine)).toBeLessThan(startX - 5);

    await toggle.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => leftOf(forecastLine)).toBeGreaterThanOrEqual(startX - 1);
  });

  it('switching products redraws the chart in place for the new product, stockout markers included', async () => {
    const { page } = browser;
    const withStockouts = reportProducts.filter((product) => product.firstStockout !== null && product.firstStockout > shiftDay(reportDay, 2));
    const [first, second] = [withStockouts[0]!, withStockouts.find((product) => product.firstStockout !== withStockouts[0]!.firstStockout)!];
    await openForecasting(page);
    await pickProduct(page, first.styleCode);
    await page.getByRole('group', { name: `Sales and stock chart for ${first.styleCode}` }).waitFor();
    const pathsOfFirst = await chart(page).locator(lineSelector).evaluateAll((paths) => paths.map((path) => path.getAttribute('d')));
    const labelsOfFirst = await chart(page).locator('.zero-crossing-label').allTextContents();

    await pickProduct(page, second.styleCode);
    await page.getByRole('group', { name: `Sales and stock chart for ${second.styleCode}` }).waitFor();
    expect(await page.getByTestId('forecast-loading').count()).toBe(0);
    const pathsOfSecond = await chart(page).locator(lineSelector).evaluateAll((paths) => paths.map((path) => path.getAttribute('d')));
    expect(pathsOfSecond).toHaveLength(4);
    expect(pathsOfSecond).not.toEqual(pathsOfFirst);
    const labelsOfSecond = await chart(page).locator('.zero-crossing-label').allTextContents();
    expect(labelsOfSecond.join(' | ')).toMatch(new RegExp(`(?<!\\d)${dayOfMonth(second.firstStockout!)}\\b`));
    expect(labelsOfSecond).not.toEqual(labelsOfFirst);

    // The URL follows the choice: the first replaced the empty screen, the second is an entry of its
    // own, so Back returns to the first product and a reload keeps what the URL names.
    const productInUrl = () => new URL(page.url()).searchParams.get('product');
    expect(productInUrl()).toBe(second.styleCode);
    await page.goBack();
    await page.locator(`[data-testid="selected-style-code"]:text-is("${first.styleCode}")`).waitFor();
    expect(productInUrl()).toBe(first.styleCode);
    await page.reload();
    await page.getByRole('group', { name: `Sales and stock chart for ${first.styleCode}` }).waitFor();
    expect(productInUrl()).toBe(first.styleCode);
    expect(await page.getByRole('combobox', { name: 'Product' }).inputValue()).toMatch(new RegExp(`^${first.styleCode} — `));

    // The header's stock is what the chart's stock line ends at (the forecast's own figure), with the count beside when they differ (QA F4).
    const { product: shownProduct, historical } = await apiGet<{ product: { onHand: OnHand }; historical: { stock: { stock_level: number }[] } }>(`/forecasting/forecasts/${first.styleCode}`);
    const onHand = shownProduct.onHand!;
    expect(onHand.units).toBe(historical.stock.at(-1)!.stock_level);
    const stockUnits = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
    const header = page.getByTestId('selected-product');
    expect(await header.getByText('On hand now', { exact: true }).count()).toBe(1);
    expect(await page.getByTestId('selected-current-stock').textContent()).toBe(onHand.units === onHand.countedUnits ? stockUnits.format(onHand.units) : `≈ ${stockUnits.format(onHand.units)}`);
    if (onHand.units !== onHand.countedUnits) expect(await page.getByTestId('selected-current-stock-beside').textContent()).toBe(`counted ${stockUnits.format(onHand.countedUnits)} on ${fullDay(onHand.countedOn)}`);
    expect(await axeViolations(page, '[data-testid="selected-product"]')).toEqual([]);

    // What the forecast says, in plain words; the model's name and statistics only under the details, axe clean open.
    const explanation = page.getByTestId('forecast-explanation');
    await explanation.waitFor();
    expect(await explanation.getByText(/^Model: /).isVisible()).toBe(false);
    await explanation.getByText('Technical details').click();
    await explanation.getByText(/^Model: /).waitFor();
    expect(await axeViolations(page, '[data-testid="forecast-explanation"]')).toEqual([]);

    // Clicked with the mouse and typed into, the chosen product's text is replaced, not typed into
    // ("KERST-302 — Nordmann kerstamaryllisboom" found nothing; QA garden centre F3).
    const picker = page.getByRole('combobox', { name: 'Product' });
    await picker.scrollIntoViewIfNeeded();
    const box = (await picker.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { delay: 120 });
    await page.keyboard.type(second.styleCode);
    expect(await picker.inputValue()).toBe(second.styleCode);
    await page.getByRole('option', { name: new RegExp(`^${second.styleCode} — `) }).waitFor();
  });

  it('reads a day under the pointer or with the arrow keys, in both charts at once', async () => {
    const { page } = browser;
    const target = reportProducts[0]!;
    await openForecasting(page);
    await pickProduct(page, target.styleCode);
    await page.getByRole('group', { name: `Sales and stock chart for ${target.styleCode}` }).waitFor();
    const forecast = await apiGet<{ historical: { sales: { ds: string; y: number }[]; stock: { ds: string; stock_level: number }[] }; forecast: { sales: { ds: string; yhat: number }[] } }>(`/forecasting/forecasts/${encodeURIComponent(target.styleCode)}`);
    const readouts = chart(page).locator('.day-readout [role="status"]');
    const units = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

    // The pointer a third of the way across the sales chart: a history day, shown in both charts.
    const area = (await chart(page).locator('.sales-chart .day-readout rect').boundingBox())!;
    await page.mouse.move(area.x + area.width / 3, area.y + area.height / 2);
    await expect.poll(() => readouts.count()).toBe(2);
    const shownDay = (await readouts.first().locator('div').first().textContent())!;
    const day = forecast.historical.sales.find((row) => fullDay(row.ds) === shownDay)!;
    expect(day).toBeDefined();
    expect(await readouts.first().textContent()).toContain(`Actual sales: ${units.format(day.y)}`);
    const stockOfDay = forecast.historical.stock.find((row) => row.ds === day.ds);
    if (stockOfDay) expect(await readouts.nth(1).textContent()).toContain(`Actual stock: ${units.format(stockOfDay.stock_level)}`);
    await page.mouse.move(area.x + area.width / 3, area.y - 40);
    await expect.poll(() => readouts.count()).toBe(0);

    // Keyboard: focus the sales chart, End = the last forecast day, ArrowLeft = the day before.
    await chart(page).getByRole('application', { name: /Daily sales chart/ }).focus();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    const dayBeforeLast = forecast.forecast.sales.at(-2)!;
    expect(await readouts.first().locator('div').first().textContent()).toBe(fullDay(dayBeforeLast.ds));
    expect(await readouts.first().textContent()).toContain(`Forecast sales: ${units.format(dayBeforeLast.yhat)}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => readouts.count()).toBe(0);
  });

  it('regenerates the selected product, shows progress to completion and reloads its forecast', async () => {
    const { page } = browser;
    const target = reportProducts[0]!;
    await openForecasting(page);
    await pickProduct(page, target.styleCode);
    await chart(page).locator('.recharts-line-curve').first().waitFor({ state: 'attached' });
    const reloaded = page.waitForResponse((response) => response.url().endsWith(`/api/forecasting/forecasts/${target.styleCode}`) && response.status() === 200, { timeout: 60_000 });
    await page.getByRole('button', { name: 'Regenerate this product' }).click();
    const progress = page.getByRole('progressbar', { name: 'Generation progress' });
    await progress.waitFor();
    await page.locator('[data-testid="generation-status"][data-phase="done"]').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('generation-status').textContent()).toBe('Forecast generated for 1 product.');
    expect(await progress.getAttribute('aria-valuenow')).toBe('100');
    await reloaded;
    await chart(page).locator('.sales-band path.recharts-area-area').waitFor();
  });

  it('regenerates the whole catalogue with done/total progress', async () => {
    const { page } = browser;
    await openForecasting(page);
    await page.getByRole('button', { name: 'Regenerate whole catalogue' }).click();
    const status = page.getByTestId('generation-status');
    await status.waitFor();
    // The bar is there from the request on; whether a 2 s poll catches the run half-way depends on
    // how fast the machine forecasts 240 products, so the done/total steps are unit-tested instead.
    const progress = page.getByRole('progressbar', { name: 'Generation progress' });
    await progress.waitFor();
    await page.locator('[data-testid="generation-status"][data-phase="done"]').waitFor({ timeout: 120_000 });
    expect(await status.textContent()).toMatch(/^Forecast generated for \d+ products\.$/);
    expect(await progress.getAttribute('aria-valuenow')).toBe('100');
    await page.getByTestId('at-risk-table').waitFor();
  }, 150_000);

  it('reads the latest report: products to order, most urgent first, with a count that agrees; a row click selects the product', async () => {
    const { page } = browser;
    await openForecasting(page);
    const table = page.getByTestId('at-risk-table');
    await table.waitFor();
    const rows = table.locator('tbody tr');
    const codes = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-style-code') ?? ''));
    const latest = await waitForLatestReport();
    expect(codes).toEqual(latest.products.slice(0, codes.length).map((product) => product.styleCode));
    const byCode = new Map(latest.products.map((product) => [product.styleCode, product]));
    const urgency = codes.map((code) => byCode.get(code)!.urgencyDays);
    expect([...urgency].sort((a, b) => a - b)).toEqual(urgency);
    // Each row is an order, or a delivery on its way that arrives after the stockout, to hurry (ADR 0072, amendment "hurry it").
    for (const code of codes) expect(byCode.get(code)!.onOrderArrives ? byCode.get(code)!.orderQuantity === 0 : byCode.get(code)!.orderQuantity > 0).toBe(true);
    expect(await table.getByTestId('on-order-late').count()).toBe(codes.filter((code) => byCode.get(code)!.onOrderArrives).length);
    expect(await page.getByTestId('at-risk-count').textContent()).toBe(`Products to order${latest.on_order_late ? ' or to hurry' : ''}, most urgent first (${latest.total})`);
    // An order due today or before reads "Now", as the product panel says it.
    const today = await browserToday(page);
    expect(await table.getByTestId('order-by').allTextContents()).toEqual(codes.map((code) => orderByCell(byCode.get(code)!.orderBy, today)));

    const chosen = codes[1]!;
    await rows.nth(1).click();
    await page.locator(`[data-testid="selected-style-code"]:text-is("${chosen}")`).waitFor();
    expect(new URL(page.url()).searchParams.get('product')).toBe(chosen);
    await chart(page).locator('.stock-band path.recharts-area-area').waitFor();
    expect(await page.getByRole('combobox', { name: 'Product' }).inputValue()).toBe(`${chosen} — ${byCode.get(chosen)!.name}`);
  });

  it("low stock is the report's list as orders to place: same order and count, the forecast's quantity and cost, paged, filterable by keyboard, axe clean", async () => {
    const { page } = browser;
    type Advice = { total: number; on_order_late?: number; inactive: number; order_quantities: { unit: string | null; quantity: number }[]; order_cost: number; first_order_by: string | null; page_size: number; products: ReportProduct[] };
    const active = (await apiGet<{ report: Advice }>('/forecasting/latest-report/?page=1')).report;
    const all = (await apiGet<{ report: Advice }>('/forecasting/latest-report/?page=1&include_inactive=true')).report;
    await openForecasting(page);
    const panel = page.getByTestId('low-stock');
    const table = page.getByTestId('low-stock-table');
    await table.waitFor();
    const rows = table.locator('tbody tr');
    const shownRows = () =>
      rows.evaluateAll((elements) =>
        elements.map((element) => ({
          code: element.getAttribute('data-style-code') ?? '',
          quantity: element.querySelector('[data-testid="order-quantity"]')?.textContent ?? '',
          cost: element.querySelector('[data-testid="order-cost"]')?.textContent ?? '',
        })),
      );
    const units = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
    const today = await browserToday(page);
    // The count's urgency is the list's first order-by date (QA F10), "now" once it has come; the deliveries to hurry are counted apart.
    // A quantity as the lists write it, with the product's unit; the count totals one unit at a time (other suites give some products kg).
    const quantityOf = (quantity: number, unit: string | null) => `${quantityFormat.format(quantity)}${unit ? ` ${unit}` : ''}`;
    const quantitiesOf = (advice: Advice) =>
      advice.order_quantities.length ? advice.order_quantities.map(({ quantity, unit }) => (unit ? quantityOf(quantity, unit) : `${quantityFormat.format(quantity)} ${quantity === 1 ? 'unit' : 'units'}`)).join(', ') : '0 units';
    const countLine = (advice: Advice) => {
      const late = advice.on_order_late ?? 0;
      const orders = advice.total - late;
      const hurry = late === 0 ? '' : late === 1 ? ' · 1 delivery on its way arrives after its product runs out: hurry it' : ` · ${late} deliveries on their way arrive after their products run out: hurry them`;
      const due = advice.first_order_by! <= today ? (orders === 1 ? '1 product needs an order now' : `${orders} products need an order; the most urgent must be ordered now`) : `${orders === 1 ? '1 product needs an order, by' : `${orders} products need an order; the most urgent must be ordered by`} ${fullDay(advice.first_order_by!)}`;
      return `${due} · ${quantitiesOf(advice)} · cost ${money.format(advice.order_cost)}${hurry}`;
    };
    expect(active.first_order_by).toBe(active.products.find((p) => p.orderBy !== null)!.orderBy);
    // One page of the server's list, in its order, with the forecast's quantity: no fixed 100.
    // An order on under four weeks of sales says so beside its quantity, in the words of its advice.
    const checkMark = 'Check before ordering This order rests on under four weeks of sales, too few to show how the product sells: check the quantity against what you expect before you order.';
    // An order in the supplier's cases or at its minimum says so under its quantity (the demo sells drinks in cases): "2 × 24", the whole words for a screen reader.
    const termsOf = (p: ReportProduct) => {
      const note = supplierOrderNote(p, p.unit);
      return note ? `${note}${supplierOrderWords(p, p.unit) ?? note}` : '';
    };
    expect(active.products.some((p) => termsOf(p) !== '')).toBe(true);
    expect(await shownRows()).toEqual(active.products.map((p) => ({ code: p.styleCode, quantity: `${quantityOf(p.orderQuantity, p.unit)}${p.shortHistory ? checkMark : ''}${termsOf(p)}`, cost: money.format(p.orderQuantity * p.unitCost) })));
    expect(await page.getByTestId('low-stock-count').textContent()).toBe(countLine(active));
    // The report's header counts the same list.
    expect(await page.getByTestId('at-risk-count').textContent()).toBe(`Products to order${active.on_order_late ? ' or to hurry' : ''}, most urgent first (${active.total})`);
    // A delivery to hurry says when it arrives, where an order's date stands.
    expect(await table.getByTestId('on-order-late').allTextContents()).toEqual(active.products.flatMap((p) => (p.onOrderArrives ? [`On order: arrives ${fullDay(p.onOrderArrives)}, after it runs out — hurry it`] : [])));
    // Days and the report's time day first, as the rest of the app writes them; an order due today or before, "Now".
    expect(await table.getByTestId('order-by').allTextContents()).toEqual(active.products.map((p) => orderByCell(p.orderBy, today)));
    expect(await page.getByTestId('report-generated').textContent()).toMatch(/^Generated \d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2}:\d{2}\s[AP]M · \d+-day horizon$/);
    // What is on hand now, as each product's header says it — not the stored count (ADR 0030, amendment 2026-12-04).
    const onHandText = (onHand: OnHand) => (onHand === null ? 'Not counted yet' : onHand.units === onHand.countedUnits ? units.format(onHand.units) : `≈ ${units.format(onHand.units)}`);
    expect(await table.getByTestId('on-hand').allTextContents()).toEqual(active.products.map((p) => onHandText(p.onHand)));
    const { product: firstShown } = await apiGet<{ product: { onHand: OnHand } }>(`/forecasting/forecasts/${encodeURIComponent(active.products[0]!.styleCode)}`);
    expect(active.products[0]!.onHand).toEqual(firstShown.onHand);
    const noteId = await table.getByRole('columnheader', { name: 'On hand now' }).getAttribute('aria-describedby');
    expect(await page.locator(`[id="${noteId}"]`).textContent()).toBe('On hand now: the last count minus the sales since, plus deliveries (the figure above the chart).');
    expect(await axeViolations(page, '[data-testid="low-stock"]')).toEqual([]);

    if (active.total > active.page_size) {
      const second = (await apiGet<{ report: Advice }>('/forecasting/latest-report/?page=2')).report;
      await panel.getByRole('button', { name: 'Page 2' }).click();
      await table.locator(`tbody tr[data-style-code="${second.products[0]!.styleCode}"]`).first().waitFor();
      expect((await shownRows()).map((row) => row.code)).toEqual(second.products.map((p) => p.styleCode));
      // The page shown stands out from the others (its sheet loaded with the screen: unstyled, all were alike).
      const background = (name: string) => panel.getByRole('button', { name }).evaluate((element) => getComputedStyle(element).backgroundColor);
      expect(await panel.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
      expect(await background('Page 2')).not.toBe(await background('Page 1'));
    }
    // Keyboard: focus the filter and switch it on with Space; the products without recent sales join the count.
    const filter = panel.getByRole('switch');
    expect(await panel.getByRole('switch', { name: `Show products without sales in the last 90 days (${active.inactive} hidden)` }).count()).toBe(1);
    await filter.focus();
    await page.keyboard.press('Space');
    // Back on page 1 of the longer list (the demo data may have no inactive product: then the same list).
    await table.locator('tbody tr').first().and(table.locator(`tr[data-style-code="${all.products[0]!.styleCode}"]`)).waitFor();
    expect(await filter.isChecked()).toBe(true);
    expect(await page.getByTestId('low-stock-count').textContent()).toBe(countLine(all));
    expect((await shownRows()).map((row) => row.code)).toEqual(all.products.map((p) => p.styleCode));
  });

  it('exports the forecast as CSV and as Excel', async () => {
    const { page } = browser;
    const target = reportProducts[0]!;
    await openForecasting(page);
    await pickProduct(page, target.styleCode);
    await chart(page).locator('.recharts-line-curve').first().waitFor({ state: 'attached' });
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export forecast CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`forecast-${target.styleCode}.csv`);
    const text = await readFile((await file.path())!, 'utf8');
    // The byte order mark, for Excel to read UTF-8.
    expect(text.startsWith('\uFEFFdate,')).toBe(true);
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('date,forecast,lower,upper,stock,stock lower,stock upper,short by,short by up to,unit');
    expect(lines.length).toBe(91);
    // Every line says what its figures count, as the report's download does: blank for pieces.
    expect(new Set(lines.slice(1).map((line) => line.split(',').at(-1)))).toEqual(new Set([target.unit ?? '']));

    // The same columns as an Excel workbook, for a European Excel (which opens a CSV as one column).
    const workbookDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export forecast Excel' }).click();
    const workbookFile = await workbookDownload;
    expect(workbookFile.suggestedFilename()).toBe(`forecast-${target.styleCode}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await workbookFile.path()) as string);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'date', 'forecast', 'lower', 'upper', 'stock', 'stock lower', 'stock upper', 'short by', 'short by up to', 'unit']);
    expect(sheet.rowCount).toBe(91);
    expect(sheet.getRow(2).getCell(1).value).toBeInstanceOf(Date);
    expect(await axeViolations(page, '[data-testid="export-forecast-xlsx"]')).toEqual([]);
  });

  it('looks 180 and 365 days ahead by keyboard: the chart, stock line, markers, explanation and downloads follow, the URL keeps it, the lists stay at 90 days', async () => {
    const { page } = browser;
    type Forecast = { forecast: { sales: { ds: string }[]; stock: StockPoint[] }; stockouts: { date: string; type: string }[] };
    const target = reportProducts.find((product) => product.firstStockout !== null)!;
    const listed = await waitForLatestReport();
    await openForecasting(page);
    await pickProduct(page, target.styleCode);
    await page.getByRole('group', { name: `Sales and stock chart for ${target.styleCode}` }).waitFor();
    expect(await page.getByText('over the next 90 days', { exact: false }).count()).toBe(1);
    // Each reading is bounded, so that a poll reads again (focus and End anew) rather than waiting on
    // one reading: on a loaded machine the chart can redraw between the key and the readout.
    const lastForecastDay = async () => {
      await chart(page).getByRole('application', { name: /Daily sales chart/ }).focus({ timeout: 5_000 });
      await page.keyboard.press('End');
      const shown = await chart(page).locator('.sales-chart .day-readout [role="status"] div').first().textContent({ timeout: 5_000 }).catch(() => null);
      await page.keyboard.press('Escape');
      return shown;
    };
    const ninety = await apiGet<Forecast>(`/forecasting/forecasts/${encodeURIComponent(target.styleCode)}`);
    expect(await lastForecastDay()).toBe(fullDay(ninety.forecast.sales.at(-1)!.ds));

    const horizon = page.getByRole('radiogroup', { name: 'Look ahead' });
    for (const days of [180, 365]) {
      const longer = await apiGet<Forecast>(`/forecasting/forecasts/${encodeURIComponent(target.styleCode)}?forecast_days=${days}`);
      expect(longer.forecast.sales).toHaveLength(days);
      // The keyboard moves the choice (arrow keys within the group, as in any radio group).
      await horizon.getByRole('radio', { checked: true }).focus();
      await page.keyboard.press('ArrowRight');
      await page.waitForURL(new RegExp(`[?&]days=${days}(&|$)`));
      await expect.poll(() => lastForecastDay(), { timeout: 30_000 }).toBe(fullDay(longer.forecast.sales.at(-1)!.ds));
      expect(await page.getByText(`over the next ${days} days`, { exact: false }).count()).toBe(1);
      // The stock line's crossings over the longer horizon, each marked.
      const markers = await chart(page).locator('.zero-crossing').evaluateAll((dots) => dots.map((dot) => dot.getAttribute('data-date')));
      expect(markers).toEqual(crossingsOf(longer.forecast.stock).map((crossing) => crossing.date));
      const stockout = longer.stockouts.find((item) => item.type === 'stockForecast');
      const stockoutWords = await page.getByTestId('stockout-summary').textContent();
      if (stockout) expect(stockoutWords).toContain(fullDay(stockout.date));
      else expect(stockoutWords).toContain(`in ${days} days`);
    }
    expect(await axeViolations(page, '[data-testid="horizon"]')).toEqual([]);
    expect(await axeViolations(page, '[data-testid="forecast-explanation"]')).toEqual([]);

    // The forecast's download is the horizon shown: 365 days.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export forecast CSV' }).click();
    expect((await readFile((await (await download).path())!, 'utf8')).slice(1).trim().split('\r\n')).toHaveLength(366);
    const workbookDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export forecast Excel' }).click();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await (await workbookDownload).path()) as string);
    expect(workbook.worksheets[0]!.rowCount).toBe(366);

    // A reload keeps product and horizon; the order lists still look 90 days ahead, unchanged.
    await page.reload();
    await page.locator(`[data-testid="selected-style-code"]:text-is("${target.styleCode}")`).waitFor();
    expect(await horizon.getByRole('radio', { checked: true }).getAttribute('value')).toBe('365');
    await expect.poll(() => lastForecastDay(), { timeout: 30_000 }).toBe(fullDay(shiftDay(ninety.forecast.sales[0]!.ds, 364)));
    const after = await waitForLatestReport();
    expect({ total: after.total, codes: after.products.map((p) => p.styleCode) }).toEqual({ total: listed.total, codes: listed.products.map((p) => p.styleCode) });
    expect(await page.getByTestId('report-generated').textContent()).toContain('90-day horizon');
    // Back to 90 days: the stored forecast, and the URL without the choice.
    await horizon.getByText('90 days', { exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('days')).toBeNull();
    await expect.poll(() => lastForecastDay(), { timeout: 30_000 }).toBe(fullDay(ninety.forecast.sales.at(-1)!.ds));
  });

  it("exports the report's whole list under its filter as CSV and as Excel, not only the page shown", async () => {
    const { page } = browser;
    const whole: ReportProduct[] = [];
    for (let number = 1; ; number++) {
      const { report } = await apiGet<{ report: { total: number; products: ReportProduct[] } }>(`/forecasting/latest-report/?page=${number}&page_size=500`);
      whole.push(...report.products);
      if (whole.length >= report.total) break;
    }
    await openForecasting(page);
    await page.getByTestId('at-risk-table').waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export report CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`inventory-report-${reportDay}.csv`);
    const text = await readFile((await file.path())!, 'utf8');
    expect(text.startsWith('\uFEFFproduct code,')).toBe(true);
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('product code,name,supplier,on hand now,last count,counted on,unit cost,first stockout,stockout type,reorder point,order quantity,unit,case size,minimum order,needed,order by,model,check,too late,on order');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(whole.map((product) => product.styleCode));
    // The screen's marks are the file's last columns, in its words.
    expect(lines.slice(1).filter((line) => line.endsWith(', after it runs out — hurry it"')).map((line) => line.split(',')[0])).toEqual(whole.filter((p) => p.onOrderArrives).map((p) => p.styleCode));
    expect(lines.slice(1).filter((line) => line.includes(',Under 4 weeks of sales,')).length).toBe(whole.filter((p) => p.shortHistory).length);

    const workbookDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export report Excel' }).click();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await (await workbookDownload).path()) as string);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(whole.length + 1);
    expect(sheet.getRow(2).getCell(1).value).toBe(whole[0]!.styleCode);
    expect(await page.getByText('The exports hold every product on the list with the filters above, not only this page.').count()).toBe(1);
    expect(await axeViolations(page, '[data-testid="export-report-csv"]')).toEqual([]);
  });

  it("says a product's unit after its stock and its order once the products table gives it one (ADR 0177), axe clean", async () => {
    const { page } = browser;
    const product = reportProducts.find((p) => p.onHand !== null && p.orderQuantity > 0 && !p.onOrderArrives) ?? reportProducts[0]!;
    const row = (await apiGet<{ results: ProductRow[] }>(`/records/tables/products/data/?page=1&page_size=1&filters_json=${encodeURIComponent(JSON.stringify({ product_code: { equals: product.styleCode } }))}`)).results[0]!;
    const setUnit = async (unit: string) => {
      const answer = await fetch(`${inject('baseUrl')}/api/records/tables/products/rows/edit/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ id: row.id, unit }),
      });
      expect(answer.status, await answer.text()).toBe(200);
    };
    await setUnit('kg');
    try {
      await openForecasting(page);
      await pickProduct(page, product.styleCode);
      await page.getByTestId('forecast-explanation').waitFor();
      expect(await page.getByTestId('selected-current-stock').textContent()).toMatch(/^(≈ )?[\d,.]+ kg$/);
      expect(await page.getByTestId('reorder-summary').textContent()).toMatch(/[\d,.]+ kg/);
      expect(await page.getByTestId('reorder-summary').textContent()).not.toMatch(/ units/);
      // The chart's titles and its day readout in kg too (ADR 0177, amendment 2026-12-06).
      await chart(page).getByText('Daily sales (kg)').waitFor();
      expect(await chart(page).getByText('Stock on hand (kg)').count()).toBe(1);
      await chart(page).getByRole('application', { name: /Stock chart/ }).focus();
      await page.keyboard.press('End');
      expect(await chart(page).locator('.stock-chart .day-readout [role="status"]').textContent()).toMatch(/Forecast stock: (0 \(short by )?[\d,.]+ kg/);
      await page.keyboard.press('Escape');
      expect(await axeViolations(page, '[data-testid="selected-product"]')).toEqual([]);
      expect(await axeViolations(page, '[data-testid="forecast-explanation"]')).toEqual([]);
    } finally {
      // The demo's product as it was, for the files after this one.
      await setUnit('');
    }
  });
  it("orders a product in the supplier's cases once the products table gives it a case size, says so on the product and notes it on the lists (ADR 0183), axe clean", async () => {
    const { page } = browser;
    type Reorder = { orderQuantity: number; orderBy: string | null; orderMultiple?: number; orderQuantityNeeded?: number };
    const { products } = (await apiGet<{ report: { products: ReportProduct[] } }>('/forecasting/latest-report/?page=1')).report;
    const product = products.find((p) => p.orderQuantity > 1 && !p.onOrderArrives && p.unit === null && !p.shortHistory)!;
    expect(product, 'an order in pieces on the low-stock list\'s first page').toBeDefined();
    const row = (await apiGet<{ results: ProductRow[] }>(`/records/tables/products/data/?page=1&page_size=1&filters_json=${encodeURIComponent(JSON.stringify({ product_code: { equals: product.styleCode } }))}`)).results[0]!;
    // One more than the need: one case, the need beside it.
    const caseSize = product.orderQuantity + 1;
    const reorderOf = async () => (await apiGet<{ reorder: Reorder }>(`/forecasting/forecasts/${encodeURIComponent(product.styleCode)}`)).reorder;
    const setCaseSize = async (size: number | null) => {
      const answer = await fetch(`${inject('baseUrl')}/api/records/tables/products/rows/edit/`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ id: row.id, order_multiple: size }),
      });
      expect(answer.status, await answer.text()).toBe(200);
      // The edit queues the product's forecast: its advice names the case size once it has run.
      await expect.poll(async () => (await reorderOf()).orderMultiple ?? null, { timeout: 60_000, interval: 500 }).toBe(size);
    };
    await setCaseSize(caseSize);
    try {
      const reorder = await reorderOf();
      expect(reorder).toMatchObject({ orderQuantity: caseSize, orderBy: product.orderBy });
      const needed = quantityFormat.format(reorder.orderQuantityNeeded!);
      await openForecasting(page);
      // The low-stock list: the rounded quantity, "1 × size" under it, the words to a screen reader.
      const listed = page.getByTestId('low-stock-table').locator(`tr[data-style-code="${product.styleCode}"]`);
      await listed.getByTestId('supplier-order').waitFor();
      expect(await listed.getByTestId('order-quantity').evaluate((cell) => cell.firstChild?.textContent)).toBe(quantityFormat.format(caseSize));
      expect(await listed.getByTestId('supplier-order').getAttribute('title')).toBe(`1 case of ${quantityFormat.format(caseSize)}; ${needed} needed`);
      expect(await listed.getByTestId('supplier-order').locator('[aria-hidden]').textContent()).toBe(`1 × ${quantityFormat.format(caseSize)}`);
      expect(await axeViolations(page, '[data-testid="low-stock"]')).toEqual([]);
      await pickProduct(page, product.styleCode);
      await page.getByTestId('forecast-explanation').waitFor();
      expect(await page.getByTestId('reorder-summary').textContent()).toContain(`Order ${quantityFormat.format(caseSize)} units (1 case of ${quantityFormat.format(caseSize)}; ${needed} needed)`);
      const advice = page.getByTestId('reorder-advice');
      expect(await advice.locator('dt:text-is("Case size") + dd').textContent()).toBe(quantityFormat.format(caseSize));
      expect(await axeViolations(page, '[data-testid="forecast-explanation"]')).toEqual([]);
    } finally {
      // The demo's product as it was, its forecast too, for the files after this one.
      await setCaseSize(null);
    }
  });
});
