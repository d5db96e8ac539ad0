// A UK boutique's Shopify exports on the Import screen (ADR 0195), previewed, never imported (the
// demo catalogue stays as other specs read it): the products export proposes Variant Inventory Qty
// for the stock and Cost per item for the unit cost, not the selling price; the orders export's
// lines without a SKU are named under "Skip lines without a product code" — a cardigan sold
// without one among the gift cards — rather than guessed as gift cards, discounts and shipping.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser } from './support/browser.ts';
import { ordersCsv, productsCsv } from './fixtures/shopify-boutique.ts';

const browser = useBrowser({ locale: 'en-GB' });
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stockwise-shopify-e2e-'));
  await writeFile(join(dir, 'products_export_1.csv'), productsCsv());
  await writeFile(join(dir, 'orders_export_1.csv'), ordersCsv());
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function previewFile(page: Page, entity: string, fileName: string): Promise<void> {
  await signIn(page);
  await page.goto('/app/settings');
  await page.getByRole('heading', { name: 'Data integration', level: 2 }).waitFor();
  await page.getByLabel('Import into', { exact: true }).selectOption({ label: entity });
  await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(join(dir, fileName));
  await page.getByTestId('preview-row').first().waitFor();
}

const chosen = (page: Page, label: string) => page.getByLabel(label, { exact: true }).evaluate((select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');

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
});
