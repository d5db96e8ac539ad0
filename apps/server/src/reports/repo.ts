// SQL of the reports feature: saved reports, the readable relations of the data schema, and the
// report role's secrets and grants (PostgreSQL mode).
import { sql, type Kysely } from 'kysely';
import type { ChartConfig } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { categoryNames, productNames } from '../plain-words/vocabulary.ts';

type Db = Kysely<Database>;

export type ReportRecord = {
  id: number;
  title: string;
  description: string;
  sql_code: string;
  chart_config: ChartConfig | null;
  pseudocode: string;
  owner: number | null;
  owner_username: string | null;
  created_at: Date;
  updated_at: Date;
  /** Its version (ADR 0168): the row's xmin, changed by every write. */
  version: string;
  /** Who last changed it (null: nobody since it was created, or an account deleted since). */
  updated_by_username: string | null;
};

const selectReports = (db: Db) =>
  db
    .selectFrom('user_reports as r')
    .leftJoin('users as u', 'u.id', 'r.owner')
    .leftJoin('users as editor', 'editor.id', 'r.updated_by')
    .select(['r.id', 'r.title', 'r.description', 'r.sql_code', 'r.chart_config', 'r.pseudocode', 'r.owner', 'u.username as owner_username', 'r.created_at', 'r.updated_at'])
    .select([sql<string>`r.xmin::text`.as('version'), 'editor.username as updated_by_username']);

export const listReports = (db: Db): Promise<ReportRecord[]> => selectReports(db).orderBy('r.updated_at', 'desc').orderBy('r.id', 'desc').execute();

export const findReport = (db: Db, id: number): Promise<ReportRecord | undefined> => selectReports(db).where('r.id', '=', id).executeTakeFirst();

/** The most recently changed report with this title (titles need not be unique). */
export const findReportByTitle = (db: Db, title: string): Promise<ReportRecord | undefined> =>
  selectReports(db).where('r.title', '=', title).orderBy('r.updated_at', 'desc').orderBy('r.id', 'desc').executeTakeFirst();

export type ReportValues = { title: string; description: string; sql_code: string; chart_config: ChartConfig | null; pseudocode: string };

export async function insertReport(db: Db, values: ReportValues & { owner: number }): Promise<number> {
  const row = await db
    .insertInto('user_reports')
    .values({ ...values, chart_config: values.chart_config === null ? null : JSON.stringify(values.chart_config) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Only a report still at version `expected` (when given) is written: false when none was. */
export async function updateReport(db: Db, id: number, change: { values: Partial<ReportValues>; by: number; expected: string | undefined }): Promise<boolean> {
  const { chart_config, ...rest } = change.values;
  const result = await db
    .updateTable('user_reports')
    .set({ ...rest, ...(chart_config === undefined ? {} : { chart_config: chart_config === null ? null : JSON.stringify(chart_config) }), updated_at: sql`now()`, updated_by: change.by })
    .where('id', '=', id)
    .$if(change.expected !== undefined, (query) => query.where(sql<string>`xmin::text`, '=', change.expected as string))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** False when no report was deleted (none with this id, or none still at version `expected`). */
export async function deleteReport(db: Db, id: number, expected: string | undefined): Promise<boolean> {
  const result = await db
    .deleteFrom('user_reports')
    .where('id', '=', id)
    .$if(expected !== undefined, (query) => query.where(sql<string>`xmin::text`, '=', expected as string))
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export type ReadableColumnRow = { relation: string; kind: 'table' | 'view'; column: string; type: string; display_name: string | null };

/** Every table and view of the data schema with its columns, and the display name of catalogued tables. */
export async function listReadableColumns(db: Db): Promise<ReadableColumnRow[]> {
  const { rows } = await sql<ReadableColumnRow>`
    select c.relname as relation, case when c.relkind = 'v' then 'view' else 'table' end as kind,
           a.attname as column, format_type(a.atttypid, a.atttypmod) as type, t.name as display_name
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    left join data_tables t on t.encoded_name = c.relname
    where n.nspname = 'data' and c.relkind in ('r', 'v', 'm', 'p')
    order by c.relname, a.attnum`.execute(db);
  return rows;
}

/** Names only (the gate needs no columns): relation name and display name. */
export async function listReadableNames(db: Db): Promise<{ relation: string; display_name: string | null }[]> {
  const { rows } = await sql<{ relation: string; display_name: string | null }>`
    select c.relname as relation, t.name as display_name
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    left join data_tables t on t.encoded_name = c.relname
    where n.nspname = 'data' and c.relkind in ('r', 'v', 'm', 'p')`.execute(db);
  return rows;
}

/** The report role the migration created, if it could. */
export async function reportRoleSecrets(db: Db): Promise<{ role: string; password: string } | null> {
  const rows = await db.selectFrom('app_secrets').select(['name', 'value']).where('name', 'in', ['report_role', 'report_role_password']).execute();
  const role = rows.find((r) => r.name === 'report_role')?.value;
  const password = rows.find((r) => r.name === 'report_role_password')?.value;
  return role && password ? { role, password } : null;
}

/**
 * SELECT on every relation of the data schema, now and (default privileges) for tables this app
 * creates later; the guarded functions. Idempotent: run at every start for the role in use. Two
 * servers starting at once on one database would write the same catalogue rows at once ("tuple
 * concurrently updated", a duplicate default-privilege row): one transaction-scoped lock takes them in turn.
 */
export async function grantReportReadAccess(db: Db, role: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('stockwise.report-grants'))`.execute(trx);
    await sql`grant usage on schema data, report_guard to ${sql.id(role)}`.execute(trx);
    await sql`grant select on all tables in schema data to ${sql.id(role)}`.execute(trx);
    await sql`alter default privileges in schema data grant select on tables to ${sql.id(role)}`.execute(trx);
    await sql`grant execute on all functions in schema report_guard to ${sql.id(role)}`.execute(trx);
  });
}

/** The role a login connects as, as the app's own pool sees it (null when it does not exist). */
export async function roleExists(db: Db, role: string): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`select exists (select 1 from pg_roles where rolname = ${role}) as found`.execute(db);
  return rows[0]?.found === true;
}

/** Words the built-in generator recognises in a question: the categories and product codes in use. */
export async function listVocabulary(db: Db): Promise<{ categories: string[]; productCodes: string[]; nameWords: readonly string[]; namePhrases: readonly string[] }> {
  const [categories, codes, names] = await Promise.all([
    categoryNames(db),
    // Every code: a code left out would be read as one that names no product.
    db.selectFrom('data.products').select('product_code').orderBy('product_code').execute(),
    productNames(db),
  ]);
  return { categories, productCodes: codes.map((row) => row.product_code), nameWords: names.words, namePhrases: names.phrases };
}
