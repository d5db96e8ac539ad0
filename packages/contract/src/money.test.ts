// The one money formatter (ADR 0166), shared by the screens and the server's sentences: bare figures
// with their pence until the shop has a currency, then the currency's narrow sign with English digits;
// the Data grid's form without separators.
import { describe, expect, it } from 'vitest';
import { moneyFormat } from './money.ts';

describe('money as the shop reads it', () => {
  it('writes bare figures with their pence while the shop has no currency, as before', () => {
    expect(moneyFormat(null).format(1240.5)).toBe('1,240.50');
    expect(moneyFormat(null).format(24.99)).toBe('24.99');
    expect(moneyFormat(null).format(-5)).toBe('-5.00');
  });

  it.each([
    ['USD', '$24.99', '$1,240.50'],
    ['GBP', '£24.99', '£1,240.50'],
    ['EUR', '€24.99', '€1,240.50'],
    // A shop deals in one currency: an Australian shop reads its own "$", not "A$".
    ['AUD', '$24.99', '$1,240.50'],
    ['CHF', 'CHF\u00a024.99', 'CHF\u00a01,240.50'],
    // The currency's own minor units: yen have none.
    ['JPY', '¥25', '¥1,241'],
  ])('writes %s with its sign and English digits', (currency, small, large) => {
    expect(moneyFormat(currency).format(24.99)).toBe(small);
    expect(moneyFormat(currency).format(1240.5)).toBe(large);
  });

  it('puts the minus before the sign', () => {
    expect(moneyFormat('USD').format(-5)).toBe('-$5.00');
  });

  it("writes a Data grid column's own places without separators, as its edit form takes the figure", () => {
    expect(moneyFormat(null, { fractionDigits: 2, grouping: false }).format(1240.5)).toBe('1240.50');
    expect(moneyFormat(null, { fractionDigits: 3, grouping: false }).format(7.5)).toBe('7.500');
    expect(moneyFormat('GBP', { fractionDigits: 2, grouping: false }).format(1240.5)).toBe('£1240.50');
    expect(moneyFormat('JPY', { fractionDigits: 2, grouping: false }).format(7.5)).toBe('¥7.50');
  });

  it('makes each formatter once', () => {
    expect(moneyFormat('USD')).toBe(moneyFormat('USD'));
    expect(moneyFormat('USD')).not.toBe(moneyFormat('EUR'));
  });
});
