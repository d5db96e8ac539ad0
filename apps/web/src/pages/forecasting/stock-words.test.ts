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
});
