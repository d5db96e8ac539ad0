// A sales file's import can be undone (ADR 0174): every part it wrote (a product-day under its
// mapping's source) keeps what it was before — absent, or its quantity — and what the write took out
// of the day's total, under the import's log entry, after the import succeeded. Kept for the last
// 20 sales imports (older ones dropped by the next); an import's row in sales_imports_kept orders
// the imports by when they wrote (seq: taken under the sales table's import lock), which the undo's
// refusal reads ("changed since by a later import"). No foreign key from the before-images: its
// check would cost as much as writing them (ADR 0164's amendment on the ledger's write cost); they
// leave with their import's row explicitly. App tables, as sales_sources is.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sales_imports_kept (
      import_id uuid primary key references import_logs (id),
      seq bigint generated always as identity unique,
      source text not null
    )`.execute(db);
  await sql`
    create table sales_parts_before_import (
      import_id uuid not null,
      sales_id bigint not null,
      written integer not null,
      previous_part integer,
      replaced integer not null,
      created boolean not null,
      primary key (import_id, sales_id)
    )`.execute(db);
  await sql`alter table import_logs add column undone_at timestamptz`.execute(db);
  await sql`alter table import_logs add column undone_by bigint references users (id) on delete set null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table import_logs drop column undone_by`.execute(db);
  await sql`alter table import_logs drop column undone_at`.execute(db);
  await sql`drop table sales_parts_before_import`.execute(db);
  await sql`drop table sales_imports_kept`.execute(db);
}
