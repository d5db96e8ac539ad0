// @vitest-environment node
// The import preview: dotted paths read as the server reads them, records mapped onto the mapping's
// targets, hints for values the server refuses, CSV through Papa (header, empty lines skipped, BOM)
// and JSON (an array or the first array of an object), only what the preview needs read.
import { describe, expect, it } from 'vitest';
import type { TableColumn } from '@stockwise/contract';
import { buildPreview, CSV_PREVIEW_BYTES, entityFieldMappings, hintFor, JSON_PREVIEW_MAX_BYTES, jsonRecords, mapRecord, parseCsvPreview, PreviewError, readPreviewRecords } from './preview.ts';

const column = (key: string, type: TableColumn['type'], extra: Partial<TableColumn> = {}): TableColumn => ({ key, label: key, type, read_only: false, ...extra });
const productColumns: TableColumn[] = [
  column('product_code', 'CharField', { max_length: 64, required: true }),
  column('name', 'CharField', { max_length: 200, required: true }),
  column('category', 'CharField', { max_length: 100 }),
  column('current_stock', 'IntegerField'),
  column('unit_cost', 'DecimalField', { max_digits: 12, decimal_places: 2 }),
  column('lead_time_days', 'IntegerField'),
];
const shopMapping = { product_code: 'sku', name: 'title', category: 'category.name', current_stock: 'stock.on_hand', unit_cost: 'pricing.unit_cost', lead_time_days: 'supplier.lead_time_days' };

describe('mapping records', () => {
  it('maps a nested record onto the targets, missing paths as undefined', () => {
    const mapped = mapRecord({ sku: 'S-9', title: 'Hose', category: { name: 'Garden' }, stock: { on_hand: 4 }, pricing: { unit_cost: 2.5 } }, shopMapping);
    expect(mapped).toEqual({ product_code: 'S-9', name: 'Hose', category: 'Garden', current_stock: 4, unit_cost: 2.5, lead_time_days: undefined });
    expect(Object.keys(mapped)).toEqual(Object.keys(shopMapping));
  });
  it('finds the entity mapping of the products entity, or null', () => {
    expect(entityFieldMappings({ entities: { products: { field_mappings: shopMapping } } }, 'products')).toBe(shopMapping);
    expect(entityFieldMappings({ entities: { sales: { field_mappings: { quantity: 'q' } } } }, 'products')).toBeNull();
    expect(entityFieldMappings(null, 'products')).toBeNull();
  });
  it('builds at most five preview rows with columns in mapping order and labels from the table', () => {
    const records = Array.from({ length: 8 }, (_, i) => ({ sku: `S-${i}`, title: `T${i}`, category: { name: 'C' }, stock: { on_hand: i }, pricing: { unit_cost: 1 }, supplier: { lead_time_days: 3 } }));
    const preview = buildPreview('json', records, shopMapping, productColumns);
    expect(preview.rows).toHaveLength(5);
    expect(preview.rows.map((row) => row.row)).toEqual([1, 2, 3, 4, 5]);
    expect(preview.columns.map((c) => `${c.target}<-${c.source}`)).toEqual(Object.entries(shopMapping).map(([t, s]) => `${t}<-${s}`));
    expect(preview.rows.every((row) => Object.keys(row.hints).length === 0)).toBe(true);
  });
  it('marks targets that are not columns of the table, without hints for them', () => {
    const preview = buildPreview('csv', [{ a: '1' }], { product_code: 'a', colour: 'a' }, productColumns);
    expect(preview.columns.map((c) => c.known)).toEqual([true, false]);
    expect(preview.rows[0]!.hints).toEqual({});
  });
});

describe('hints (what the server will refuse)', () => {
  const [code, name, category, stock, cost] = productColumns as [TableColumn, TableColumn, TableColumn, TableColumn, TableColumn];
  it('missing required values', () => {
    expect(hintFor(code, undefined)).toEqual({ code: 'required' });
    expect(hintFor(name, '')).toEqual({ code: 'required' });
    expect(hintFor(name, null)).toEqual({ code: 'required' });
    expect(hintFor(category, '')).toBeNull();
    expect(hintFor(stock, '')).toBeNull();
  });
  it('numbers: whole numbers for IntegerField, numbers for DecimalField, numeric strings allowed', () => {
    expect(hintFor(stock, '12')).toBeNull();
    expect(hintFor(stock, 12)).toBeNull();
    expect(hintFor(stock, ' -3 ')).toBeNull();
    expect(hintFor(stock, 'twelve')).toEqual({ code: 'notInteger' });
    expect(hintFor(stock, '1.5')).toEqual({ code: 'notInteger' });
    expect(hintFor(stock, 1.5)).toEqual({ code: 'notInteger' });
    expect(hintFor(cost, '2.50')).toBeNull();
    expect(hintFor(cost, 2.5)).toBeNull();
    expect(hintFor(cost, 'cheap')).toEqual({ code: 'notNumber' });
    expect(hintFor(cost, '1.234')).toEqual({ code: 'tooManyDecimals', places: 2 });
    expect(hintFor(cost, {})).toEqual({ code: 'notNumber' });
  });
  it('text: too long for max_length, not text when a number or object', () => {
    expect(hintFor(code, 'x'.repeat(64))).toBeNull();
    expect(hintFor(code, 'x'.repeat(65))).toEqual({ code: 'tooLong', max: 64 });
    expect(hintFor(column('notes', 'CharField'), 'x'.repeat(256))).toEqual({ code: 'tooLong', max: 255 });
    expect(hintFor(code, 123)).toEqual({ code: 'notText' });
    expect(hintFor(category, { name: 'x' })).toEqual({ code: 'notText' });
  });
  it('dates and booleans', () => {
    expect(hintFor(column('d', 'DateField'), '2026-01-31')).toBeNull();
    expect(hintFor(column('d', 'DateField'), '31/01/2026')).toEqual({ code: 'notDate' });
    expect(hintFor(column('b', 'BooleanField'), 'true')).toBeNull();
    expect(hintFor(column('b', 'BooleanField'), 'yes')).toEqual({ code: 'notBoolean' });
  });
  it('puts the hints on the preview cells', () => {
    const preview = buildPreview('csv', [{ product_code: 'P-1', name: '', current_stock: 'lots', unit_cost: '1' }], { product_code: 'product_code', name: 'name', current_stock: 'current_stock', unit_cost: 'unit_cost' }, productColumns);
    expect(preview.rows[0]!.hints).toEqual({ name: { code: 'required' }, current_stock: { code: 'notInteger' } });
  });
  it('gives no hints without the table columns', () => {
    const preview = buildPreview('csv', [{ a: '' }], { product_code: 'a' }, []);
    expect(preview.rows[0]!.hints).toEqual({});
    expect(preview.columns[0]!.known).toBe(true);
  });
});

describe('reading files', () => {
  it('CSV: header row, empty lines skipped, BOM dropped, five records', () => {
    const text = '\uFEFFproduct_code,name\n\nP-1,One\n\nP-2,"Two, with comma"\r\nP-3,Three\nP-4,Four\nP-5,Five\nP-6,Six\n';
    const { records, warnings } = parseCsvPreview(text);
    expect(records).toEqual([
      { product_code: 'P-1', name: 'One' },
      { product_code: 'P-2', name: 'Two, with comma' },
      { product_code: 'P-3', name: 'Three' },
      { product_code: 'P-4', name: 'Four' },
      { product_code: 'P-5', name: 'Five' },
    ]);
    expect(warnings).toEqual([]);
  });
  it('CSV: a row with too few fields is a warning', () => {
    const { warnings } = parseCsvPreview('a,b\n1\n2,3\n');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.row).toBe(1);
  });
  it('JSON: an array, or the first array of the top-level object', () => {
    expect(jsonRecords([{ a: 1 }])).toEqual([{ a: 1 }]);
    expect(jsonRecords({ meta: { n: 1 }, products: [{ a: 2 }] })).toEqual([{ a: 2 }]);
    expect(() => jsonRecords({ a: 1 })).toThrow(PreviewError);
  });
  it('reads a CSV file through the slice and a JSON file whole', async () => {
    const csv = await readPreviewRecords(new File(['code,name\nA,B\n'], 'p.csv', { type: 'text/csv' }));
    expect(csv).toEqual({ kind: 'csv', records: [{ code: 'A', name: 'B' }], warnings: [] });
    const json = await readPreviewRecords(new File([JSON.stringify({ items: Array.from({ length: 9 }, (_, i) => ({ i })) })], 'p.json'));
    expect(json).toEqual({ kind: 'json', records: [0, 1, 2, 3, 4].map((i) => ({ i })), warnings: [] });
  });
  it('a large CSV is read only as far as the slice; a cut last line is not reported', async () => {
    const line = `P-0001,${'n'.repeat(90)}\n`;
    const big = 'product_code,name\n' + line.repeat(Math.ceil((CSV_PREVIEW_BYTES * 1.5) / line.length));
    const source = await readPreviewRecords(new File([big], 'big.csv'));
    expect('records' in source && source.records).toHaveLength(5);
  });
  it('a JSON file over the limit gets no preview', async () => {
    const huge = new File([new Uint8Array(JSON_PREVIEW_MAX_BYTES + 1)], 'huge.json');
    expect(await readPreviewRecords(huge)).toEqual({ kind: 'json', tooLarge: true });
  });
  it('bad JSON and unknown kinds are preview errors', async () => {
    await expect(readPreviewRecords(new File(['[{"a":'], 'bad.json'))).rejects.toMatchObject({ reason: 'format' });
    await expect(readPreviewRecords(new File(['x'], 'notes.txt'))).rejects.toMatchObject({ reason: 'kind' });
  });
  it('a file that cannot be read is a read error', async () => {
    const unreadable = new File(['[]'], 'gone.json');
    Object.defineProperty(unreadable, 'text', { value: () => Promise.reject(new Error('NotReadableError')) });
    await expect(readPreviewRecords(unreadable)).rejects.toMatchObject({ reason: 'read' });
  });
});
