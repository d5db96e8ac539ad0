// The bad-input suite (issue #11): every case is a request a stranger, a broken client or a pasted
// spreadsheet could send. Each must get a 4xx with a message in the one error shape, never a 5xx,
// and must change nothing: a checksum of every data table (the `data` schema and the catalogue,
// configuration, user and forecast tables) is the same before and after the refused call.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { productRunsSettled } from '../testing/forecast-client.ts';

const NUL = '\u0000';
const LONE_SURROGATE = '\ud800';
const LONG = 'x'.repeat(10_000);

/** Application tables whose content a refused call must leave as it was (besides every table of `data`). */
const CHECKED_APP_TABLES = ['data_tables', 'data_folders', 'config_entities', 'users', 'forecast_tasks', 'forecast_results', 'integrations'];

type Fixture = { table: string; otherTable: string; productId: number; productCode: string; rowId: number; shadowed: string; userId: number };
type Caller = 'admin' | 'editor' | 'anonymous';
type Call = { method?: string; path: string; body?: unknown; raw?: string | FormData; headers?: Record<string, string>; as?: Caller };
/** [what is sent, the request, the exact 4xx it must get when the issue names one]. */
type BadInput = [name: string, call: (f: Fixture) => Call, status?: number];

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const filters = (value: unknown) => `filters_json=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`;
/** JSON text of objects nested `depth` deep (built as text: the test's own JSON.stringify would overflow). */
const nestedJson = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const data = (f: Fixture, query: string) => ({ path: `/api/records/tables/${f.table}/data/?${query}` });
const addRow = (f: Fixture, body: unknown) => ({ path: `/api/records/tables/${f.table}/rows/add/`, body, as: 'editor' as const });
const validRow = { title: 'Gamma', due: '2026-03-01' };
let scratchTables = 0;
/** A table creation with a fresh name, so a case the server wrongly accepts does not decide the next one. */
const createTable = (body: Record<string, unknown>) => {
  scratchTables += 1;
  return { path: '/api/records/tables/create/', body: { name: `Bad input scratch ${scratchTables}`, folder: 'Tests', ...body } };
};
const withColumn = (column: Record<string, unknown>) => createTable({ columns: [{ type: 'CharField', ...column }] });
const entity = (config: Record<string, unknown>, name = 'bad_input_entity') => ({ path: '/api/yaml/update-entity/', body: { entity_name: name, config: { table: 'products', key: ['product_code'], ...config } } });

const cases: BadInput[] = [
  // NUL bytes, refused by the contract in every string.
  ['a NUL in a username at registration', () => ({ path: '/api/accounts/register/', body: { username: `ann${NUL}`, password: 'Correct horse 1' }, as: 'anonymous' }), 400],
  ['a NUL in an email at registration', () => ({ path: '/api/accounts/register/', body: { username: 'ann_nul_mail', password: 'Correct horse 1', email: `a${NUL}@b.co` }, as: 'anonymous' }), 400],
  ['a NUL in a username at sign-in', () => ({ path: '/api/token/', body: { username: `admin${NUL}`, password: 'whatever1' }, as: 'anonymous' }), 400],
  ['a NUL in a password at sign-in', () => ({ path: '/api/token/', body: { username: 'nobody', password: `pass${NUL}word` }, as: 'anonymous' }), 400],
  ['a NUL in a refresh token', () => ({ path: '/api/token/refresh/', body: { refresh: `abc${NUL}def` }, as: 'anonymous' }), 400],
  ['a NUL in a table name', () => createTable({ name: `Orders${NUL}` }), 400],
  ['a NUL in a folder of a new table', () => createTable({ folder: `Tests${NUL}` }), 400],
  ['a NUL in a column label', () => withColumn({ key: 'label_nul', label: `Label${NUL}` }), 400],
  ['a NUL in a choice', () => withColumn({ key: 'choice_nul', choices: ['S', `M${NUL}`] }), 400],
  ['a NUL in a new folder path', () => ({ path: '/api/records/tables/create-folder/', body: { folderPath: `Archive${NUL}` } }), 400],
  ['a NUL in a folder to move a table to', (f) => ({ path: `/api/records/tables/${f.shadowed}/update-folder/`, body: { folder: `Archive${NUL}` } }), 400],
  ['a NUL in a text value of a new row', (f) => addRow(f, { ...validRow, title: `Ga${NUL}mma` }), 400],
  ['a NUL in a long-text value of a new row', (f) => addRow(f, { ...validRow, notes: `line${NUL}` }), 400],
  ['a NUL in an edited value', (f) => ({ path: `/api/records/tables/${f.table}/rows/edit/`, body: { id: f.rowId, notes: `x${NUL}` }, as: 'editor' }), 400],
  ['a NUL in a field name of a new row', (f) => addRow(f, { ...validRow, [`ti${NUL}tle`]: 'x' }), 400],
  ['a NUL in a table name in the path', () => ({ path: '/api/records/tables/orders%00/data/' }), 400],
  ['a NUL in a text filter', (f) => data(f, filters({ title: `Al${NUL}` })), 400],
  ['a NUL in a contains filter on a number column', (f) => data(f, filters({ quantity: { contains: `1${NUL}` } })), 400],
  ['a NUL in a filter key', (f) => data(f, filters({ [`title${NUL}`]: 'x' })), 400],
  ['a NUL in the sort column', (f) => data(f, `sort_by=title%00`), 400],
  ['a NUL in the after cursor', (f) => data(f, `sort_by=due&after=${base64url([`2026-01-01${NUL}`, 1])}`), 400],
  ['a NUL in the base table of a new variation', () => ({ path: '/api/records/tables/create-variation/', body: { base_table: `products${NUL}`, parent_id: 1 }, as: 'editor' }), 400],
  ['a NUL in the base table of a variation name', () => ({ path: '/api/records/tables/get-variation-name/?base_table=products%00&parent_id=1' }), 400],
  ['a NUL in the table of variation columns', () => ({ path: '/api/records/tables/products%00/variation-columns/' }), 400],
  ['a NUL in the table to delete', () => ({ path: '/api/records/tables/products%00/delete/', method: 'POST' }), 400],
  ['a NUL in a name to encode', () => ({ path: '/api/records/encode/', body: { text: `Q1${NUL}` } }), 400],
  ['a NUL in an entity name', () => entity({}, `products${NUL}`), 400],
  ['a NUL in an entity description', () => entity({ description: `about${NUL}` }), 400],
  ['a NUL in an entity table', () => entity({ table: `products${NUL}` }), 400],
  ['a NUL in the name of an entity to set back to the file', () => ({ path: '/api/yaml/reset-entity/', body: { entity_name: `sales${NUL}` } }), 400],
  ['a 10k-character name of an entity to set back to the file', () => ({ path: '/api/yaml/reset-entity/', body: { entity_name: LONG } }), 400],
  ['a NUL in a named query parameter', () => ({ path: '/api/queries/queries/units_sold_last_30_days/?days=3%00' }), 400],
  ['a NUL in a forecast style code', () => ({ path: '/api/forecasting/request-generation/', body: { style_code: `P-1${NUL}` } }), 400],
  ['a NUL in the style code of a product forecast', () => ({ path: '/api/forecasting/forecasts/P-1%00' }), 400],
  ['a NUL in a forecast task id', () => ({ path: '/api/forecasting/status/abc%00/' }), 400],
  ['a NUL in the style code of an order the assistant creates', () => ({ path: '/api/assistant/actions/', body: { action: 'create_recommended_orders', orders: [{ styleCode: `P-1${NUL}`, quantity: 5 }] }, as: 'editor' }), 400],
  ['a NUL in the style code of an order recorded from the list', () => ({ path: '/api/order-advice/orders/', body: { styleCode: `P-1${NUL}`, quantity: 5, expectedDate: '2030-01-01' }, as: 'editor' }), 400],
  ['a NUL in the quantity of an order recorded from the list', () => ({ path: '/api/order-advice/orders/', body: { styleCode: 'P-1', quantity: `5${NUL}`, expectedDate: '2030-01-01' }, as: 'editor' }), 400],
  ['a NUL in an import id', () => ({ path: '/api/records/imports/abc%00/' })],

  // Lone surrogates: not text at all; stored, they would silently become U+FFFD.
  ['a lone surrogate in a table name', () => createTable({ name: `Orders ${LONE_SURROGATE}` }), 400],
  ['a lone surrogate in a row value', (f) => addRow(f, { ...validRow, title: `G${LONE_SURROGATE}` }), 400],
  ['a lone surrogate in a filter', (f) => data(f, filters({ title: `A${LONE_SURROGATE}` })), 400],
  ['a lone surrogate in a username at sign-in', () => ({ path: '/api/token/', body: { username: `ann${LONE_SURROGATE}`, password: 'whatever1' }, as: 'anonymous' }), 400],

  // 10 000-character strings.
  ['a 10k-character table name', () => createTable({ name: LONG }), 400],
  ['a 10k-character row value', (f) => addRow(f, { ...validRow, title: LONG }), 400],
  ['a 10k-character username', () => ({ path: '/api/accounts/register/', body: { username: LONG, password: 'Correct horse 1' }, as: 'anonymous' }), 400],
  ['a 10k-character filter value', (f) => data(f, filters({ title: LONG })), 400],
  ['a 10k-character entity name', () => entity({}, LONG), 400],
  ['a 10k-character style code', () => ({ path: '/api/forecasting/request-generation/', body: { style_code: LONG } }), 400],
  ['a 10k-character quantity of an order recorded from the list', () => ({ path: '/api/order-advice/orders/', body: { styleCode: 'P-1', quantity: LONG, expectedDate: '2030-01-01' }, as: 'editor' }), 400],
  ['a 10k-character arrival of an order recorded from the list', () => ({ path: '/api/order-advice/orders/', body: { styleCode: 'P-1', quantity: 5, expectedDate: LONG }, as: 'editor' }), 400],
  ['a 10k-character table name in the path', () => ({ path: `/api/records/tables/${LONG}/data/` }), 400],

  // Numbers as strings, numbers out of range, the wrong kind of number.
  ['a whole number with letters', (f) => addRow(f, { ...validRow, quantity: '12abc' }), 400],
  ['a whole number beyond the integer range', (f) => addRow(f, { ...validRow, quantity: '99999999999' }), 400],
  ['a decimal beyond any float', (f) => addRow(f, { ...validRow, price: '1e400' }), 400],
  ['Arabic-Indic digits as a number', (f) => addRow(f, { ...validRow, quantity: '١٢' }), 400],
  ['a row id in exponent form', (f) => ({ path: `/api/records/tables/${f.table}/rows/delete/`, body: { id: '1e3' }, as: 'editor' }), 400],
  ['a row id beyond a safe integer', (f) => ({ path: `/api/records/tables/${f.table}/rows/delete/`, body: { id: 1e20 }, as: 'editor' }), 400],
  ['a negative row id', (f) => ({ path: `/api/records/tables/${f.table}/rows/edit/`, body: { id: -5, title: 'x' }, as: 'editor' }), 400],
  ['a page that is not a number', (f) => data(f, 'page=abc'), 400],
  ['a page size of zero', (f) => data(f, 'page_size=0'), 400],
  ['a parent row id that is not a number', () => ({ path: '/api/records/tables/create-variation/', body: { base_table: 'products', parent_id: 'abc' }, as: 'editor' }), 400],
  ['a parent row id beyond bigint', () => ({ path: '/api/records/tables/create-variation/', body: { base_table: 'products', parent_id: 1e20 }, as: 'editor' }), 400],
  ['a parent row id beyond bigint in a query', () => ({ path: '/api/records/tables/get-variation-name/?base_table=products&parent_id=100000000000000000000' }), 400],
  ['a user id that is not a number', () => ({ path: '/api/accounts/users/abc/role/', body: { role: 'viewer' } }), 400],
  ['a user id beyond a safe integer', () => ({ path: '/api/accounts/users/99999999999999999999/role/', body: { role: 'viewer' } }), 400],
  ['a forecast horizon that is not a number', () => ({ path: '/api/forecasting/request-generation/', body: { style_code: 'P-1', forecast_days: 'abc' } }), 400],
  ['a forecast horizon of a billion days', () => ({ path: '/api/forecasting/request-generation/', body: { style_code: 'P-1', forecast_days: 1e9 } }), 400],
  ['a named query integer parameter beyond int4', () => ({ path: '/api/queries/queries/units_sold_last_30_days/?days=99999999999999' })],

  // Dates.
  ['an impossible date', (f) => addRow(f, { ...validRow, due: '2026-02-30' }), 400],
  ['a year-zero date and time', (f) => addRow(f, { ...validRow, seen_at: '0000-01-01T00:00:00Z' }), 400],
  ['a year-zero date in a filter (PostgreSQL: 22008)', (f) => data(f, filters({ due: { gte: '0000-01-01' } })), 400],
  ['a year-zero date in a row (PostgreSQL: 22008)', (f) => addRow(f, { ...validRow, due: '0000-01-01' }), 400],
  ['an impossible date in a range filter', (f) => data(f, filters({ due: { gte: '2026-13-45' } })), 400],

  // Deep JSON.
  ['a deeply nested row value', (f) => ({ path: `/api/records/tables/${f.table}/rows/add/`, raw: `{"title":"Gamma","due":"2026-03-01","notes":${nestedJson(5000)}}`, as: 'editor' }), 400],
  ['a deeply nested entity config', () => ({ path: '/api/yaml/update-entity/', raw: `{"entity_name":"deep","config":{"table":"products","key":["product_code"],"description":${nestedJson(5000)}}}` }), 400],
  ['deeply nested filters_json', (f) => data(f, filters(`${'['.repeat(2000)}${']'.repeat(2000)}`)), 400],
  ['a body nested 100 000 deep', (f) => ({ path: `/api/records/tables/${f.table}/rows/add/`, raw: `${'['.repeat(100_000)}${']'.repeat(100_000)}`, as: 'editor' }), 400],

  // Keyset cursors that do not fit the sort column.
  ['a cursor that is not base64 JSON', (f) => data(f, 'sort_by=due&after=%21%21%21'), 400],
  ['a cursor whose date is not a date', (f) => data(f, `sort_by=due&after=${base64url(['not a date', 1])}`), 400],
  ['a cursor whose date is a number', (f) => data(f, `sort_by=due&after=${base64url([1.5, 1])}`), 400],
  ['a cursor whose id is not a safe integer', (f) => data(f, `after=${base64url([1, 1e30])}`), 400],
  ['a cursor whose value is an object', (f) => data(f, `sort_by=due&after=${base64url([{ a: 1 }, 1])}`), 400],
  ['a cursor with a number for a text column', (f) => data(f, `sort_by=title&after=${base64url([12345, 1])}`), 400],
  ['a cursor with null for a required column', (f) => data(f, `sort_by=due&after=${base64url([null, 1])}`), 400],

  // System-column names and prototype names.
  ['a column named xmin', () => withColumn({ key: 'xmin' }), 400],
  ['a column named ctid', () => withColumn({ key: 'ctid' }), 400],
  ['a column named tableoid', () => withColumn({ key: 'tableoid' }), 400],
  ['a column named cmax', () => withColumn({ key: 'cmax' }), 400],
  ['a column named oid', () => withColumn({ key: 'oid' }), 400],
  ['a column named constructor', () => withColumn({ key: 'constructor' }), 400],
  ['a table named __proto__', () => createTable({ name: '__proto__' }), 400],
  ['a table named constructor', () => createTable({ name: 'constructor' }), 400],
  ['a table named prototype', () => createTable({ name: 'prototype' }), 400],
  ['a filter on __proto__', (f) => data(f, filters('{"__proto__": "x"}')), 400],
  ['a filter on constructor', (f) => data(f, filters({ constructor: 'x' })), 400],
  ['an entity named __proto__', () => entity({}, '__proto__'), 400],
  ['an entity named constructor', () => entity({}, 'constructor'), 400],
  ['a named query called constructor', () => ({ path: '/api/queries/queries/constructor/' })],
  ['a named query called __proto__', () => ({ path: '/api/queries/queries/__proto__/' })],
  ['a row with a __proto__ field', (f) => ({ path: `/api/records/tables/${f.table}/rows/add/`, raw: '{"title":"x","due":"2026-01-01","__proto__":{"admin":true}}', as: 'editor' }), 400],
  ['a field mapping onto __proto__', () => entity({ field_mappings: JSON.parse('{"__proto__": "sku"}') as unknown }), 400],

  // Choices on integer columns.
  ['non-numeric choices on an integer column', () => withColumn({ key: 'rank', type: 'IntegerField', choices: ['low', 'high'] }), 400],
  ['fractional choices on an integer column', () => withColumn({ key: 'rank', type: 'IntegerField', choices: ['1.5'] }), 400],
  ['a value outside the choices', (f) => addRow(f, { ...validRow, size: 'XL' }), 400],

  // What PostgreSQL itself refuses: 23xxx constraints are conflicts, named in words.
  ['a duplicate unique value', (f) => addRow(f, { title: 'Alpha', due: '2026-01-01' }), 409],
  ['an edit onto a duplicate unique value', (f) => ({ path: `/api/records/tables/${f.table}/rows/edit/`, body: { id: f.rowId, title: 'Beta' }, as: 'editor' }), 409],
  // A reference to no row is the field's mistake, refused before the database would (a 400 naming it).
  ['a reference to a missing row', (f) => addRow(f, { ...validRow, product_id: 987_654 }), 400],
  ['an edit onto a reference to a missing row', (f) => ({ path: `/api/records/tables/${f.table}/rows/edit/`, body: { id: f.rowId, product_id: 987_654 }, as: 'editor' }), 400],
  ['a NUL in the search of related rows', () => ({ path: '/api/records/tables/sales/related-rows/product_id/?search=mu%00g' }), 400],
  ['a related-rows limit beyond its cap', () => ({ path: '/api/records/tables/sales/related-rows/product_id/?limit=100000' }), 400],
  ['related rows of a column that is no reference', () => ({ path: '/api/records/tables/sales/related-rows/quantity/' }), 400],
  ['related rows of a column key that cannot be one', () => ({ path: '/api/records/tables/sales/related-rows/Product-ID/' }), 400],
  ['a NUL in the filters of an export', (f) => ({ path: `/api/records/tables/${f.table}/export/?${filters({ title: 'a\u0000b' })}` }), 400],
  ['an export filter a number column cannot read', () => ({ path: `/api/records/tables/products/export/?${filters({ current_stock: '<<10' })}` }), 400],
  ['an export sorted by no column', (f) => ({ path: `/api/records/tables/${f.table}/export/?sort_by=nope` }), 400],
  ['an export of filters nested deep', (f) => ({ path: `/api/records/tables/${f.table}/export/?filters_json=${encodeURIComponent(nestedJson(500))}` }), 400],
  ['an export in a format it does not write', (f) => ({ path: `/api/records/tables/${f.table}/export/?format=xls` }), 400],
  ['a NUL in the format of an export', (f) => ({ path: `/api/records/tables/${f.table}/export/?format=xlsx%00` }), 400],
  ['a report download in a format it does not write', () => ({ path: '/api/user-reports/export/?format=pdf', body: { sql_code: 'select 1', title: 'x' } }), 400],
  ['a report download of SQL that writes', () => ({ path: '/api/user-reports/export/?format=xlsx', body: { sql_code: 'delete from products', title: 'x' } }), 400],
  ['a report download with a NUL in its title', () => ({ path: '/api/user-reports/export/?format=xlsx', body: { sql_code: 'select 1', title: `Stock${NUL}` } }), 400],
  ['an integration in a time zone that does not exist', () => ({ path: '/api/integrations/scheduled/', body: { endpoint: 'https://example.com/x', time_zone: 'Mars/Olympus_Mons' } }), 400],
  ['an integration time zone with a NUL', () => ({ path: '/api/integrations/scheduled/', body: { endpoint: 'https://example.com/x', time_zone: 'Europe/Ber\u0000lin' } }), 400],
  ['an integration time zone as a number', () => ({ path: '/api/integrations/scheduled/', body: { endpoint: 'https://example.com/x', time_zone: 42 } }), 400],
  // Trying an endpoint: refused before anything is fetched.
  ['a try without a target entity', () => ({ path: '/api/integrations/try/', body: { endpoint: 'https://example.com/orders' } }), 400],
  ['a try of an endpoint that is no web address', () => ({ path: '/api/integrations/try/', body: { endpoint: 'ftp://example.com/orders', target_entity: 'sales' } }), 400],
  ['a try onto an entity that does not exist', () => ({ path: '/api/integrations/try/', body: { endpoint: 'https://example.com/orders', target_entity: 'nope' } }), 400],
  ['a try with a mapping whose paths are not text', () => ({ path: '/api/integrations/try/', body: { endpoint: 'https://example.com/orders', target_entity: 'sales', mapping: { field_mappings: { quantity: 3 } } } }), 400],
  ['a try with a field it does not take', () => ({ path: '/api/integrations/try/', body: { endpoint: 'https://example.com/orders', target_entity: 'sales', schedule_frequency: 'hourly' } }), 400],
  ['a try sending the masked auth value of no integration', () => ({ path: '/api/integrations/try/', body: { endpoint: 'https://example.com/orders', target_entity: 'sales', auth_header_value: '••••••••' } }), 400],
  ['a try of an address inside the network', () => ({ path: '/api/integrations/try/', body: { endpoint: 'http://192.168.1.20/till/export.json', target_entity: 'sales' } }), 400],
  ['a second sale of a product on one day', (f) => ({ path: '/api/records/tables/sales/rows/add/', body: { product_id: f.productId, date: '2026-01-05', quantity: 3 }, as: 'editor' }), 409],
  // A negative sale is a return (issue "Real data in", migration 0020); a delivery must bring something:
  // a value below a column's rule is the field's mistake, named before the write (QA pass 4).
  ['a delivery of no units', (f) => ({ path: '/api/records/tables/deliveries/rows/add/', body: { product_id: f.productId, expected_date: '2026-02-05', quantity: 0 }, as: 'editor' }), 400],
  ['a value too large for the index of its column', (f) => addRow(f, { ...validRow, summary: 'z'.repeat(300_000) }), 400],
  ['a negative unit cost', () => ({ path: '/api/records/tables/products/rows/add/', body: { product_code: 'NEG-1', name: 'Negative', unit_cost: -1 }, as: 'editor' }), 400],
  ['deleting a product that has sales, stock and deliveries', (f) => ({ path: '/api/records/tables/products/rows/delete/', body: { id: f.productId }, as: 'editor' }), 409],
  ['deleting it with cascade as an editor', (f) => ({ path: '/api/records/tables/products/rows/delete/', body: { id: f.productId, cascade: true }, as: 'editor' }), 403],
  ['cascade that is not a boolean', (f) => ({ path: '/api/records/tables/products/rows/delete/', body: { id: f.productId, cascade: 'yes' } }), 400],
  ['a row id with letters when asking what refers to it', () => ({ path: '/api/records/tables/products/rows/12a/references/' })],
  ['a row id beyond a safe integer when asking what refers to it', () => ({ path: '/api/records/tables/products/rows/99999999999999999999/references/' })],
  ['a table named like another table\'s encoded name', (f) => createTable({ name: f.shadowed }), 409],
  ['a table whose encoded name is another table\'s name', () => createTable({ name: 'Q2 Orders' }), 409],
  ['a table that already exists', (f) => createTable({ name: f.otherTable }), 409],

  // Bodies and requests that are not what the route takes.
  ['a JSON array as a row', (f) => addRow(f, [1, 2]), 400],
  ['JSON null as a row', (f) => ({ path: `/api/records/tables/${f.table}/rows/add/`, raw: 'null', as: 'editor' }), 400],
  ['malformed JSON', (f) => ({ path: `/api/records/tables/${f.table}/rows/add/`, raw: '{"title": ', as: 'editor' }), 400],
  ['a text/plain body', (f) => ({ path: `/api/records/tables/${f.table}/rows/add/`, raw: 'title=x', headers: { 'content-type': 'text/plain' }, as: 'editor' })],
  ['a broken percent-encoding in the path', () => ({ path: '/api/records/tables/%E0%A4%A/data/' }), 400],
  ['a body over the size limit', (f) => addRow(f, { ...validRow, notes: 'y'.repeat(2 * 1024 * 1024) }), 413],
  ['a 10k-character bearer token', () => ({ path: '/api/records/tables/structure/', headers: { authorization: `Bearer ${LONG}` }, as: 'anonymous' }), 401],
  ['JSON to the multipart import', () => ({ path: '/api/records/process-file/', body: { file: 'x' }, as: 'editor' })],
  ['an upload whose file name holds a NUL', () => {
    const form = new FormData();
    form.append('mapping_config', JSON.stringify({ entities: { products: { field_mappings: { product_code: 'code', name: 'name' } } } }));
    form.append('file', new Blob(['code,name\nNULNAME-1,One\n'], { type: 'text/csv' }), `bad${NUL}.csv`);
    return { path: '/api/records/process-file/', raw: form, as: 'editor' };
  }],
  ['a path escaping the web app folder', () => ({ path: '/assets/..%2f..%2f..%2fpackage.json', as: 'anonymous' })],
  ['a NUL in a web app path', () => ({ path: '/assets/a%00.js', as: 'anonymous' })],
];

/** fast-check families: each run sends one generated string that is never valid text. */
const brokenTexts = {
  'with a NUL': fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 })).map(([a, b]) => `${a}${NUL}${b}`),
  'with a lone surrogate': fc
    .tuple(fc.string({ maxLength: 20 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ maxLength: 20 }))
    .map(([a, unit, b]) => `${a}${String.fromCharCode(unit)}${b}`),
};
const propertyFields: [name: string, call: (f: Fixture, text: string) => Call][] = [
  ['table names', (_f, text) => createTable({ name: `T ${text}`.slice(0, 100) })],
  ['row values', (f, text) => addRow(f, { ...validRow, notes: text })],
  ['filter values', (f, text) => data(f, filters({ notes: text }))],
  ['folder paths', (_f, text) => ({ path: '/api/records/tables/create-folder/', body: { folderPath: `F ${text}` } })],
  ['usernames at sign-in', (_f, text) => ({ path: '/api/token/', body: { username: `u${text}`, password: 'whatever1' }, as: 'anonymous' })],
  ['entity names', (_f, text) => entity({}, `e${text}`)],
];
const propertyCases = propertyFields.flatMap(([field, call]) =>
  Object.entries(brokenTexts).map(([kind, texts]) => [`generated text ${kind} as ${field}`, call, texts] as const),
);

describe.each(backends)('bad input on %s', (backend) => {
  let server: TestServer;
  let webDir: string;
  const tokens = {} as Record<Caller, string | undefined>;
  const fixture = {} as Fixture;

  async function send(call: Call) {
    const headers: Record<string, string> = { ...call.headers };
    const token = tokens[call.as ?? 'admin'];
    if (token) headers.authorization ??= `Bearer ${token}`;
    let body: string | FormData | null = null;
    if (call.raw !== undefined) body = call.raw;
    else if (call.body !== undefined) body = JSON.stringify(call.body);
    if (typeof body === 'string') headers['content-type'] ??= 'application/json';
    const response = await fetch(`${server.url}${call.path}`, { method: call.method ?? (body === null ? 'GET' : 'POST'), headers, body });
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // Checked below: every refusal is JSON.
    }
    return { status: response.status, text, json };
  }

  /** One digest per table: every table of the `data` schema and the application tables that hold data. */
  async function checksum(): Promise<Record<string, string>> {
    const db = server.database.db;
    const { rows: dataTables } = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = 'data' order by tablename`.execute(db);
    const digests: Record<string, string> = {};
    for (const [schema, table] of [...dataTables.map((t) => ['data', t.name] as const), ...CHECKED_APP_TABLES.map((t) => ['public', t] as const)]) {
      const { rows } = await sql<{ digest: string }>`select md5(coalesce(string_agg(t::text, E'\n' order by t::text), '')) as digest from ${sql.id(schema, table)} t`.execute(db);
      digests[`${schema}.${table}`] = rows[0]?.digest ?? '';
    }
    return digests;
  }

  async function expectRefused(call: Call, status?: number) {
    const before = await checksum();
    const response = await send(call);
    expect(response.status, `answered 5xx: ${response.text.slice(0, 300)}`).toBeLessThan(500);
    expect(response.status, response.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
    if (status) expect(response.status, response.text.slice(0, 300)).toBe(status);
    expect(response.json.detail, response.text.slice(0, 300)).toEqual(expect.stringMatching(/\S/));
    expect(response.json.code).toEqual(expect.any(String));
    expect(await checksum()).toEqual(before);
    return response;
  }

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), 'stockwise-web-'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>app</title>');
    server = await startTestServer(backend, { WEB_DIST_DIR: webDir, LOGIN_MAX_FAILURES_PER_IP: '100000', LOGIN_MAX_FAILURES_PER_ACCOUNT: '100' });
    tokens.admin = (await signUpUser(server)).access;
    const editor = await signUpUser(server, { role: 'editor' });
    tokens.editor = editor.access;
    fixture.userId = editor.id;
    const ok = async (call: Call, status = 201) => {
      const response = await send(call);
      expect(response.status, response.text).toBe(status);
      return response.json;
    };
    fixture.productCode = 'P-BAD-1';
    fixture.productId = (await ok({ path: '/api/records/tables/products/rows/add/', body: { product_code: fixture.productCode, name: 'Garden hose 25 m', current_stock: 12, unit_cost: 9.5 } })).id as number;
    await ok({ path: '/api/records/tables/sales/rows/add/', body: { product_id: fixture.productId, date: '2026-01-05', quantity: 2 } });
    await ok({ path: '/api/records/tables/stock_snapshots/rows/add/', body: { product_id: fixture.productId, date: '2026-01-05', stock_level: 12 } });
    await ok({ path: '/api/records/tables/deliveries/rows/add/', body: { product_id: fixture.productId, expected_date: '2026-02-01', quantity: 24, status: 'scheduled' } });
    const columns = [
      { key: 'title', type: 'CharField', max_length: 20, required: true, unique: true },
      { key: 'due', type: 'DateField', required: true },
      { key: 'quantity', type: 'IntegerField' },
      { key: 'price', type: 'DecimalField', max_digits: 6, decimal_places: 2 },
      { key: 'seen_at', type: 'DateTimeField' },
      { key: 'notes', type: 'TextField' },
      { key: 'summary', type: 'TextField', indexed: true },
      { key: 'size', type: 'CharField', max_length: 5, choices: ['S', 'M', 'L'] },
      { key: 'product_id', type: 'ForeignKey', related_table: 'products' },
    ];
    fixture.table = ((await ok({ path: '/api/records/tables/create/', body: { name: 'Bad input orders', folder: 'Tests', columns } })).encodedName as string);
    fixture.rowId = (await ok({ path: `/api/records/tables/${fixture.table}/rows/add/`, body: { title: 'Alpha', due: '2026-01-01', quantity: 1 } })).id as number;
    await ok({ path: `/api/records/tables/${fixture.table}/rows/add/`, body: { title: 'Beta', due: '2026-01-02', quantity: 2 } });
    // "Q1 Orders" exists; a new table may not take its encoded name as a display name. And a table
    // named as "Q2 Orders" encodes exists; "Q2 Orders" itself may then not be created.
    fixture.shadowed = (await ok({ path: '/api/records/tables/create/', body: { name: 'Q1 Orders', folder: 'Tests' } })).encodedName as string;
    fixture.otherTable = 'Q1 Orders';
    const q2Encoded = (await ok({ path: '/api/records/encode/', body: { text: 'Q2 Orders' } }, 200)).encoded as string;
    await ok({ path: '/api/records/tables/create/', body: { name: q2Encoded, folder: 'Tests' } });
    // The product's rows queued runs of its forecast (ADR 0133): they end before a refusal's checksums, or their ends would change forecast_tasks between them.
    await productRunsSettled(server.database.db, fixture.productCode);
  });
  afterAll(async () => {
    await server.stop();
    rmSync(webDir, { recursive: true, force: true });
  });

  it.each(cases)('refuses %s', async (_name, call, status) => {
    await expectRefused(call(fixture), status);
  });

  it.each(propertyCases)('refuses %s', async (_name, call, texts) => {
    await fc.assert(
      fc.asyncProperty(texts, async (text) => {
        await expectRefused(call(fixture, text), 400);
      }),
      { numRuns: 15, seed: 11, includeErrorInReport: true },
    );
  });
});
