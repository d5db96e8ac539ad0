import { describe, expect, it } from 'vitest';
import { formatCell } from './format.ts';

describe('preview cells', () => {
  it("shows a spreadsheet's date cell as its date, and other values as they are", () => {
    expect(formatCell('2026-10-31T00:00:00.000Z')).toBe('2026-10-31');
    expect(formatCell('2026-10-31T09:30:00.000Z')).toBe('2026-10-31T09:30:00.000Z');
    expect(formatCell('31/10/2026')).toBe('31/10/2026');
    expect([formatCell(null), formatCell(3), formatCell(true), formatCell({ a: 1 })]).toEqual(['', '3', 'true', '{"a":1}']);
  });

  it('in a date column, quotes text that did not read as a date, and shows a read date (a day or a day and time) as the other lines', () => {
    const day = { type: 'DateField' } as const;
    expect(formatCell('soon', day)).toBe('"soon"');
    expect(formatCell('2026-13-45', day)).toBe('"2026-13-45"');
    expect(formatCell('02/03/2026', { type: 'DateTimeField' })).toBe('"02/03/2026"');
    expect(formatCell('2126-01-05', day)).toBe('2126-01-05');
    expect(formatCell('2026-03-02T00:00:00.000Z', { type: 'DateTimeField' })).toBe('2026-03-02');
    expect(formatCell('soon', { type: 'CharField' })).toBe('soon');
  });
});
