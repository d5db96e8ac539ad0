import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/** A column's lower bound as its table's CHECK rule states it: `col >= 0` is { min: 0, inclusive: true }. */
export type ColumnMinimum = { min: number; inclusive: boolean };

const minimumRule = /^CHECK \(\(\(?"?([^"\s)]+)"?\)? (>=|>) \(?(-?\d+(?:\.\d+)?)\)?(?:::[a-z ]+)?\)\)$/;

/**
 * Counts of what is on the shelf, which cannot be below empty: bounds the application keeps where
 * the tables have no CHECK rule (their tables predate the rule, and a migration would refuse a shop
 * whose stored rows already hold one). Sales quantities stay signed: a return is a negative sale.
 * (ADR 0011, amendment 2026-12-04.)
 */
const shelfCounts: ReadonlyMap<string, ReadonlyMap<string, ColumnMinimum>> = new Map([
  ['products', new Map([['current_stock', { min: 0, inclusive: true }]])],
  ['stock_snapshots', new Map([['stock_level', { min: 0, inclusive: true }]])],
]);

/**
 * The lower bounds of a data table's columns, read from its single-column CHECK rules (and the
 * shelf counts' above), so that a value below one is refused as the field's mistake (naming the
 * field, every such field at once) before the database refuses the whole row by the rule's name.
 * Other rules the database still enforces, worded at the write.
 */
async function readColumnMinimums(db: Kysely<Database>, encodedName: string): Promise<Map<string, ColumnMinimum>> {
  const checks = await sql<{ column_name: string; definition: string }>`
    select a.attname as column_name, pg_get_constraintdef(c.oid) as definition
    from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    where c.contype = 'c' and c.conrelid = ${`data.${JSON.stringify(encodedName)}`}::regclass and cardinality(c.conkey) = 1`.execute(db);
  const minimums = new Map<string, ColumnMinimum>(shelfCounts.get(encodedName));
  for (const check of checks.rows) {
    const match = minimumRule.exec(check.definition);
    if (match && match[1] === check.column_name) minimums.set(check.column_name, { min: Number(match[3]), inclusive: match[2] === '>=' });
  }
  return minimums;
}

export const isBelowMinimum = (value: unknown, minimum: ColumnMinimum | undefined): minimum is ColumnMinimum =>
  minimum !== undefined && typeof value === 'number' && (minimum.inclusive ? value < minimum.min : value <= minimum.min);

export const minimumProblem = ({ min, inclusive }: ColumnMinimum): string =>
  min === 0 ? (inclusive ? 'Must be 0 or more (negative values are not allowed here).' : 'Must be more than 0.') : `Must be ${inclusive ? 'at least' : 'more than'} ${min}.`;

/** What the database allows in a column: empty (nullable), and whether it fills an omitted value itself (a default or identity). */
export type ColumnFacts = { column_name: string; nullable: boolean; has_default: boolean; default_expression: string | null };

async function readColumnFacts(db: Kysely<Database>, encodedName: string): Promise<ColumnFacts[]> {
  const facts = await sql<ColumnFacts>`
    select column_name, is_nullable = 'YES' as nullable, column_default is not null or is_identity = 'YES' as has_default, column_default as default_expression
    from information_schema.columns where table_schema = 'data' and table_name = ${encodedName}`.execute(db);
  return facts.rows;
}

/** A data table's column rules as the Data screen and the import word them: lower bounds and the columns kept filled. */
export type ColumnRules = { minimums: Map<string, ColumnMinimum>; notNull: Set<string>; facts: ColumnFacts[] };

export async function readColumnRules(db: Kysely<Database>, encodedName: string): Promise<ColumnRules> {
  const minimums = await readColumnMinimums(db, encodedName);
  const facts = await readColumnFacts(db, encodedName);
  return { minimums, facts, notNull: new Set(facts.filter((fact) => !fact.nullable).map((fact) => fact.column_name)) };
}
