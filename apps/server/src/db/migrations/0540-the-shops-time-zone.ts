// The shop's time zone (ADR 0173): whose "today" the forecast starts on, saved from Settings → Shop
// with its own count of saves and who made the last (ADR 0168's amendment "the shop's settings").
// Null: none chosen, the server's zone decides as before.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table shop_settings add column time_zone text`.execute(db);
  await sql`alter table shop_settings add column time_zone_version bigint not null default 0`.execute(db);
  await sql`alter table shop_settings add column time_zone_updated_by bigint references users (id) on delete set null`.execute(db);
  await sql`alter table shop_settings add column time_zone_updated_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['time_zone_updated_at', 'time_zone_updated_by', 'time_zone_version', 'time_zone']) await sql`alter table shop_settings drop column ${sql.raw(column)}`.execute(db);
}
