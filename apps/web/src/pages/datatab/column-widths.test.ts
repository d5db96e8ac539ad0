import { describe, expect, it } from 'vitest';
import type { TableRow } from '@stockwise/contract';
import { columnWidthRules, computeColumnWidths, type MeasureText, type WidthColumn } from './column-widths.ts';

// 10 px per character: a column's natural width is 10 × its longest text + the padding (32).
const measure: MeasureText = (text) => text.length * 10;
const col = (key: string, extra: Partial<WidthColumn> = {}): WidthColumn => ({ key, label: key, ...extra });
const sum = (widths: Record<string, number>) => Object.values(widths).reduce((a, b) => a + b, 0);
const text = (chars: number) => 'x'.repeat(chars);

describe('computeColumnWidths (spec §9)', () => {
  it('uses the spec constants and our 0.25 viewport cap', () => {
    expect(columnWidthRules).toMatchObject({ min: 150, max: 300, idMin: 80, idMax: 120, sampleRows: 50, viewportCap: 0.25, fillFraction: 0.95 });
  });

  it('clamps ordinary columns to 150..300 and caps them at 25 % of the viewport', () => {
    // viewport 1000: cap 250, fill target 950; these columns already total more, so nothing stretches.
    const row = { a: 'x', b: text(20), c: text(80), d: text(80), e: '' };
    const widths = computeColumnWidths({ columns: ['a', 'b', 'c', 'd', 'e'].map((k) => col(k)), rows: [row], viewportWidth: 1000, measureText: measure });
    expect(widths).toEqual({ a: 150, b: 232, c: 250, d: 250, e: 150 });
  });

  it('never goes above 300 on a wide viewport', () => {
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const row = Object.fromEntries(keys.map((k) => [k, text(80)]));
    const widths = computeColumnWidths({ columns: keys.map((k) => col(k)), rows: [row], viewportWidth: 2000, measureText: measure });
    expect(Object.values(widths)).toEqual(keys.map(() => 300)); // 2100 ≥ 1900: no stretching
  });

  it('keeps the id column within 80..120', () => {
    const others = ['a', 'b', 'c', 'd'].map((k) => col(k));
    const filler = Object.fromEntries(others.map((c) => [c.key, text(80)]));
    const short = computeColumnWidths({ columns: [col('id'), ...others], rows: [{ id: 7, ...filler }], viewportWidth: 1000, measureText: measure });
    expect(short['id']).toBe(80);
    const long = computeColumnWidths({ columns: [col('id'), ...others], rows: [{ id: 12345678901234, ...filler }], viewportWidth: 1000, measureText: measure });
    expect(long['id']).toBe(120);
  });

  it("honours a column's own min_width and max_width", () => {
    const others = ['a', 'b', 'c', 'd'].map((k) => col(k));
    const filler = Object.fromEntries(others.map((c) => [c.key, text(80)]));
    const columns = [col('n', { min_width: 200, max_width: 220 }), ...others];
    expect(computeColumnWidths({ columns, rows: [{ n: 'x', ...filler }], viewportWidth: 1000, measureText: measure })['n']).toBe(200);
    expect(computeColumnWidths({ columns, rows: [{ n: text(50), ...filler }], viewportWidth: 1000, measureText: measure })['n']).toBe(220);
  });

  it('measures the header label too', () => {
    const columns = [col('q', { label: text(20) }), ...['a', 'b', 'c', 'd'].map((k) => col(k))];
    const filler = Object.fromEntries(['a', 'b', 'c', 'd'].map((k) => [k, text(80)]));
    expect(computeColumnWidths({ columns, rows: [{ q: 'x', ...filler }], viewportWidth: 1000, measureText: measure })['q']).toBe(232);
  });

  it('stretches narrow tables to fill 95 % of the viewport, leaving the id column compact', () => {
    const widths = computeColumnWidths({ columns: [col('id'), col('a'), col('b')], rows: [{ id: 1, a: 'x', b: text(20) }], viewportWidth: 1000, measureText: measure });
    expect(sum(widths)).toBe(950);
    expect(widths['id']).toBe(80);
    expect(widths['a']).toBeGreaterThan(150);
    expect(widths['b']).toBeGreaterThan(widths['a'] ?? 0); // proportional to the measured widths
  });

  it('fills 95 % minus the reserved width (the actions column)', () => {
    const widths = computeColumnWidths({ columns: [col('a'), col('b')], rows: [], viewportWidth: 1000, measureText: measure, reservedWidth: 120 });
    expect(sum(widths)).toBe(950 - 120);
  });

  it('samples only the first 50 rows', () => {
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const row = Object.fromEntries(keys.map((k) => [k, 'x']));
    const rows: TableRow[] = Array.from({ length: 60 }, () => ({ ...row }));
    rows[55] = { ...row, a: text(15) };
    // viewport 800 (target 760): 5 × 150 = 750, the fill spreads 10 px; row 56 was not looked at.
    expect(computeColumnWidths({ columns: keys.map((k) => col(k)), rows, viewportWidth: 800, measureText: measure })['a']).toBe(152);
    rows[10] = { ...row, a: text(15) };
    expect(computeColumnWidths({ columns: keys.map((k) => col(k)), rows, viewportWidth: 800, measureText: measure })['a']).toBe(182);
  });
});
