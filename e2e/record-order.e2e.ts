// "Record order…" through the real UI (ADR 0182): the demo administrator opens a row of the low-stock
// list by keyboard, sees the dialog prefilled with the advice (axe on it, also with a refusal shown),
// records an order that covers the product's 90 days, and sees the row say it is updating, then
// leave the list, the count drop by one and the notice say what the advice is now; the delivery is in
// the deliveries table. Its own server: the other suites read the demo's list as seeded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDay, type InventoryReport, type ProductForecastResponse } from '@stockwise/contract';
import { axeViolations } from './support/axe.ts';
import { signIn, useBrowser } from './support/browser.ts';
import { demoUser } from './support/context.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let token = '';
const browser = useBrowser({ baseUrl: () => server.baseUrl });

async function apiGet<T>(path: string): Promise<T> {
  const answer = await fetch(`${server.baseUrl}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
  if (!answer.ok) throw new Error(`GET ${path}: ${answer.status}`);
  return (await answer.json()) as T;
}

/** The first page of the list, once the demo's first catalogue run (started by its seeding) has ended. */
async function latestReport(): Promise<InventoryReport> {
  for (const deadline = Date.now() + 150_000; Date.now() < deadline; ) {
    const answer = await apiGet<{ success: boolean; report?: InventoryReport }>('/forecasting/latest-report/');
    if (answer.success && answer.report) return answer.report;
    await new Promise((resolve) => setTimeout(resolve, 500)); // polling the server's background run
  }
  throw new Error('no latest report after 150 s');
}

beforeAll(async () => {
  server = await startServer({ name: 'record-order', accessTokenTtlSeconds: 900 });
  const answer = await fetch(`${server.baseUrl}/api/token/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(demoUser) });
  token = ((await answer.json()) as { access: string }).access;
}, 200_000);

afterAll(async () => {
  await server?.stop();
});

describe('recording an order from the list (ADR 0182)', () => {
  it('records an order from a low-stock row by keyboard, and the row leaves the list once its advice is updated', async () => {
    const report = await latestReport();
    // An order that can still arrive before the stock runs out: one big enough then needs no other within the 90 days.
    const product = report.products.find((candidate) => candidate.orderBy !== null && candidate.urgencyDays >= 0 && candidate.unit === null);
    expect(product, 'an order on the first page that can arrive in time').toBeDefined();
    const { styleCode, name } = product!;
    const forecast = await apiGet<ProductForecastResponse>(`/forecasting/forecasts/${encodeURIComponent(styleCode)}`);
    const quantity = Math.ceil(forecast.forecast.sales.reduce((sum, day) => sum + day.yhat_upper, 0)) + product!.orderQuantity;

    const { page } = browser;
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Forecasting', exact: true }).click();
    const table = page.getByTestId('low-stock-table');
    const row = table.locator(`[data-style-code="${styleCode}"]`);
    const count = page.getByTestId('low-stock-count');
    await row.waitFor();
    // The orders the count says: the list less its deliveries to hurry.
    const orders = report.total - (report.on_order_late ?? 0);
    expect(await count.textContent()).toMatch(new RegExp(`^${orders} products need an order`));

    // Keyboard: the row's button, named for its product, opens the dialog on the quantity.
    const action = row.getByRole('button', { name: `Record order… for ${styleCode} — ${name}` });
    await action.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Record an order: ${styleCode} — ${name}` });
    await dialog.waitFor();
    const quantityField = dialog.getByRole('textbox', { name: /^Quantity ordered/ });
    const arrivalField = dialog.getByRole('textbox', { name: /^Expected arrival/ });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('inputmode'))).toBe('decimal');
    expect(await quantityField.inputValue()).toBe(String(product!.orderQuantity));
    const proposed = await arrivalField.inputValue();
    expect(proposed).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);

    // A day gone by is refused under its field, before anything is sent.
    await arrivalField.fill('2020-01-06');
    await page.keyboard.press('Enter');
    await dialog.getByText(`${formatDay('2020-01-06')} is in the past`, { exact: false }).waitFor();
    expect(await arrivalField.getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);

    // A day the shop is closed on (Settings → Shop, with its note): noted under the field with the next open day, not refused (ADR 0182, amendment 2026-12-06).
    const [year, month, dayOfMonth] = product!.arrivalDate!.split('-');
    const monthFirst = proposed === `${month}/${dayOfMonth}/${year}`;
    const typed = (iso: string) => {
      const [y, m, d] = iso.split('-');
      return monthFirst ? `${m}/${d}/${y}` : `${d}/${m}/${y}`;
    };
    const closedDay = new Date(Date.parse(`${product!.arrivalDate!}T00:00:00Z`) + 3 * 86_400_000).toISOString().slice(0, 10);
    const closing = await fetch(`${server.baseUrl}/api/shop/closed-dates/`, { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ closedDates: [{ date: closedDay, note: 'Stock-take' }] }) });
    expect(closing.status).toBe(200);
    await arrivalField.fill(typed(closedDay));
    const closedNote = dialog.getByTestId('arrival-closed-note');
    await expect.poll(() => closedNote.textContent()).toMatch(new RegExp(`^The shop is closed on \\w+ ${formatDay(closedDay)} \\(Stock-take\\): the next day it is open is \\w+ \\d+ \\w+ \\d{4}\\. The order can still be saved for this day\\.$`));
    expect(await arrivalField.getAttribute('aria-invalid')).not.toBe('true');
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);

    // The order as placed: typed over the advice (the field's text is selected when it takes the focus), the proposed day.
    await arrivalField.fill(proposed);
    await expect.poll(() => closedNote.textContent()).toBe('');
    await quantityField.focus();
    await page.keyboard.type(String(quantity));
    expect(await quantityField.inputValue()).toBe(String(quantity));
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const notice = page.getByTestId('order-notice-text');
    await expect.poll(() => notice.textContent()).toMatch(new RegExp(`^Recorded: ${quantity.toLocaleString('en')} ${name} arriving `));

    // Its product runs again; the list comes back without it, the count one lower, and the notice says why.
    await row.waitFor({ state: 'detached' });
    await expect.poll(() => notice.textContent()).toMatch(/Its advice now: no other order is needed in the next 90 days\.$/);
    await expect.poll(() => count.textContent()).toMatch(new RegExp(`^${orders - 1} products need an order`));
    expect(await axeViolations(page, '[data-testid="order-notice"]')).toEqual([]);

    const deliveries = await apiGet<{ results: { product_id: number; quantity: number; status: string }[] }>(`/records/tables/deliveries/data/?filters_json=${encodeURIComponent(JSON.stringify({ quantity: { equals: quantity } }))}`);
    expect(deliveries.results.map((delivery) => [Number(delivery.quantity), delivery.status])).toContainEqual([quantity, 'scheduled']);
  });
});
