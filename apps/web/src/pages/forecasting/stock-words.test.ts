// The chart's day readout says projected stock in a buyer's words (QA F19): never below 0 — past a
// stockout, 0 and how many the shelf falls short by.
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n.ts';
import { initTestI18n } from '../../test/i18n.ts';
import { stockLevelWords, stockRangeWords } from './stock-words.ts';

beforeAll(initTestI18n);

describe("the stock chart's readout", () => {
  it('says a projected stock below zero as 0, short by the unmet demand', () => {
    expect(stockLevelWords(-16.51, i18n.t)).toBe('0 (short by 16.5)');
    expect(stockLevelWords(120, i18n.t)).toBe('120');
    expect(stockLevelWords(0, i18n.t)).toBe('0');
  });

  it('says a stock range reaching below zero from 0, short by up to its low end', () => {
    expect(stockRangeWords([-12.04, 45], i18n.t)).toBe('0 – 45 (short by up to 12)');
    expect(stockRangeWords([-30, -2], i18n.t)).toBe('0 – 0 (short by up to 30)');
    expect(stockRangeWords([10, 45.25], i18n.t)).toBe('10 – 45.3');
  });

  it("says both in the product's unit when it has one (ADR 0177)", () => {
    expect(stockLevelWords(-3.5, i18n.t, 'kg')).toBe('0 (short by 3.5 kg)');
    expect(stockLevelWords(12.25, i18n.t, 'kg')).toBe('12.3 kg');
    expect(stockRangeWords([-1.5, 4], i18n.t, 'kg')).toBe('0 – 4 kg (short by up to 1.5 kg)');
    expect(stockRangeWords([1, 4], i18n.t, 'box')).toBe('1 – 4 box');
  });
});
