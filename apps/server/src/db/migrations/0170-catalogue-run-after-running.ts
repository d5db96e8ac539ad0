// A whole-catalogue forecast requested while one is running is queued to run after it (ADR 0132):
// data imported during a run — a shop's stock counts right after its sales — is read by that next
// run, where joining the running one left it out until the nightly run. At most one queued and one
// running, each kept so by a unique index (races included); a second running one cannot start.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index forecast_tasks_one_active_catalogue`.execute(db);
  await sql`create unique index forecast_tasks_one_queued_catalogue on forecast_tasks ((style_code is null)) where style_code is null and status in ('pending', 'processing')`.execute(db);
  await sql`create unique index forecast_tasks_one_running_catalogue on forecast_tasks ((style_code is null)) where style_code is null and status = 'running'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Back to one active task: the queued one gives way to the running one.
  await sql`
    update forecast_tasks set status = 'failed', error = 'Superseded by the whole-catalogue run already going.', updated_at = now()
    where style_code is null and status in ('pending', 'processing') and exists (select 1 from forecast_tasks r where r.style_code is null and r.status = 'running')`.execute(db);
  await sql`drop index forecast_tasks_one_queued_catalogue`.execute(db);
  await sql`drop index forecast_tasks_one_running_catalogue`.execute(db);
  await sql`create unique index forecast_tasks_one_active_catalogue on forecast_tasks ((style_code is null)) where style_code is null and status in ('pending', 'processing', 'running')`.execute(db);
}
