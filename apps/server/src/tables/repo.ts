// SQL of the tables feature: the catalogue of configurable tables and the dynamic SQL on the real
// tables of the `data` schema. Every identifier here comes from the catalogue and is quoted.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { ROW_VERSION_KEY, type ColumnDefinition } from '@stockwise/contract';
import { executeCompiled } from '../db/compiled.ts';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database>;
export type CatalogueEntry = {
  id: number;
  name: string;
  encoded_name: string;
  folder: string;
  base_table: string | null;
  parent_id: number | null;
  variation_number: number | null;
  columns: ColumnDefinition[];
};

const catalogueColumns = ['id', 'name', 'encoded_name', 'folder', 'base_table', 'parent_id', 'variation_number', 'columns'] as const;

export const listCatalogue = (db: Db): Promise<CatalogueEntry[]> => db.selectFrom('data_tables').select(catalogueColumns).orderBy('folder').orderBy('name').execute();

/** By display name or by encoded name (routes accept either). */
export const findCatalogueEntry = (db: Db, name: string): Promise<CatalogueEntry | undefined> =>
  db.selectFrom('data_tables').select(catalogueColumns).where((eb) => eb.or([eb('name', '=', name), eb('encoded_name', '=', name)])).orderBy('id').executeTakeFirst();

export const insertCatalogueEntry = (db: Db, entry: Omit<CatalogueEntry, 'id'>) =>
  db.insertInto('data_tables').values({ ...entry, columns: JSON.stringify(entry.columns) }).returning(catalogueColumns).executeTakeFirstOrThrow();

export const setCatalogueColumns = (db: Db, name: string, columns: ColumnDefinition[]) =>
  db.updateTable('data_tables').set({ columns: JSON.stringify(columns) }).where('name', '=', name).execute();

export const deleteCatalogueEntry = (db: Db, id: number) => db.deleteFrom('data_tables').where('id', '=', id).execute();

export const listVariationsOf = (db: Db, baseName: string): Promise<CatalogueEntry[]> =>
  db.selectFrom('data_tables').select(catalogueColumns).where('base_table', '=', baseName).execute();

export const findVariation = (db: Db, baseName: string, parentId: number): Promise<CatalogueEntry | undefined> =>
  db.selectFrom('data_tables').select(catalogueColumns).where('base_table', '=', baseName).where('parent_id', '=', parentId).executeTakeFirst();

export async function nextVariationNumber(db: Db, baseName: string): Promise<number> {
  const row = await db.selectFrom('data_tables').select((eb) => eb.fn.max('variation_number').as('n')).where('base_table', '=', baseName).executeTakeFirst();
  return Number(row?.n ?? 0) + 1;
}

export const updateTableFolder = (db: Db, id: number, folder: string) => db.updateTable('data_tables').set({ folder }).where('id', '=', id).execute();

export const listFolders = async (db: Db) => (await db.selectFrom('data_folders').select('path').orderBy('path').execute()).map((r) => r.path);

export const insertFolder = (db: Db, path: string) => db.insertInto('data_folders').values({ path }).onConflict((oc) => oc.column('path').doNothing()).execute();

/** Serialises catalogue changes across instances (PostgreSQL) and keeps numbering race-free. */
export const lockCatalogue = (db: Db) => sql`lock table data_tables in share row exclusive mode`.execute(db);

export type ColumnIndex = { column: string; trigram: boolean };

export async function createDataTable(db: Db, encodedName: string, columnClauses: RawBuilder<unknown>[], indexes: ColumnIndex[]) {
  await sql`create table ${sql.id('data', encodedName)} (${sql.join(columnClauses)})`.execute(db);
  for (const { column, trigram } of indexes) {
    // (column, id) matches the page order and the keyset comparison `(column, id) > (…)`.
    await sql`create index on ${sql.id('data', encodedName)} (${sql.id(column)}, id)`.execute(db);
    if (trigram) await sql`create index on ${sql.id('data', encodedName)} using gin (${sql.id(column)} gin_trgm_ops)`.execute(db);
  }
}

export const dropDataTable = (db: Db, encodedName: string) => sql`drop table if exists ${sql.id('data', encodedName)}`.execute(db);

const table = (encodedName: string) => sql.id('data', encodedName);
const whereClause = (conditions: RawBuilder<unknown>[]) => (conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``);

export type RowRecord = Record<string, string | number | boolean | null>;

/**
 * A row's version (ADR 0168): PostgreSQL's xmin, the transaction that wrote the row as it is now.
 * Every table has it (user-made ones too), on PostgreSQL and PGlite alike, and any write changes it.
 */
const version = sql.raw(`xmin::text as "${ROW_VERSION_KEY}"`);
/** Rows written only when still at `expected` (no condition when undefined). */
const atVersion = (expected: string | undefined) => (expected === undefined ? sql`` : sql` and xmin::text = ${expected}`);

// pg and PGlite hand timestamps back as Date objects; the API speaks ISO strings. The driver's row
// object is ours alone, so it is changed in place (a page converts 50 of them per request).
function toRecord(row: Record<string, unknown>): RowRecord {
  for (const key in row) {
    const value = row[key];
    if (value instanceof Date) row[key] = value.toISOString();
  }
  return row as RowRecord;
}

/**
 * A page's WHERE conditions. With `shape` (what their text depends on) and the `values` they bind
 * in order, the statements around them are compiled once per shape; without, on every request.
 */
export type PageConditions = { sql: RawBuilder<unknown>[]; shape?: string; values?: unknown[] };

/** Runs `build()`'s statement: compiled once per shape when the conditions have one, else built and compiled now. */
async function executeWith<R>(db: Db, conditions: PageConditions, shape: string, values: unknown[], build: () => RawBuilder<R>): Promise<R[]> {
  if (conditions.shape === undefined || !conditions.values) return (await build().execute(db)).rows;
  return executeCompiled(db, `${shape}|${conditions.shape}`, [...conditions.values, ...values], () => build().compile(db));
}

export async function selectRows(
  db: Db,
  options: { encodedName: string; columns: string[]; conditions: PageConditions; sortBy: string; sortDir: 'asc' | 'desc'; limit: number; offset: number },
): Promise<RowRecord[]> {
  const build = () => {
    const direction = options.sortDir === 'asc' ? sql`asc` : sql`desc`;
    // id breaks ties so pages never overlap or skip rows with equal sort values.
    const order = options.sortBy === 'id' ? sql`id ${direction}` : sql`${sql.ref(options.sortBy)} ${direction}, id ${direction}`;
    return sql<Record<string, unknown>>`
    select ${sql.join(options.columns.map((c) => sql.ref(c)))}, ${version} from ${table(options.encodedName)}
    ${whereClause(options.conditions.sql)} order by ${order} limit ${options.limit} offset ${options.offset}`;
  };
  const shape = `rows|${options.encodedName}|${options.columns.join(',')}|${options.sortBy}|${options.sortDir}`;
  const rows = await executeWith(db, options.conditions, shape, [options.limit, options.offset], build);
  return rows.map(toRecord);
}

async function plannerRowEstimate(db: Db, encodedName: string, conditions: RawBuilder<unknown>[]): Promise<number> {
  const plan = await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>`
    explain (format json) select 1 from ${table(encodedName)} ${whereClause(conditions)}`.execute(db);
  return Number(plan.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0);
}

/** `(sort key) >= (the key of the row at offset)`: the start of a page, found by walking the index only. */
export function pageStartCondition(options: { encodedName: string; sortBy: string; sortDir: 'asc' | 'desc'; conditions: RawBuilder<unknown>[]; offset: number }): RawBuilder<unknown> {
  const direction = options.sortDir === 'asc' ? sql`asc` : sql`desc`;
  const comparison = options.sortDir === 'asc' ? sql`>=` : sql`<=`;
  const key = options.sortBy === 'id' ? sql`id` : sql`(${sql.ref(options.sortBy)}, id)`;
  const keyColumns = options.sortBy === 'id' ? sql`id` : sql`${sql.ref(options.sortBy)}, id`;
  const order = options.sortBy === 'id' ? sql`id ${direction}` : sql`${sql.ref(options.sortBy)} ${direction}, id ${direction}`;
  return sql`${key} ${comparison} (select ${keyColumns} from ${table(options.encodedName)} ${whereClause(options.conditions)} order by ${order} offset ${options.offset} limit 1)`;
}

/**
 * Exact counts up to `exactLimit`; above it the planner's estimate, so a count never scans more
 * than `exactLimit` rows. An unfiltered table known (from its statistics) to be large is not
 * scanned at all.
 */
export async function countRows(db: Db, encodedName: string, conditions: PageConditions, exactLimit: number): Promise<{ count: number; estimated: boolean }> {
  if (!conditions.sql.length) {
    const rows = await executeCompiled(db, 'estimate', [encodedName], () =>
      sql<{ estimate: number }>`
      select c.reltuples::float8 as estimate from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'data' and c.relname = ${encodedName}`.compile(db),
    );
    const estimate = Number(rows[0]?.estimate ?? -1);
    if (estimate > exactLimit) return { count: Math.round(estimate), estimated: true };
  }
  const build = () => sql<{ n: number }>`
    select count(*)::int as n from (select 1 from ${table(encodedName)} ${whereClause(conditions.sql)} limit ${exactLimit + 1}) capped`;
  const rows = await executeWith(db, conditions, `count|${encodedName}`, [exactLimit + 1], build);
  const capped = rows[0]?.n ?? 0;
  if (capped <= exactLimit) return { count: capped, estimated: false };
  return { count: Math.max(await plannerRowEstimate(db, encodedName, conditions.sql), capped), estimated: true };
}

/** The business key and name of related rows by id (a page's references), as text. */
export async function selectReferenceLabels(
  db: Db,
  related: { encodedName: string; keyColumn: string; nameColumn: string | null },
  ids: number[],
): Promise<{ id: string; key: string | null; name: string | null }[]> {
  return executeCompiled(db, `labels|${related.encodedName}|${related.keyColumn}|${related.nameColumn ?? ''}`, [ids], () => {
    const name = related.nameColumn ? sql`${sql.ref(related.nameColumn)}::text` : sql`null`;
    return sql<{ id: string; key: string | null; name: string | null }>`
      select id::text as id, ${sql.ref(related.keyColumn)}::text as key, ${name} as name from ${table(related.encodedName)} where id = any(${ids}::bigint[])`.compile(db);
  });
}

/**
 * Rows of a data table whose key or name contains `search` (case-insensitive; empty: every row),
 * those whose key, then whose name, starts with it first, then by key; at most `limit`, with their
 * key and name as text. A table without a key to show is searched by id and ordered by it.
 */
export async function searchRowsByLabel(
  db: Db,
  options: { encodedName: string; display: { keyColumn: string; nameColumn: string | null } | null; search: string; limit: number },
): Promise<{ id: string; key: string | null; name: string | null }[]> {
  const { display, search } = options;
  const key = display ? sql`${sql.ref(display.keyColumn)}::text` : sql`id::text`;
  const name = display?.nameColumn ? sql`${sql.ref(display.nameColumn)}::text` : sql`null::text`;
  // The key column itself, not its text: an index on it (a unique product code has one) gives the first rows of all at once.
  const order = display ? sql`${sql.ref(display.keyColumn)}, id` : sql`id`;
  // strpos and starts_with, not LIKE: the typed text is matched as it is, `%` and `_` included.
  const matching = search === '' ? sql`` : sql`where strpos(lower(${key}), lower(${search})) > 0 or strpos(lower(${name}), lower(${search})) > 0`;
  const startingFirst =
    search === '' ? sql`` : sql`case when starts_with(lower(${key}), lower(${search})) then 0 when starts_with(lower(${name}), lower(${search})) then 1 else 2 end, `;
  const { rows } = await sql<{ id: string; key: string | null; name: string | null }>`
    select id::text as id, ${key} as key, ${name} as name from ${table(options.encodedName)}
    ${matching} order by ${startingFirst}${order} limit ${options.limit}`.execute(db);
  return rows;
}

/** Of the rows `ids` of a data table, those no row of `recordedIn` refers to (their ids as text). */
export async function selectRowsNeverRecorded(db: Db, encodedName: string, recordedIn: { table: string; column: string }, ids: number[]): Promise<string[]> {
  const rows = await executeCompiled(db, `unrecorded|${encodedName}|${recordedIn.table}|${recordedIn.column}`, [ids], () =>
    sql<{ id: string }>`
      select t.id::text as id from ${table(encodedName)} t
      where t.id = any(${ids}::bigint[]) and not exists (select 1 from ${table(recordedIn.table)} r where r.${sql.id(recordedIn.column)} = t.id)`.compile(db),
  );
  return rows.map((row) => row.id);
}

/** A column default that is a constant (`14`, `0`, `'0'::numeric`, `'each'::character varying`): its value as text. */
const constantDefault = /^(?:'((?:[^']|'')*)'|(-?\d+(?:\.\d+)?))(?:::[a-z ]+)?$/;
export function defaultValueOf(expression: string | null): string | null {
  const match = expression === null ? null : constantDefault.exec(expression);
  return match ? (match[1]?.replaceAll("''", "'") ?? (match[2] as string)) : null;
}

/** The columns of a data table whose default is a constant, with that value as text (a delivery's status: scheduled). */
export async function constantColumnDefaults(db: Db, encodedName: string): Promise<Map<string, string>> {
  const { rows } = await sql<{ column_name: string; expression: string | null }>`
    select column_name, column_default as expression from information_schema.columns where table_schema = 'data' and table_name = ${encodedName}`.execute(db);
  return new Map(rows.flatMap((row) => {
    const value = defaultValueOf(row.expression);
    return value === null ? [] : [[row.column_name, value] as const];
  }));
}

export async function insertRow(db: Db, encodedName: string, values: RowRecord): Promise<RowRecord> {
  const keys = Object.keys(values);
  const { rows } = keys.length
    ? await sql<Record<string, unknown>>`insert into ${table(encodedName)} (${sql.join(keys.map((k) => sql.id(k)))}) values (${sql.join(keys.map((k) => values[k]))}) returning *, ${version}`.execute(db)
    : await sql<Record<string, unknown>>`insert into ${table(encodedName)} default values returning *, ${version}`.execute(db);
  return toRecord(rows[0] as Record<string, unknown>);
}

/** The row as written, or undefined when there is none with this id (at `expected`, when given). */
export async function updateRow(db: Db, encodedName: string, id: number, values: RowRecord, expected?: string): Promise<RowRecord | undefined> {
  const keys = Object.keys(values);
  const assignments = keys.length ? sql.join(keys.map((k) => sql`${sql.id(k)} = ${values[k]}`)) : sql`id = id`;
  const { rows } = await sql<Record<string, unknown>>`update ${table(encodedName)} set ${assignments} where id = ${id}${atVersion(expected)} returning *, ${version}`.execute(db);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

/**
 * Another product whose code equals `code` ignoring case and surrounding spaces, with its name —
 * none when `code` is the code product `editedId` has already (twins stored before stay editable).
 * The caller's transaction first waits for any other such check, so two adds of one code take turns.
 */
export async function findProductCodeTwin(db: Db, code: string, editedId: number | null): Promise<{ code: string; name: string | null } | undefined> {
  await sql`select pg_advisory_xact_lock(hashtext('product-codes'))`.execute(db);
  const edited = editedId === null ? sql`` : sql` and id <> ${editedId} and not exists (select 1 from data.products e where e.id = ${editedId} and e.product_code = ${code})`;
  const { rows } = await sql<{ code: string; name: string | null }>`
    select product_code as code, name from data.products
    where lower(trim(product_code)) = lower(${code})${edited} order by product_code limit 1`.execute(db);
  return rows[0];
}

/** The deleted row, or undefined when there was none with this id (at `expected`, when given). */
export async function deleteRow(db: Db, encodedName: string, id: number, expected?: string): Promise<RowRecord | undefined> {
  const { rows } = await sql<Record<string, unknown>>`delete from ${table(encodedName)} where id = ${id}${atVersion(expected)} returning *`.execute(db);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

export async function findRow(db: Db, encodedName: string, id: number): Promise<RowRecord | undefined> {
  const { rows } = await sql<Record<string, unknown>>`select *, ${version} from ${table(encodedName)} where id = ${id}`.execute(db);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

export async function rowExists(db: Db, encodedName: string, id: number): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`select exists (select 1 from ${table(encodedName)} where id = ${id}) as found`.execute(db);
  return rows[0]?.found === true;
}

/** A single-column foreign key that refers to a data table's rows (from a data table or an application table). */
export type ReferencingForeignKey = { schema: string; table: string; column: string };

/**
 * Every single-column foreign key referring to `data.<encodedName>`, read from PostgreSQL's own
 * catalogue; not those whose rows the database deletes with the row (ON DELETE CASCADE: figures
 * derived from it, such as the dashboard's per-product summary), which hold nothing a user keeps.
 */
export async function listReferencingForeignKeys(db: Db, encodedName: string): Promise<ReferencingForeignKey[]> {
  const { rows } = await sql<ReferencingForeignKey>`
    select n.nspname as schema, c.relname as table, a.attname as column
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
    where k.contype = 'f' and k.confdeltype <> 'c' and cardinality(k.conkey) = 1
      and k.confrelid = (select r.oid from pg_class r join pg_namespace rn on rn.oid = r.relnamespace where rn.nspname = 'data' and r.relname = ${encodedName})
    order by n.nspname, c.relname, a.attname`.execute(db);
  return rows;
}

export async function countReferencingRows(db: Db, foreignKey: ReferencingForeignKey, id: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from ${sql.id(foreignKey.schema, foreignKey.table)} where ${sql.id(foreignKey.column)} = ${id}`.execute(db);
  return rows[0]?.n ?? 0;
}

/** Deletes the rows that refer by `foreignKey` to the rows `ids` (one id, or a query of ids): the statement, for the caller's transaction. */
export const deleteReferencingRows = (foreignKey: ReferencingForeignKey, ids: RawBuilder<unknown>) =>
  sql`delete from ${sql.id(foreignKey.schema, foreignKey.table)} where ${sql.id(foreignKey.column)} in (${ids})`;

/** Whether a row referring by `foreignKey` to row `id` (a column or expression) exists. */
export const isReferredBy = (foreignKey: ReferencingForeignKey, id: RawBuilder<unknown>) =>
  sql<boolean>`exists (select 1 from ${sql.id(foreignKey.schema, foreignKey.table)} r where r.${sql.id(foreignKey.column)} = ${id})`;

/** Records a Data screen save of a row: by whom, and the version it left (ADR 0168). */
export const recordRowEdit = (db: Db, edit: { tableName: string; rowId: number; version: string; userId: number | null }) =>
  db
    .insertInto('data_row_edits')
    .values({ table_name: edit.tableName, row_id: edit.rowId, version: edit.version, edited_by: edit.userId })
    .onConflict((oc) => oc.columns(['table_name', 'row_id']).doUpdateSet({ version: edit.version, edited_by: edit.userId, edited_at: sql`now()` }))
    .execute();

/** The last recorded Data screen save of a row, with its author's username. */
export const findRowEdit = (db: Db, tableName: string, rowId: number) =>
  db
    .selectFrom('data_row_edits as e')
    .leftJoin('users as u', 'u.id', 'e.edited_by')
    .select(['e.version', 'u.username', 'e.edited_at'])
    .where('e.table_name', '=', tableName)
    .where('e.row_id', '=', rowId)
    .executeTakeFirst();

export const forgetRowEdits = (db: Db, tableName: string) => db.deleteFrom('data_row_edits').where('table_name', '=', tableName).execute();
