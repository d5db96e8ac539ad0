// The log of file imports (spec §3 Import log entry), with progress for long imports.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table import_logs (
      id uuid primary key,
      operation_type text not null default 'import',
      status text not null check (status in ('running', 'success', 'error')),
      file_name text not null,
      mapping_name text not null,
      entity_type text not null,
      details jsonb not null default '{}'::jsonb,
      error_message text,
      file_content text,
      rows_done integer not null default 0,
      bytes_done bigint not null default 0,
      bytes_total bigint,
      created_by bigint references users (id) on delete set null,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    )`.execute(db);
  await sql`create index import_logs_recent on import_logs (created_at desc)`.execute(db);
}
