// A mapping's field values (`field_values: {date: '2026-11-30'}`): one value for every line of a
// file without a column for the field — a stock count's day, a till's end-of-day export. Read once
// as the field's type where the mapping is saved or used (a 400 naming the field otherwise), and
// given to every record by the typer (target.ts) as if a column held it (ADR 0011's amendment of
// 2026-12-03). `today` is the shop's day: the integration's time zone for a run, the upload's
// `time_zone` field for a file (the Import screen sends the browser's), the shop's zone without one
// (http/viewer-day.ts).
import { isoDayProblem, isTimeZone, TODAY_VALUE, type ColumnDefinition, type EntityMapping, type ProductConfig } from '@stockwise/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { echoed, validationError } from '../http/errors.ts';
import { tableOfSavedMapping } from './value-maps.ts';
import { compileRowParser, isReadOnly, type RowValues } from '../tables/columns.ts';
import { datedColumn } from '../tables/dated-columns.ts';

/** column -> the value every record gets, typed as staged (a date as YYYY-MM-DD). */
export type FixedValues = Map<string, RowValues[string]>;

const invalid = (reason: string) => validationError(`Invalid configuration: ${reason}`);

/** The time zone a request sent (`time_zone`, the browser's), refused naming it when it is none; undefined when none was sent (http/viewer-day.ts reads the shop's then). */
export function sentTimeZone(timeZone: string | undefined): string | undefined {
  if (timeZone === undefined || timeZone === '') return undefined;
  // IANA names are at most a few dozen characters: a longer value is not echoed whole, nor a NUL or a terminal's escape in it.
  if (!isTimeZone(timeZone)) throw validationError(`time_zone: ${echoed(timeZone, 64)} is not a time zone (such as Europe/Berlin or America/New_York).`);
  return timeZone;
}

/**
 * The mapping's field values read for `columns` of `table` (its database name), with `today` the
 * shop's day: a 400 naming the field for one that is not a writable column of the table, refers to
 * another table (a code comes from the file), is not of the field's type, or — for the day of a
 * sale or a count — lies after today (a count dated tomorrow is a slip of the date picker). A
 * mapping being saved has no today yet (null): `today` is kept as it is, and only the table's own
 * date rule bounds a date.
 */
export function readFieldValues(columns: readonly ColumnDefinition[], table: string, mapping: EntityMapping, today: string | null): FixedValues {
  const fixed: FixedValues = new Map();
  const dateRule = datedColumn(table);
  for (const [field, value] of Object.entries(mapping.field_values ?? {})) {
    const column = columns.find((c) => c.key === field);
    const where = `field_values.${field}`;
    if (!column || isReadOnly(column.type)) throw invalid(`${where}: ${field} is not a column of the table that an import can fill.`);
    const name = column.label ?? field;
    if (column.type === 'ForeignKey') throw invalid(`${where}: ${name} refers to another table; its code comes from a column of the file.`);
    if (column.type === 'DateField' || column.type === 'DateTimeField') {
      const isToday = value.toLowerCase() === TODAY_VALUE;
      if (isToday && today === null) continue;
      const day = isToday && today !== null ? today : value;
      const problem = isoDayProblem(day);
      if (problem) throw invalid(`${where}: ${problem.startsWith('Expected') ? `${value} is not a date: write it YYYY-MM-DD (2026-11-30), or today.` : problem}`);
      if (dateRule?.column === field && today !== null && day > today) throw invalid(`${where}: ${day} is in the future (today is ${today}): sales and stock counts are dated when they happened.`);
      const outOfRange = dateRule?.column === field ? dateRule.problem(day) : null;
      if (outOfRange) throw invalid(`${where}: ${outOfRange}`);
      fixed.set(field, column.type === 'DateField' ? day : `${day}T00:00:00Z`);
      continue;
    }
    try {
      fixed.set(field, compileRowParser([column])({ [field]: value }, 'update')[field] ?? null);
    } catch (error) {
      const reasons = (error as { fieldErrors?: Record<string, string[]> }).fieldErrors?.[field];
      if (!reasons) throw error;
      throw invalid(`${where}: ${reasons.join(' ')}`);
    }
  }
  return fixed;
}

/** The check of a mapping being saved: its field values against the entity's table (a mapping without them is saved as before). */
export async function checkSavedFieldValues(db: Kysely<Database>, config: ProductConfig, entityType: string, mapping: EntityMapping): Promise<void> {
  if (!mapping.field_values || Object.keys(mapping.field_values).length === 0) return;
  const table = await tableOfSavedMapping(db, config, entityType, 'field_values');
  readFieldValues(table.columns, table.encoded_name, mapping, null);
}
