// What the supplier's terms made of an order, in the words the screen, the assistant and the
// downloads share (ADR 0183 and its amendment 2026-12-06 (3)).
import { describe, expect, it } from 'vitest';
import { SUPPLIER_ORDER_PHRASES, supplierOrderNote, supplierOrderWords } from './supplier-orders.ts';

describe("an order in the supplier's terms", () => {
  it('says the cases and the need, short and whole', () => {
    const order = { orderQuantity: 48, orderMultiple: 24, orderQuantityNeeded: 40 };
    expect(supplierOrderWords(order, null)).toBe('2 cases of 24; 40 needed');
    expect(supplierOrderNote(order, null)).toBe('2 × 24');
    expect(supplierOrderWords({ orderQuantity: 24, orderMultiple: 24 }, null)).toBe('1 case of 24');
  });

  it('says a decimal case in the unit, and a minimum that set the order', () => {
    expect(supplierOrderWords({ orderQuantity: 50, orderMultiple: 2.5, orderQuantityNeeded: 48.2 }, 'kg')).toBe('20 cases of 2.5 kg; 48.2 kg needed');
    expect(supplierOrderNote({ orderQuantity: 50, orderMultiple: 2.5 }, 'kg')).toBe('20 × 2.5 kg');
    expect(supplierOrderWords({ orderQuantity: 10, minOrderQuantity: 10, orderQuantityNeeded: 3 }, null)).toBe("the supplier's minimum; 3 needed");
    expect(supplierOrderNote({ orderQuantity: 10, minOrderQuantity: 10, orderQuantityNeeded: 3 }, null)).toBe("supplier's minimum");
    expect(supplierOrderWords({ orderQuantity: 12, orderMultiple: 6, minOrderQuantity: 10, orderQuantityNeeded: 3 }, null)).toBe("2 cases of 6, to reach the supplier's minimum of 10; 3 needed");
  });

  it('says in the short form too that the minimum set the cases, with the minimum, in the unit (ADR 0183 amendment (5))', () => {
    // Drill Bits: boxes of 5, a minimum of 20, a need of 7.
    const drillBits = { orderQuantity: 20, orderMultiple: 5, minOrderQuantity: 20, orderQuantityNeeded: 7 };
    expect(supplierOrderNote(drillBits, null)).toBe('4 × 5 · min. 20');
    expect(supplierOrderWords(drillBits, null)).toBe("4 cases of 5, the supplier's minimum; 7 needed");
    // Cases past the minimum: the note says the minimum, not the order.
    expect(supplierOrderNote({ orderQuantity: 12, orderMultiple: 6, minOrderQuantity: 10, orderQuantityNeeded: 3 }, null)).toBe('2 × 6 · min. 10');
    expect(supplierOrderNote({ orderQuantity: 10, orderMultiple: 2.5, minOrderQuantity: 10, orderQuantityNeeded: 1.2 }, 'kg')).toBe('4 × 2.5 kg · min. 10 kg');
    // A minimum below the need shaped nothing: the cases alone.
    expect(supplierOrderNote({ orderQuantity: 30, orderMultiple: 5, minOrderQuantity: 20, orderQuantityNeeded: 28 }, null)).toBe('6 × 5');
    // The phrases passed in are the ones said.
    const german = { ...SUPPLIER_ORDER_PHRASES, casesShort: (count: number, size: string) => `${count} × ${size}`, casesAndMinimumShort: (cases: string, minimum: string) => `${cases} · Mindestm. ${minimum}` };
    expect(supplierOrderNote(drillBits, null, german)).toBe('4 × 5 · Mindestm. 20');
  });

  it('says nothing where the terms shaped nothing or nothing is ordered', () => {
    expect(supplierOrderWords({ orderQuantity: 40, minOrderQuantity: 10 }, null)).toBeNull();
    expect(supplierOrderNote({ orderQuantity: 40, minOrderQuantity: 10 }, null)).toBeNull();
    expect(supplierOrderWords({ orderQuantity: 0, orderMultiple: 24 }, null)).toBeNull();
  });
});
