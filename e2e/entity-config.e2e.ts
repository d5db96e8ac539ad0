// Settings → Import entities (ADR 0179): an administrator changes the sales entity's default mapping
// by keyboard — a row removed, one added with its field found by typing, its file column typed —
// saves, and after a reload sees it, as GET /api/yaml/config/ gives it. A configuration the server
// refuses (the entity's table deleted by another administrator meanwhile) shows "Invalid
// configuration: " and why (spec §5), the typed description kept. axe WCAG 2 A/AA on the panel, also
// with a field's list open and with the refusal shown. Its own server: the other suites import with
// the shipped mappings.
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
  const post = async (path: string, body: unknown = {}) => {
    const answer = await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!answer.ok) throw new Error(`POST ${path}: ${answer.status} ${await answer.text()}`);
  };
  const entity = async (name: string) => {
    const { content } = (await (await fetch(`${server.baseUrl}/api/yaml/config/`, { headers })).json()) as { content: { inventory: { entities: { name: string; field_mappings?: Record<string, string> }[] } } };
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
});
