// A product made here through the real UI (ADR 0194): one of the demo's orders is marked "Made here
// (not ordered)" through the products table's API, as the Data screen's check box saves it; the
// low-stock list leaves it out and says so in one line, whose switch shows it marked "Made here — not
// ordered"; its own forecast says the same instead of an order; axe clean at each step. Its own
// server: the other suites read the demo's list as seeded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { signIn, useBrowser } from './support/browser.ts';
import { demoUser } from './support/context.ts';
import { demoApi } from './support/demo-api.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let token = '';
const browser = useBrowser({ baseUrl: () => server.baseUrl });
const { api, latestReport } = demoApi(
  () => server.baseUrl,
  () => token,
);

beforeAll(async () => {
  server = await startServer({ name: 'made-here', accessTokenTtlSeconds: 900 });
  const answer = await fetch(`${server.baseUrl}/api/token/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(demoUser) });
  token = ((await answer.json()) as { access: string }).access;
}, 200_000);

afterAll(async () => {
  await server?.stop();
});

describe('a product made here (ADR 0194)', () => {
  it('is left out of the low-stock list with a line saying so, shown by its switch, and its forecast says "Made here — not ordered"', async () => {
    const [baked] = (await latestReport()).products.filter((product) => product.orderBy !== null);
    expect(baked, 'an order on the first page').toBeDefined();
    const filters = encodeURIComponent(JSON.stringify({ product_code: { equals: baked!.styleCode } }));
    const [row] = (await api<{ results: { id: number }[] }>(`/records/tables/products/data/?page=1&page_size=1&filters_json=${filters}`)).results;
    await api('/records/tables/products/rows/edit/', { id: row!.id, made_here: true });
    expect((await latestReport()).made_here).toBe(1);

    const { page } = browser;
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Forecasting', exact: true }).click();
    const panel = page.getByTestId('low-stock');
    const table = page.getByTestId('low-stock-table');
    await table.locator('tbody tr').first().waitFor();
    expect(await table.locator(`[data-style-code="${baked!.styleCode}"]`).count()).toBe(0);
    const toggle = panel.getByRole('switch', { name: '1 product made here is not on the order list: show it' });
    await toggle.waitFor({ state: 'attached' });
    expect(await axeViolations(page, '[data-testid="low-stock"]')).toEqual([]);

    await toggle.focus();
    await page.keyboard.press('Space');
    const shown = table.locator(`[data-style-code="${baked!.styleCode}"]`);
    await shown.waitFor();
    expect(await shown.getByTestId('row-made-here').textContent()).toBe('Made here — not ordered');
    expect(await panel.getByRole('switch', { name: 'Products made here are shown (nothing is bought for them)' }).isChecked()).toBe(true);
    expect(await axeViolations(page, '[data-testid="low-stock"]')).toEqual([]);

    // Its own forecast: still made, with no order to place.
    await shown.getByRole('button', { name: new RegExp(`^${baked!.styleCode}`) }).first().click();
    await page.getByTestId('forecast-explanation').waitFor();
    await expect.poll(() => page.getByTestId('reorder-summary').textContent()).toBe('Made here — not ordered');
    expect(await page.getByTestId('reorder-advice').count()).toBe(0);
    expect(await axeViolations(page, '[data-testid="forecast-explanation"]')).toEqual([]);
  }, 240_000);
});
