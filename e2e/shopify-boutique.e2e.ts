// A UK boutique's Shopify exports on the Import screen (ADR 0195): the products export proposes
// Variant Inventory Qty for the stock and Cost per item for the unit cost, not the selling price;
// its later variant lines' blank Title, Vendor and Type repeat the line above with the same Handle
// (F3), the checkbox saying so turned off and on by keyboard, and the file imports all 49 variants
// with a SKU named, their supplier and category set (removed afterwards, so other specs see the demo
// catalogue); the name shown as Title + Option1 Value + Option2 Value + Option3 Value, every joined
// column listed, removed and added back by keyboard, and the import reading the name so joined
// (axe passes on the screen); the orders export's lines without a SKU are named under "Skip lines without a
// product code" — a cardigan sold without one among the gift cards — rather than guessed as gift
// cards, discounts and shipping; with the proposal, the cardigan's sizes and the tote bag are
// products under their name and the orders' lines without a SKU are matched to them by name, the
// gift cards left out (F4).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations } from './support/axe.ts';
import { useBrowser } from './support/browser.ts';
import { chosenOption, previewImportFile } from './support/import-screen.ts';
import { demoUser } from './support/context.ts';
import { ordersCsv, productsCsv } from './fixtures/shopify-boutique.ts';

const browser = useBrowser({ locale: 'en-GB' });
let dir = '';
let token = '';

type ProductRow = { id: number; product_code: string; name: string; supplier: string | null; category: string | null };
const VENDORS = ['Nordic Linen Co', 'Hartley & Rowe', 'Bramble Knitwear', 'Fable Accessories'];

/** The boutique's products, by their suppliers (no demo product has one of them), read through the API. */
async function boutiqueProducts(): Promise<ProductRow[]> {
  const rows: ProductRow[] = [];
  for (const vendor of VENDORS) {
    const filters = encodeURIComponent(JSON.stringify({ supplier: { contains: vendor } }));
    const answer = await fetch(`${inject('baseUrl')}/api/records/tables/products/data/?page=1&page_size=500&sort_by=product_code&filters_json=${filters}`, { headers: { Authorization: `Bearer ${token}` } });
    if (!answer.ok) throw new Error(`products: ${answer.status}`);
    rows.push(...((await answer.json()) as { results: ProductRow[] }).results);
  }
  return rows;
}

async function removeBoutiqueProducts(): Promise<void> {
  for (const row of await boutiqueProducts()) {
    await fetch(`${inject('baseUrl')}/api/records/tables/products/rows/delete/`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ id: row.id, cascade: true }) });
  }
}

beforeAll(async () => {
  const answer = await fetch(`${inject('baseUrl')}/api/token/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(demoUser) });
  token = ((await answer.json()) as { access: string }).access;
  dir = await mkdtemp(join(tmpdir(), 'stockwise-shopify-e2e-'));
  await writeFile(join(dir, 'products_export_1.csv'), productsCsv());
  await writeFile(join(dir, 'orders_export_1.csv'), ordersCsv());
});

afterAll(async () => {
  if (token) await removeBoutiqueProducts();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const previewFile = (page: Page, entity: string, fileName: string) => previewImportFile(page, entity, join(dir, fileName));
/** Another file on the Import screen, signed in already. */
const previewAgain = (page: Page, entity: string, fileName: string) => previewImportFile(page, entity, join(dir, fileName), { signedIn: true });
const chosen = chosenOption;

describe("a UK boutique's Shopify exports", () => {
  it('proposes the stock and the cost per item from the products export, not the selling price', async () => {
    const { page } = browser;
    await previewFile(page, 'Products', 'products_export_1.csv');
    expect(await chosen(page, 'Product code (product_code) · required')).toBe('Variant SKU');
    expect(await chosen(page, 'Current stock (current_stock)')).toBe('Variant Inventory Qty');
    expect(await chosen(page, 'Unit cost (unit_cost)')).toBe('Cost per item');
  });

  it('names the orders lines without a SKU it offers to skip', async () => {
    const { page } = browser;
    await previewFile(page, 'Sales', 'orders_export_1.csv');
    const skip = page.getByLabel('Skip lines without a product code');
    expect(await skip.isChecked()).toBe(true);
    const description = await skip.evaluate((input) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? '');
    expect(description).toMatch(/^\d+ of the lines read have no product code \(“Chunky Cable Cardigan - M”, “Chunky Cable Cardigan - L”, “Gift Card - £50”, …\) beside lines that have one: they are skipped and counted, not refused\.$/);
  });

  it("repeats a product's first line into its later variant lines by the Handle, turned off and on by keyboard, and imports all 49 variants with a SKU named, with supplier and category (F3), and the 4 without one under their name (F4)", async () => {
    const { page } = browser;
    await previewFile(page, 'Products', 'products_export_1.csv');
    const fillDown = page.getByLabel('Blank cells repeat the line above with the same Handle');
    expect(await fillDown.isChecked()).toBe(true);
    const secondName = page.getByTestId('preview-row').nth(1).locator('[data-column="name"]');
    await expect.poll(() => secondName.textContent(), { timeout: 30_000 }).toBe('Linen Shirt XS White');
    // Off by keyboard: the later line's Title is blank again (its options alone name it), its supplier empty.
    await fillDown.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => fillDown.isChecked(), { timeout: 30_000 }).toBe(false);
    await expect.poll(() => secondName.textContent(), { timeout: 30_000 }).toBe('XS White');
    // The builder stays on screen while the preview is read again: the checkbox keeps the focus (ADR 0196, F2).
    expect(await fillDown.evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(() => secondName.textContent(), { timeout: 30_000 }).toBe('Linen Shirt XS White');

    await page.getByRole('button', { name: 'Import file' }).click();
    const result = page.getByTestId('import-result');
    await result.waitFor();
    // The 49 variants with a SKU, and the cardigan's 3 sizes and the tote bag under their name (F4).
    expect(await result.getByTestId('result-inserted').textContent()).toBe('53');
    const stored = await boutiqueProducts();
    expect(stored).toHaveLength(53);
    expect(stored.filter((row) => !row.name || !row.supplier || !row.category)).toEqual([]);
    expect(stored.find((row) => row.product_code === 'MJ-M-OAT')).toMatchObject({ name: 'Merino Crew Jumper M Oatmeal', supplier: 'Bramble Knitwear', category: 'Knitwear' });
    expect(stored.filter((row) => row.supplier === 'Nordic Linen Co').map((row) => row.name)).toContain('Linen Shirt XL White');
    await removeBoutiqueProducts();
  });

  it("imports the variants without a SKU under their name, and the orders' lines without one onto them, each with the proposal (F4)", async () => {
    const { page } = browser;
    await previewFile(page, 'Products', 'products_export_1.csv');
    const asCode = page.getByLabel('Lines without a product code take their name as their code');
    expect(await asCode.isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Import file' }).click();
    await page.getByTestId('import-result').waitFor();
    const stored = await boutiqueProducts();
    expect(stored.find((row) => row.product_code === 'Chunky Cable Cardigan M')).toMatchObject({ name: 'Chunky Cable Cardigan M', supplier: 'Bramble Knitwear', category: 'Knitwear' });
    // Gift cards are no stock: left out by the proposed filter on Gift Card.
    expect(stored.filter((row) => row.name.startsWith('Gift Card'))).toEqual([]);

    await previewAgain(page, 'Sales', 'orders_export_1.csv');
    const byName = page.getByLabel('Match lines without a product code to products by their name (Lineitem name)');
    expect(await byName.isChecked()).toBe(true);
    const skip = page.getByLabel('Skip lines without a product code');
    const description = await skip.evaluate((input) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? '');
    expect(description).toMatch(/^\d+ of the lines read have no product code and are matched to products by their name: they are imported\. \d+ other lines without one \(“Gift Card - £\d+”, “Gift Card - £\d+”, …\) are skipped and counted, not refused\.$/);
    expect(await axeViolations(page, 'section[aria-labelledby="data-integration-title"]')).toEqual([]);
    await page.getByRole('button', { name: 'Import file' }).click();
    const result = page.getByTestId('import-result');
    await result.waitFor();
    // What the generator wrote: 259 lines of the cardigan and the tote bag kept, the 82 gift cards' skipped (refunded and voided orders left out).
    expect(await result.getByTestId('result-matchedByName').textContent()).toBe('259');
    expect(await result.getByTestId('result-skipped').textContent()).toBe('82');
    const cardigan = stored.find((row) => row.product_code === 'Chunky Cable Cardigan M') as ProductRow;
    const answer = await fetch(`${inject('baseUrl')}/api/records/tables/sales/data/?page_size=500&filters_json=${encodeURIComponent(JSON.stringify({ product_id: cardigan.id }))}`, { headers: { Authorization: `Bearer ${token}` } });
    const sales = ((await answer.json()) as { results: { quantity: number | string }[] }).results;
    // The generator's 100 cardigans in M on orders kept.
    expect(sales.reduce((sum, sale) => sum + Number(sale.quantity), 0)).toBe(100);
    await removeBoutiqueProducts();
  });

  it('shows the name as Title + Option1 Value + Option2 Value + Option3 Value, removes and adds joined columns by keyboard, and imports the name as joined (ADR 0195, amendment)', async () => {
    const { page } = browser;
    await previewFile(page, 'Products', 'products_export_1.csv');
    const joined = page.getByTestId('joined-name');
    expect(await joined.textContent()).toBe('Name reads Title + Option1 Value + Option2 Value + Option3 Value, one space apart: “Linen Shirt XS Blue” on the first line.');
    expect(await chosen(page, 'Name, followed by')).toBe('Option1 Value');
    expect(await chosen(page, 'Name, part 3')).toBe('Option2 Value');
    expect(await chosen(page, 'Name, part 4')).toBe('Option3 Value');
    expect(await page.getByRole('button', { name: 'Add a column to Name' }).count()).toBe(0);
    expect(await axeViolations(page, 'section[aria-labelledby="data-integration-title"]')).toEqual([]);

    // The colour out, by keyboard: the focus comes back to Add once the preview is read again.
    await page.getByRole('button', { name: 'Remove Option2 Value from Name' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => joined.textContent(), { timeout: 30_000 }).toBe('Name reads Title + Option1 Value + Option3 Value, one space apart: “Linen Shirt XS” on the first line.');
    const add = page.getByRole('button', { name: 'Add a column to Name' });
    await expect.poll(() => add.evaluate((button) => button === document.activeElement), { timeout: 30_000 }).toBe(true);
    await page.keyboard.press('Enter');
    const added = page.getByLabel('Name, part 4', { exact: true });
    await expect.poll(() => added.evaluate((select) => select === document.activeElement), { timeout: 30_000 }).toBe(true);
    expect(await axeViolations(page, 'section[aria-labelledby="data-integration-title"]')).toEqual([]);
    await added.selectOption('Option2 Value');
    await expect.poll(() => joined.textContent(), { timeout: 30_000 }).toBe('Name reads Title + Option1 Value + Option3 Value + Option2 Value, one space apart: “Linen Shirt XS Blue” on the first line.');

    // The size out, then imported: the names are read as the screen joined them (sizes share a name).
    await page.getByRole('button', { name: 'Remove Option1 Value from Name' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => joined.textContent(), { timeout: 30_000 }).toBe('Name reads Title + Option3 Value + Option2 Value, one space apart: “Linen Shirt Blue” on the first line.');
    await page.getByRole('button', { name: 'Import file' }).click();
    await page.getByTestId('import-result').waitFor();
    const stored = await boutiqueProducts();
    expect(stored.find((row) => row.product_code === 'MJ-M-OAT')?.name).toBe('Merino Crew Jumper Oatmeal');
    // The cardigan's sizes, named (and so coded) without their size, are one product: 49 with a SKU, the cardigan and the tote bag.
    expect(stored).toHaveLength(51);
    await removeBoutiqueProducts();
  });
});
