// filters_json -> SQL conditions. Keys must be stored columns of the table; values are bound
// parameters, parsed with the column's own type rules (docs/api.md "Filtering").
import { sql, type RawBuilder } from 'kysely';
import { DEFAULT_DATE_ORDER, readTypedFilter, tableFilters, typedFilterKind, typedFilterProblemText, type ColumnDefinition, type ColumnFilter, type DateOrder } from '@stockwise/contract';
import { validationError } from '../http/errors.ts';
import { decimalNumber, expectedValue, isTextual, isVirtual, valueSchema, withIdColumn } from './columns.ts';
import type { PageConditions } from './repo.ts';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

// Building a zod schema costs far more than using it (it is compiled on first use): a filter's
// schema is made once per column definition (the catalogue cache keeps those objects), not once
// per request.
const filterSchemas = new WeakMap<ColumnDefinition, ReturnType<typeof valueSchema>>();

function filterSchema(column: ColumnDefinition) {
  let schema = filterSchemas.get(column);
  if (!schema) {
    // A bound may have more digits than a decimal column stores: `< 1000000000000` is a fair question of numeric(12, 2).
    schema =
      column.type === 'AutoField' ? valueSchema({ ...column, type: 'IntegerField' }) : column.type === 'DecimalField' ? decimalNumber() : valueSchema({ ...column, choices: undefined });
    filterSchemas.set(column, schema);
  }
  return schema;
}

/** How a ForeignKey column's related rows are known to people: their business key, and a name when the table has one. */
export type ReferenceDisplay = { encodedName: string; keyColumn: string; nameColumn: string | null };
/** A range filter's bounds and their comparisons, in the order their values are bound. */
const BOUNDS = [
  ['gte', sql`>=`],
  ['lte', sql`<=`],
  ['gt', sql`>`],
  ['lt', sql`<`],
] as const;

function parseFilterValue(column: ColumnDefinition, value: unknown): unknown {
  const schema = filterSchema(column);
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const reason = !issue || issue.code === 'invalid_type' || issue.code === 'invalid_union' ? expectedValue[column.type === 'AutoField' ? 'IntegerField' : column.type] : issue.message;
    throw validationError(`Invalid filter for column '${column.key}': ${reason}`);
  }
  return parsed.data;
}

/**
 * One filter's SQL, with what its text depends on (`shape`) and the values it binds, in order: a
 * page's statements are compiled once per shape and run with the values (docs/adr/0082).
 */
export type FilterCondition = { sql: RawBuilder<unknown>; shape: string; values: unknown[] };

const bound = (shape: string, values: unknown[], text: RawBuilder<unknown>): FilterCondition => ({ sql: text, shape, values });

function condition(column: ColumnDefinition, filter: ColumnFilter, reference: ReferenceDisplay | undefined, dateOrder: DateOrder): FilterCondition {
  const ref = sql.ref(column.key);
  const key = JSON.stringify(column.key);
  const textual = isTextual(column.type);
  // A reference filtered by text matches the related row's key or name (never its id: a code may look like one).
  const text = typeof filter === 'string' ? filter : typeof filter === 'object' && 'contains' in filter ? filter.contains : null;
  if (reference && text !== null) {
    const pattern = `%${escapeLike(text)}%`;
    const shape = `reference ${key} ${JSON.stringify([reference.encodedName, reference.keyColumn, reference.nameColumn])}`;
    if (!reference.nameColumn) {
      return bound(shape, [pattern], sql`${ref} in (select r.id from ${sql.id('data', reference.encodedName)} r where r.${sql.ref(reference.keyColumn)}::text ilike ${pattern})`);
    }
    return bound(
      shape,
      [pattern, pattern],
      sql`${ref} in (select r.id from ${sql.id('data', reference.encodedName)} r where r.${sql.ref(reference.keyColumn)}::text ilike ${pattern} or r.${sql.ref(reference.nameColumn)} ilike ${pattern})`,
    );
  }
  // Text on a number or date column is read as the Data screen's filter boxes read it: `<10`, `10-50`, `2011-11`, `2011-11-03..2011-11-20`, `30/11/2011` in the request's date order.
  const kind = typeof filter === 'string' ? typedFilterKind(column.type) : null;
  if (kind && typeof filter === 'string') {
    const typed = readTypedFilter(kind, filter, dateOrder);
    if ('problem' in typed) throw validationError(`Invalid filter for column '${column.key}': ${typedFilterProblemText(typed, dateOrder)}`);
    return condition(column, typed.filter, undefined, dateOrder);
  }
  if (typeof filter !== 'object') {
    return textual ? condition(column, { contains: String(filter) }, undefined, dateOrder) : condition(column, { equals: filter }, undefined, dateOrder);
  }
  if ('contains' in filter) {
    const pattern = `%${escapeLike(filter.contains)}%`;
    return bound(`contains ${key} ${textual}`, [pattern], textual ? sql`${ref} ilike ${pattern}` : sql`${ref}::text ilike ${pattern}`);
  }
  if ('equals' in filter) {
    const value = parseFilterValue(column, filter.equals);
    return bound(`equals ${key}`, [value], sql`${ref} = ${value}`);
  }
  if ('empty' in filter) {
    const isEmpty = textual ? sql`(${ref} is null or ${ref} = '')` : sql`${ref} is null`;
    return bound(`empty ${key} ${textual} ${filter.empty}`, [], filter.empty ? isEmpty : sql`not ${isEmpty}`);
  }
  const bounds: RawBuilder<unknown>[] = [];
  const values: unknown[] = [];
  const given: string[] = [];
  for (const [name, operator] of BOUNDS) {
    const limit = filter[name];
    if (limit === undefined) continue;
    values.push(parseFilterValue(column, limit));
    bounds.push(sql`${ref} ${operator} ${values.at(-1)}`);
    given.push(name);
  }
  if (!bounds.length) throw validationError(`Invalid filter for column '${column.key}': give gte, lte, gt or lt.`);
  return bound(`range ${key} ${given.join(' ')}`, values, sql.join(bounds, sql` and `));
}

/** Parses filters_json into SQL conditions joined with AND (empty list when no filter); a date typed with numbers alone is read in `dateOrder`. */
export function buildFilterConditions(
  filtersJson: string | undefined,
  columns: ColumnDefinition[],
  references: Map<string, ReferenceDisplay> = new Map(),
  dateOrder: DateOrder = DEFAULT_DATE_ORDER,
): FilterCondition[] {
  if (!filtersJson || filtersJson.trim() === '') return [];
  let raw: unknown;
  try {
    raw = JSON.parse(filtersJson);
  } catch {
    throw validationError('filters_json is not valid JSON.');
  }
  const parsed = tableFilters.safeParse(raw);
  if (!parsed.success) throw validationError(`filters_json is not a valid filter object: ${parsed.error.issues[0]?.message ?? ''}`);
  const stored = new Map(withIdColumn(columns).filter((c) => !isVirtual(c.type)).map((c) => [c.key, c]));
  return Object.entries(parsed.data)
    .filter(([, filter]) => filter !== '')
    .map(([key, filter]) => {
      const column = stored.get(key);
      if (!column) throw validationError(`Cannot filter on '${key}': no such column.`);
      return condition(column, filter, references.get(key), dateOrder);
    });
}

/** The filters as one page's conditions: their SQL, the shape of their text and their values in order. */
export const pageConditionsOf = (filters: FilterCondition[]): PageConditions => ({
  sql: filters.map((filter) => filter.sql),
  shape: filters.map((filter) => filter.shape).join(' and '),
  values: filters.flatMap((filter) => filter.values),
});
