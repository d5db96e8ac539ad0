import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n.ts';
import { initTestI18n } from '../../test/i18n.ts';
import { referringRowsText } from './referring-rows.ts';

beforeAll(initTestI18n);

describe('the rows that refer to a row, in the delete dialog', () => {
  it("counts the inventory's rows by what they are, in the singular and the plural", () => {
    const t = i18n.t.bind(i18n);
    expect(referringRowsText(t, { table: 'sales', count: 200 })).toBe('200 sales');
    expect(referringRowsText(t, { table: 'sales', count: 1 })).toBe('1 sale');
    expect(referringRowsText(t, { table: 'stock_snapshots', count: 1 })).toBe('1 stock snapshot');
    expect(referringRowsText(t, { table: 'deliveries', count: 3 })).toBe('3 deliveries');
  });

  it("counts any other table's rows as rows of it, by its name", () => {
    const t = i18n.t.bind(i18n);
    expect(referringRowsText(t, { table: 'Shop orders', count: 2 })).toBe("2 rows of 'Shop orders'");
    // A name that looks like a translation key is still only a name.
    expect(referringRowsText(t, { table: 'rowsOf.sales', count: 1 })).toBe("1 row of 'rowsOf.sales'");
  });
});
