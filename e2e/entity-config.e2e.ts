// Settings → Import entities (ADR 0179): an administrator changes the sales entity's default mapping
// by keyboard — a row removed, one added with its field found by typing, its file column typed —
// saves, and after a reload sees it, as GET /api/yaml/config/ gives it. A configuration the server
// refuses (the entity's table deleted by another administrator meanwhile) shows "Invalid
// configuration: " and why (spec §5), the typed description kept. The import screen then proposes
// the entity's changed default for a file with that column ("Bestellnummer" for the product, beside
// an "Artikel" that shops in general use for it). Reset to default by keyboard (ADR 0181): refused
// with Reload over another administrator's save made while its dialog was open, then done, the
// entity back at the file's version. axe WCAG 2 A/AA on the panel, also with a field's list open,
// with the refusal shown and with the reset's dialog open. Its own server: the other suites import
// with the shipped mappings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { signIn, useBrowser } from './support/browser.ts';
import { demoUser } from './support/context.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
/** A screen opened or reloaded shows its figures after its reads: seconds, on two busy cores. */
const PAGE_LOAD = 15_000;
const PANEL = '[data-testid="entities-panel"]';
const browser = useBrowser({ baseUrl: () => server.baseUrl });

beforeAll(async () => {
  server = await startServer({ name: 'entity-config', accessTokenTtlSeconds: 900 });
});

afterAll(async () => {
  await server?.stop();
});

/** The demo administrator's calls over the API: what a test starts from, or another administrator's change. */
async function adminApi() {
  const json = { 'content-type': 'application/json' };
  const { access } = (await (await fetch(`${server.baseUrl}/api/token/`, { method: 'POST', headers: json, body: JSON.stringify(demoUser) })).json()) as { access: string };
  const headers = { ...json, authorization: `Bearer ${access}` };
  const post = async (path: string, body: unknown = {}, ifMatch?: string) => {
    const answer = await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { ...headers, ...(ifMatch ? { 'if-match': `"${ifMatch}"` } : {}) }, body: JSON.stringify(body) });
    if (!answer.ok) throw new Error(`POST ${path}: ${answer.status} ${await answer.text()}`);
  };
  type Entity = { name: string; table: string; key: string[]; repeated_keys?: string; description?: string; field_mappings?: Record<string, string>; version: string; file_config: Omit<Entity, 'name' | 'version' | 'file_config'> | null };
  const entity = async (name: string) => {
    const { content } = (await (await fetch(`${server.baseUrl}/api/yaml/config/`, { headers })).json()) as { content: { inventory: { entities: Entity[] } } };
    return content.inventory.entities.find((candidate) => candidate.name === name);
  };
  return { post, entity };
}

describe('the import entities (ADR 0179)', () => {
  it("an administrator changes the sales entity's default mapping by keyboard, and it is kept", async () => {
    const { page } = browser;
    await signIn(page);
    await page.goto('/app/settings');
    const sales = page.getByTestId('entity-sales');
    const field = (row: number) => sales.getByRole('combobox', { name: `Field of mapping ${row}` });
    const column = (row: number) => sales.getByRole('textbox', { name: `Column in the file of mapping ${row}` });
    await expect.poll(() => field(3).inputValue(), { timeout: PAGE_LOAD }).toBe('Quantity (quantity)');
    expect(await sales.getByTestId('entity-sales-table').textContent()).toBe('Table sales · key product_id, date (rows are matched on the key; both are set in config/stockwise.yaml)');
    expect(await axeViolations(page, PANEL)).toEqual([]);

    // Keyboard only: Remove on the quantity row, which hands the focus to Add mapping; Enter adds a
    // row whose field box has the focus; the field found by typing, taken with the arrows and Enter.
    await sales.getByRole('button', { name: 'Remove mapping 3 (quantity)' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Add mapping');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Field of mapping 3');
    await page.keyboard.type('quan');
    await page.getByRole('option', { name: 'Quantity (quantity)' }).waitFor();
    expect(await axeViolations(page, PANEL)).toEqual([]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => field(3).inputValue()).toBe('Quantity (quantity)');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Menge');
    // Past the row's Remove and Add mapping to Save.
    for (let step = 0; step < 3; step += 1) await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Save sales');
    await page.keyboard.press('Enter');
    expect(await sales.getByTestId('entity-sales-saved').textContent()).toBe('Saved.');
    expect(await axeViolations(page, PANEL)).toEqual([]);
    expect((await (await adminApi()).entity('sales'))?.field_mappings).toEqual({ product_id: 'product_code', date: 'date', quantity: 'Menge' });

    await page.reload();
    await expect.poll(() => column(3).inputValue(), { timeout: PAGE_LOAD }).toBe('Menge');
    expect(await field(3).inputValue()).toBe('Quantity (quantity)');
  }, 120_000);

  it("shows a configuration the server refuses as 'Invalid configuration: ' and why, the typed description kept", async () => {
    const { page } = browser;
    const admin = await adminApi();
    // An entity of a table of its own, which another administrator deletes while the panel is open.
    await admin.post('/api/records/tables/create/', { name: 'supplier_returns', folder: '', columns: [{ key: 'return_code', type: 'CharField', max_length: 64, unique: true }, { key: 'note', type: 'CharField', max_length: 200 }] });
    await admin.post('/api/yaml/update-entity/', { entity_name: 'supplier_returns', config: { table: 'supplier_returns', key: ['return_code'], field_mappings: { return_code: 'Code', note: 'Note' } } });
    await signIn(page);
    await page.goto('/app/settings');
    const returns = page.getByTestId('entity-supplier_returns');
    await expect.poll(() => returns.getByRole('combobox', { name: 'Field of mapping 2' }).inputValue(), { timeout: PAGE_LOAD }).toBe('Note (note)');
    await admin.post('/api/records/tables/supplier_returns/delete/');

    const description = returns.getByRole('textbox', { name: 'Description' });
    await description.focus();
    await page.keyboard.type('Goods sent back to suppliers.');
    await returns.getByRole('button', { name: 'Save supplier_returns' }).focus();
    await page.keyboard.press('Enter');
    expect(await returns.getByTestId('entity-supplier_returns-error').textContent()).toBe("Invalid configuration: table 'supplier_returns' does not exist.");
    expect(await description.inputValue()).toBe('Goods sent back to suppliers.');
    expect(await axeViolations(page, PANEL)).toEqual([]);
  }, 120_000);

  it("proposes on the import screen the column an administrator set as the sales entity's default for the product", async () => {
    const { page } = browser;
    await signIn(page);
    await page.goto('/app/settings');
    const sales = page.getByTestId('entity-sales');
    const productColumn = sales.getByRole('textbox', { name: 'Column in the file of mapping 1' });
    await expect.poll(() => sales.getByRole('combobox', { name: 'Field of mapping 1' }).inputValue(), { timeout: PAGE_LOAD }).toBe('Product (product_id)');
    await productColumn.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Bestellnummer');
    await sales.getByRole('button', { name: 'Save sales' }).focus();
    await page.keyboard.press('Enter');
    await sales.getByTestId('entity-sales-saved').waitFor();

    // A German till's file: "Artikel" holds the item's name (and is what shops in general call a product code), "Bestellnummer" the code.
    const importer = page.locator('section[aria-labelledby="data-integration-title"]');
    await expect.poll(() => importer.getByLabel('Mapping', { exact: true }).inputValue(), { timeout: PAGE_LOAD }).toBe('product_catalogue_csv');
    await importer.getByLabel('Import into', { exact: true }).selectOption('sales');
    await importer.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles({ name: 'kasse.csv', mimeType: 'text/csv', buffer: Buffer.from('Datum;Artikel;Bestellnummer;Menge\n30.11.2026;Gießkanne 10 l;GK-10;2\n30.11.2026;Pflanzkübel;PK-40;1\n') });
    const product = importer.getByLabel('Product (product_id) · by product_code · required');
    await expect.poll(() => product.inputValue(), { timeout: PAGE_LOAD }).toBe('Bestellnummer');
    expect(await importer.getByLabel('Date (date) · required').inputValue()).toBe('Datum');
    expect(await importer.getByLabel('Quantity (quantity) · required').inputValue()).toBe('Menge');
    expect(await axeViolations(page, 'section[aria-labelledby="data-integration-title"]')).toEqual([]);
  }, 120_000);

  it("resets the sales entity to the configuration file's version by keyboard, after a refusal over another administrator's save", async () => {
    const { page } = browser;
    const admin = await adminApi();
    const shipped = (await admin.entity('sales'))?.file_config;
    expect(shipped?.field_mappings).toEqual({ product_id: 'product_code', date: 'date', quantity: 'quantity' });
    await signIn(page);
    await page.goto('/app/settings');
    const sales = page.getByTestId('entity-sales');
    const column = (row: number) => sales.getByRole('textbox', { name: `Column in the file of mapping ${row}` });
    await expect.poll(() => column(1).inputValue(), { timeout: PAGE_LOAD }).toBe('Bestellnummer');
    const activeText = () => page.evaluate(() => document.activeElement?.textContent);

    // Opened by keyboard: the dialog lists what changes, the safe choice has the focus.
    await sales.getByRole('button', { name: 'Reset sales to default' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Reset sales to default?' });
    await dialog.waitFor();
    await expect.poll(activeText).toBe('Keep the current settings');
    const changes = await dialog.getByTestId('entity-sales-reset-changes').locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent).join(' · ')));
    expect(changes).toEqual(['Product (product_id) · “Bestellnummer” · “product_code”', 'Quantity (quantity) · “Menge” · “quantity”']);
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    // Escape closes it, nothing reset, the focus back on the button.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(activeText).toBe('Reset sales to default');

    // Another administrator saves while the dialog is open again: the reset is refused, Reload shows their save.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    const opened = await admin.entity('sales');
    await admin.post('/api/yaml/update-entity/', { entity_name: 'sales', config: { table: 'sales', key: ['product_id', 'date'], repeated_keys: 'sum', field_mappings: { product_id: 'EAN', date: 'date', quantity: 'Menge' } } }, opened?.version);
    await page.keyboard.press('Tab');
    await expect.poll(activeText).toBe('Reset to default');
    await page.keyboard.press('Enter');
    const refusal = sales.getByTestId('entity-sales-error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(new RegExp(`^This entity's configuration was changed by ${demoUser.username} at \\d\\d:\\d\\d after you opened it\\. Reload to see their change, then reset it if you still mean to\\.`));
    expect(await axeViolations(page, PANEL)).toEqual([]);
    await sales.getByTestId('entity-sales-reload').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => column(1).inputValue()).toBe('EAN');

    await sales.getByRole('button', { name: 'Reset sales to default' }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const done = sales.getByTestId('entity-sales-reset-done');
    await done.waitFor();
    expect(await done.textContent()).toBe("Reset to the configuration file's version.");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('entity-sales-reset-done');
    expect(await sales.getByRole('button', { name: 'Reset sales to default' }).count()).toBe(0);
    expect(await column(1).inputValue()).toBe('product_code');
    expect(await column(3).inputValue()).toBe('quantity');
    expect(await axeViolations(page, PANEL)).toEqual([]);
    const reset = await admin.entity('sales');
    expect(reset).toMatchObject({ ...shipped, name: 'sales', file_config: shipped });
    expect(Number(reset?.version)).toBeGreaterThan(Number(opened?.version));

    // Kept: after a reload the entity is as in the file, and offers no reset.
    await page.reload();
    await expect.poll(() => column(1).inputValue(), { timeout: PAGE_LOAD }).toBe('product_code');
    expect(await sales.getByRole('button', { name: 'Reset sales to default' }).count()).toBe(0);
  }, 120_000);
});
