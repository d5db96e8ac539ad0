// Issue 17 (docs/adr/0081-product-configuration-cache.md): every API instance caches the product
// configuration; any write to its database overlay (entity configs, saved import mappings) — through
// the API, another instance or plain SQL — announces itself on one channel, so every instance drops
// its copy. Statement triggers: one notification per statement, sent when the transaction commits.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function notify_config_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('stockwise_config_changed', tg_table_name);
      return null;
    end $$`.execute(db);
  for (const table of ['config_entities', 'config_mappings']) {
    await sql`
      create trigger ${sql.id(`${table}_notify_change`)} after insert or update or delete or truncate on ${sql.id(table)}
      for each statement execute function notify_config_changed()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['config_entities', 'config_mappings']) await sql`drop trigger ${sql.id(`${table}_notify_change`)} on ${sql.id(table)}`.execute(db);
  await sql`drop function notify_config_changed()`.execute(db);
}
