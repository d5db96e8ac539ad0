// A stock count file's import can be undone (ADR 0175), as a sales file's can (ADR 0174): every
// stock snapshot it writes keeps the count it replaced (null: the import created the row) beside the
// count written, under the import's log entry, in the import's own transaction. Kept for the last 20
// stock count imports (older ones dropped by the next); an import's row in stock_imports_kept orders
// them by when they wrote (seq: taken under the snapshots' import lock), which the undo's refusal
// reads ("changed since by a later import"), and keeps the day the import judged "on hand" by (its
// time zone). No foreign key from the before-images, for the reason of migration 0570.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table stock_imports_kept (
      import_id uuid primary key references import_logs (id),
      seq bigint generated always as identity unique,
      time_zone text
    )`.execute(db);
  await sql`
    create table stock_counts_before_import (
      import_id uuid not null,
      snapshot_id bigint not null,
      written integer not null,
      previous integer,
      primary key (import_id, snapshot_id)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table stock_counts_before_import`.execute(db);
  await sql`drop table stock_imports_kept`.execute(db);
}
