// The order lists by supplier through the real UI (ADR 0184): two products of the demo's list are
// given a supplier of their own and none through the products table's API; the low-stock list is
// narrowed to that supplier by keyboard (typed, taken with the arrows and Enter), then to the
// products with no supplier — rows, count and choices as the server's filtered list, axe clean — the
// Record order dialog names the supplier, and the report's download under the filter is that
// supplier's order list. Its own server: the other suites read the demo's suppliers as seeded.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryReport } from '@stockwise/contract';
import { axeViolations } from './support/axe.ts';
import { signIn, useBrowser } from './support/browser.ts';
import { demoUser } from './support/context.ts';
import { demoApi } from './support/demo-api.ts';
import { startServer, type RunningServer } from './support/server.ts';

const HARBOUR = 'Harbour Trading Co.';
let server: RunningServer;
let token = '';
const browser = useBrowser({ baseUrl: () => server.baseUrl });

const { latestReport, setSupplier } = demoApi(
  () => server.baseUrl,
  () => token,
);

beforeAll(async () => {
  server = await startServer({ name: 'supplier', accessTokenTtlSeconds: 900 });
  const answer = await fetch(`${server.baseUrl}/api/token/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(demoUser) });
  token = ((await answer.json()) as { access: string }).access;
}, 200_000);

afterAll(async () => {
  await server?.stop();
});

describe('the order lists by supplier (ADR 0184)', () => {
  it("narrows the low-stock list to one supplier and to the products without one by keyboard, names the supplier in the Record order dialog, and downloads that supplier's list", async () => {
    const orders = (await latestReport()).products.filter((product) => product.orderBy !== null);
    expect(orders.length, 'two orders on the first page').toBeGreaterThanOrEqual(2);
    const [harbour, loose] = orders as [InventoryReport['products'][number], InventoryReport['products'][number]];
    await setSupplier(harbour.styleCode, HARBOUR);
    // Blank is no supplier.
    await setSupplier(loose.styleCode, '  ');
    const none = await latestReport('?supplier=');
    expect(none.products.map((product) => product.styleCode)).toContain(loose.styleCode);

    const { page } = browser;
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Forecasting', exact: true }).click();
    const panel = page.getByTestId('low-stock');
    const table = page.getByTestId('low-stock-table');
    const row = table.locator(`[data-style-code="${harbour.styleCode}"]`);
    await row.waitFor();
    // Each row names its supplier under the product's name.
    expect(await row.getByTestId('row-supplier').textContent()).toBe(HARBOUR);
    expect(await table.locator(`[data-style-code="${loose.styleCode}"]`).getByTestId('row-supplier').count()).toBe(0);
    const filter = panel.getByRole('combobox', { name: 'Supplier' });
    expect(await filter.inputValue()).toMatch(/^All suppliers \(\d+\)$/);
    expect(await axeViolations(page, '[data-testid="low-stock"]')).toEqual([]);

    // Keyboard only: the supplier typed, its choice taken with the arrows and Enter.
    await filter.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('harbour');
    await page.getByRole('option', { name: `${HARBOUR} (1)` }).waitFor();
    expect(await axeViolations(page, '[data-testid="low-stock"]')).toEqual([]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => table.locator('tbody tr').evaluateAll((rows) => rows.map((element) => element.getAttribute('data-style-code')))).toEqual([harbour.styleCode]);
    expect(await filter.inputValue()).toBe(`${HARBOUR} (1)`);
    expect(await page.getByTestId('low-stock-count').textContent()).toMatch(/^1 product needs an order/);
    expect(await axeViolations(page, '[data-testid="low-stock"]')).toEqual([]);

    // Its Record order dialog says whom the order goes to.
    await row.getByRole('button', { name: `Record order… for ${harbour.styleCode} — ${harbour.name}` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Record an order: ${harbour.styleCode} — ${harbour.name}` });
    await dialog.waitFor();
    expect(await dialog.getByTestId('record-order-supplier').textContent()).toBe(`Supplier: ${HARBOUR}`);
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // The products without a supplier: the server's list of them, page 1.
    await filter.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('no supplier');
    await page.getByRole('option', { name: /^No supplier \(\d+\)$/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => table.locator('tbody tr').evaluateAll((rows) => rows.map((element) => element.getAttribute('data-style-code')))).toEqual(none.products.map((product) => product.styleCode));
    expect(await filter.inputValue()).toBe(`No supplier (${none.total})`);
    expect(await table.getByTestId('row-supplier').count()).toBe(0);
    expect(await axeViolations(page, '[data-testid="low-stock"]')).toEqual([]);

    // The report's own filter, and its download: that supplier's order list, named for it.
    const report = page.getByTestId('latest-report');
    const reportFilter = report.getByRole('combobox', { name: 'Supplier' });
    await reportFilter.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('harbour');
    await page.getByRole('option', { name: `${HARBOUR} (1)` }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('at-risk-table').locator('tbody tr').count()).toBe(1);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export report CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^inventory-report-\d{4}-\d{2}-\d{2}-harbour-trading-co\.csv$/);
    const lines = (await readFile((await file.path())!, 'utf8')).slice(1).trim().split('\r\n');
    expect(lines[0]!.startsWith('product code,name,supplier,')).toBe(true);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.startsWith(`${harbour.styleCode},`)).toBe(true);
    expect(lines[1]).toContain(`,${HARBOUR},`);
    expect(await axeViolations(page, '[data-testid="latest-report"]')).toEqual([]);
  }, 240_000);
});
