// Deleting a product that has history, through the real Data screen: the dialog names what refers
// to it first; an administrator may delete it with all of that, an editor is told why not. And a
// table name that would shadow another table's identifier is refused.
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations } from './support/axe.ts';
import { signIn, useBrowser } from './support/browser.ts';
import { demoUser, registerUser } from './support/context.ts';

const browser = useBrowser();
const baseUrl = () => inject('baseUrl');

async function apiCall(token: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const answer = await fetch(`${baseUrl()}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await answer.json()) as Record<string, unknown>;
  if (answer.status >= 400) throw new Error(`${path}: ${answer.status} ${JSON.stringify(json)}`);
  return json;
}

async function tokenOf(user: { username: string; password: string }): Promise<string> {
  const answer = await fetch(`${baseUrl()}/api/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) });
  return ((await answer.json()) as { access: string }).access;
}

/** A new product with two days of sales and two stock counts (the typed stock is today's); its row id. */
async function productWithHistory(adminToken: string, code: string): Promise<number> {
  const id = (await apiCall(adminToken, '/api/records/tables/products/rows/add/', { product_code: code, name: `Advent wreath ${code}`, current_stock: 3 })).id as number;
  await apiCall(adminToken, '/api/records/tables/sales/rows/add/', { product_id: id, date: '2025-12-20', quantity: 4 });
  await apiCall(adminToken, '/api/records/tables/sales/rows/add/', { product_id: id, date: '2025-12-22', quantity: 7 });
  await apiCall(adminToken, '/api/records/tables/stock_snapshots/rows/add/', { product_id: id, date: '2025-12-22', stock_level: 3 });
  return id;
}

/** Opens products filtered to one product code and asks to delete its row. */
async function askToDeleteProduct(page: Page, code: string, id: number) {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Data', exact: true }).click();
  await page.getByRole('treeitem', { name: 'products', exact: true }).click();
  await page.getByTestId('table-title').filter({ hasText: 'products' }).waitFor();
  await page.getByLabel('Filter Product code').fill(code);
  await page.locator(`[data-testid="data-grid"] [data-row-id="${id}"]`).waitFor();
  // The row's button names it as people know it (code — name), not by its id.
  await page.getByRole('button', { name: `Delete ${code} — ` }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete row' });
  await dialog.getByTestId('row-references').waitFor();
  return dialog;
}

describe('Data safety on the Data screen', () => {
  it('names what refers to a product before deleting it, and lets an administrator delete it with all of that', async () => {
    const { page } = browser;
    const admin = await tokenOf(demoUser);
    const code = `WREATH-${randomBytes(3).toString('hex')}`;
    const id = await productWithHistory(admin, code);
    await signIn(page);
    const dialog = await askToDeleteProduct(page, code, id);
    // The product by its code and name, what refers to it by what those rows are.
    expect(await dialog.textContent()).toContain(`${code} — Advent wreath ${code} (row ${id} of 'products') is referred to by:`);
    // Its forecast is not listed: made from these rows, it goes with the product.
    expect(await dialog.getByRole('listitem').allTextContents()).toEqual(['2 sales', '2 stock snapshots']);
    expect(await dialog.textContent()).toContain('Deleting it also deletes all of these rows.');
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);

    await dialog.getByRole('button', { name: /^Delete it and \d+ referring rows$/ }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('No rows match the filters.').waitFor();
    const sales = await apiCall(admin, `/api/records/tables/sales/data/?filters_json=${encodeURIComponent(JSON.stringify({ product_id: id }))}`);
    expect(sales.count).toBe(0);
  });

  it('tells an editor that only an administrator can delete a product with history, and offers no delete', async () => {
    const { page } = browser;
    const admin = await tokenOf(demoUser);
    const code = `CANDLE-${randomBytes(3).toString('hex')}`;
    const id = await productWithHistory(admin, code);
    const editor = await registerUser(baseUrl());
    const users = (await apiCall(admin, '/api/accounts/users/')).results as { id: number; username: string }[];
    const editorId = users.find((user) => user.username === editor.username)?.id;
    await apiCall(admin, `/api/accounts/users/${editorId}/role/`, { role: 'editor' });

    await signIn(page, editor);
    const dialog = await askToDeleteProduct(page, code, id);
    expect(await dialog.getByRole('listitem').allTextContents()).toEqual(expect.arrayContaining(['2 sales', '2 stock snapshots']));
    expect(await dialog.textContent()).toContain('Only an administrator can delete a row that other rows refer to.');
    expect(await dialog.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    expect(await axeViolations(page, '[role="dialog"]')).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await apiCall(admin, `/api/records/tables/products/rows/${id}/references/`)).total).toBeGreaterThanOrEqual(3);
  });

  it("refuses a table name equal to another table's identifier, with the server's reason", async () => {
    const { page } = browser;
    const admin = await tokenOf(demoUser);
    const name = `Q1 Orders ${randomBytes(3).toString('hex')}`;
    await apiCall(admin, '/api/records/tables/create/', { name, folder: '' });
    const identifier = (await apiCall(admin, '/api/records/encode/', { text: name })).encoded as string;
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Data', exact: true }).click();
    await page.getByRole('button', { name: 'Add table' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add table' });
    await dialog.getByLabel('Table name').fill(identifier);
    await dialog.getByRole('button', { name: 'Create' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(`Failed to create table: The name '${identifier}' cannot be used: it would be confused with table '${name}' (whose name or identifier it equals).`);
  });
});
