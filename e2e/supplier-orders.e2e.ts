// A supplier's orders recorded at once through the real UI (ADR 0185): three products of the demo's
// list are given one supplier through the products table's API; the low-stock list is narrowed to it
// by keyboard, "<supplier>: record 3 orders…" opened by keyboard (axe on the dialog), one row
// unticked, the two others' quantities typed over to cover their 90 days, and saved: the rows say
// "Updating advice…", one notice says "Recorded 2 orders for <supplier>", then the two leave the list
// and the unticked one stays; the two deliveries are in the deliveries table. Its own server: the
// other suites read the demo's list as seeded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withFullStop, type InventoryReport, type ProductForecastResponse } from '@stockwise/contract';
import { axeViolations } from './support/axe.ts';
import { signIn, useBrowser } from './support/browser.ts';
import { demoUser } from './support/context.ts';
import { demoApi } from './support/demo-api.ts';
import { startServer, type RunningServer } from './support/server.ts';

// Its own full stop, as many a company's name has: the button puts the dialog's ellipsis after the verb, not after it (ADR 0185 amendment).
const SUPPLIER = 'Northwind Trading Co.';
let server: RunningServer;
let token = '';
const browser = useBrowser({ baseUrl: () => server.baseUrl });

const { api, latestReport, setSupplier } = demoApi(
  () => server.baseUrl,
  () => token,
);

/** A quantity that covers the product's whole forecast and more: after it, no other order within the 90 days. */
async function coveringQuantity(product: InventoryReport['products'][number]): Promise<number> {
  const forecast = await api<ProductForecastResponse>(`/forecasting/forecasts/${encodeURIComponent(product.styleCode)}`);
  return Math.ceil(forecast.forecast.sales.reduce((sum, day) => sum + day.yhat_upper, 0)) + product.orderQuantity;
}

beforeAll(async () => {
  server = await startServer({ name: 'supplier-orders', accessTokenTtlSeconds: 900 });
  const answer = await fetch(`${server.baseUrl}/api/token/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(demoUser) });
  token = ((await answer.json()) as { access: string }).access;
}, 200_000);

afterAll(async () => {
  await server?.stop();
});

describe("a supplier's orders recorded at once (ADR 0185)", () => {
  it('narrows the list to one supplier, records two of its three orders by keyboard, and both leave the list', async () => {
    // Orders that can still arrive before the stock runs out, counted in pieces.
    const candidates = (await latestReport()).products.filter((product) => product.orderBy !== null && product.urgencyDays >= 0 && product.unit === null);
    expect(candidates.length, 'three orders on the first page that can arrive in time').toBeGreaterThanOrEqual(3);
    const [first, left, last] = candidates as [InventoryReport['products'][number], InventoryReport['products'][number], InventoryReport['products'][number]];
    for (const product of [first, left, last]) await setSupplier(product.styleCode, SUPPLIER);
    const quantities = [await coveringQuantity(first), await coveringQuantity(last)];

    const { page } = browser;
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Forecasting', exact: true }).click();
    const panel = page.getByTestId('low-stock');
    const table = page.getByTestId('low-stock-table');
    await table.locator(`[data-style-code="${first.styleCode}"]`).waitFor();
    // Not for every supplier at once.
    expect(await panel.getByTestId('record-supplier-orders').count()).toBe(0);

    const filter = panel.getByRole('combobox', { name: 'Supplier' });
    await filter.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('northwind');
    await page.getByRole('option', { name: `${SUPPLIER} (3)` }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const codes = () => table.locator('tbody tr').evaluateAll((rows) => rows.map((element) => element.getAttribute('data-style-code')));
    await expect.poll(codes).toEqual([first.styleCode, left.styleCode, last.styleCode]);

    const opener = panel.getByRole('button', { name: `${SUPPLIER}: record 3 orders…`, exact: true });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Record the orders placed: ${SUPPLIER}` });
    const include = (product: typeof first) => dialog.getByRole('checkbox', { name: `Ordered: ${product.styleCode} — ${product.name}` });
    await include(first).waitFor();
    // The first order takes the focus once the list is read.
    await expect.poll(() => include(first).evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);

    // The one not ordered, left out with the space bar; the others typed over (the field's text is selected when it takes the focus).
    await include(left).focus();
    await page.keyboard.press('Space');
    expect(await include(left).isChecked()).toBe(false);
    for (const [index, product] of [first, last].entries()) {
      await dialog.getByRole('textbox', { name: `Quantity ordered of ${product.styleCode} — ${product.name}` }).focus();
      await page.keyboard.type(String(quantities[index]));
    }
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    await dialog.getByRole('button', { name: 'Save 2 orders' }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });

    const notice = page.getByTestId('order-notice-text');
    // The name's own stop ends the sentence: "… Co. Updating their advice…", not "Co..".
    const recorded = withFullStop(`Recorded 2 orders for ${SUPPLIER}`);
    await expect.poll(async () => (await notice.textContent())?.slice(0, recorded.length + 1)).toBe(`${recorded} `);
    // One run counts both; the list comes back without them, the one left out still on it.
    await expect.poll(() => notice.textContent(), { timeout: 60_000 }).toBe(`${recorded} Their advice is updated.`);
    await expect.poll(codes).toEqual([left.styleCode]);
    expect(await panel.getByRole('button', { name: `${SUPPLIER}: record 1 order…`, exact: true }).count()).toBe(1);
    expect(await axeViolations(page, '[data-testid="low-stock"]')).toEqual([]);
    expect(await axeViolations(page, '[data-testid="order-notice"]')).toEqual([]);

    for (const quantity of quantities) {
      const deliveries = await api<{ results: { quantity: number; status: string }[] }>(`/records/tables/deliveries/data/?filters_json=${encodeURIComponent(JSON.stringify({ quantity: { equals: quantity } }))}`);
      expect(deliveries.results.map((delivery) => [Number(delivery.quantity), delivery.status])).toContainEqual([quantity, 'scheduled']);
    }
  }, 240_000);
});
