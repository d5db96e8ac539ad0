// Property: whatever transaction lines a file holds (codes, timestamps in several spellings,
// returns, lines in any order, one day's lines in any number), the daily sales stored after the
// import are the sums of its lines per product and day, computed here independently.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';

const CODES = ['PRP-1', 'PRP-2', '1', '40017', 'PRP-äö'];
const line = fc.record({
  code: fc.constantFrom(...CODES),
  day: fc.integer({ min: 1, max: 28 }),
  month: fc.integer({ min: 1, max: 12 }),
  hour: fc.integer({ min: 0, max: 23 }),
  spelling: fc.constantFrom('iso', 'iso-time', 'slashed-time'),
  quantity: fc.integer({ min: -5, max: 60 }),
});

const pad = (n: number) => String(n).padStart(2, '0');

describe.each(backends)('daily sales sums on %s', (backend) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'editor' })).access;
    const products = { field_mappings: { product_code: 'code', name: 'name' } };
    await importFile(server, token, { fileName: 'p.csv', content: `code,name\n${CODES.map((c) => `"${c}",Product ${c}`).join('\n')}\n`, mapping: products, entityType: 'products' });
  });
  afterAll(() => server.stop());

  it('stores, per product and day, the sum of the lines', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 120 }), fc.constantFrom('dd/mm/yyyy', 'mm/dd/yyyy'), async (lines, order) => {
        const expected = new Map<string, number>();
        const rows = lines.map((l) => {
          const iso = `2025-${pad(l.month)}-${pad(l.day)}`;
          expected.set(`${l.code}|${iso}`, (expected.get(`${l.code}|${iso}`) ?? 0) + l.quantity);
          const slashed = order === 'dd/mm/yyyy' ? `${pad(l.day)}/${pad(l.month)}` : `${l.month}/${l.day}`;
          const when = l.spelling === 'iso' ? iso : l.spelling === 'iso-time' ? `${iso}T${pad(l.hour)}:15:00Z` : `${slashed}/2025 ${l.hour}:05`;
          return `"${l.code}",${when},${l.quantity}`;
        });
        const mapping = { field_mappings: { product_id: 'Code', date: 'When', quantity: 'Units' }, date_format: 'auto' };
        // Slashed dates are told apart by a line whose day is over 12 (wherever it comes: earlier
        // lines are then read again); without one the file is ambiguous and needs the format.
        const settles = lines.some((l) => l.spelling === 'slashed-time' && l.day > 12) || lines.every((l) => l.spelling !== 'slashed-time');
        const result = await importFile(server, token, { fileName: 'lines.csv', content: `Code,When,Units\n${rows.join('\n')}\n`, mapping: settles ? mapping : { ...mapping, date_format: order }, entityType: 'sales' });
        expect(result.status, JSON.stringify(result.json)).toBe(200);
        expect(result.json.counts).toMatchObject({ rows: lines.length, written: expected.size });
        const stored = await sql<{ key: string; quantity: number }>`
          select p.product_code || '|' || s.date as key, s.quantity from data.sales s join data.products p on p.id = s.product_id
          where (p.product_code || '|' || s.date) = any(${[...expected.keys()]}::text[])`.execute(server.database.db);
        expect(new Map(stored.rows.map((r) => [r.key, r.quantity]))).toEqual(expected);
      }),
      { numRuns: 25, seed: 13 },
    );
  });
});
