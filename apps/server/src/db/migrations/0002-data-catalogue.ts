// Column definitions in the table catalogue, folders that may be empty, and entity-config updates.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table data_tables add column columns jsonb not null default '[]'::jsonb`.execute(db);
  await sql`create index data_tables_base on data_tables (base_table, parent_id)`.execute(db);
  await sql`create table data_folders (path text primary key, created_at timestamptz not null default now())`.execute(db);
  await sql`insert into data_folders (path) values ('Inventory')`.execute(db);
  await sql`create index sales_date on data.sales (date)`.execute(db);
  await sql`
    create table config_entities (
      name text primary key,
      config jsonb not null,
      updated_at timestamptz not null default now()
    )`.execute(db);
}
