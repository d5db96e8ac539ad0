// A Lyon épicerie fine's caisse exports on the Import screen (ADR 0203), in a French browser: the
// articles file (Windows-1252, semicolons, decimal commas) proposes its "Prix d'achat HT" as the
// unit cost, not the "Prix de vente TTC" beside it (F1), and imports; then the ventes file's first
// weeks (UTF-8 with a BOM, day-first dates, weighed goods in fractional kilograms) are read
// day-first and to the gram, and imported. The articles are removed afterwards (their sales with
// them), so other specs see the demo catalogue. Axe passes on the screen after each import.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useBrowser } from './support/browser.ts';
import { chosenOption, previewImportFile } from './support/import-screen.ts';
import { axeViolations } from './support/axe.ts';
import { demoUser } from './support/context.ts';
import { demoApi } from './support/demo-api.ts';
import { ARTICLES, VENTES_COLUMNS, articlesFile, venteLines } from './fixtures/lyon-epicerie.ts';

const browser = useBrowser({ locale: 'fr-FR' });
let dir = '';
let token = '';
const { productsOf, removeProductsOf } = demoApi(() => inject('baseUrl'), () => token);
const suppliers = [...new Set(ARTICLES.map((article) => article.supplier))];
/** The ventes file's first three weeks (a till's December 2024), as the caisse writes it. */
const firstWeeks = venteLines().filter((line) => line.iso < '2024-12-24');

beforeAll(async () => {
  const answer = await fetch(`${inject('baseUrl')}/api/token/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(demoUser) });
  token = ((await answer.json()) as { access: string }).access;
  dir = await mkdtemp(join(tmpdir(), 'stockwise-lyon-e2e-'));
  await writeFile(join(dir, 'articles.csv'), articlesFile());
  const ventes = [VENTES_COLUMNS.join(';'), ...firstWeeks.map((line) => VENTES_COLUMNS.map((column) => line.cells[column] ?? '').join(';'))].join('\r\n');
  await writeFile(join(dir, 'ventes.csv'), new TextEncoder().encode(`\uFEFF${ventes}\r\n`));
});
afterAll(async () => {
  if (token) await removeProductsOf(suppliers);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const firstRowCell = (page: Parameters<typeof chosenOption>[0], field: string) => page.getByTestId('preview-row').first().locator(`[data-column="${field}"]`).textContent();
const section = 'section[aria-labelledby="data-integration-title"]';

describe("a Lyon épicerie's caisse exports", () => {
  it('imports the articles with the purchase price before VAT as the unit cost, then the ventes day-first and to the gram', async () => {
    const { page } = browser;
    await previewImportFile(page, 'Products', join(dir, 'articles.csv'));
    expect(await chosenOption(page, 'Name (name)')).toBe('Désignation');
    expect(await chosenOption(page, 'Unit cost (unit_cost)')).toBe("Prix d'achat HT");
    expect(await chosenOption(page, 'Current stock (current_stock)')).toBe('Stock');
    await page.getByText('Detected: comma (1,25)').waitFor();
    expect([await firstRowCell(page, 'name'), await firstRowCell(page, 'unit_cost'), await firstRowCell(page, 'current_stock')]).toEqual(['Comté AOP 18 mois', '17.15', '2.391']);
    await page.getByRole('button', { name: 'Import file' }).click();
    await page.getByTestId('import-result').getByText(`Imported ${ARTICLES.length} rows into products: ${ARTICLES.length} inserted, 0 updated.`).waitFor();
    expect(await axeViolations(page, section)).toEqual([]);
    expect((await productsOf(suppliers)).length).toBe(ARTICLES.length);

    await previewImportFile(page, 'Sales', join(dir, 'ventes.csv'), { signedIn: true });
    expect(await chosenOption(page, 'Product (product_id) · by product_code · required')).toBe('Code article');
    expect(await chosenOption(page, 'Quantity (quantity) · required')).toBe('Quantité');
    await page.getByText('Read as dd/mm/yyyy').waitFor();
    expect([await firstRowCell(page, 'date'), await firstRowCell(page, 'quantity')]).toEqual(['2024-12-03', '0.128']);
    await page.getByRole('button', { name: 'Import file' }).click();
    const result = page.getByTestId('import-result');
    await result.getByText(/Dates were read day-first \(dd\/mm\/yyyy\)\./).waitFor();
    expect(await result.textContent()).toContain(`Imported ${firstWeeks.length} lines into sales`);
    expect(await axeViolations(page, section)).toEqual([]);
  });
});
