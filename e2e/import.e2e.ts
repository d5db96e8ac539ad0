// The Settings screen's data integration through the real UI: choose a saved mapping and a file,
// read the five-record preview after mapping (the server's read, problems marked), import and see the counts and the log entry with its details;
// a file with bad values refused with its row errors and nothing written; a nested JSON export
// through the shop_export_json mapping; a saved mapping left for a new one (another entity, a file
// with its own column names) and the log naming what was sent; a file it cannot read; the log's
// statuses readable at 1280 px; a German shop's delivery statuses given their meaning on the screen;
// a web shop's refunded order left out by a row filter set on the screen; a stock count without a
// date column given one date for all its lines; a till's column names below its title found, and
// another row chosen; a till's names below its branch and date labels found; a product list over
// 256 KiB with £ costs previewed from its head without a warning; a second till's file warned of
// before it replaces the first's under the same mapping, and imported under a new one, adding up;
// and, imported under the first's mapping all the same, undone from the Import log by keyboard; the
// stock count given one date, undone from the import's answer by keyboard (ADR 0175); a deli scale's
// file of only 1.250 and 2.450 kg read as kilos once Decimal separator is set to Point (ADR 0176); a
// scale's 0.125 kg and 250 g of a product without a unit said before importing to be read in kilos (ADR 0178);
// a café's Square export without SKUs read as Item + Price Point Name, a refund netted (ADR 0193).
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { axeViolations } from './support/axe.ts';
import { signIn, useBrowser } from './support/browser.ts';
import { demoUser } from './support/context.ts';

const browser = useBrowser();

let token = '';
let dir = '';

beforeAll(async () => {
  const answer = await fetch(`${inject('baseUrl')}/api/token/`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(demoUser) });
  token = ((await answer.json()) as { access: string }).access;
  dir = await mkdtemp(join(tmpdir(), 'stockwise-import-e2e-'));
});

/** Prefixes of the products a test imported: removed afterwards with the rows referring to them, so other specs see the demo catalogue. */
const imported: string[] = [];

afterAll(async () => {
  for (const prefix of imported) {
    for (const row of await productsWithPrefix(prefix)) {
      await fetch(`${inject('baseUrl')}/api/records/tables/products/rows/delete/`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ id: row.id, cascade: true }) });
    }
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

type ProductRow = { id: number; product_code: string; name: string; category: string | null; current_stock: number | null; unit_cost: string | number | null; lead_time_days: number | null };

/** The products whose code starts with `prefix`, read through the API. */
async function productsWithPrefix(prefix: string): Promise<ProductRow[]> {
  const filters = encodeURIComponent(JSON.stringify({ product_code: { contains: prefix } }));
  const answer = await fetch(`${inject('baseUrl')}/api/records/tables/products/data/?page=1&page_size=500&sort_by=product_code&filters_json=${filters}`, { headers: { Authorization: `Bearer ${token}` } });
  if (!answer.ok) throw new Error(`products: ${answer.status}`);
  return ((await answer.json()) as { results: ProductRow[] }).results;
}

/** The stock counts of the products whose code starts with `prefix`, read through the API: [code, day, count], by code. */
async function stockCounts(prefix: string): Promise<[string, string, number][]> {
  const counts: [string, string, number][] = [];
  for (const product of await productsWithPrefix(prefix)) {
    const answer = await fetch(`${inject('baseUrl')}/api/records/tables/stock_snapshots/data/?filters_json=${encodeURIComponent(JSON.stringify({ product_id: product.id }))}`, { headers: { Authorization: `Bearer ${token}` } });
    for (const row of ((await answer.json()) as { results: { date: string; stock_level: number }[] }).results) counts.push([product.product_code, row.date, row.stock_level]);
  }
  return counts;
}

/** The sales of the products whose code starts with `prefix`, read through the API: [day, quantity] by code, in day order. */
async function salesOf(prefix: string): Promise<Record<string, [string, number][]>> {
  const sales: Record<string, [string, number][]> = {};
  for (const product of await productsWithPrefix(prefix)) {
    const answer = await fetch(`${inject('baseUrl')}/api/records/tables/sales/data/?sort_by=date&filters_json=${encodeURIComponent(JSON.stringify({ product_id: product.id }))}`, { headers: { Authorization: `Bearer ${token}` } });
    sales[product.product_code] = ((await answer.json()) as { results: { date: string; quantity: number }[] }).results.map((row) => [row.date, Number(row.quantity)]);
  }
  return sales;
}

/** Imports a file through the API with a mapping it does not fit: the log gets a failure with a long reason. */
async function importMisfit(fileName: string, content: string): Promise<void> {
  const form = new FormData();
  form.append('import_id', randomUUID());
  form.append('mapping_config', JSON.stringify({ entities: { products: { field_mappings: { product_code: 'product_code', name: 'name' } } } }));
  form.append('mapping_name', 'product_catalogue_csv');
  form.append('entity_type', 'products');
  form.append('file', new Blob([content], { type: 'text/csv' }), fileName);
  const answer = await fetch(`${inject('baseUrl')}/api/records/process-file/`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  expect(answer.status).toBe(400);
}

/** Adds products `codes` through the API (named by their code). */
/** Adds products named by their codes; with `stock`, a product list's stock figure for each (recorded as today's). */
async function addProducts(codes: string[], stock?: number): Promise<void> {
  const form = new FormData();
  form.append('mapping_config', JSON.stringify({ entities: { products: { field_mappings: { product_code: 'code', name: 'code', ...(stock === undefined ? {} : { current_stock: 'stock' }) } } } }));
  form.append('entity_type', 'products');
  const lines = stock === undefined ? ['code', ...codes] : ['code,stock', ...codes.map((code) => `${code},${stock}`)];
  form.append('file', new Blob([[...lines, ''].join('\n')], { type: 'text/csv' }), 'products.csv');
  const answer = await fetch(`${inject('baseUrl')}/api/records/process-file/`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  expect(answer.status).toBe(200);
}

function uniquePrefix(tag: string): string {
  const prefix = `E2E-${tag}-${randomBytes(3).toString('hex').toUpperCase()}-`;
  imported.push(prefix);
  return prefix;
}

async function tempFile(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

async function openSettings(page: Page): Promise<void> {
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Settings', exact: true }).click();
  await page.waitForURL('**/app/settings');
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  await page.getByRole('heading', { name: 'Data integration', level: 2 }).waitFor();
}

async function chooseMapping(page: Page, name: string): Promise<void> {
  const select = page.getByLabel('Mapping', { exact: true });
  await page.locator(`#${await select.getAttribute('id')} option[value="${name}"]`).waitFor({ state: 'attached' });
  await select.selectOption(name);
  await page.getByTestId('mapping-description').waitFor();
}

/** The data integration section and the import log pass axe-core's WCAG 2 A and AA checks. */
async function expectAccessible(page: Page, where: string): Promise<void> {
  expect(await axeViolations(page, 'section[aria-labelledby="data-integration-title"]'), where).toEqual([]);
  if (await page.getByTestId('import-log').count()) expect(await axeViolations(page, '[data-testid="import-log"]'), `${where} (log)`).toEqual([]);
}

/** The WCAG contrast ratio of a computed `rgb(r, g, b)` colour against white. */
function contrastOnWhite(color: string): number {
  const [r = 0, g = 0, b = 0] = (color.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  const channel = (value: number) => (value / 255 <= 0.03928 ? value / 255 / 12.92 : ((value / 255 + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  return 1.05 / (luminance + 0.05);
}

/**
 * Till 1's file (3 cups on 1 Nov, 1 lid on 2 Nov) imported through the API under a saved mapping of
 * its own name, over two new products: the products, the mapping's name, and a read of a product's
 * stored sales (day, quantity) in day order.
 */
async function tillOneImported(tag: string) {
  const prefix = uniquePrefix(tag);
  const [cups, lids] = [`${prefix}1`, `${prefix}2`];
  await addProducts([cups, lids]);
  const mappingName = `till sales ${prefix.toLowerCase()}`;
  const api = (route: string, init: RequestInit = {}) => fetch(`${inject('baseUrl')}${route}`, { ...init, headers: { Authorization: `Bearer ${token}`, ...init.headers } });
  const config = { description: 'Both tills export these columns.', entities: { sales: { field_mappings: { product_id: 'Code', date: 'Day', quantity: 'Qty' } } } };
  expect((await api('/api/yaml/save-mapping/', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: mappingName, config }) })).status).toBe(200);
  const form = new FormData();
  form.append('mapping_config', JSON.stringify(config));
  form.append('mapping_name', mappingName);
  form.append('entity_type', 'sales');
  form.append('file', new Blob([`Code,Day,Qty\n${cups},2026-11-01,3\n${lids},2026-11-02,1\n`], { type: 'text/csv' }), 'till-1.csv');
  expect((await api('/api/records/process-file/', { method: 'POST', body: form })).status).toBe(200);
  const ids = new Map((await productsWithPrefix(prefix)).map((row) => [row.product_code, row.id]));
  const quantities = async (code: string) => {
    const answer = await api(`/api/records/tables/sales/data/?sort_by=date&filters_json=${encodeURIComponent(JSON.stringify({ product_id: ids.get(code) }))}`);
    return ((await answer.json()) as { results: { date: string; quantity: number }[] }).results.map((row) => [row.date, row.quantity]);
  };
  return { prefix, cups, lids, mappingName, quantities };
}

const previewRows = (page: Page) => page.getByTestId('preview-row');
const previewCell = (page: Page, index: number, column: string) => previewRows(page).nth(index).locator(`[data-column="${column}"]`);
const logRow = (page: Page, fileName: string) => page.getByTestId('log-row').filter({ hasText: fileName });

/**
 * An import's Undo taken by keyboard from `undo` (its button): the dialog says `confirm`, passes axe,
 * has Cancel focused; Tab to "Undo the import", Enter; the outcome says `outcome` and passes axe; Enter closes it.
 */
async function undoByKeyboard(page: Page, undo: Locator, fileName: string, confirm: string, outcome: string): Promise<void> {
  await undo.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Undo the import of ${fileName}?` });
  await dialog.waitFor();
  expect(await dialog.getByTestId('undo-confirm').textContent()).toBe(confirm);
  expect(await axeViolations(page, '[role="dialog"]'), 'undo dialog').toEqual([]);
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const answer = dialog.getByTestId('undo-outcome');
  await answer.waitFor();
  expect(await answer.textContent()).toBe(outcome);
  expect(await axeViolations(page, '[role="dialog"]'), 'undo outcome').toEqual([]);
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'detached' });
}
const mappingSelect = (page: Page) => page.getByLabel('Mapping', { exact: true });
const importButton = (page: Page) => page.getByRole('button', { name: 'Import file' });

/**
 * Waits until the configuration's mappings have loaded and the first one is chosen: as long as a
 * page's own waits (a busy two-core machine loaded it in over a second, a poll's default).
 */
async function waitForDefaultMapping(page: Page): Promise<void> {
  await expect.poll(() => mappingSelect(page).inputValue(), { timeout: 30_000 }).toBe('product_catalogue_csv');
}

describe('data integration (Settings)', () => {
  it('imports a CSV through product_catalogue_csv: preview of five, counts, the log entry and its details', async () => {
    const { page } = browser;
    const prefix = uniquePrefix('CSV');
    const fileName = `${prefix.toLowerCase()}catalogue.csv`;
    // The second and third lines leave the lead time blank, the third the cost too: defaults, said as warnings.
    const lines = Array.from({ length: 7 }, (_, i) => `${prefix}${i + 1},Import widget ${i + 1},Garden,${1000 + 10 * i},${i === 2 ? '' : (2.5 + i).toFixed(2)},${i === 1 || i === 2 ? '' : i + 3}`);
    const path = await tempFile(fileName, ['product_code,name,category,current_stock,unit_cost,lead_time_days', ...lines, ''].join('\n'));

    await openSettings(page);
    await chooseMapping(page, 'product_catalogue_csv');
    expect(await page.getByTestId('mapping-description').textContent()).toBe('A flat CSV with one product per line.');
    // A select reached by keyboard shows a ring of at least 3:1 against the section's white (WCAG 2.4.7, 1.4.11).
    await page.getByLabel('Import into', { exact: true }).focus();
    await page.keyboard.press('Tab');
    expect(await mappingSelect(page).evaluate((element) => element === document.activeElement)).toBe(true);
    const ring = await mappingSelect(page).evaluate((element) => {
      const style = getComputedStyle(element);
      return { style: style.outlineStyle, width: style.outlineWidth, color: style.outlineColor };
    });
    expect(ring).toMatchObject({ style: 'solid', width: '2px' });
    expect(contrastOnWhite(ring.color)).toBeGreaterThanOrEqual(3);
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);

    await previewRows(page).nth(4).waitFor();
    expect(await previewRows(page).count()).toBe(5);
    expect(await previewCell(page, 0, 'product_code').textContent()).toBe(`${prefix}1`);
    expect(await previewCell(page, 4, 'name').textContent()).toBe('Import widget 5');
    expect(await previewCell(page, 2, 'current_stock').textContent()).toBe('1020');
    expect(await page.getByTestId('preview-summary').textContent()).toBe('Every previewed value fits its column.');

    // By keyboard: Enter on Import file, and the focus lands on the result's title, not on the page's body.
    await importButton(page).focus();
    await page.keyboard.press('Enter');
    const result = page.getByTestId('import-result');
    await result.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName)).toBe('import-result-title');
    expect(await result.getByTestId('result-rows').textContent()).toBe('7');
    expect(await result.getByTestId('result-inserted').textContent()).toBe('7');
    expect(await result.getByTestId('result-updated').textContent()).toBe('0');
    // No repeated keys, no products created by the mapping: those counts are not shown.
    expect(await result.getByTestId('result-addedUp').or(result.getByTestId('result-replaced')).or(result.getByTestId('result-created')).count()).toBe(0);
    const warnings = ['1 row had no unit cost: stored as 0, and left out of stock values as having no cost until one is imported or typed', '2 rows had no lead time: 14 days used (the default)'];
    expect(await result.getByTestId('import-warning').allTextContents()).toEqual(warnings);
    await expectAccessible(page, 'import result with warnings');
    // Success clears the preview and the error (spec §4).
    expect(await previewRows(page).count()).toBe(0);
    expect(await page.getByTestId('import-error').count()).toBe(0);

    const stored = await productsWithPrefix(prefix);
    expect(stored.map((row) => row.product_code)).toEqual(lines.map((_, i) => `${prefix}${i + 1}`));
    expect(stored[6]).toMatchObject({ name: 'Import widget 7', category: 'Garden', current_stock: 1060, lead_time_days: 9 });
    expect(stored[1]).toMatchObject({ lead_time_days: 14 });

    // The log, newest first: this import on top, with its counts; its details show the file.
    const entry = logRow(page, fileName);
    await entry.getByTestId('log-status').filter({ hasText: 'success' }).waitFor();
    expect(await page.getByTestId('log-row').first().textContent()).toContain(fileName);
    expect(await entry.getByTestId('log-counts').textContent()).toBe('7 → 7 (7 / 0)');
    await entry.getByRole('button', { name: `Details of ${fileName}` }).click();
    const detail = page.getByTestId('log-detail');
    await detail.getByTestId('log-file-content').waitFor();
    expect(await detail.getByTestId('log-file-content').textContent()).toContain(`${prefix}7,Import widget 7`);
    await detail.getByRole('heading', { name: `Import of ${fileName}` }).waitFor();
    expect(await detail.getByTestId('import-warning').allTextContents()).toEqual(warnings);
  });

  it('refuses a file with bad values: hints in the preview, the row errors listed, nothing imported', async () => {
    const { page } = browser;
    const prefix = uniquePrefix('BAD');
    const fileName = `${prefix.toLowerCase()}bad.csv`;
    const good = Array.from({ length: 3 }, (_, i) => `${prefix}${i + 1},Fine ${i + 1},Garden,500,1.00,2`);
    // 105 rows with a stock that is not a number: the server lists 100 and counts the rest.
    const bad = Array.from({ length: 105 }, (_, i) => `${prefix}B${i + 1},Broken ${i + 1},Garden,lots,1.00,2`);
    const path = await tempFile(fileName, ['product_code,name,category,current_stock,unit_cost,lead_time_days', ...good, ...bad, ''].join('\n'));

    await openSettings(page);
    await chooseMapping(page, 'product_catalogue_csv');
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);
    await previewRows(page).nth(4).waitFor();
    // Records 4 and 5 of the preview carry the bad stock: highlighted before anything is sent.
    expect(await previewCell(page, 3, 'current_stock').getAttribute('data-problem')).toBe('true');
    expect(await previewCell(page, 3, 'current_stock').getByTestId('cell-problem').textContent()).toBe('Expected a number, found "lots".');
    expect(await previewCell(page, 0, 'current_stock').getAttribute('data-problem')).toBeNull();
    expect(await page.getByTestId('preview-summary').textContent()).toBe('2 values in these records will be refused by the server.');

    await importButton(page).focus();
    await page.keyboard.press('Enter');
    const failure = page.getByTestId('import-error');
    await failure.waitFor();
    // The refusal's title takes the focus: Tab goes on into its row errors.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName)).toBe('import-error-title');
    expect(await failure.getByText('The file arrived and was read, but nothing was imported: the rows below were refused.', { exact: true }).count()).toBe(1);
    expect(await failure.getByTestId('import-error-detail').textContent()).toBe('105 rows could not be imported; nothing was written.');
    const rowErrors = failure.getByTestId('upload-row-errors');
    expect(await rowErrors.getByTestId('row-error').count()).toBe(100);
    const first = rowErrors.getByTestId('row-error').first().getByRole('cell');
    expect(await first.allTextContents()).toEqual(['5', 'current_stock', 'current_stock', 'Expected a number, found "lots".']);
    expect(await rowErrors.getByTestId('row-errors-more').textContent()).toBe('and 5 more');

    // Nothing written, not even the good rows; the failure is in the log.
    expect(await productsWithPrefix(prefix)).toEqual([]);
    const entry = logRow(page, fileName);
    await entry.getByTestId('log-status').filter({ hasText: 'error' }).waitFor();
    await entry.click();
    const detail = page.getByTestId('log-detail');
    await detail.getByTestId('log-row-errors').waitFor();
    expect(await detail.getByTestId('log-detail-error').textContent()).toBe('105 rows could not be imported; nothing was written.');
  });

  it('asks for a file before importing, and takes a file dropped on the drop zone', async () => {
    const { page } = browser;
    await openSettings(page);
    await chooseMapping(page, 'product_catalogue_csv');
    await page.getByRole('button', { name: 'Import file' }).click();
    await page.getByTestId('import-error').getByText('File, mapping, and config are required.', { exact: true }).waitFor();

    const csv = 'product_code,name,category,current_stock,unit_cost,lead_time_days\n\nDROP-1,Dropped,Garden,150,1.50,4\n';
    const dataTransfer = await page.evaluateHandle((text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], 'dropped.csv', { type: 'text/csv' }));
      return transfer;
    }, csv);
    await page.getByTestId('file-drop').dispatchEvent('dragover', { dataTransfer });
    await page.getByTestId('file-drop').dispatchEvent('drop', { dataTransfer });
    await previewRows(page).first().waitFor();
    expect(await previewRows(page).count()).toBe(1);
    expect(await page.getByTestId('selected-file').textContent()).toContain('dropped.csv');
    // The preview shows each value as it will be stored (the server's parse of '1.50'), with the column's places as the Data grid writes it.
    expect(await previewCell(page, 0, 'unit_cost').textContent()).toBe('1.50');
    expect(await page.getByTestId('import-error').count()).toBe(0);
  });

  it('shows upload and server progress while a slow upload is under way', async () => {
    const { page } = browser;
    const prefix = uniquePrefix('PROG');
    const fileName = `${prefix.toLowerCase()}progress.csv`;
    // ~1 MB; the last record is bad, so the server reads every record and then writes nothing.
    const rows = Array.from({ length: 20_000 }, (_, i) => `${prefix}${i + 1},Progress item ${i + 1} ${'x'.repeat(20)},Garden,200,1.00,2`);
    rows.push(`${prefix}LAST,Last,Garden,many,1.00,2`);
    const path = await tempFile(fileName, ['product_code,name,category,current_stock,unit_cost,lead_time_days', ...rows, ''].join('\n'));

    await openSettings(page);
    await chooseMapping(page, 'product_catalogue_csv');
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);
    await previewRows(page).nth(4).waitFor();
    // A slow uplink (about 5 s for the file): the server streams the records as they arrive.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 200 * 1024 });

    await page.getByRole('button', { name: 'Import file' }).click();
    const progress = page.getByTestId('upload-progress');
    await progress.getByText(/^Uploading: [1-9]\d?%$/).waitFor();
    await progress.getByText(/^Server: [1-9][\d,]* records? processed$/).waitFor();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    const failure = page.getByTestId('import-error');
    await failure.getByTestId('upload-row-errors').waitFor({ timeout: 45_000 });
    expect(await failure.getByTestId('row-error').first().getByRole('cell').allTextContents()).toEqual(['20002', 'current_stock', 'current_stock', 'Expected a number, found "many".']);
    expect(await progress.count()).toBe(0);
    expect(await productsWithPrefix(prefix)).toEqual([]);
    await logRow(page, fileName).getByTestId('log-status').filter({ hasText: 'error' }).waitFor();
  }, 90_000);

  it('imports a nested JSON export through shop_export_json', async () => {
    const { page } = browser;
    const prefix = uniquePrefix('JSON');
    const fileName = `${prefix.toLowerCase()}shop.json`;
    const items = Array.from({ length: 6 }, (_, i) => ({
      sku: `${prefix}${i + 1}`,
      title: `Shop item ${i + 1}`,
      category: { name: i % 2 ? 'Kitchen' : 'Garden' },
      stock: { on_hand: 100 + i },
      pricing: { unit_cost: 4.25 + i, currency: 'EUR' },
      supplier: { lead_time_days: 12 },
    }));
    const path = await tempFile(fileName, JSON.stringify({ exported_at: '2026-11-22', products: items }, null, 2));

    await openSettings(page);
    await chooseMapping(page, 'shop_export_json');
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);
    await previewRows(page).nth(4).waitFor();
    expect(await previewRows(page).count()).toBe(5);
    expect(await previewCell(page, 1, 'product_code').textContent()).toBe(`${prefix}2`);
    expect(await previewCell(page, 1, 'category').textContent()).toBe('Kitchen');
    expect(await previewCell(page, 1, 'current_stock').textContent()).toBe('101');
    expect(await previewCell(page, 1, 'unit_cost').textContent()).toBe('5.25');

    await page.getByRole('button', { name: 'Import file' }).click();
    const result = page.getByTestId('import-result');
    await result.waitFor();
    expect(await result.getByTestId('result-rows').textContent()).toBe('6');
    expect(await result.getByTestId('result-inserted').textContent()).toBe('6');

    const stored = await productsWithPrefix(prefix);
    expect(stored).toHaveLength(6);
    expect(stored[1]).toMatchObject({ product_code: `${prefix}2`, name: 'Shop item 2', category: 'Kitchen', current_stock: 101, lead_time_days: 12 });
    expect(Number(stored[1]!.unit_cost)).toBe(5.25);
    await logRow(page, fileName).getByTestId('log-status').filter({ hasText: 'success' }).waitFor();
    expect(await logRow(page, fileName).locator('td').nth(2).textContent()).toBe('shop_export_json');
  });

  it('switches to a new mapping when the chosen entity has no part in the saved one, and logs what it sent', async () => {
    const { page } = browser;
    const prefix = uniquePrefix('SALES');
    const fileName = `${prefix.toLowerCase()}till.csv`;
    // Codes no product has: the server refuses every row, so the demo sales stay as they are.
    const path = await tempFile(fileName, ['product_code,date,quantity', `${prefix}1,2026-03-01,4`, `${prefix}2,2026-03-01,2`, ''].join('\n'));

    await openSettings(page);
    await waitForDefaultMapping(page);
    await page.getByLabel('Import into', { exact: true }).selectOption('sales');
    // product_catalogue_csv, selected by default, has no sales part: the form builds a new mapping, naming no mapping the user did not choose (ADR 0193's amendment, F4).
    expect(await mappingSelect(page).inputValue()).toBe('');
    expect(await page.getByTestId('mapping-notice').count()).toBe(0);
    // Chosen by the user, it is named when the form leaves it.
    await page.getByLabel('Import into', { exact: true }).selectOption('products');
    await mappingSelect(page).selectOption('product_catalogue_csv');
    await page.getByLabel('Import into', { exact: true }).selectOption('sales');
    // The form follows the entity once the store has taken it: read after it settles, not at once.
    await expect.poll(() => mappingSelect(page).inputValue()).toBe('');
    expect(await page.getByTestId('mapping-description').count()).toBe(0);
    expect(await page.getByTestId('mapping-notice').textContent()).toBe("Mapping Product catalogue CSV has nothing for sales: the columns are proposed from the file's header.");

    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);
    await previewRows(page).nth(1).waitFor();
    expect(await page.getByLabel('Product (product_id) · by product_code · required').inputValue()).toBe('product_code');
    expect(await page.getByLabel('Quantity (quantity) · required').inputValue()).toBe('quantity');
    expect(await page.getByLabel('Save this mapping as').inputValue()).toBe('');
    await expectAccessible(page, 'sales file, new mapping');

    await importButton(page).click();
    await page.getByTestId('import-error').getByTestId('upload-row-errors').waitFor();
    const entry = logRow(page, fileName);
    await entry.getByTestId('log-status').filter({ hasText: 'error' }).waitFor();
    expect(await entry.locator('td').nth(2).textContent()).toBe('your column choices');
  });

  it("proposes columns from a file that has none of the saved mapping's, and imports what it shows", async () => {
    const { page } = browser;
    // The narrowest desktop width the log's status must stay readable at.
    await page.setViewportSize({ width: 1280, height: 900 });
    const prefix = uniquePrefix('OWN');
    const fileName = `${prefix.toLowerCase()}own-headers.csv`;
    const lines = Array.from({ length: 3 }, (_, i) => `${prefix}${i + 1},Own header item ${i + 1},${(1.25 + i).toFixed(2)},${20 + i}`);
    const content = ['Item Code,Description,Cost,Stock', ...lines, ''].join('\n');
    const path = await tempFile(fileName, content);
    // What the form used to send for this file: the failure's long reason crowds the log's columns.
    await importMisfit(`${prefix.toLowerCase()}misfit.csv`, content);

    await openSettings(page);
    await waitForDefaultMapping(page);
    // Chosen by the user (not only selected by default), the mapping is named when the form leaves it (ADR 0193's amendment, F4).
    await mappingSelect(page).selectOption('');
    await mappingSelect(page).selectOption('product_catalogue_csv');
    await expect.poll(() => mappingSelect(page).inputValue()).toBe('product_catalogue_csv');
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);
    await page.getByTestId('mapping-notice').filter({ hasText: 'Mapping Product catalogue CSV reads columns this file lacks' }).waitFor();
    expect(await page.getByTestId('mapping-notice').textContent()).toBe(
      "Mapping Product catalogue CSV reads columns this file lacks (product_code, name, category, current_stock, unit, unit_cost, supplier, lead_time_days, order_multiple, min_order_quantity): the columns are proposed from the file's header.",
    );
    expect(await mappingSelect(page).inputValue()).toBe('');
    expect(await page.getByLabel('Product code (product_code) · required').inputValue()).toBe('Item Code');
    const nameSelect = page.getByLabel('Name (name)', { exact: true });
    expect(await nameSelect.inputValue()).toBe('Description');
    await previewRows(page).nth(2).waitFor();
    expect(await previewCell(page, 0, 'unit_cost').textContent()).toBe('1.25');
    expect(await importButton(page).isEnabled()).toBe(true);

    // Without a name the file only updates stored products (a stock take): the form says so, and the preview marks these new codes.
    await nameSelect.selectOption('');
    await page.getByText('Needed only to add new products.', { exact: false }).waitFor();
    await previewCell(page, 0, 'product_code').filter({ hasText: `product code ${prefix}1 does not exist.` }).waitFor();
    await nameSelect.selectOption('Description');
    // A required field without a column keeps Import disabled, and says why.
    const codeSelect = page.getByLabel('Product code (product_code) · required');
    await codeSelect.selectOption('');
    await page.getByTestId('unmapped-required').filter({ hasText: 'Choose a column for the required fields: product_code.' }).waitFor();
    expect(await importButton(page).isDisabled()).toBe(true);
    await expectAccessible(page, 'a required field without a column');
    await codeSelect.selectOption('Item Code');
    await expect.poll(() => importButton(page).isEnabled()).toBe(true);

    await importButton(page).click();
    await page.getByTestId('import-result').waitFor();
    expect((await productsWithPrefix(prefix)).map((row) => [row.product_code, row.name, Number(row.unit_cost), row.current_stock])).toEqual(lines.map((_, i) => [`${prefix}${i + 1}`, `Own header item ${i + 1}`, 1.25 + i, 20 + i]));
    const entry = logRow(page, fileName);
    const status = entry.getByTestId('log-status');
    await status.filter({ hasText: 'success' }).waitFor();
    expect(await entry.locator('td').nth(2).textContent()).toBe('your column choices');
    // Every status reads in full at 1280 px: no badge is cut short.
    const cutShort = await page.getByTestId('log-status').evaluateAll((badges) => badges.filter((badge) => [badge, ...badge.querySelectorAll('*')].some((part) => part.scrollWidth > part.clientWidth)).map((badge) => badge.textContent));
    expect(cutShort).toEqual([]);
    await expectAccessible(page, 'after the import');
  });

  it("reads a German shop's product list: its own column names and decimal commas, proposed and imported", async () => {
    const { page } = browser;
    const prefix = uniquePrefix('DE');
    const fileName = `${prefix.toLowerCase()}artikel.csv`;
    const content = ['Artikelnr.;Bezeichnung;Warengruppe;EK-Preis;Bestand', `${prefix}1;Kerze rot;Deko;1,25;40`, `${prefix}2;Lichterkette 10 m;Deko;1.234,50;`, ''].join('\n');
    const path = await tempFile(fileName, content);
    await openSettings(page);
    await waitForDefaultMapping(page);
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);
    // The default mapping is left for one proposed from the file's header, without words (ADR 0193's amendment, F4).
    await expect.poll(() => page.getByLabel('Product code (product_code) · required').inputValue(), { timeout: 30_000 }).toBe('Artikelnr.');
    expect(await page.getByTestId('mapping-notice').count()).toBe(0);
    expect(await page.getByLabel('Name (name)', { exact: true }).inputValue()).toBe('Bezeichnung');
    expect(await page.getByLabel('Unit cost (unit_cost)').inputValue()).toBe('EK-Preis');
    const separator = page.getByLabel('Decimal separator', { exact: true });
    expect(await separator.inputValue()).toBe(',');
    expect(await separator.locator('option:checked').textContent()).toBe('Comma (1,25)');
    await page.getByText('Detected: comma (1,25)').waitFor();
    await previewRows(page).nth(1).waitFor();
    expect(await previewCell(page, 0, 'unit_cost').textContent()).toBe('1.25');
    expect(await previewCell(page, 1, 'unit_cost').textContent()).toBe('1234.50');
    await expectAccessible(page, 'a proposal read with decimal commas');

    await importButton(page).click();
    await page.getByTestId('import-result').waitFor();
    expect((await productsWithPrefix(prefix)).map((row) => [row.product_code, row.category, Number(row.unit_cost)])).toEqual([
      [`${prefix}1`, 'Deko', 1.25],
      [`${prefix}2`, 'Deko', 1234.5],
    ]);
  });

  /** A file of sales (`lines`, its header first) chosen on the Import screen, its preview shown. */
  const chooseSalesFile = async (page: Page, fileName: string, lines: string[]) => {
    const path = await tempFile(fileName, [...lines, ''].join('\n'));
    await openSettings(page);
    await waitForDefaultMapping(page);
    await page.getByLabel('Import into', { exact: true }).selectOption('sales');
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);
    await previewRows(page).nth(Math.min(lines.length - 1, 5) - 1).waitFor();
  };

  /** A Shopify orders export of these lines chosen as sales on the Import screen, its preview shown. */
  const chooseShopExport = (page: Page, prefix: string, lines: string[]) =>
    chooseSalesFile(page, `${prefix.toLowerCase()}orders_export.csv`, ['Name,Email,Financial Status,Created at,Lineitem quantity,Lineitem name,Lineitem price,Lineitem sku', ...lines]);

  it("reads a web shop's orders export: its qualified names proposed, its zoned timestamps read, a gift card's line proposed skipped and counted, a refunded order's lines left out", async () => {
    const { page } = browser;
    const prefix = uniquePrefix('SHOP');
    await addProducts([`${prefix}1`, `${prefix}2`]);
    // An order's Financial Status on its first line only; #1002 was refunded.
    await chooseShopExport(page, prefix, [
      `#1001,anna@example.com,paid,2026-11-28 09:15:02 -0500,2,Garden hose,12.50,${prefix}1`,
      '#1001,,,2026-11-28 09:15:02 -0500,1,Gift card,25.00,',
      `#1002,ben@example.com,refunded,2026-11-28 10:00:00 -0500,5,Garden hose,12.50,${prefix}1`,
      `#1002,,,2026-11-28 10:00:00 -0500,3,Heater,40.00,${prefix}2`,
      `#1003,cleo@example.com,paid,2026-11-28 11:00:00 -0500,1,Heater,40.00,${prefix}2`,
    ]);
    expect(await page.getByLabel('Product (product_id) · by product_code · required').inputValue()).toBe('Lineitem sku');
    expect(await page.getByLabel('Date (date) · required').inputValue()).toBe('Created at');
    expect(await page.getByLabel('Quantity (quantity) · required').inputValue()).toBe('Lineitem quantity');
    expect(await previewCell(page, 0, 'date').textContent()).toBe('2026-11-28');

    // The gift card's line has no code beside lines that have one: skipping it is proposed, said with how many, and switchable.
    const skip = page.getByRole('checkbox', { name: 'Skip lines without a product code' });
    expect(await skip.isChecked()).toBe(true);
    // The line is named by its Lineitem name (ADR 0195, F4).
    await page.getByText('1 of the lines read has no product code (“Gift card”) beside lines that have one: it is skipped and counted, not refused.').waitFor();
    expect(await previewRows(page).nth(1).getByTestId('row-skipped').textContent()).toBe('Skipped: no product code');
    await skip.uncheck();
    await previewCell(page, 1, 'product_id').getByTestId('cell-problem').waitFor();
    expect(await previewCell(page, 1, 'product_id').getByTestId('cell-problem').textContent()).toBe('A value is required.');
    await skip.focus();
    await page.keyboard.press('Space');
    await previewRows(page).nth(1).getByTestId('row-skipped').waitFor();
    expect(await previewCell(page, 1, 'product_id').getByTestId('cell-problem').count()).toBe(0);

    // The file's refunded order is proposed to be left out, and shown: both its lines are marked.
    const leaveOut = page.getByRole('region', { name: 'Leave out lines where' });
    const marked = async () => (await previewRows(page).evaluateAll((rows) => rows.map((row) => row.hasAttribute('data-left-out'))));
    expect(await leaveOut.getByTestId('row-filter').textContent()).toContain('Lines of orders whose Financial Status is refunded (a blank cell: as the line above with the same Name)');
    expect(await marked()).toEqual([false, false, true, true, false]);
    expect(await previewRows(page).nth(3).getByTestId('row-left-out').textContent()).toBe('Left out: Financial Status is refunded');
    await expectAccessible(page, "a web shop's export with a line skipped and a refunded order left out");

    // Removed, then set again by keyboard: column, its values seen in the file, the order column.
    await leaveOut.getByRole('button', { name: 'Remove the filter on Financial Status' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(marked).toEqual([false, false, false, false, false]);
    await leaveOut.getByLabel('Column', { exact: true }).selectOption('Financial Status');
    const refunded = leaveOut.getByRole('checkbox', { name: 'refunded (1 line)' });
    await refunded.focus();
    await page.keyboard.press('Space');
    expect(await refunded.isChecked()).toBe(true);
    await leaveOut.getByLabel('A blank cell means the same as the line above with the same').selectOption('Name');
    await leaveOut.getByRole('button', { name: 'Leave these lines out' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(marked).toEqual([false, false, true, true, false]);
    await expectAccessible(page, 'a row filter set by keyboard');

    await importButton(page).click();
    await page.getByTestId('import-result').waitFor();
    expect(await page.getByTestId('result-filtered').textContent()).toBe('2');
    expect(await page.getByTestId('result-skipped').textContent()).toBe('1');
    expect(await page.getByTestId('import-filtered').textContent()).toBe('2 lines whose Financial Status is refunded were left out.');
    // The refunded order's 5 hoses and 3 heaters are not sales.
    const totals: Record<string, number> = {};
    for (const product of await productsWithPrefix(prefix)) {
      const answer = await fetch(`${inject('baseUrl')}/api/records/tables/sales/data/?filters_json=${encodeURIComponent(JSON.stringify({ product_id: product.id }))}`, { headers: { Authorization: `Bearer ${token}` } });
      totals[product.product_code] = ((await answer.json()) as { results: { quantity: number }[] }).results.reduce((sum, row) => sum + row.quantity, 0);
    }
    expect(totals).toEqual({ [`${prefix}1`]: 2, [`${prefix}2`]: 1 });
    await expectAccessible(page, 'the result with lines left out');
  });

  it("imports a deli's till file sold by weight: 0.25 kg lines read as they are, a day's lines added up exactly, a return taken off", async () => {
    const { page } = browser;
    const prefix = uniquePrefix('DELI');
    const [cheddar, olives] = [`${prefix}CHE`, `${prefix}OLV`];
    await addProducts([cheddar, olives]);
    await chooseSalesFile(page, `${prefix.toLowerCase()}till.csv`, [
      'Date,Item,Description,Qty (kg),Unit,Amount',
      `14/11/2026,${cheddar},Cheddar mature,0.25,kg,3.75`,
      `14/11/2026,${cheddar},Cheddar mature,0.5,kg,7.50`,
      `14/11/2026,${olives},Olives mixed,0.1,kg,1.40`,
      `14/11/2026,${olives},Olives mixed,0.2,kg,2.80`,
      `15/11/2026,${olives},Olives mixed,-0.2,kg,-2.80`,
    ]);
    expect(await page.getByLabel('Quantity (quantity) · required').inputValue()).toBe('Qty (kg)');
    expect(await previewCell(page, 0, 'quantity').textContent()).toBe('0.25');
    expect(await previewCell(page, 0, 'date').textContent()).toBe('2026-11-14');
    expect(await previewRows(page).getByTestId('cell-problem').count()).toBe(0);
    await expectAccessible(page, "a deli's till file sold by weight");

    await importButton(page).click();
    await page.getByTestId('import-result').waitFor();
    // 0.1 + 0.2 is 0.3 kg, not 0.30000000000000004.
    expect(await salesOf(prefix)).toEqual({ [cheddar]: [['2026-11-14', 0.75]], [olives]: [['2026-11-14', 0.3], ['2026-11-15', -0.2]] });
  });

  it("imports a café's Square Item Sales without SKUs: the product proposed as Item + Price Point Name, changeable on the screen, a refund netted (ADR 0193)", async () => {
    const { page } = browser;
    const prefix = uniquePrefix('CAFE');
    const [flatWhite, croissant] = [`${prefix}FW`, `${prefix}CR`];
    await addProducts([`${flatWhite} Regular`, `${flatWhite} Large`, `${croissant} Regular`]);
    const line = (date: string, item: string, qty: number, pricePoint: string, money: string, event = 'Payment') => `${date},07:14:02,(UTC+11:00) Melbourne,Coffee,${item},${qty},${pricePoint},,${money},${money},${event}`;
    await chooseSalesFile(page, `${prefix.toLowerCase()}items.csv`, [
      'Date,Time,Time Zone,Category,Item,Qty,Price Point Name,SKU,Gross Sales,Net Sales,Event Type',
      line('28/11/2026', flatWhite, 1, 'Regular', '$5.00'),
      line('28/11/2026', flatWhite, 1, 'Large', '$5.80'),
      line('28/11/2026', flatWhite, 1, 'Large', '$5.80'),
      line('28/11/2026', croissant, 1, 'Regular', '$5.50'),
      line('28/11/2026', croissant, -1, 'Regular', '-$5.50', 'Refund'),
      line('29/11/2026', croissant, 1, 'Regular', '$5.50'),
    ]);
    const product = page.getByLabel('Product (product_id) · by product_code · required');
    const followedBy = page.getByLabel('Product, followed by');
    expect(await product.inputValue()).toBe('Item');
    expect(await followedBy.inputValue()).toBe('Price Point Name');
    expect(await page.getByTestId('preview').getByRole('columnheader').filter({ hasText: 'product_id' }).textContent()).toContain('← Item + Price Point Name');
    expect(await previewCell(page, 1, 'product_id').textContent()).toBe(`${flatWhite} Large`);
    expect(await page.getByTestId('preview').getByTestId('row-skipped').count()).toBe(0);
    await expectAccessible(page, "a café's Square export with Item + Price Point Name");

    // The column alone reads the item only (no product has that code: the preview says so); chosen again, the variation follows it.
    await followedBy.selectOption('');
    await expect.poll(() => previewCell(page, 1, 'product_id').locator('span').first().textContent()).toBe(flatWhite);
    expect(await previewCell(page, 1, 'product_id').getByTestId('cell-problem').textContent()).toContain(`product code ${flatWhite} does not exist.`);
    await followedBy.focus();
    await followedBy.selectOption('Price Point Name');
    await expect.poll(() => previewCell(page, 1, 'product_id').textContent()).toBe(`${flatWhite} Large`);

    await importButton(page).click();
    await page.getByTestId('import-result').waitFor();
    expect(await salesOf(prefix)).toEqual({
      [`${croissant} Regular`]: [['2026-11-28', 0], ['2026-11-29', 1]],
      [`${flatWhite} Large`]: [['2026-11-28', 2]],
      [`${flatWhite} Regular`]: [['2026-11-28', 1]],
    });
  });

  it("says before importing a scale's 0.125 kg and 250 g of a product without a unit that both are read in kilos, as the import then says", async () => {
    const { page } = browser;
    const prefix = uniquePrefix('UNIT');
    const ham = `${prefix}HAM`;
    await addProducts([ham]);
    await chooseSalesFile(page, `${prefix.toLowerCase()}weighed.csv`, ['Date,Item,Qty', `16/11/2026,${ham},0.125 kg`, `17/11/2026,${ham},250 g`]);
    expect(await previewCell(page, 1, 'quantity').textContent()).toBe('0.25');
    const sentence = (read: string) => `2 quantities of products without a unit ${read} read in the unit their cells wrote (kg): set the products' Unit on the Data screen so that files in other units are converted.`;
    expect(await page.getByTestId('preview-units-as-written').textContent()).toBe(sentence('will be'));
    await expectAccessible(page, 'quantities to be read in the unit their cells wrote');

    await importButton(page).click();
    await page.getByTestId('import-result').waitFor();
    expect(await page.getByTestId('import-result-title').textContent()).toContain(sentence('were'));
    expect(await salesOf(prefix)).toEqual({ [ham]: [['2026-11-16', 0.125], ['2026-11-17', 0.25]] });
  });

  it("imports a deli scale's file of only 1.250 and 2.450 kg: refused while the file shows no separator, read as kilos once Decimal separator is set to Point by keyboard", async () => {
    const { page } = browser;
    const prefix = uniquePrefix('KILO');
    const [cheddar, ham] = [`${prefix}CHE`, `${prefix}HAM`];
    await addProducts([cheddar, ham]);
    // No figure like 0.6 or 12.5: 2.450 could as well be a German till's 2450 pieces.
    await chooseSalesFile(page, `${prefix.toLowerCase()}scale.csv`, ['Date,Item,Description,Qty (kg)', `14/11/2026,${cheddar},Cheddar mature,1.250`, `14/11/2026,${ham},Serrano ham,2.450`]);
    expect(await page.getByLabel('Quantity (quantity) · required').inputValue()).toBe('Qty (kg)');
    const separator = page.getByLabel('Decimal separator', { exact: true });
    expect(await separator.inputValue()).toBe('');
    expect(await separator.locator('option').allTextContents()).toEqual(['Detect from the file', 'Point (1.25)', 'Comma (1,25)']);
    await page.getByText('Detected: not shown by the file').waitFor();
    const problem = (index: number) => previewCell(page, index, 'quantity').getByTestId('cell-problem');
    await problem(1).waitFor();
    expect(await problem(1).textContent()).toBe(
      "2.450 could be 2.45 or 2450: if it means 2450, the file groups thousands with points: set Decimal separator to Comma on the import screen (the mapping's decimal_separator); if it means 2.45, the file writes decimal points: set Decimal separator to Point on the import screen (the mapping's decimal_separator).",
    );
    expect(await problem(0).textContent()).toContain('1.250 could be 1.25 or 1250');
    await expectAccessible(page, 'a file of kilos that shows no decimal separator');

    await separator.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => previewRows(page).getByTestId('cell-problem').count()).toBe(0);
    expect(await separator.inputValue()).toBe('.');
    expect(await separator.locator('option:checked').textContent()).toBe('Point (1.25)');
    expect(await previewCell(page, 1, 'quantity').textContent()).toBe('2.45');
    expect(await page.getByTestId('preview-summary').textContent()).toBe('Every previewed value fits its column.');
    await expectAccessible(page, 'the decimal point chosen');

    await importButton(page).click();
    await page.getByTestId('import-result').waitFor();
    expect(await salesOf(prefix)).toEqual({ [cheddar]: [['2026-11-14', 1.25]], [ham]: [['2026-11-14', 2.45]] });
  });

  it("imports a garden shop's stock count without a date column: Same date for all lines, the day chosen, the counts stored on it, says those older than the product list's stock change nothing, and undoes it from its answer by keyboard", async () => {
    const { page } = browser;
    const prefix = uniquePrefix('COUNT');
    await addProducts([`${prefix}1`], 24);
    await addProducts([`${prefix}2`]);
    const path = await tempFile(`${prefix.toLowerCase()}inventur.csv`, `Artikelnummer;Bezeichnung;Bestand\n${prefix}1;Kompost 40l;12\n${prefix}2;Rindenmulch;3\n`);
    await openSettings(page);
    await waitForDefaultMapping(page);
    // Shop words, not table and mapping names; the API's values stay.
    expect(await mappingSelect(page).locator('option:checked').textContent()).toBe('Product catalogue CSV');
    const entity = page.getByLabel('Import into', { exact: true });
    expect(await entity.locator('option').allTextContents()).toEqual(expect.arrayContaining(['Products', 'Sales', 'Stock counts', 'Deliveries']));
    await entity.selectOption({ label: 'Stock counts' });
    expect(await entity.inputValue()).toBe('stock_snapshots');
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);
    await previewRows(page).nth(1).waitFor();
    const date = page.getByLabel('Date (date) · required');
    expect(await date.inputValue()).toBe('');
    expect(await importButton(page).isDisabled()).toBe(true);

    await date.selectOption({ label: 'Same date for all lines' });
    const day = page.getByLabel('Date of every line', { exact: false });
    const today = await page.evaluate(() => {
      const now = new Date();
      return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
    });
    expect(await day.inputValue()).toBe(today);
    await expect.poll(() => previewCell(page, 0, 'date').textContent()).toBe(today);
    await day.fill('2026-11-30');
    await expect.poll(() => previewCell(page, 1, 'date').textContent()).toBe('2026-11-30');
    expect(await previewCell(page, 0, 'stock_level').textContent()).toBe('12');
    expect(await importButton(page).isDisabled()).toBe(false);
    await expectAccessible(page, 'a stock count given one date for all lines');

    expect(await page.getByTestId('mapping-builder').getByText("Map the file's columns onto stock counts").count()).toBe(1);
    await importButton(page).click();
    await page.getByTestId('import-result').waitFor();
    // The product list's stock of today stays on hand for the first product; the second had none.
    expect(await page.getByTestId('import-notice').textContent()).toMatch(/^1 of 2 counts is older than the stock recorded on \d{1,2} \w{3} \d{4} \(from the product list or the Data screen\); on hand stays as recorded then\. Count again or import the counts with today's date\.$/);
    await expectAccessible(page, 'a stock count result with a notice');
    expect(await stockCounts(prefix)).toEqual([
      [`${prefix}1`, today, 24],
      [`${prefix}1`, '2026-11-30', 12],
      [`${prefix}2`, '2026-11-30', 3],
    ]);

    // The wrong day after all: undone from the import's answer by keyboard, saying in numbers what goes.
    const fileName = `${prefix.toLowerCase()}inventur.csv`;
    await undoByKeyboard(
      page,
      page.getByTestId('import-result').getByRole('button', { name: `Undo the import of ${fileName}` }),
      fileName,
      'Remove the 2 stock counts this file added (30 Nov 2026). On hand follows the counts as they will be, and the forecasts are made again.',
      `Undid '${fileName}' (30 Nov 2026): removed the 2 counts it added.`,
    );
    // Its Undo button is gone: the focus goes to the answer's title.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('import-result-title');
    await logRow(page, fileName).getByTestId('log-undone').waitFor();
    await expectAccessible(page, 'a stock count import undone');
    expect(await stockCounts(prefix)).toEqual([[`${prefix}1`, today, 24]]);
  });

  it("names the product an import creates for a web shop's unknown code by its line, chosen by keyboard", async () => {
    const { page } = browser;
    const prefix = uniquePrefix('SHOP');
    // The code is no product's, so its sales go to the product the import creates (removed afterwards).
    await chooseShopExport(page, prefix, [`#1001,anna@example.com,paid,2026-11-28 09:15:02 -0500,2,Garden hose,12.50,${prefix}1`, '#1001,,,2026-11-28 09:15:02 -0500,1,Gift card,25.00,']);
    await page.getByRole('checkbox', { name: 'Skip lines without a product code' }).check();
    await previewRows(page).nth(1).getByTestId('row-skipped').waitFor();

    // The code is no product's: with the option, the product is created named by its line, chosen by keyboard.
    await page.getByRole('checkbox', { name: 'Create products for unknown codes' }).focus();
    await page.keyboard.press('Space');
    const nameFrom = page.getByLabel('Name new products from');
    await expect.poll(() => nameFrom.inputValue()).toBe('Lineitem name');
    expect(await page.getByLabel('Category of new products from').inputValue()).toBe('');
    await expect.poll(() => page.getByTestId('new-products-preview').textContent()).toBe(`1 new product would be created: ${prefix}1 Garden hose`);
    await nameFrom.focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.querySelector(`label[for="${document.activeElement?.id}"]`)?.textContent)).toBe('Category of new products from');
    await expectAccessible(page, 'the columns new products are named from');
    await importButton(page).click();
    const result = page.getByTestId('import-result');
    await result.waitFor();
    expect(await result.textContent()).toContain(`1 new product created for unknown codes: ${prefix}1 Garden hose.`);
    expect(await result.getByTestId('result-created').textContent()).toBe('1');
    expect((await productsWithPrefix(prefix)).map((row) => [row.product_code, row.name])).toEqual([[`${prefix}1`, 'Garden hose']]);
  });

  it("asks what a German shop's delivery statuses mean, keeps the answers in the saved mapping, and imports them as the allowed values", async () => {
    const { page } = browser;
    const prefix = uniquePrefix('LIEF');
    await addProducts([`${prefix}1`, `${prefix}2`]);
    const fileName = `${prefix.toLowerCase()}lieferungen.csv`;
    const path = await tempFile(fileName, ['Artikel;Liefertermin;Menge;Status', `${prefix}1;14.06.2027;10;geplant`, `${prefix}2;15.06.2027;5;Erhalten`, ''].join('\n'));
    await openSettings(page);
    await waitForDefaultMapping(page);
    await page.getByLabel('Import into', { exact: true }).selectOption('deliveries');
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);
    await previewRows(page).nth(1).waitFor();
    expect(await page.getByLabel('Status (status)').inputValue()).toBe('Status');
    expect(await previewCell(page, 0, 'status').textContent()).toContain('say in the mapping what geplant means (geplant → one of those values)');

    const editor = page.getByRole('region', { name: 'What does each value mean?' });
    await editor.waitFor();
    await expectAccessible(page, 'values outside the choices');
    await editor.getByLabel('“geplant” in Status means').selectOption('scheduled');
    await editor.getByLabel('“Erhalten” in Status means').selectOption('received');
    // Apply by keyboard: the button is reached and pressed without a pointer.
    await editor.getByRole('button', { name: 'Apply' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => previewCell(page, 0, 'status').textContent()).toBe('scheduled');
    expect(await previewCell(page, 1, 'status').textContent()).toBe('received');
    expect(await editor.count()).toBe(0);

    const mappingName = `kasse ${prefix.toLowerCase()}`;
    await page.getByLabel('Save this mapping as').fill(mappingName);
    await page.getByRole('button', { name: 'Save mapping' }).click();
    await page.getByTestId('mapping-saved').waitFor();
    const config = (await (await fetch(`${inject('baseUrl')}/api/yaml/config/`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { content: { mappings: Record<string, { entities: Record<string, { value_maps?: unknown }> }> } };
    expect(config.content.mappings[mappingName]?.entities['deliveries']?.value_maps).toEqual({ status: { geplant: 'scheduled', Erhalten: 'received' } });

    await importButton(page).click();
    await page.getByTestId('import-result').waitFor();
    expect(await page.getByTestId('result-inserted').textContent()).toBe('2');
  });

  it("asks what a yes-or-no column's own word means, answered Yes by keyboard, and imports it as true (ADR 0200's amendment)", async () => {
    const { page } = browser;
    const prefix = uniquePrefix('YN');
    imported.push(prefix);
    const path = await tempFile(`${prefix.toLowerCase()}artikel.csv`, ['SKU,Name,Not stocked', `${prefix}1,Delivery,yes`, `${prefix}2,Spade,no`, `${prefix}3,Spade hire,Rental`, ''].join('\n'));
    await openSettings(page);
    await waitForDefaultMapping(page);
    await page.getByLabel('Import into', { exact: true }).selectOption('products');
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);
    await previewRows(page).nth(2).waitFor();
    expect(await page.getByLabel('Not stocked (a service or fee) (not_stocked)').inputValue()).toBe('Not stocked');
    expect(await previewCell(page, 2, 'not_stocked').textContent()).toContain('say in the mapping what Rental means (Rental → true or false)');

    const editor = page.getByRole('region', { name: 'What does each value mean?' });
    await editor.waitFor();
    await expectAccessible(page, "a yes-or-no column's own word");
    // Chosen and applied by keyboard only.
    const rental = editor.getByLabel('“Rental” in Not stocked (a service or fee) means');
    await rental.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => rental.inputValue()).toBe('true');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Apply');
    await page.keyboard.press('Enter');
    await expect.poll(() => editor.count()).toBe(0);
    // The panel goes as soon as the mapping holds the answer; the preview is read again after it.
    await expect.poll(() => previewCell(page, 2, 'not_stocked').textContent()).not.toContain('Rental');

    await importButton(page).click();
    await page.getByTestId('import-result').waitFor();
    const filters = encodeURIComponent(JSON.stringify({ product_code: { contains: prefix } }));
    const answer = await fetch(`${inject('baseUrl')}/api/records/tables/products/data/?page=1&page_size=10&sort_by=product_code&filters_json=${filters}`, { headers: { Authorization: `Bearer ${token}` } });
    const rows = ((await answer.json()) as { results: { product_code: string; not_stocked: boolean | null }[] }).results;
    expect(rows.map((row) => [row.product_code, row.not_stocked])).toEqual([[`${prefix}1`, true], [`${prefix}2`, false], [`${prefix}3`, true]]);
  });

  it("finds a till's column names below its title, and takes another row chosen by keyboard", async () => {
    const { page } = browser;
    const prefix = uniquePrefix('ROW');
    const titled = await tempFile(`${prefix.toLowerCase()}inventur.csv`, ['Inventur 30.11.2026;;', '', 'Artikelnr.;Bezeichnung;Bestand', `${prefix}1;Rosenschere;7`, ''].join('\n'));
    await openSettings(page);
    await waitForDefaultMapping(page);
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(titled);
    const headerRow = page.getByLabel('Column names are on row');
    await expect.poll(() => headerRow.inputValue()).toBe('3');
    await page.getByText('Rows above them are not imported: row 1 “Inventur 30.11.2026”').waitFor();
    expect(await page.getByLabel('Product code (product_code) · required').inputValue()).toBe('Artikelnr.');
    await expectAccessible(page, 'column names found below a title');

    // A branch line fills as many cells as half the names: the file's first row is kept, and the clerk says row 2.
    const branch = await tempFile(`${prefix.toLowerCase()}filiale.csv`, ['Filiale;Nord;', 'Artikelnr.;Bezeichnung;Bestand', `${prefix}2;Gießkanne 10 l;3`, `${prefix}3;Pflanzkübel;5`, ''].join('\n'));
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(branch);
    await expect.poll(() => headerRow.inputValue()).toBe('1');
    await headerRow.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.getByLabel('Product code (product_code) · required').inputValue()).toBe('Artikelnr.');
    expect(await headerRow.inputValue()).toBe('2');
    // Read afresh from row 2 with the last preview shown meanwhile: the select keeps the focus.
    expect(await headerRow.evaluate((select) => select === document.activeElement)).toBe(true);
    await page.getByText('Rows above them are not imported: row 1 “Filiale · Nord”').waitFor();
    await previewRows(page).nth(1).waitFor();
    expect(await previewCell(page, 0, 'product_code').textContent()).toBe(`${prefix}2`);
    await expectAccessible(page, 'column names on a row chosen');

    await importButton(page).click();
    await page.getByTestId('import-result').waitFor();
    expect((await productsWithPrefix(prefix)).map((row) => [row.product_code, row.name, row.current_stock])).toEqual([
      [`${prefix}2`, 'Gießkanne 10 l', 3],
      [`${prefix}3`, 'Pflanzkübel', 5],
    ]);
  });

  it("finds a till's column names below its branch and date labels and a blank line", async () => {
    const { page } = browser;
    const prefix = uniquePrefix('LBL');
    const till = await tempFile(`${prefix.toLowerCase()}kasse.csv`, ['Filiale;Nord', 'Datum;30.11.2026', '', 'Artikelnummer;Menge', `${prefix}1;3`, `${prefix}2;12`, ''].join('\n'));
    await openSettings(page);
    await waitForDefaultMapping(page);
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(till);
    const headerRow = page.getByLabel('Column names are on row');
    await expect.poll(() => headerRow.inputValue()).toBe('4');
    expect(await headerRow.locator('option:checked').textContent()).toBe('4 (found in the file)');
    await page.getByText('Rows above them are not imported: row 1 “Filiale · Nord”, row 2 “Datum · 30.11.2026”').waitFor();
    expect(await page.getByLabel('Product code (product_code) · required').inputValue()).toBe('Artikelnummer');
  });

  it("previews a till's product list over 256 KiB with £ costs: the numbers read, no warning for the cut head", async () => {
    const { page } = browser;
    const prefix = uniquePrefix('GBP');
    const lines = Array.from({ length: 6000 }, (_, at) => `${prefix}${at},Bedding plant ${'x'.repeat(at % 17)},Bedding,${at % 40},£${(at % 9) + 1}.50,14`);
    const content = ['product_code,name,category,current_stock,unit_cost,lead_time_days', ...lines, ''].join('\n');
    expect(Buffer.byteLength(content)).toBeGreaterThan(256 * 1024);
    const path = await tempFile(`${prefix.toLowerCase()}hollins-products.csv`, content);
    await openSettings(page);
    await waitForDefaultMapping(page);
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);
    await page.getByTestId('preview-summary').filter({ hasText: 'Every previewed value fits its column.' }).waitFor();
    expect(await previewCell(page, 0, 'unit_cost').textContent()).toBe('1.50');
    expect(await page.getByTestId('preview-warning').count()).toBe(0);
    await expectAccessible(page, 'a large product list with pound signs previewed');
  });

  it("warns before a second till's file replaces the first till's sales under the same mapping, and imports it under a new mapping saved by keyboard: the sales add up", async () => {
    const { page } = browser;
    // Till 1's file, imported under the mapping.
    const { prefix, cups, lids, mappingName, quantities } = await tillOneImported('TILL');
    const path = await tempFile(`${prefix.toLowerCase()}till-2.csv`, `Code,Day,Qty\n${cups},2026-11-01,4\n${lids},2026-11-02,2\n`);
    await openSettings(page);
    await chooseMapping(page, mappingName);
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);
    const warning = page.getByTestId('replaces-sales');
    await warning.waitFor();
    expect(await warning.getByTestId('replaces-sales-message').textContent()).toContain(`The mapping '${mappingName}' already imported sales for 1–2 Nov 2026 (2 product-days), days this file holds too`);
    await expectAccessible(page, 'replaces sales warning');
    const newName = warning.getByLabel('New mapping name (for another till)', { exact: false });
    expect(await newName.inputValue()).toBe(`${mappingName} (2)`);
    // By keyboard: the name field, Tab to Save as a new mapping, Enter; the focus lands on what it did.
    await newName.focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const saved = page.getByTestId('replaces-sales-saved');
    await saved.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('replaces-sales-saved');
    expect(await saved.textContent()).toBe(`Saved as '${mappingName} (2)': importing the file now keeps its sales beside those imported under '${mappingName}', adding up.`);
    expect(await mappingSelect(page).inputValue()).toBe(`${mappingName} (2)`);

    await importButton(page).click();
    const title = page.getByTestId('import-result-title');
    await title.waitFor();
    expect(await title.textContent()).toContain(`Added to the sales other sources stored for 2 of those product-days (the file import '${mappingName}').`);
    expect(await title.textContent()).not.toContain('already held');
    // Both tills' sales kept: 3 + 4 and 1 + 2.
    expect(await quantities(cups)).toEqual([['2026-11-01', 7]]);
    expect(await quantities(lids)).toEqual([['2026-11-02', 3]]);
  });

  it("undoes till 2's file imported under till 1's mapping from the Import log, by keyboard: till 1's totals back, the day only till 2 held gone", async () => {
    const { page } = browser;
    const { prefix, cups, lids, mappingName, quantities } = await tillOneImported('UNDO');

    // Till 2's file under the same mapping, the warning passed over: it replaces till 1's totals.
    const fileName = `${prefix.toLowerCase()}till-2.csv`;
    const path = await tempFile(fileName, `Code,Day,Qty\n${cups},2026-11-01,4\n${lids},2026-11-02,2\n${lids},2026-11-14,5\n`);
    await openSettings(page);
    await chooseMapping(page, mappingName);
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);
    await page.getByTestId('replaces-sales').waitFor();
    await importButton(page).click();
    await page.getByTestId('import-result-title').filter({ hasText: 'already held sales' }).waitFor();
    // The answer offers the undo too; here it is taken from the log.
    expect(await page.getByTestId('import-result').getByRole('button', { name: `Undo the import of ${fileName}` }).count()).toBe(1);
    expect(await quantities(lids)).toEqual([['2026-11-02', 2], ['2026-11-14', 5]]);

    // The log's Undo, labelled with the file, by keyboard; the dialog says what it will do in numbers.
    await undoByKeyboard(
      page,
      logRow(page, fileName).getByRole('button', { name: `Undo the import of ${fileName}` }),
      fileName,
      'Put back the sales of 3 product-days (1–14 Nov 2026) as they were before this file.',
      `Put back the sales of 3 product-days (1–14 Nov 2026) as they were before '${fileName}'; 1 product-day only this file held is gone.`,
    );
    // Its Undo button is gone: the focus goes to the log's title, not to the page's start.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('import-log-title');
    await logRow(page, fileName).getByTestId('log-undone').waitFor();
    expect(await logRow(page, fileName).getByRole('button', { name: /^Undo/ }).count()).toBe(0);
    await expectAccessible(page, 'an import undone');

    // Till 1's totals, exactly: 3 and 1, and no 14 Nov.
    expect(await quantities(cups)).toEqual([['2026-11-01', 3]]);
    expect(await quantities(lids)).toEqual([['2026-11-02', 1]]);
  });

  it('keeps Import disabled for a file it cannot read, with the reason on screen', async () => {
    const { page } = browser;
    const path = await tempFile('report.pdf', '%PDF-1.4\n1 0 obj << >> endobj\n');
    await openSettings(page);
    await waitForDefaultMapping(page);
    await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);
    const failure = page.getByTestId('import-error');
    await failure.getByTestId('import-error-detail').filter({ hasText: 'Upload a .csv, .json or .xlsx file.' }).waitFor();
    expect(await importButton(page).isDisabled()).toBe(true);
    await expectAccessible(page, 'a file that cannot be read');
  });
});
