// A wholesaler's Odoo exports on the Import screen (ADR 0198), previewed only (nothing imported, so
// other specs see the demo catalogue): the product list proposes Product Category, Product Type (for
// not stocked, ADR 0200), Quantity On Hand and Vendors; the order lines' "[FURN_7800] Desk Combination" is read by its code in the brackets,
// proposed so with its checkbox, quotations left out with cancelled lines; the stock count's
// shelves of one product are added up, the select "Rows with the same key" saying why.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowser } from './support/browser.ts';
import { chosenOption, previewImportFile } from './support/import-screen.ts';
import { orderLinesCsv, productsCsv, stockCountCsv } from './fixtures/odoo-wholesaler.ts';

const browser = useBrowser({ locale: 'en-US' });
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stockwise-odoo-e2e-'));
  await writeFile(join(dir, 'product.template.csv'), productsCsv());
  await writeFile(join(dir, 'sale.order.line.csv'), orderLinesCsv());
  await writeFile(join(dir, 'stock.quant.csv'), stockCountCsv());
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const previewFile = (page: Page, entity: string, fileName: string) => previewImportFile(page, entity, join(dir, fileName));
const chosen = chosenOption;
const descriptionOf = (page: Page, label: string) => page.getByLabel(label, { exact: true }).evaluate((input) => document.getElementById(input.getAttribute('aria-describedby')?.split(' ')[0] ?? '')?.textContent ?? '');

describe("a wholesaler's Odoo exports", () => {
  it('proposes the category, the kind (not stocked), the stock on hand and the vendor of the product list', async () => {
    const { page } = browser;
    await previewFile(page, 'Products', 'product.template.csv');
    expect(await chosen(page, 'Category (category)')).toBe('Product Category');
    // Service or Storable Product: the Delivery Charge is not stocked (ADR 0200).
    expect(await chosen(page, 'Not stocked (a service or fee) (not_stocked)')).toBe('Product Type');
    expect(await chosen(page, 'Current stock (current_stock)')).toBe('Quantity On Hand');
    expect(await chosen(page, 'Supplier (supplier)')).toBe('Vendors');
  });

  it('reads the order lines’ product code in its brackets and leaves quotations out', async () => {
    const { page } = browser;
    await previewFile(page, 'Sales', 'sale.order.line.csv');
    const brackets = page.getByLabel('Read the product code in the brackets: “[CODE] Name” is CODE');
    expect(await brackets.isChecked()).toBe(true);
    // The first line, "[PAP_NOTE] Sticky Notes 76x76", is read as its code.
    const product = await page.getByTestId('preview-row').first().locator('[data-column="product_id"]').textContent();
    expect(product).toContain('PAP_NOTE');
    expect(product).not.toContain('[PAP_NOTE]');
    await page.getByText('Lines whose Status is Quotation or Cancelled').waitFor();
  });

  it("adds up a stock count's shelves of one product, and says why", async () => {
    const { page } = browser;
    await previewFile(page, 'Stock counts', 'stock.quant.csv');
    expect(await chosen(page, 'Rows with the same key')).toBe('Add them up');
    expect(await descriptionOf(page, 'Rows with the same key')).toBe('A product is counted in several places (Location): add them up for its stock');
  });
});
