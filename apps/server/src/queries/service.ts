// Named queries from the configuration: read-only SQL with typed, bound parameters, answering
// rows of {id, value}. Used by GET /api/queries/queries/{name}/ and by query columns of tables.
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { NamedQueryRow, ProductConfig } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

type NamedQuery = ProductConfig['queries'][string];
type ParameterValue = string | number | boolean;

const notFoundOrBadParameters = (name: string) => new AppError('not_found', `Query '${name}' not found or parameter error.`);

export function listNamedQueries(config: ProductConfig) {
  return Object.entries(config.queries).map(([name, query]) => ({ name, description: query.description ?? '', params: query.params ?? {} }));
}

function coerceParameter(type: NonNullable<NamedQuery['params']>[string]['type'], raw: ParameterValue): ParameterValue | null {
  const text = String(raw).trim();
  switch (type) {
    case 'integer':
      return /^[+-]?\d{1,15}$/.test(text) ? Number(text) : null;
    case 'number':
      return text !== '' && Number.isFinite(Number(text)) ? Number(text) : null;
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)) ? text : null;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : null;
    case 'string':
      return text.length <= 1000 ? String(raw) : null;
  }
}

/** Turns `:name` placeholders (not `::casts`) into `$n` and the matching values, or null on a parameter error. */
function bindParameters(query: NamedQuery, given: Record<string, ParameterValue | undefined>): { text: string; values: ParameterValue[] } | null {
  const declared = query.params ?? {};
  if (Object.keys(given).some((key) => !Object.hasOwn(declared, key))) return null;
  const values: ParameterValue[] = [];
  const positions = new Map<string, number>();
  let failed = false;
  const text = query.sql.replace(/(?<![:\w]):([a-z][a-z0-9_]*)/g, (placeholder, name: string) => {
    const parameter = declared[name];
    const raw = given[name] ?? parameter?.default;
    const value = parameter && raw !== undefined ? coerceParameter(parameter.type, raw) : null;
    if (value === null) {
      failed = true;
      return placeholder;
    }
    if (!positions.has(name)) {
      values.push(value);
      positions.set(name, values.length);
    }
    return `$${positions.get(name)}`;
  });
  return failed ? null : { text, values };
}

export async function runNamedQuery(
  db: Kysely<Database>,
  config: ProductConfig,
  options: { name: string; params: Record<string, ParameterValue | undefined> },
): Promise<NamedQueryRow[]> {
  // Own entries only: 'constructor' is not a query even though every object has one.
  const query = Object.hasOwn(config.queries, options.name) ? config.queries[options.name] : undefined;
  const bound = query ? bindParameters(query, options.params) : null;
  if (!query || !bound) throw notFoundOrBadParameters(options.name);
  try {
    const result = await db.transaction().execute(async (trx) => {
      await sql`set transaction read only`.execute(trx);
      return trx.executeQuery<{ id: number | string; value: unknown }>(CompiledQuery.raw(bound.text, bound.values));
    });
    return result.rows.map((row) => ({ id: row.id, value: normaliseValue(row.value) }));
  } catch {
    throw notFoundOrBadParameters(options.name);
  }
}

const normaliseValue = (value: unknown): NamedQueryRow['value'] =>
  value === null || typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' ? value : String(value);
