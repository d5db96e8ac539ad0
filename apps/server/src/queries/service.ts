// Named queries from the configuration: read-only SQL with typed, bound parameters, answering
// rows of {id, value}. Used by GET /api/queries/queries/{name}/ and by query columns of tables.
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { NamedQueryRow, ProductConfig } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

type NamedQuery = ProductConfig['queries'][string];
type QueryParameter = NonNullable<NamedQuery['params']>[string];
type ParameterValue = string | number | boolean;

/** The spec's refusal; `errors` names the parameters that were wrong, and why. */
const notFoundOrBadParameters = (name: string, errors?: Record<string, string[]>) =>
  new AppError('not_found', `Query '${name}' not found or parameter error.`, errors ? { fieldErrors: errors } : {});

export function listNamedQueries(config: ProductConfig) {
  return Object.entries(config.queries).map(([name, query]) => ({ name, description: query.description ?? '', params: query.params ?? {} }));
}

const EXPECTED: Record<QueryParameter['type'], string> = {
  integer: 'Expected a whole number.',
  number: 'Expected a number.',
  date: 'Expected a date as YYYY-MM-DD.',
  boolean: 'Expected true or false.',
  string: 'At most 1000 characters.',
};

/** The parameter's value, or why it is refused. */
function coerceParameter(parameter: QueryParameter, raw: ParameterValue): { value: ParameterValue } | { problem: string } {
  const text = String(raw).trim();
  const value = ((): ParameterValue | null => {
    switch (parameter.type) {
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
  })();
  if (value === null) return { problem: EXPECTED[parameter.type] };
  if (typeof value === 'number' && parameter.min !== undefined && value < parameter.min) return { problem: `Must be at least ${parameter.min}.` };
  return { value };
}

/** Turns `:name` placeholders (not `::casts`) into `$n` and the matching values, or the parameters' problems. */
function bindParameters(query: NamedQuery, given: Record<string, ParameterValue | undefined>): { text: string; values: ParameterValue[] } | { errors: Record<string, string[]> } {
  const declared = query.params ?? {};
  const errors: Record<string, string[]> = {};
  const names = Object.keys(declared);
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(declared, key)) errors[key] = [names.length ? `Not a parameter of this query (it takes ${names.join(', ')}).` : 'This query takes no parameters.'];
  }
  const values: ParameterValue[] = [];
  const positions = new Map<string, number>();
  const text = query.sql.replace(/(?<![:\w]):([a-z][a-z0-9_]*)/g, (placeholder, name: string) => {
    const parameter = Object.hasOwn(declared, name) ? declared[name] : undefined;
    const raw = given[name] ?? parameter?.default;
    const read = !parameter ? { problem: 'Used by the query but not declared in its params.' } : raw === undefined ? { problem: 'Required.' } : coerceParameter(parameter, raw);
    if ('problem' in read) {
      errors[name] = [read.problem];
      return placeholder;
    }
    if (!positions.has(name)) {
      values.push(read.value);
      positions.set(name, values.length);
    }
    return `$${positions.get(name)}`;
  });
  return Object.keys(errors).length ? { errors } : { text, values };
}

export async function runNamedQuery(
  db: Kysely<Database>,
  config: ProductConfig,
  options: { name: string; params: Record<string, ParameterValue | undefined> },
): Promise<NamedQueryRow[]> {
  // Own entries only: 'constructor' is not a query even though every object has one.
  const query = Object.hasOwn(config.queries, options.name) ? config.queries[options.name] : undefined;
  if (!query) throw notFoundOrBadParameters(options.name);
  const bound = bindParameters(query, options.params);
  if ('errors' in bound) throw notFoundOrBadParameters(options.name, bound.errors);
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
