// How money is written wherever it is read — the screens and the assistant's sentences alike (ADR
// 0166): in the shop's currency once an administrator has chosen one ("$1,240.50", "£24.99",
// "€1,240.50"), as a bare figure with its pence before that ("1,240.50"). Digits stay English, as the
// rest of the interface (its one locale is en); the sign is the currency's narrow one, because a shop
// deals in one currency: an Australian shop reads "$24.99", not "A$24.99". Inputs keep plain
// numbers; this is for reading.

export type MoneyOptions = {
  /** Places after the point (a table column's own); otherwise the currency's (2 for most, 0 for JPY), 2 without one. */
  fractionDigits?: number;
  /** Thousands separators: on for figures read as amounts, off where the value is read as typed (the Data grid). */
  grouping?: boolean;
};

const formats = new Map<string, Intl.NumberFormat>();

/** A formatter of money in `currency` (null: bare figures), made once per currency and options. */
export function moneyFormat(currency: string | null, { fractionDigits, grouping = true }: MoneyOptions = {}): Intl.NumberFormat {
  const key = `${currency ?? ''}|${fractionDigits ?? ''}|${grouping}`;
  let format = formats.get(key);
  if (!format) {
    const digits = fractionDigits ?? (currency ? undefined : 2);
    format = new Intl.NumberFormat('en', {
      ...(currency ? { style: 'currency', currency, currencyDisplay: 'narrowSymbol' } : {}),
      ...(digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits }),
      useGrouping: grouping,
    });
    formats.set(key, format);
  }
  return format;
}

/**
 * A quantity as recorded — 0.25 kg sold, 12.5 m of cable counted, an order of 3.2 kg — with up to
 * the 3 places it is stored with and whole units without a point ("12", not "12.000"; ADR 0176).
 * Estimates (a forecast's day, a projected stock) keep their own rounding.
 */
export const quantityFormat = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });

/**
 * A quantity column's cell (a decimal of 3 places, not money) as the Data grid and the import preview
 * show it: as typed in its form, without thousands separators, its places only as far as the figure
 * needs them (12, 0.25, 1.125), where money and rates keep theirs (7.50, 0.20).
 */
export const quantityCellFormat = new Intl.NumberFormat('en', { maximumFractionDigits: 3, useGrouping: false });
export const isQuantityColumn = (column: { type: string; decimal_places?: number | undefined; money?: boolean | undefined }) => column.type === 'DecimalField' && column.decimal_places === 3 && !column.money;
