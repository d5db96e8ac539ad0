import { describe, expect, it } from 'vitest';
import { paramsOfNextLink, tablePath } from './tables.ts';

describe('tables API helpers', () => {
  it('URL-encodes table names in paths', () => {
    expect(tablePath('Sales #1')).toBe('/records/tables/Sales%20%231');
    expect(tablePath('sales$20$$23$1')).toBe('/records/tables/sales%2420%24%2423%241');
  });

  it("reads a next link's parameters (keyset cursor included)", () => {
    const next = '/api/records/tables/sales/data/?page=3&page_size=50&sort_dir=desc&sort_by=date&filters_json=%7B%22quantity%22%3A%225%22%7D&after=WzIsMl0';
    expect(paramsOfNextLink(next)).toEqual({ page: 3, page_size: 50, sort_dir: 'desc', sort_by: 'date', filters_json: '{"quantity":"5"}', after: 'WzIsMl0' });
    expect(paramsOfNextLink('/api/records/tables/x/data/?page=2&page_size=10&sort_dir=asc')).toEqual({ page: 2, page_size: 10, sort_dir: 'asc' });
  });
});
