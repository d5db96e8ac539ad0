// An integration run says what a file import says (ADR 0011's amendment of 2026-12-03, integration
// runs): its log counts the lines the mapping's row filters left out (by filter) and the products
// it created for unknown codes (the first ones with their fields), with the import's sentences;
// the integration shows the last finished run's sentences beside its status.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integration_logs
    add column rows_filtered integer not null default 0,
    add column filtered_by jsonb not null default '[]',
    add column products_created integer not null default 0,
    add column new_products jsonb not null default '[]',
    add column summary text`.execute(db);
  await sql`alter table integrations add column last_run_summary text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table integration_logs drop column rows_filtered, drop column filtered_by, drop column products_created, drop column new_products, drop column summary`.execute(db);
  await sql`alter table integrations drop column last_run_summary`.execute(db);
}
