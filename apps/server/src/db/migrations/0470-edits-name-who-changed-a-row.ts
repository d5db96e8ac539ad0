// Who last saved a Data screen row or a report, and the row version that save left (ADR 0168): a
// save refused as made on a stale version names them ("changed by sam at 14:02"). The versions
// themselves are PostgreSQL's xmin, which every table has (user-made ones too): nothing to add there.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table data_row_edits (
      table_name text not null,
      row_id bigint not null,
      version text not null,
      edited_by bigint references users (id) on delete set null,
      edited_at timestamptz not null default now(),
      primary key (table_name, row_id)
    )`.execute(db);
  await sql`alter table user_reports add column updated_by bigint references users (id) on delete set null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table user_reports drop column updated_by`.execute(db);
  await sql`drop table data_row_edits`.execute(db);
}
