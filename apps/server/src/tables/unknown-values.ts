// Stored values that stand in for one never recorded (ADR 0149). A product imported with a blank
// stock cell is stored with current_stock 0 (the spec's product has a number there) but no stock
// count: the Data screen says "not counted" instead of showing the 0 as if someone had counted it.
// By the database table (data.products), as dated-columns.ts: variations and user tables have none.
import type { UnknownValueReason } from '@stockwise/contract';

/** A column whose value is unknown for the rows no row of `recordedIn` refers to. */
export type UnknownValueRule = { column: string; reason: UnknownValueReason; recordedIn: { table: string; column: string } };

const UNKNOWN_VALUE_RULES = new Map<string, UnknownValueRule>([
  ['products', { column: 'current_stock', reason: 'not_counted', recordedIn: { table: 'stock_snapshots', column: 'product_id' } }],
]);

/** The rule of `table` (by its database name) when its rows read include the column, else undefined. */
export function unknownValueRule(table: string, readColumns: readonly string[]): UnknownValueRule | undefined {
  const rule = UNKNOWN_VALUE_RULES.get(table);
  return rule && readColumns.includes(rule.column) ? rule : undefined;
}
