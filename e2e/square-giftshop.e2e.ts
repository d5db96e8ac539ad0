// A Galway gift shop's Square exports on the Import screen (ADR 0201), previewed only (nothing
// imported, so other specs see the demo catalogue), in an Irish browser: the item library proposes
// Item Name followed by Variation Name for the name (the SKU kept as the code), the stock of
// "Current Quantity Galway Shop" (not the Y/N "Stock Alert Enabled Galway Shop"), Default Unit Cost
// (not the Price) and Default Vendor Name; the item sales detail is read by SKU, its ISO dates as
// such, the lines without a SKU named (Item followed by Price Point Name) in the sentence that says
// they are skipped. Then the library imported (removed afterwards): the sales lines without a SKU
// are matched to its products by that name, proposed and shown on the screen (F6; axe passes).
// Both names leave out Square's "Regular" of an item without options, said in the builder and
// turned off and on again by keyboard (F8).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './support/browser.ts';
import { chosenOption, previewImportFile } from './support/import-screen.ts';
import { axeViolations } from './support/axe.ts';
import { demoUser } from './support/context.ts';
import { demoApi } from './support/demo-api.ts';
import { libraryCsv, salesCsv, variations } from './fixtures/square-giftshop.ts';

const browser = useBrowser({ locale: 'en-IE' });
let dir = '';
let token = '';
const { productsOf, removeProductsOf } = demoApi(() => inject('baseUrl'), () => token);
/** The library's vendors: the shop's products are theirs. */
const vendors = [...new Set(variations().map((variation) => variation.item.vendor))];

beforeAll(async () => {
  const answer = await fetch(`${inject('baseUrl')}/api/token/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(demoUser) });
  token = ((await answer.json()) as { access: string }).access;
  dir = await mkdtemp(join(tmpdir(), 'stockwise-square-e2e-'));
  await writeFile(join(dir, 'items-library.csv'), libraryCsv());
  await writeFile(join(dir, 'items-sales-detail.csv'), salesCsv());
});
afterAll(async () => {
  if (token) await removeProductsOf(vendors);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const previewFile = (page: Page, entity: string, fileName: string) => previewImportFile(page, entity, join(dir, fileName));
const firstRowCell = (page: Page, field: string) => page.getByTestId('preview-row').first().locator(`[data-column="${field}"]`).textContent();

describe("a gift shop's Square exports", () => {
  it("proposes the item library's name with its variation, its stock, its cost and its vendor", async () => {
    const { page } = browser;
    await previewFile(page, 'Products', 'items-library.csv');
    expect(await chosenOption(page, 'Product code (product_code) · required')).toBe('SKU');
    expect(await chosenOption(page, 'Name (name)')).toBe('Item Name');
    expect(await chosenOption(page, 'Name, followed by')).toBe('Variation Name');
    expect(await chosenOption(page, 'Current stock (current_stock)')).toBe('Current Quantity Galway Shop');
    expect(await chosenOption(page, 'Unit cost (unit_cost)')).toBe('Default Unit Cost');
    expect(await chosenOption(page, 'Supplier (supplier)')).toBe('Default Vendor Name');
    expect(await firstRowCell(page, 'name')).toBe('Sea Salt Soy Candle Small');
    // An item without options is named as Square names it: "Regular" left out, said so (F8).
    expect(await page.getByTestId('joined-name').textContent()).toBe('Name reads Item Name + Variation Name, one space apart, leaving out “Regular”: “Sea Salt Soy Candle Small” on the first line.');
    expect(await page.getByRole('checkbox', { name: 'Leave out “Regular” from Name' }).isChecked()).toBe(true);
    await page.getByText('Every previewed value fits its column.').waitFor();
  });

  it('reads the item sales by SKU and ISO date, and names the lines without a SKU', async () => {
    const { page } = browser;
    await previewFile(page, 'Sales', 'items-sales-detail.csv');
    expect(await chosenOption(page, 'Product (product_id) · by product_code · required')).toBe('SKU');
    expect(await chosenOption(page, 'Quantity (quantity) · required')).toBe('Qty');
    await page.getByText('Read as YYYY-MM-DD').waitFor();
    await page.getByText(/have no product code \(“Greeting Card”/).waitFor();
  });

  it('matches the sales lines without a SKU to the imported library by Item followed by Price Point Name, "Regular" left out of both (F6, F8)', async () => {
    const { page } = browser;
    await previewFile(page, 'Products', 'items-library.csv');
    await page.getByRole('button', { name: 'Import file' }).click();
    await page.getByTestId('import-result').getByText(/7 lines without a product code were given their name as their product code\./).waitFor();
    const products = await productsOf(vendors);
    expect(products.filter((row) => row.product_code === 'Greeting Card').map((row) => row.name)).toEqual(['Greeting Card']);
    expect(products.filter((row) => / Regular$/.test(row.name))).toEqual([]);

    await previewImportFile(page, 'Sales', join(dir, 'items-sales-detail.csv'), { signedIn: true });
    expect(await chosenOption(page, 'Product (product_id) · by product_code · required')).toBe('SKU');
    const byName = page.getByRole('checkbox', { name: 'Match lines without a product code to products by their name (Item + Price Point Name)' });
    expect(await byName.isChecked()).toBe(true);
    expect(await chosenOption(page, "A line's product name, followed by")).toBe('Price Point Name');
    const lineName = page.getByTestId('joined-new_products.name');
    expect(await lineName.textContent()).toMatch(/^A line's product name reads Item \+ Price Point Name, one space apart, leaving out “Regular”: “.+” on the first line\.$/);
    await page.getByText(/have no product code and are matched to products by their name: they are imported\./).waitFor();
    expect(await axeViolations(page, 'section[aria-labelledby="data-integration-title"]')).toEqual([]);

    // Turned off by keyboard: every part read, "Greeting Card Regular" meets no product; on again, all matched. The focus stays on it.
    const leaveOut = page.getByRole('checkbox', { name: "Leave out “Regular” from A line's product name" });
    await leaveOut.focus();
    await page.keyboard.press('Space');
    const unmatched = page.getByText(/other lines? without one \(“[^”]+ Regular”/);
    await unmatched.waitFor();
    expect(await lineName.textContent()).not.toContain('leaving out');
    expect(await leaveOut.isChecked()).toBe(false);
    await page.waitForFunction(() => document.activeElement?.id === 'joined-new_products.name-leave-out');
    await page.keyboard.press('Space');
    await unmatched.waitFor({ state: 'detached' });
    expect(await leaveOut.isChecked()).toBe(true);
    expect(await lineName.textContent()).toContain('leaving out “Regular”');
    expect(await axeViolations(page, 'section[aria-labelledby="data-integration-title"]')).toEqual([]);
  });
});
