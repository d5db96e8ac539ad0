// A mapping's code_in_brackets read by the mappers every source shares (ADR 0198): a file's cells and
// a record's paths alike give the code in the brackets, and a new product's name without them.
import { describe, expect, it } from 'vitest';
import { csvMapper, recordMapper } from './mapping.ts';

const reading = { fill: null, bracketed: { code: 'product_id', names: ['new_products.name'] } };

describe('code_in_brackets in the mappers', () => {
  it("reads a file's code in the brackets and drops the line's own [CODE] from a new product's name", () => {
    const map = csvMapper(['Product', 'Description', 'Quantity'], { product_id: 'Product', 'new_products.name': 'Description', quantity: 'Quantity' }, reading);
    expect(map(['[FURN_7800] Desk Combination', '[FURN_7800] Desk Combination', '2.00'])).toEqual({ product_id: 'FURN_7800', 'new_products.name': 'Desk Combination', quantity: '2.00' });
    // Brackets holding another text than the line's code are the name as written.
    expect(map(['[FURN_6666] Acoustic Bloc Screens', '[Promo] Acoustic Bloc Screens', '1.00'])).toMatchObject({ product_id: 'FURN_6666', 'new_products.name': '[Promo] Acoustic Bloc Screens' });
    // A product without a code: a blank code, its name as written (matched by blank_code_by_name).
    expect(map(['Printer Toner Black', 'Printer Toner Black', '5.00'])).toMatchObject({ product_id: '', 'new_products.name': 'Printer Toner Black' });
    // The same column for the code and the name, as the preview proposes it.
    expect(csvMapper(['Product'], { product_id: 'Product', 'new_products.name': 'Product' }, reading)(['[FURN_7800] Desk Combination'])).toEqual({ product_id: 'FURN_7800', 'new_products.name': 'Desk Combination' });
  });

  it("reads a record's the same way (an integration run's batches), and nothing without the option", () => {
    const paths = { product_id: 'product', 'new_products.name': 'product' };
    expect(recordMapper(paths, reading)({ product: '[FURN_7800] Desk Combination' })).toEqual({ product_id: 'FURN_7800', 'new_products.name': 'Desk Combination' });
    expect(recordMapper(paths, { fill: null, bracketed: null })({ product: '[FURN_7800] Desk Combination' })).toEqual({ product_id: '[FURN_7800] Desk Combination', 'new_products.name': '[FURN_7800] Desk Combination' });
  });
});
