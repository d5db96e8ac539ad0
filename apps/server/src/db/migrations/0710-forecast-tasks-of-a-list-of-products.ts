// A forecast task of a list of products (ADR 0187): a supplier's purchase order, the assistant's
// advised orders or a few rows written on the Data screen forecast those products in one task, not
// the whole catalogue. `product_ids` names them (one product stays `style_code`, the whole catalogue
// both null). The catalogue's own indexes — at most one queued and one running (ADR 0132), its
// completed runs by date — leave the lists out, and a partial index finds the queued list a request
// merges into.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table forecast_tasks add column product_ids bigint[]`.execute(db);
  await sql`alter table forecast_tasks add constraint forecast_tasks_one_scope check (style_code is null or product_ids is null)`.execute(db);
  await catalogueIndexes(db, sql`and product_ids is null`);
  await sql`create index forecast_tasks_queued_list on forecast_tasks (created_at) where product_ids is not null and status in ('pending', 'processing')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Without the column a list task would read as the whole catalogue's: they go (their forecasts stay, unnamed).
  await sql`delete from forecast_tasks where product_ids is not null`.execute(db);
  await sql`drop index forecast_tasks_queued_list`.execute(db);
  await catalogueIndexes(db, sql``);
  await sql`alter table forecast_tasks drop constraint forecast_tasks_one_scope`.execute(db);
  await sql`alter table forecast_tasks drop column product_ids`.execute(db);
}

/** The whole catalogue's indexes (migrations 0004 and 0170), their condition narrowed by `andAlso`. */
async function catalogueIndexes(db: Kysely<unknown>, andAlso: ReturnType<typeof sql>): Promise<void> {
  await sql`drop index forecast_tasks_catalogue`.execute(db);
  await sql`drop index forecast_tasks_one_queued_catalogue`.execute(db);
  await sql`drop index forecast_tasks_one_running_catalogue`.execute(db);
  await sql`create index forecast_tasks_catalogue on forecast_tasks (created_at desc) where style_code is null ${andAlso} and status = 'completed'`.execute(db);
  await sql`create unique index forecast_tasks_one_queued_catalogue on forecast_tasks ((style_code is null)) where style_code is null ${andAlso} and status in ('pending', 'processing')`.execute(db);
  await sql`create unique index forecast_tasks_one_running_catalogue on forecast_tasks ((style_code is null)) where style_code is null ${andAlso} and status = 'running'`.execute(db);
}
