// The shop's settings carry a version per panel and who saved it last (ADR 0168's amendment "the
// shop's settings"): the currency and the closed dates are saved apart, so a save of one must not
// make the other's open panel stale. Version 0: never saved since versions began (or no row yet).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const panel of ['currency', 'closed_dates']) {
    await sql`alter table shop_settings add column ${sql.raw(`${panel}_version`)} bigint not null default 0`.execute(db);
    await sql`alter table shop_settings add column ${sql.raw(`${panel}_updated_by`)} bigint references users (id) on delete set null`.execute(db);
    await sql`alter table shop_settings add column ${sql.raw(`${panel}_updated_at`)} timestamptz`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const panel of ['closed_dates', 'currency']) {
    for (const column of ['updated_at', 'updated_by', 'version']) await sql`alter table shop_settings drop column ${sql.raw(`${panel}_${column}`)}`.execute(db);
  }
}
