import { describe, expect, it } from 'vitest';
import { formatCell } from './format.ts';

describe('preview cells', () => {
  it("shows a spreadsheet's date cell as its date, and other values as they are", () => {
    expect(formatCell('2026-10-31T00:00:00.000Z')).toBe('2026-10-31');
    expect(formatCell('2026-10-31T09:30:00.000Z')).toBe('2026-10-31T09:30:00.000Z');
    expect(formatCell('31/10/2026')).toBe('31/10/2026');
    expect([formatCell(null), formatCell(3), formatCell(true), formatCell({ a: 1 })]).toEqual(['', '3', 'true', '{"a":1}']);
  });
});
