// The row page's path and query string checked by hand on the grid's hot path (docs/adr/0082): a
// request the grid sends (a plain table name, plain numbers, known directions, storable text
// within its limits) is taken as zod would take it; anything else goes to the zod schema itself,
// so every refusal is zod's, word for word.
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { dateOrders, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, reservedNames, storableTextProblem, type RowDataQuery } from '@stockwise/contract';

const PLAIN_NUMBER = /^[1-9][0-9]{0,8}$/;

const storableWithin = (value: unknown, maxLength: number): value is string =>
  typeof value === 'string' && value.length <= maxLength && storableTextProblem(value) === null;

function plainNumber(value: unknown, fallback: number, max: number): number | null {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !PLAIN_NUMBER.test(value)) return null;
  const number = Number(value);
  return number <= max ? number : null;
}

/** The query as `rowDataQuery` parses it, or null when only the schema can say (then it decides). */
export function plainRowDataQuery(query: Record<string, unknown>): RowDataQuery | null {
  const page = plainNumber(query.page, 1, 1_000_000_000);
  const pageSize = plainNumber(query.page_size, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  if (page === null || pageSize === null) return null;
  const { sort_by: sortBy, sort_dir: sortDir = 'asc', filters_json: filtersJson, after, from_end: fromEnd, date_order: dateOrder } = query;
  if (sortDir !== 'asc' && sortDir !== 'desc') return null;
  if (fromEnd !== undefined && fromEnd !== 'true' && fromEnd !== 'false') return null;
  if (dateOrder !== undefined && !(dateOrders as readonly unknown[]).includes(dateOrder)) return null;
  if (sortBy !== undefined && !storableWithin(sortBy, 100)) return null;
  if (filtersJson !== undefined && !storableWithin(filtersJson, 20_000)) return null;
  if (after !== undefined && !storableWithin(after, 2000)) return null;
  // The schema's key order, optional keys only when given (as zod builds its output).
  return {
    page,
    page_size: pageSize,
    ...(sortBy !== undefined ? { sort_by: sortBy } : {}),
    sort_dir: sortDir,
    ...(filtersJson !== undefined ? { filters_json: filtersJson } : {}),
    ...(after !== undefined ? { after } : {}),
    ...(fromEnd !== undefined ? { from_end: fromEnd } : {}),
    ...(dateOrder !== undefined ? { date_order: dateOrder as RowDataQuery['date_order'] } : {}),
  };
}

/** The path parameters as `{ name: tableName }` parses them, or null when only the schema can say. */
export function plainTableParams(params: Record<string, unknown>): { name: string } | null {
  const { name } = params;
  if (!storableWithin(name, 120) || name.length === 0 || name.trim() !== name || (reservedNames as readonly string[]).includes(name)) return null;
  return { name };
}

/** Route option `validatorCompiler` of the row page: its path and query string by hand when they can be, everything else by zod. */
export function rowPageValidatorCompiler<S>(route: FastifyRouteSchemaDef<S>) {
  const bySchema = validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0]);
  const plain = route.httpPart === 'querystring' ? plainRowDataQuery : route.httpPart === 'params' ? plainTableParams : null;
  if (!plain) return bySchema;
  return (input: unknown) => {
    const value = plain(input as Record<string, unknown>);
    return value ? { value } : bySchema(input);
  };
}
