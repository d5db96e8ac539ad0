import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ColumnDefinition } from '@stockwise/contract';
import { quickCheck, UNDECIDED, valueSchema } from './columns.ts';

const columns: ColumnDefinition[] = [
  { key: 'code', type: 'CharField', max_length: 8 },
  { key: 'status', type: 'CharField', choices: ['open', 'closed'] },
  { key: 'notes', type: 'TextField' },
  { key: 'n', type: 'IntegerField' },
  { key: 'level', type: 'IntegerField', choices: ['1', '2'] },
  { key: 'product_id', type: 'ForeignKey', related_table: 'products' },
  { key: 'price', type: 'DecimalField', max_digits: 6, decimal_places: 2 },
  { key: 'whole', type: 'DecimalField', max_digits: 4, decimal_places: 0 },
  { key: 'fine', type: 'DecimalField', max_digits: 12, decimal_places: 6 },
  { key: 'day', type: 'DateField' },
  { key: 'active', type: 'BooleanField' },
  { key: 'at', type: 'DateTimeField' },
];

const raw = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('open', 'closed', '1', '2', '+7', '-0', '007', ' 5', '1.5', '.5', '5.', '1e3', '12345.67', '9999.99', '-9999.999', '2024-02-29', '2023-02-29', 'true', 'false', '2147483647', '2147483648', '9007199254740993'),
  fc.tuple(fc.constantFrom('', '-', '+'), fc.stringMatching(/^\d{1,8}$/), fc.constantFrom('', '.'), fc.stringMatching(/^\d{0,7}$/)).map((parts) => parts.join('')),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constantFrom(null, [], {}, 2 ** 53, -(2 ** 31)),
);

describe('quickCheck', () => {
  it('answers what the column schema answers, or leaves it to the schema', () => {
    fc.assert(
      fc.property(fc.constantFrom(...columns), raw, (column, value) => {
        const quick = quickCheck(column)(value);
        if (quick === UNDECIDED) return;
        const parsed = valueSchema(column).safeParse(value);
        expect(parsed.success).toBe(true);
        expect(parsed.data).toBe(quick);
      }),
      { numRuns: 20_000, seed: 7 },
    );
  });

  it('decides the usual values of an import', () => {
    const check = (key: string, value: unknown) => quickCheck(columns.find((c) => c.key === key) as ColumnDefinition)(value);
    expect([check('code', 'BENCH-01'), check('n', '42'), check('price', '12.50'), check('day', '2026-11-02'), check('active', 'true')]).toEqual(['BENCH-01', 42, 12.5, '2026-11-02', true]);
  });
  it("says the range of a whole-number column in words, not the validator library's", () => {
    const quantity = valueSchema({ key: 'quantity', type: 'IntegerField' } as ColumnDefinition);
    for (const value of ['99999999999', -99999999999]) {
      expect(quantity.safeParse(value).error?.issues.map((issue) => issue.message)).toEqual(['Expected a whole number from -2,147,483,647 to 2,147,483,647.']);
    }
    expect(quantity.safeParse('2147483647').data).toBe(2147483647);
  });
});
