// Codes Excel read as numbers, losing their leading zeros (`501234567890` for 0501234567890): which
// stored code such a written code is (ADR 0011's amendment of 2026-12-04, Excel's barcodes). The
// writer restores them in its staging table (writer-sql.ts restoreLeadingZeros), the preview finds
// them (missingCodes), and a quantity's unit is looked up under them (target.ts readQuantityUnits).
import { sql, type RawBuilder } from 'kysely';

/**
 * The stored codes of `table`.`key` that start with a zero and hold only digits, each with its
 * digits after the zeros (`digits`) — where no other such code has the same (`0123` beside `00123`
 * is a guess, not a match): what a code Excel read as a number, losing its leading zeros, was.
 */
export const codesWithLeadingZeros = (table: RawBuilder<unknown>, key: RawBuilder<unknown>) =>
  sql`select ltrim(${key}::text, '0') as digits, min(${key}::text) as code from ${table} where ${key}::text ~ '^0[0-9]*$' group by 1 having count(*) = 1`;

/**
 * Of stored codes by their digits after the zeros (codesWithLeadingZeros), the one a written code
 * of digits is with zeros put back, as restoreLeadingZeros rewrites it: longer than the written
 * code, which no stored code is exactly (the caller's to know). Undefined for any other code.
 */
export function withLeadingZeros<Stored extends { code: string }>(written: string, byDigits: ReadonlyMap<string, Stored>): Stored | undefined {
  if (!/^[0-9]+$/.test(written)) return undefined;
  const stored = byDigits.get(written.replace(/^0+/, ''));
  return stored && stored.code.length > written.length ? stored : undefined;
}
