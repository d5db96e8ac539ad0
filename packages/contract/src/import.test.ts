import { describe, expect, it } from 'vitest';
import { entityInSentence, entityLabel, readMappedPath } from './import.ts';

describe('readMappedPath', () => {
  const record = { sku: 'A-1', category: { name: 'Garden' }, prices: [{ amount: 3.5 }, { amount: 4 }], 'stock.on_hand': 'flat', stock: { on_hand: 7 }, nothing: null };
  it('reads nested objects and array indexes', () => {
    expect(readMappedPath(record, 'category.name')).toBe('Garden');
    expect(readMappedPath(record, 'prices.0.amount')).toBe(3.5);
    expect(readMappedPath(record, 'prices.1.amount')).toBe(4);
    expect(readMappedPath(record, 'sku')).toBe('A-1');
    expect(readMappedPath(record, 'nothing')).toBeNull();
  });
  it('gives undefined for a path that is not there', () => {
    expect(readMappedPath(record, 'prices.5.amount')).toBeUndefined();
    expect(readMappedPath(record, 'category.name.first')).toBeUndefined();
    expect(readMappedPath(record, 'prices.x')).toBeUndefined();
    expect(readMappedPath('text', 'a')).toBeUndefined();
    expect(readMappedPath(record, 'toString')).toBeUndefined();
  });
  it('prefers a flat key that is the whole path (a CSV header with dots)', () => {
    expect(readMappedPath(record, 'stock.on_hand')).toBe('flat');
  });
});

describe('entityLabel', () => {
  it("names the shipped entities in a shop's words and another by its name made readable, never by an object's own keys", () => {
    expect(['products', 'sales', 'stock_snapshots', 'deliveries', 'supplier_returns', 'price_list_csv', 'constructor'].map(entityLabel)).toEqual([
      'Products',
      'Sales',
      'Stock counts',
      'Deliveries',
      'Supplier returns',
      'Price list CSV',
      'Constructor',
    ]);
    expect(entityInSentence('stock_snapshots')).toBe('stock counts');
  });
});
