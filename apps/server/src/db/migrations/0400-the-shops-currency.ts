// The shop's currency (docs/adr/0166): one row of shop-wide settings, absent until an administrator
// saves them; a shop without it keeps the bare figures it had. The code is checked against the
// runtime's ISO 4217 list by the API; the column only keeps its shape.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table shop_settings (
      only_row boolean primary key default true check (only_row),
      currency text check (currency ~ '^[A-Z]{3}$'),
      updated_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table shop_settings`.execute(db);
}
