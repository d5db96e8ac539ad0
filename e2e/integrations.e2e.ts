// Scheduled integrations through the real UI, against a server of its own whose outbound client
// admits 127.0.0.1 and a data source on 127.0.0.1: an admin creates an integration in the editor
// dialog, switches it on, runs it now and watches it go from running to finished, sees the rows in the
// Data screen and the run in the log; a failing source shows failed with its reason; a run waiting
// to try a busy source again says which try, when and why; a run that
// refused records says so in the list; a batch size of 0 is refused with its range; the dialogs give
// the focus back to their opener (the list after a delete) and the delete confirmation opens on
// Cancel; a Run refused for the user's role is a notice about the role, not a failed integration;
// a replace run that kept a product with sales says so in the list and in the log; a save over
// another admin's change since the editor opened is refused, keeps what was typed and Reload shows
// their change (ADR 0168's amendment); the enabled switch of a list read before another admin's save
// is refused the same way, the list shows the integration as it is now, and Reload closes the
// refusal; "Try the
// endpoint" builds a mapping from an orders page, by keyboard, and the editor selects it once saved;
// orders with line items get a warning and the proposal of one record per line, which is taken; a
// WooCommerce shop's Basic auth is filled from its key and secret, its refunded orders and gift-wrap
// lines are proposed left out and skipped, and its run stops at the page X-WP-TotalPages names; a
// Square till's sales served as CSV propose a line's name as Item followed by Price Point Name,
// joined in the Import screen's builder, edited by keyboard with the focus kept, saved with the
// mapping, and a run matches the lines without a SKU by it (ADR 0201, amendment 2026-12-07).
// axe WCAG 2 A/AA on the panel, the open dialog and the log; the dialog is driven by keyboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { sendJson, startEndpointServer, type EndpointServer } from '../apps/server/src/testing/endpoint-server.ts';
import { axeViolations } from './support/axe.ts';
import { salesCsv, variations } from './fixtures/square-giftshop.ts';
import { watchBusyFocus } from './support/busy-focus.ts';
import { signIn, useBrowser } from './support/browser.ts';
import { registerUser } from './support/context.ts';
import { startServer, type RunningServer } from './support/server.ts';

const WOO_ORDERS = '/wp-json/wc/v3/orders';
const SQUARE_SALES = '/square/item-sales.csv';
let server: RunningServer;
let source: EndpointServer;
let admin: { username: string; password: string };
const browser = useBrowser({ baseUrl: () => server.baseUrl });

beforeAll(async () => {
  source = await startEndpointServer();
  const records = [
    { sku: 'E2E-INT-001', title: 'Watering can', stock: { on_hand: 12 }, pricing: { unit_cost: '4.10' }, category: { name: 'Garden' } },
    { sku: 'E2E-INT-002', title: 'Seed tray', stock: { on_hand: 40 }, pricing: { unit_cost: '0.80' }, category: { name: 'Garden' } },
    { sku: 'E2E-INT-003', title: 'Hose reel', stock: { on_hand: 3 }, pricing: { unit_cost: '19.90' }, category: { name: 'Garden' } },
  ];
  source.route('/catalogue', async (_request, response) => {
    // Slow enough for the running state to be seen, as a real shop API would be: on a loaded machine the
    // first look at the status came over a second after the click, when a 0.7 s run had ended.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    sendJson(response, { items: records });
  });
  source.route('/broken', (_request, response) => void response.writeHead(404).end());
  // Busy for its first try: the run waits the server's back-off (2 s by default) before the next.
  let busyCalls = 0;
  source.route('/busy', (_request, response) => ((busyCalls += 1) === 1 ? void response.writeHead(503).end('busy') : sendJson(response, { items: [{ ...records[0], sku: 'E2E-BUSY-1' }] })));
  // A web shop's orders, the product and quantity nested, for building a mapping from the answer.
  source.route('/orders', (_request, response) =>
    sendJson(response, { data: { orders: [1, 2, 3].map((n) => ({ id: n, created_at: `2026-03-0${n}T09:00:00Z`, line: { product: { sku: `E2E-TRY-${n}` }, quantity: n, note: 'gift' } })) } }),
  );
  // Shopify-style orders with line items: one record per line is proposed.
  source.route('/shop-orders', (_request, response) =>
    sendJson(response, {
      orders: [
        { id: 5001, created_at: '2026-12-02T09:12:00+01:00', financial_status: 'paid', line_items: [{ sku: 'E2E-LINE-1', quantity: 2 }, { sku: 'E2E-LINE-2', quantity: 1 }] },
        { id: 5002, created_at: '2026-12-02T10:40:00+01:00', financial_status: 'paid', line_items: [{ sku: 'E2E-LINE-1', quantity: 1 }] },
      ],
    }),
  );
  // A WooCommerce shop (QA pass 7, "Wattle & Co"): Basic auth with a consumer key and secret, X-WP-TotalPages,
  // orders completed or refunded, gift-wrap lines without a sku; past the last page, an empty array.
  const wooLine = (sku: string, quantity: number) => ({ sku, quantity, name: sku ? 'Tea towel' : 'Gift wrap' });
  const wooPages = [
    [
      { id: 101, status: 'completed', date_created: '2026-12-01T13:40:00', line_items: [wooLine('E2E-WC-1', 2), wooLine('', 1)] },
      { id: 102, status: 'refunded', date_created: '2026-12-01T15:05:00', line_items: [wooLine('E2E-WC-2', 5)] },
    ],
    [{ id: 103, status: 'completed', date_created: '2026-12-02T10:00:00', line_items: [wooLine('E2E-WC-2', 1), wooLine('', 1)] }],
    [{ id: 104, status: 'completed', date_created: '2026-12-03T11:30:00', line_items: [wooLine('E2E-WC-1', 3)] }],
  ];
  source.route(WOO_ORDERS, (request, response) => {
    if (request.headers.authorization !== `Basic ${Buffer.from('ck_wattle:cs_wattle').toString('base64')}`) return void response.writeHead(401).end('{}');
    sendJson(response, wooPages[Number(request.url.searchParams.get('page')) - 1] ?? [], { 'X-WP-TotalPages': String(wooPages.length) });
  });
  // Two products, then only the first: replace is to delete the second, which has a sale by then.
  let shrinkingRuns = 0;
  source.route('/shrinking', (_request, response) => {
    shrinkingRuns += 1;
    sendJson(response, { items: [{ ...records[0], sku: 'E2E-KEEP-1' }, ...(shrinkingRuns === 1 ? [{ ...records[1], sku: 'E2E-KEEP-2' }] : [])] });
  });
  // The second record's stock is not a number: refused, the others written.
  source.route('/partly-bad', (_request, response) =>
    sendJson(response, { items: [records[0], { ...records[1], sku: 'E2E-INT-BAD', stock: { on_hand: 'lots' } }, { ...records[2], sku: 'E2E-INT-004' }] }),
  );
  // A Square till's Item Sales detail, its newest lines, as a CSV feed: some without a SKU (Greeting Card).
  const [squareHeader = '', ...squareLines] = salesCsv().trim().split('\n');
  source.route(SQUARE_SALES, (_request, response) => void response.writeHead(200, { 'content-type': 'text/csv' }).end([squareHeader, ...squareLines.slice(0, 60)].join('\n')));
  // No demo data: the first account registered is the admin.
  server = await startServer({ name: 'integrations', accessTokenTtlSeconds: 900, env: { DEMO_DATA: 'false', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
  admin = await registerUser(server.baseUrl);
});

afterAll(async () => {
  await server?.stop();
  await source?.close();
});

async function openSettings(page: Page, user = admin): Promise<void> {
  await signIn(page, user);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Settings', exact: true }).click();
  await page.waitForURL('**/app/settings');
  await page.getByRole('heading', { name: 'Scheduled integrations', level: 2 }).waitFor();
}

// The integrations panel and its dialog (the rest of the screen belongs to other features).
async function expectAccessible(page: Page, where: string): Promise<void> {
  expect(await axeViolations(page, '[data-testid="integrations-panel"]'), where).toEqual([]);
  if (await page.getByRole('dialog').count()) expect(await axeViolations(page, '[role="dialog"]'), `${where} (dialog)`).toEqual([]);
}
const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
const row = (page: Page, endpoint: string) => page.getByTestId('integration-row').filter({ hasText: endpoint });

async function createIntegration(page: Page, endpoint: string, settings: (dialog: Locator) => Promise<void> = async () => {}): Promise<void> {
  await page.getByRole('button', { name: 'New integration' }).click();
  const dialog = page.getByRole('dialog', { name: 'New integration' });
  // Keyboard: the endpoint has the focus, the rest is reached with Tab and chosen with the keys.
  await expect.poll(() => dialog.getByLabel('Endpoint').evaluate((field) => field === document.activeElement)).toBe(true);
  await page.keyboard.type(endpoint);
  // "Latest" (the default) narrows nothing without {from} in the address, and says so.
  expect(await dialog.getByText('without it each run reads everything again', { exact: false }).count()).toBe(/\{from\}/.test(endpoint) ? 0 : 1);
  // No shipped mapping reads sales: a new integration starts on the first available mapping (spec §5);
  // saying the data is sales leaves none chosen until "Try the endpoint" proposes one.
  await expect.poll(() => dialog.getByLabel('Mapping', { exact: true }).inputValue()).toBe('product_catalogue_csv');
  expect(await dialog.getByLabel('Target entity').inputValue()).toBe('products');
  await dialog.getByLabel('Target entity').selectOption('sales');
  expect(await dialog.getByLabel('Map onto').inputValue()).toBe('sales');
  await expect.poll(() => dialog.getByLabel('Mapping', { exact: true }).inputValue()).toBe('');
  await dialog.getByLabel('Target entity').selectOption('products');
  await expect.poll(() => dialog.getByLabel('Mapping', { exact: true }).inputValue()).toBe('product_catalogue_csv');
  await dialog.getByLabel('Mapping', { exact: true }).selectOption('shop_export_json');
  await expect.poll(() => dialog.getByTestId('integration-field-mappings').textContent()).toContain('product_code ← sku');
  await dialog.getByLabel('Records path').fill('items');
  await settings(dialog);
  await expectAccessible(page, 'editor dialog');
  // Enter in a field submits the form.
  await dialog.getByLabel('Records path').press('Enter');
  await page.locator('[data-testid="integration-editor-error"], [data-testid="integration-row"]').first().waitFor();
  expect(await dialog.getByTestId('integration-editor-error').allTextContents()).toEqual([]);
  await dialog.waitFor({ state: 'detached' });
  await row(page, endpoint).waitFor();
  // Closed, the dialog gives the focus back to the button that opened it.
  await expect.poll(() => isFocused(page.getByRole('button', { name: 'New integration' }))).toBe(true);
}

/** An access token of `user`, for calls the test makes beside the UI. */
async function accessOf(user: { username: string; password: string }): Promise<string> {
  const answer = await fetch(`${server.baseUrl}/api/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) });
  return ((await answer.json()) as { access: string }).access;
}
async function callApi(path: string, token: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  expect(answer.status, path).toBeLessThan(300);
  return (await answer.json()) as Record<string, unknown>;
}

describe('scheduled integrations (Settings)', () => {
  it('a new shop without products: the Forecasting screen says to import them first and links to Settings', async () => {
    const { page } = browser;
    await signIn(page, admin);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Forecasting', exact: true }).click();
    await page.getByTestId('no-products-yet').waitFor();
    expect(await page.getByRole('button', { name: 'Regenerate whole catalogue' }).isDisabled()).toBe(true);
    expect(await axeViolations(page, '[data-testid="no-products-yet"]')).toEqual([]);
    await page.getByTestId('no-products-yet').getByRole('link', { name: 'Go to Settings → Data integration' }).click();
    await page.waitForURL('**/app/settings');
  });

  it('creates, switches on, runs now, and shows the rows in the Data screen and the run in the log', async () => {
    const { page } = browser;
    const endpoint = `${source.origin}/catalogue`;
    await openSettings(page);
    await expectAccessible(page, 'settings with no integration');
    await createIntegration(page, endpoint);
    const item = row(page, endpoint);
    await expect.poll(() => item.getByTestId('integration-status').textContent()).toBe('not run yet');
    expect(await item.getByTestId('integration-next-run').textContent()).toBe('off');

    // Optimistic switch: on at once, and the next run is computed by the server.
    // The switch by keyboard: focus it and press Space.
    await item.getByRole('switch', { name: `Enabled: ${endpoint}` }).focus();
    await page.keyboard.press('Space');
    await expect.poll(() => item.getByTestId('integration-next-run').textContent()).not.toBe('off');
    expect(await item.getByTestId('integration-enabled').isChecked()).toBe(true);

    await item.getByRole('button', { name: `Run now: ${endpoint}` }).click();
    await expect.poll(() => item.getByTestId('integration-status').textContent()).toBe('running');
    await expect.poll(() => item.getByTestId('integration-status').textContent(), { timeout: 30_000 }).toBe('finished');
    await expect.poll(() => item.getByTestId('integration-last-run').textContent(), { timeout: 30_000 }).not.toBe('never');

    await item.getByRole('button', { name: `Logs of ${endpoint}` }).click();
    const logs = page.getByTestId('integration-logs');
    await logs.getByTestId('integration-log-row').first().waitFor();
    expect(await logs.getByTestId('integration-log-status').first().textContent()).toBe('finished');
    expect(await logs.getByTestId('integration-log-rows').first().textContent()).toBe('3 / 0 / 0 / 0');
    await expectAccessible(page, 'settings with an integration and its log');

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Data', exact: true }).click();
    await page.waitForURL('**/app/datatab');
    await page.getByRole('treeitem', { name: 'products', exact: true }).click();
    const grid = page.getByTestId('data-grid');
    await grid.locator('[data-column="product_code"]').filter({ hasText: 'E2E-INT-003' }).waitFor();
    const codes = await grid.locator('[role="row"][data-row-id] [data-column="product_code"]').allTextContents();
    expect(codes).toEqual(expect.arrayContaining(['E2E-INT-001', 'E2E-INT-002', 'E2E-INT-003']));
  });

  it('shows a failed run with its reason, and the editor closes clean', async () => {
    const { page } = browser;
    const endpoint = `${source.origin}/broken`;
    await openSettings(page);
    await createIntegration(page, endpoint);
    const item = row(page, endpoint);
    await item.getByRole('button', { name: `Run now: ${endpoint}` }).click();
    await expect.poll(() => item.getByTestId('integration-status').textContent(), { timeout: 30_000 }).toBe('failed');
    expect(await item.getByTestId('integration-error').textContent()).toMatch(/HTTP 404/);

    // A save the server refuses shows the spec's message with the field errors; Escape closes and clears it.
    await item.getByRole('button', { name: `Edit ${endpoint}` }).click();
    const dialog = page.getByRole('dialog', { name: /^Integration \d+$/ });
    await dialog.getByLabel('Schedule', { exact: true }).selectOption('custom');
    // The hours are the browser's zone's unless another is chosen.
    expect(await dialog.getByLabel('Time zone').inputValue()).toBe(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone));
    await dialog.getByLabel('Time zone').selectOption('Europe/Berlin');
    await dialog.getByLabel('Cron expression').fill('30 6 * * 1-5');
    await expect.poll(() => dialog.getByText('At 06:30, Monday through Friday (Europe/Berlin)').count()).toBe(1);
    await dialog.getByLabel('Cron expression').fill('99 * * * *');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.getByTestId('integration-editor-error').textContent()).toMatch(/^Failed to save integration: Cron expression: Not a valid cron expression/);
    await expectAccessible(page, 'editor dialog with field errors');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await item.getByRole('button', { name: `Edit ${endpoint}` }).click();
    const reopened = page.getByRole('dialog', { name: /^Integration \d+$/ });
    await reopened.getByLabel('Endpoint').waitFor();
    expect(await reopened.getByTestId('integration-editor-error').count()).toBe(0);
    expect(await reopened.getByLabel('Schedule', { exact: true }).inputValue()).toBe('hourly');
  });

  it('says while a run waits to try a busy endpoint again which try comes, when and why, beside its status and in its log', async () => {
    const { page } = browser;
    const endpoint = `${source.origin}/busy`;
    await openSettings(page);
    await createIntegration(page, endpoint);
    const item = row(page, endpoint);
    await item.getByRole('button', { name: `Logs of ${endpoint}` }).click();
    const logs = page.getByTestId('integration-logs');
    await logs.getByText('No runs yet.').waitFor();
    await item.getByRole('button', { name: `Run now: ${endpoint}` }).click();
    const waiting = /^Try 2 of 4 (in \d s|starting): 127\.0\.0\.1:\d+ answered HTTP 503 for page 1\.$/;
    await expect.poll(() => item.getByTestId('integration-retry').textContent().catch(() => ''), { timeout: 10_000, interval: 200 }).toMatch(waiting);
    expect(await item.getByTestId('integration-status').textContent()).toBe('running');
    await expect.poll(() => logs.getByTestId('integration-log-retry').textContent().catch(() => ''), { timeout: 5_000, interval: 200 }).toMatch(waiting);
    await expectAccessible(page, 'settings with a run waiting to retry');
    await expect.poll(() => item.getByTestId('integration-status').textContent(), { timeout: 30_000 }).toBe('finished');
    expect(await item.getByTestId('integration-retry').count()).toBe(0);
    await expect.poll(() => logs.getByTestId('integration-log-status').first().textContent()).toBe('finished');
    expect(await logs.getByTestId('integration-log-retry').count()).toBe(0);
  });

  it('shows that the last run refused records, refuses a batch size of 0, and gives the focus back from every dialog', async () => {
    const { page } = browser;
    const endpoint = `${source.origin}/partly-bad`;
    await openSettings(page);
    await createIntegration(page, endpoint, async (dialog) => {
      // A batch size of 0 stays 0 and is refused with the allowed range (it once became 1 silently).
      const batchSize = dialog.getByLabel('Batch size (rows per transaction)');
      await batchSize.fill('0');
      await batchSize.blur();
      expect(await batchSize.inputValue()).toBe('0');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => dialog.getByText('Enter a whole number from 1 to 10,000.', { exact: true }).count()).toBe(1);
      expect(await dialog.getByTestId('integration-editor-error').textContent()).toBe('Failed to save integration: Batch size: Enter a whole number from 1 to 10,000.');
      expect(await batchSize.getAttribute('aria-invalid')).toBe('true');
      await expectAccessible(page, 'editor dialog with a batch size out of range');
      // One batch holds all three records: the bad one is rejected, the two good ones written.
      await batchSize.fill('100');
    });
    const item = row(page, endpoint);
    await item.getByRole('button', { name: `Run now: ${endpoint}` }).click();
    await expect.poll(() => item.getByTestId('integration-warning-detail').count(), { timeout: 30_000 }).toBe(1);
    expect(await item.getByTestId('integration-status').textContent()).toBe('finished with 1 rejected');
    expect(await item.getByTestId('integration-status').count()).toBe(1);
    expect(await item.getByTestId('integration-warning-detail').textContent()).toMatch(/^First: page 1, record 2, current_stock: .+ \(the log has the rest\)$/);
    await expectAccessible(page, 'an integration whose last run refused a record');

    // The editor, closed with Escape, gives the focus back to its Edit button.
    const editButton = item.getByRole('button', { name: `Edit ${endpoint}` });
    await editButton.click();
    await page.getByRole('dialog', { name: /^Integration \d+$/ }).getByLabel('Endpoint').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => isFocused(editButton)).toBe(true);

    // The delete confirmation opens on Cancel (Enter must not delete), and Cancel returns to Delete.
    const deleteButton = item.getByRole('button', { name: `Delete ${endpoint}` });
    await deleteButton.click();
    const confirm = page.getByRole('dialog', { name: 'Delete integration' });
    await expect.poll(() => isFocused(confirm.getByRole('button', { name: 'Cancel' }))).toBe(true);
    await expectAccessible(page, 'delete confirmation');
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(deleteButton)).toBe(true);
    expect(await item.count()).toBe(1);
    // Deleted, its row (and the opener) is gone: the focus goes to the list.
    await deleteButton.click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await item.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(page.getByTestId('integrations'))).toBe(true);
  });

  it('the New integration dialog says where mappings are built and takes the user there', async () => {
    const { page } = browser;
    await openSettings(page);
    await page.getByRole('button', { name: 'New integration' }).click();
    const dialog = page.getByRole('dialog', { name: 'New integration' });
    expect(await dialog.getByTestId('integration-mapping-help').textContent()).toMatch(/^No mapping fits the endpoint's fields\? Use "Try the endpoint" below: .* Or build one in Data integration on this screen .*"Save this mapping as"/);
    await dialog.getByRole('button', { name: 'Go to Data integration' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The focus lands on the import's entity, where building a mapping starts.
    await expect.poll(() => isFocused(page.getByLabel('Import into', { exact: true }))).toBe(true);
  });

  it('tries the endpoint: a mapping proposed from its nested orders, a path changed, saved and selected', async () => {
    const { page } = browser;
    await openSettings(page);
    await page.getByRole('button', { name: 'New integration' }).click();
    const dialog = page.getByRole('dialog', { name: 'New integration' });
    await expect.poll(() => isFocused(dialog.getByLabel('Endpoint'))).toBe(true);
    await page.keyboard.type(`${source.origin}/orders`);
    await dialog.getByLabel('Records path').fill('data.orders');
    // Keyboard: the button is reached with Tab and pressed with Enter.
    const tryButton = dialog.getByRole('button', { name: 'Try the endpoint' });
    await tryButton.focus();
    const tryWatch = await watchBusyFocus(tryButton);
    await page.keyboard.press('Enter');
    const result = dialog.getByTestId('endpoint-try-result');
    await result.waitFor();
    // Busy, the button kept the focus in the dialog (ADR 0196, F2): it used to fall to <body>.
    await expect.poll(() => tryButton.getAttribute('aria-busy')).toBeNull();
    expect(await tryWatch()).toEqual({ wentBusy: true, keptWhileBusy: true, focusedNow: true });
    expect(await dialog.getByTestId('endpoint-try-count').textContent()).toBe('The first page held 3 records, with 5 fields.');
    // The shipped mappings fill products only; the orders go to sales, tried again for a proposal onto it.
    await dialog.getByLabel('Map onto').selectOption('sales');
    // Quantity is a field of sales only: its select is there once the answer for sales is.
    await expect.poll(() => dialog.getByLabel('Quantity (quantity) · required').inputValue()).toBe('line.quantity');
    await expect.poll(() => tryButton.getAttribute('data-loading')).toBeNull();
    expect(await dialog.getByTestId('endpoint-try-rows').getByTestId('preview-row').count()).toBe(3);
    expect(await dialog.getByLabel('Product (product_id) · by product_code · required').inputValue()).toBe('line.product.sku');
    // No such products yet: each row says so, as the import's preview does.
    expect(await dialog.getByTestId('endpoint-try-rows').getByTestId('cell-problem').first().textContent()).toBe("product code E2E-TRY-1 does not exist. Save the mapping with 'Create products for unknown codes' ticked (Settings → Data integration) to create it, or add it on the Data screen.");
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);

    await dialog.getByLabel('Date (date) · required').selectOption('');
    await expect.poll(() => dialog.getByTestId('endpoint-try-rows').getByTestId('cell-problem').filter({ hasText: 'No column is mapped' }).count()).toBeGreaterThan(0);
    await dialog.getByLabel('Date (date) · required').selectOption('created_at');
    await dialog.getByLabel('Name of the new mapping').fill('shop orders (tried)');
    await page.keyboard.press('Enter');
    await dialog.getByTestId('endpoint-try-saved').waitFor();
    await expect.poll(() => dialog.getByLabel('Mapping', { exact: true }).inputValue()).toBe('shop orders (tried)');
    // The saved mapping's configuration loads, and with it its one entity as the target.
    await expect.poll(() => dialog.getByLabel('Target entity').inputValue()).toBe('sales');
    const listed = ((await dialog.getByTestId('integration-field-mappings').textContent()) ?? '').replace('Field mappings: ', '').split(', ');
    expect(listed.sort()).toEqual(['date ← created_at', 'product_id ← line.product.sku', 'quantity ← line.quantity']);
    // Enter saved the mapping, not the integration: the dialog is still open.
    expect(await dialog.isVisible()).toBe(true);
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it("warns that orders' first line only would be read, and reads one record per line when the proposal is taken", async () => {
    const { page } = browser;
    await openSettings(page);
    await page.getByRole('button', { name: 'New integration' }).click();
    const dialog = page.getByRole('dialog', { name: 'New integration' });
    await dialog.getByLabel('Endpoint').fill(`${source.origin}/shop-orders`);
    await dialog.getByLabel('Records path').fill('orders');
    await dialog.getByLabel('Map onto').selectOption('sales');
    await dialog.getByRole('button', { name: 'Try the endpoint' }).click();
    await dialog.getByTestId('endpoint-try-warnings').waitFor();
    expect(await dialog.getByTestId('endpoint-try-warnings').textContent()).toContain("product_id reads 'line_items.0.sku': element 1 of each record's 'line_items' only");
    const lines = dialog.getByTestId('endpoint-try-lines');
    expect(await lines.textContent()).toContain('With the records path orders[].line_items, each line is one record (3 on this page)');
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    await lines.getByRole('button', { name: 'Read one record per line' }).click();
    await expect.poll(() => dialog.getByLabel('Records path').inputValue()).toBe('orders[].line_items');
    await expect.poll(async () => (await dialog.getByTestId('endpoint-try-count').textContent()) ?? '').toMatch(/^The first page held 3 records/);
    await expect.poll(() => dialog.getByLabel('Product (product_id) · by product_code · required').inputValue()).toBe('sku');
    expect(await dialog.getByLabel('Date (date) · required').inputValue()).toBe('order.created_at');
    expect(await dialog.getByTestId('endpoint-try-warnings').count()).toBe(0);
    expect(await dialog.getByTestId('endpoint-try-lines').count()).toBe(0);
    expect(await dialog.getByTestId('endpoint-try-rows').getByTestId('preview-row').count()).toBe(3);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it("a WooCommerce shop: Basic auth from its key and secret, the refunded orders and gift-wrap lines proposed out, a run with nothing rejected and no page past X-WP-TotalPages", async () => {
    const { page } = browser;
    const endpoint = `${source.origin}${WOO_ORDERS}?per_page=50`;
    const adminToken = await accessOf(admin);
    for (const code of ['E2E-WC-1', 'E2E-WC-2']) await callApi('/api/records/tables/products/rows/add/', adminToken, { product_code: code, name: code });
    await openSettings(page);
    await page.getByRole('button', { name: 'New integration' }).click();
    const dialog = page.getByRole('dialog', { name: 'New integration' });
    await dialog.getByLabel('Endpoint').fill(endpoint);
    await dialog.getByLabel('Records path').fill('[].line_items');
    await dialog.getByLabel('Pagination').selectOption('page_parameter');
    // Keyboard: the helper opens with Enter, the key and secret are typed, Enter fills the header (and saves nothing).
    await dialog.getByRole('button', { name: 'Fill from a key and secret (HTTP Basic auth)' }).focus();
    await page.keyboard.press('Enter');
    await dialog.getByLabel('Consumer key or user name').focus();
    await page.keyboard.type('ck_wattle');
    await page.keyboard.press('Tab');
    await page.keyboard.type('cs_wattle');
    await page.keyboard.press('Enter');
    await dialog.getByTestId('basic-auth-filled').waitFor();
    expect(await dialog.getByLabel('Header name').inputValue()).toBe('Authorization');
    expect(await dialog.getByLabel('Consumer secret or password').inputValue()).toBe('');
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);

    await dialog.getByLabel('Map onto').selectOption('sales');
    await dialog.getByRole('button', { name: 'Try the endpoint' }).click();
    const rules = dialog.getByTestId('endpoint-try-rules');
    await expect.poll(() => rules.getByTestId('row-filter').count()).toBe(1);
    expect(await rules.getByTestId('row-filter').textContent()).toBe('Lines whose order.status is refunded, voided or cancelled are left outRemove');
    expect(await rules.getByLabel('Skip lines without a product code').isChecked()).toBe(true);
    expect(await rules.textContent()).toContain('1 of the 3 lines on this page has no product code (gift wrap, shipping) beside lines that have one');
    expect(await dialog.getByLabel('Date (date) · required').inputValue()).toBe('order.date_created');
    expect(await dialog.getByTestId('endpoint-try-rows').getByTestId('cell-problem').count()).toBe(0);
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    await dialog.getByLabel('Name of the new mapping').fill('wattle orders');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.getByLabel('Mapping', { exact: true }).inputValue()).toBe('wattle orders');
    // The editor shows the saved mapping's rules and says where they change.
    await expect
      .poll(() => dialog.getByTestId('integration-mapping-rules').textContent())
      .toBe('Its rules: Lines whose order.status is refunded, voided or cancelled are left out; lines without a product code are skipped. To change its fields or rules, use "Try the endpoint" below and save the mapping again under its name (or change it in Data integration).');
    await dialog.getByLabel('Records path').press('Enter');
    await dialog.waitFor({ state: 'detached' });

    const item = row(page, endpoint);
    const asked = source.requestsTo(WOO_ORDERS).length;
    await item.getByRole('button', { name: `Run now: ${endpoint}` }).click();
    // Finished, not "finished with 8 rejected": the gift wrap skipped, the refund left out.
    await expect.poll(() => item.getByTestId('integration-status').textContent(), { timeout: 30_000 }).toBe('finished');
    expect(source.requestsTo(WOO_ORDERS).slice(asked).map((request) => request.url.searchParams.get('page'))).toEqual(['1', '2', '3']);
  });

  it("a Run refused for the user's role is a notice about the role, and the integration does not show failed", async () => {
    const { page } = browser;
    const endpoint = `${source.origin}/catalogue?for=roles`;
    const adminToken = await accessOf(admin);
    await callApi('/api/integrations/scheduled/', adminToken, { endpoint, mapping_selection: 'shop_export_json', target_entity: 'products', records_path: 'items' });
    const editor = await registerUser(server.baseUrl);
    const users = await (await fetch(`${server.baseUrl}/api/accounts/users/`, { headers: { authorization: `Bearer ${adminToken}` } })).json() as { results: { id: number; username: string }[] };
    const editorId = users.results.find((user) => user.username === editor.username)?.id;
    await callApi(`/api/accounts/users/${editorId}/role/`, adminToken, { role: 'editor' });
    await openSettings(page, editor);
    const item = row(page, endpoint);
    await item.waitFor();
    // Demoted while the page still offers the editor's Run button.
    await callApi(`/api/accounts/users/${editorId}/role/`, adminToken, { role: 'viewer' });
    await item.getByRole('button', { name: `Run now: ${endpoint}` }).click();
    const notice = page.getByTestId('integrations-action-error');
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/^Failed to trigger integration runYour role may not run integrations: ask an editor or an admin\. The integration itself is unchanged\. Your role \(viewer\) may not do this; it needs editor\.$/);
    expect(await item.getByTestId('integration-status').textContent()).toBe('not run yet');
    expect(await item.getByTestId('integration-error').count()).toBe(0);
    await expectAccessible(page, 'a run refused for the role');
  });

  it('a replace run that keeps a product with sales succeeds and says what it kept, in the list and in the log', async () => {
    const { page } = browser;
    const endpoint = `${source.origin}/shrinking`;
    const adminToken = await accessOf(admin);
    await callApi('/api/integrations/scheduled/', adminToken, { endpoint, mapping_selection: 'shop_export_json', target_entity: 'products', records_path: 'items', data_action: 'replace' });
    await openSettings(page);
    const item = row(page, endpoint);
    const run = async () => {
      const before = await item.getByTestId('integration-last-run').textContent();
      await item.getByRole('button', { name: `Run now: ${endpoint}` }).click();
      await expect.poll(async () => (await item.getByTestId('integration-last-run').textContent()) !== before && (await item.getByTestId('integration-status').textContent()) === 'finished', { timeout: 30_000 }).toBe(true);
    };
    await run();
    expect(await item.getByTestId('integration-kept').count()).toBe(0);
    const products = (await (await fetch(`${server.baseUrl}/api/records/tables/products/data/?page_size=100`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as { results: { id: number; product_code: string }[] };
    const sold = products.results.find((product) => product.product_code === 'E2E-KEEP-2');
    await callApi('/api/records/tables/sales/rows/add/', adminToken, { product_id: sold?.id, date: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10), quantity: 2 });

    await run();
    // The mapping writes current_stock, so the run recorded today's stock count of each product too (one stock truth).
    const kept = "Kept 1 row of 'products' that the source no longer lists: rows of 'sales' and 'stock_snapshots' refer to it (E2E-KEEP-2). Replace deletes it once nothing refers to it.";
    await expect.poll(() => item.getByTestId('integration-kept').textContent()).toBe(kept);
    expect(await item.getByTestId('integration-error').count()).toBe(0);
    await expectAccessible(page, 'an integration whose last replace kept a product');
    await item.getByRole('button', { name: `Logs of ${endpoint}` }).click();
    const logs = page.getByTestId('integration-logs');
    await expect.poll(() => logs.getByTestId('integration-log-row').count()).toBe(2);
    expect(await logs.getByTestId('integration-log-status').first().textContent()).toBe('finished');
    expect(await logs.getByTestId('integration-log-kept').first().textContent()).toBe(kept);
    expect(await axeViolations(page, '[data-testid="integration-logs"]')).toEqual([]);
  });

  it("refuses a save over another admin's change made since the editor opened, keeps what was typed, and Reload shows their change", async () => {
    const { page } = browser;
    const endpoint = `${source.origin}/two-admins`;
    const adminToken = await accessOf(admin);
    const created = await callApi('/api/integrations/scheduled/', adminToken, { endpoint, mapping_selection: 'shop_export_json', target_entity: 'products', records_path: 'items' });
    await openSettings(page);
    await row(page, endpoint).getByRole('button', { name: `Edit ${endpoint}` }).click();
    const dialog = page.getByRole('dialog', { name: `Integration ${created.id as number}` });
    await dialog.getByLabel('Endpoint').waitFor();

    // The other admin saves a daily schedule while this form is open (at the version it read too).
    const theirs = await fetch(`${server.baseUrl}/api/integrations/scheduled/${created.id as number}/`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}`, 'if-match': `"${created.version as string}"` },
      body: JSON.stringify({ schedule_frequency: 'daily' }),
    });
    expect(theirs.status).toBe(200);

    await dialog.getByLabel('Endpoint').fill(`${endpoint}-mine`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const error = dialog.getByTestId('integration-editor-error');
    await expect.poll(() => error.textContent()).toMatch(new RegExp(`^Failed to save integration.*This integration was changed by ${admin.username} at \\d\\d:\\d\\d after you opened it\\. Reload to see their change, then edit again\\.`));
    expect(await dialog.getByLabel('Endpoint').inputValue()).toBe(`${endpoint}-mine`);
    expect(await dialog.getByLabel('Schedule', { exact: true }).inputValue()).toBe('hourly');
    await expectAccessible(page, 'editor dialog refused as saved meanwhile');

    // Reload from the keyboard: their schedule in the form; saved again from there, nothing of theirs is lost.
    await error.getByRole('button', { name: 'Reload' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.getByLabel('Schedule', { exact: true }).inputValue()).toBe('daily');
    expect(await dialog.getByLabel('Endpoint').inputValue()).toBe(endpoint);
    expect(await dialog.getByTestId('integration-editor-error').count()).toBe(0);
    await dialog.getByLabel('Endpoint').fill(`${endpoint}-mine`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const saved = (await (await fetch(`${server.baseUrl}/api/integrations/scheduled/${created.id as number}/`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as Record<string, unknown>;
    expect(saved).toMatchObject({ endpoint: `${endpoint}-mine`, schedule_frequency: 'daily' });
  });

  it("refuses the switch of a list read before another admin's save, shows the integration as it is now, and Reload closes the refusal", async () => {
    const { page } = browser;
    // Its own name on each try: a retry must not find the first try's row.
    const endpoint = `${source.origin}/switch-after-theirs-${Date.now()}`;
    const adminToken = await accessOf(admin);
    const created = await callApi('/api/integrations/scheduled/', adminToken, { endpoint, mapping_selection: 'shop_export_json', target_entity: 'products', records_path: 'items' });
    await openSettings(page);
    const item = row(page, endpoint);
    const enabled = item.getByRole('switch', { name: `Enabled: ${endpoint}` });
    expect(await enabled.isChecked()).toBe(false);

    // The other admin saves a daily schedule while this list shows the integration.
    const theirs = await fetch(`${server.baseUrl}/api/integrations/scheduled/${created.id as number}/`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}`, 'if-match': `"${created.version as string}"` },
      body: JSON.stringify({ schedule_frequency: 'daily' }),
    });
    expect(theirs.status).toBe(200);

    await enabled.focus();
    await page.keyboard.press('Space');
    const refusal = page.getByTestId('integrations-action-error');
    await expect.poll(() => refusal.textContent()).toMatch(new RegExp(`^Failed to toggle integration.*This integration was changed by ${admin.username} at \\d\\d:\\d\\d after you opened it\\.`));
    // The list shows it as it is now: their schedule, still switched off.
    await expect.poll(() => item.getByText('Daily').count()).toBeGreaterThan(0);
    expect(await enabled.isChecked()).toBe(false);
    await expectAccessible(page, 'a switch refused as saved meanwhile');

    // Reload from the keyboard closes the refusal; the switch then goes through, at the version shown.
    await refusal.getByRole('button', { name: 'Reload' }).focus();
    await page.keyboard.press('Enter');
    await refusal.waitFor({ state: 'detached' });
    await enabled.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => item.getByTestId('integration-next-run').textContent()).not.toBe('off');
    // The switch moves at once (spec §4); the server's save lands after it.
    const stored = async () => (await (await fetch(`${server.baseUrl}/api/integrations/scheduled/${created.id as number}/`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as Record<string, unknown>;
    await expect.poll(stored, { timeout: 15_000 }).toMatchObject({ enabled: true, schedule_frequency: 'daily' });
  });

  // Last: its library's products would be in the replace run's catalogue above.
  it("a Square till's sales: a line's name proposed as Item followed by Price Point Name, the join edited by keyboard, saved, and a run matches the lines without a SKU by it", async () => {
    const { page } = browser;
    const endpoint = `${source.origin}${SQUARE_SALES}`;
    const adminToken = await accessOf(admin);
    // The item library as imported: a variation without a SKU is coded and named by its item and variation, Square's "Regular" left out (ADR 0201 F8).
    for (const variation of variations()) {
      const name = variation.name === 'Regular' ? variation.item.name : `${variation.item.name} ${variation.name}`;
      await callApi('/api/records/tables/products/rows/add/', adminToken, { product_code: variation.sku || name, name });
    }
    await openSettings(page);
    await page.getByRole('button', { name: 'New integration' }).click();
    const dialog = page.getByRole('dialog', { name: 'New integration' });
    await dialog.getByLabel('Endpoint').fill(endpoint);
    await dialog.getByLabel('Map onto').selectOption('sales');
    await dialog.getByRole('button', { name: 'Try the endpoint' }).click();
    const rules = dialog.getByTestId('endpoint-try-rules');
    const byName = rules.getByRole('checkbox', { name: 'Match lines without a product code to products by their name (Item + Price Point Name)' });
    await byName.waitFor();
    expect(await byName.isChecked()).toBe(true);
    const followedBy = rules.getByRole('combobox', { name: "A line's product name, followed by" });
    expect(await followedBy.inputValue()).toBe('Price Point Name');
    expect(await rules.getByTestId('joined-new_products.name').textContent()).toMatch(/^A line's product name reads Item \+ Price Point Name, one space apart, leaving out “Regular”: “.+” on the first line\.$/);
    const leaveOut = rules.getByRole('checkbox', { name: "Leave out “Regular” from A line's product name" });
    expect(await leaveOut.isChecked()).toBe(true);
    await rules.getByText(/have no product code and are matched to products by their name: they are imported\./).waitFor();
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);

    // Keyboard: Remove with Enter, tried again; the focus is back on the select, where a key chooses the column again.
    await rules.getByRole('button', { name: "Remove Price Point Name from A line's product name" }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => rules.getByTestId('joined-new_products.name').count()).toBe(0);
    await expect.poll(() => followedBy.isEnabled()).toBe(true);
    await expect.poll(() => isFocused(followedBy)).toBe(true);
    await rules.getByRole('checkbox', { name: 'Match lines without a product code to products by their name (Item)' }).waitFor();
    await page.keyboard.press('P');
    await expect.poll(() => rules.getByTestId('joined-new_products.name').count()).toBe(1);
    expect(await followedBy.inputValue()).toBe('Price Point Name');
    await expect.poll(() => followedBy.isEnabled()).toBe(true);
    await expect.poll(() => isFocused(followedBy)).toBe(true);
    // The join removed took its "Regular" with it; offered again, turned on with Space, the focus kept.
    expect(await leaveOut.isChecked()).toBe(false);
    await leaveOut.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => rules.getByTestId('joined-new_products.name').textContent()).toContain('leaving out “Regular”');
    expect(await leaveOut.isChecked()).toBe(true);
    await expect.poll(() => leaveOut.isEnabled()).toBe(true);
    await expect.poll(() => isFocused(leaveOut)).toBe(true);
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);

    await dialog.getByLabel('Name of the new mapping').fill('square item sales');
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.getByLabel('Mapping', { exact: true }).inputValue()).toBe('square item sales');
    // The editor says what the selected mapping reads: the line's name with its join.
    await expect.poll(() => dialog.getByTestId('integration-mapping-rules').textContent()).toContain('lines without a product code are matched to products by their name (Item + Price Point Name)');
    await dialog.getByLabel('Records path').press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const item = row(page, endpoint);
    await item.getByRole('button', { name: `Run now: ${endpoint}` }).click();
    await expect.poll(() => item.getByTestId('integration-status').textContent(), { timeout: 30_000 }).toBe('finished');
    const listed = (await (await fetch(`${server.baseUrl}/api/integrations/scheduled/`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as { endpoint: string; last_run_summary: string | null }[];
    expect(listed.find((integration) => integration.endpoint === endpoint)?.last_run_summary).toMatch(/\d+ lines? without a product code (was|were) matched to products by name\./);
  });
});
