import { afterEach, describe, expect, it, vi } from 'vitest';
import { CatalogueCache } from './catalogue-cache.ts';
import type { ColumnRules } from './column-minimums.ts';
import type { CatalogueEntry } from './repo.ts';

const rules: ColumnRules = { minimums: new Map([['unit_cost', { min: 0, inclusive: true }]]), notNull: new Set(['unit_cost']), facts: [] };
const entry = { name: 'products', encoded_name: 'products' } as CatalogueEntry;

describe('the catalogue cache', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps a table column rules by its encoded name until a catalogue change clears them', () => {
    const cache = new CatalogueCache();
    cache.set('products', entry);
    cache.keepColumnRules('products', rules);
    expect(cache.columnRules('products')).toBe(rules);
    expect(cache.columnRules('sales')).toBeUndefined();
    cache.clear();
    expect(cache.columnRules('products')).toBeUndefined();
    expect(cache.get('products')).toBeUndefined();
  });

  it('forgets column rules after a few seconds, so another instance’s change is seen', () => {
    vi.useFakeTimers();
    const cache = new CatalogueCache();
    cache.keepColumnRules('products', rules);
    vi.advanceTimersByTime(4000);
    expect(cache.columnRules('products')).toBe(rules);
    vi.advanceTimersByTime(2000);
    expect(cache.columnRules('products')).toBeUndefined();
  });
});
