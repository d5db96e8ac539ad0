// A wholesaler's Odoo exports imported on the Import screen, as proposed (ADR 0198, 0200), on a
// server of its own (the other specs read the demo's list as seeded): the product list marks the
// Delivery Charge, a Service, not stocked; after its order lines and a forecast run, the low-stock
// list leaves it out and says so in one line, and its own forecast says "Not stocked — a service or
// fee"; axe clean.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ProductForecastResponse } from '@stockwise/contract';
import { axeViolations } from './support/axe.ts';
import { useBrowser } from './support/browser.ts';
import { demoUser } from './support/context.ts';
import { demoApi } from './support/demo-api.ts';
import { chosenOption, previewImportFile } from './support/import-screen.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { orderLinesCsv, productsCsv } from './fixtures/odoo-wholesaler.ts';

let server: RunningServer;
let token = '';
let dir = '';
const browser = useBrowser({ baseUrl: () => server.baseUrl, locale: 'en-US' });
const { api, latestReport } = demoApi(
  () => server.baseUrl,
  () => token,
);

beforeAll(async () => {
  server = await startServer({ name: 'odoo-imported', accessTokenTtlSeconds: 900 });
  const answer = await fetch(`${server.baseUrl}/api/token/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(demoUser) });
  token = ((await answer.json()) as { access: string }).access;
  // The demo's own first run ends before the imports: the run asked for below is the one read.
  await latestReport();
  dir = await mkdtemp(join(tmpdir(), 'stockwise-odoo-imported-e2e-'));
  await writeFile(join(dir, 'product.template.csv'), productsCsv());
  await writeFile(join(dir, 'sale.order.line.csv'), orderLinesCsv());
}, 200_000);

afterAll(async () => {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Imports the file previewed as proposed, and waits for its result. */
async function importAsProposed(page: Page, entity: string, fileName: string, signedIn: boolean) {
  await previewImportFile(page, entity, join(dir, fileName), { signedIn });
  if (entity === 'Products') expect(await chosenOption(page, 'Not stocked (a service or fee) (not_stocked)')).toBe('Product Type');
  await page.getByRole('button', { name: 'Import file' }).click();
  await page.getByTestId('import-result').waitFor({ timeout: 120_000 });
}

describe("a wholesaler's Odoo exports, imported (ADR 0200)", () => {
  it('leaves the Delivery Charge off the low-stock list with a line saying so, and its forecast says it is not stocked', async () => {
    const { page } = browser;
    await importAsProposed(page, 'Products', 'product.template.csv', false);
    await importAsProposed(page, 'Sales', 'sale.order.line.csv', true);
    const taskId = (await api<{ task_id: string }>('/forecasting/request-generation/', {})).task_id;
    await expect.poll(async () => (await api<{ status: string }>(`/forecasting/status/${taskId}/`)).status, { timeout: 180_000, interval: 1_000 }).toBe('completed');

    const report = await latestReport('?page_size=500');
    expect(report.not_stocked).toBe(1);
    expect(report.products.map((product) => product.styleCode)).not.toContain('SERV_DEL');
    const forecast = await api<ProductForecastResponse>('/forecasting/forecasts/SERV_DEL');
    expect(forecast.product.notStocked).toBe(true);

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Forecasting', exact: true }).click();
    const panel = page.getByTestId('low-stock');
    await page.getByTestId('low-stock-table').locator('tbody tr').first().waitFor();
    const notice = panel.getByTestId('not-stocked-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toBe('1 product not stocked (a service or fee) is not on the order list: no stock is kept of it.');
    expect(await page.getByTestId('low-stock-table').locator('[data-style-code="SERV_DEL"]').count()).toBe(0);
    expect(await axeViolations(page, '[data-testid="low-stock"]')).toEqual([]);

    // Its own forecast: kept (how many deliveries a day), with no stock, order or stockout.
    await page.getByRole('combobox', { name: 'Product' }).fill('SERV_DEL');
    await page.getByRole('option', { name: /^SERV_DEL — / }).click();
    await page.locator('[data-testid="selected-style-code"]:text-is("SERV_DEL")').waitFor();
    await expect.poll(() => page.getByTestId('reorder-summary').textContent()).toBe('Not stocked — a service or fee: no stock is kept, nothing is ordered');
    expect(await page.getByTestId('stockout-summary').textContent()).toBe('Not stocked: no stock is kept, so no stockout is warned of.');
    expect(await page.getByTestId('reorder-advice').count()).toBe(0);
    expect(await axeViolations(page, '[data-testid="forecast-explanation"]')).toEqual([]);
    // No stock chart (a line of 0 sinking below zero): its place says why; the sales chart stays.
    await page.getByTestId('no-stock-kept').waitFor();
    expect(await page.locator('[data-testid="forecast-chart"] .stock-chart').count()).toBe(0);
    expect(await page.locator('[data-testid="forecast-chart"] .sales-chart').count()).toBe(1);
    expect(await axeViolations(page, '[data-testid="forecast-chart"]')).toEqual([]);
  }, 420_000);
});
