// A mapping's fill_down_by read by the mappers every source shares (ADR 0195 F3): a file's cells,
// a record's paths (integration runs, batch after batch), the keys never filled.
import { describe, expect, it } from 'vitest';
import { FillDown, fillDownSpec, proposeFillDown } from './fill-down.ts';
import { csvMapper, recordMapper } from './mapping.ts';

describe('fill_down_by', () => {
  const spec = { fill: fillDownSpec({ fill_down_by: 'Handle' }, ['product_code']), bracketed: null };

  it("fills a blank cell from the nearest line above with the same Handle, the parts of a joined field each, never the key", () => {
    const header = ['Handle', 'Title', 'Option1 Value', 'Vendor', 'Variant SKU'];
    const map = csvMapper(header, { product_code: 'Variant SKU', name: ['Title', 'Option1 Value'], supplier: 'Vendor' }, spec);
    expect(map(['shirt', 'Linen Shirt', 'S', 'Nordic', 'LS-S'])).toEqual({ product_code: 'LS-S', name: 'Linen Shirt S', supplier: 'Nordic' });
    expect(map(['dress', 'Tea Dress', '8', 'Hartley', 'TD-8'])).toEqual({ product_code: 'TD-8', name: 'Tea Dress 8', supplier: 'Hartley' });
    // Not next to its first line: still the shirt's.
    expect(map(['shirt', '', 'M', '', 'LS-M'])).toEqual({ product_code: 'LS-M', name: 'Linen Shirt M', supplier: 'Nordic' });
    // An image-only line keeps its blank SKU (skipped, not a second LS-M).
    expect(map(['shirt', '', '', '', ''])).toMatchObject({ product_code: '' });
    // A blank Handle fills nothing.
    expect(map(['', '', 'L', '', 'X-L'])).toEqual({ product_code: 'X-L', name: 'L', supplier: '' });
    // Without the setting, blank stays blank.
    expect(csvMapper(header, { name: 'Title' })(['shirt', '', 'M', '', 'LS-M'])).toEqual({ name: '' });
  });

  it("fills a record's paths across an integration run's batches, its state kept", () => {
    const state = new FillDown();
    const paths = { product_code: 'sku', supplier: 'product.vendor' };
    const byHandle = { fill: fillDownSpec({ fill_down_by: 'product.handle' }, ['product_code']), bracketed: null };
    recordMapper(paths, byHandle, state)({ sku: 'A-1', product: { handle: 'a', vendor: 'Acme' } });
    const next = recordMapper(paths, byHandle, state);
    expect(next({ sku: 'A-2', product: { handle: 'a', vendor: null } })).toEqual({ product_code: 'A-2', supplier: 'Acme' });
  });

  it('proposes a column that repeats while the name is blank, not one that repeats regardless, nor an order number column of lines all named', () => {
    const header = ['Handle', 'Title', 'Grams', 'Price'];
    const lines = [
      ['shirt', 'Linen Shirt', '350', '55'],
      ['shirt', '', '350', '55'],
      ['dress', 'Tea Dress', '350', '72'],
      ['dress', '', '350', '72'],
    ].map((cells) => (column: string) => cells[header.indexOf(column)]);
    expect(proposeFillDown(header, ['Title'], lines)).toBe('Handle');
    expect(proposeFillDown(header.slice(1), ['Title'], lines)).toBeNull();
    const orders = [['#1001', 'Shirt'], ['#1001', 'Dress'], ['#1002', 'Shirt']].map((cells) => (column: string) => cells[['Name', 'Lineitem name'].indexOf(column)]);
    expect(proposeFillDown(['Name', 'Lineitem name'], ['Lineitem name'], orders)).toBeNull();
  });
});
