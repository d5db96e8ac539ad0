// At most one whole-catalogue forecast task queued or running: a second request joins it (#11).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Before this rule several could be left active (a crash mid-run); the newest one stays.
  await sql`
    update forecast_tasks set status = 'failed', error = 'Superseded by a newer whole-catalogue run.', updated_at = now()
    where style_code is null and status in ('pending', 'processing', 'running')
      and id <> (select id from forecast_tasks where style_code is null and status in ('pending', 'processing', 'running') order by created_at desc limit 1)`.execute(db);
  await sql`create unique index forecast_tasks_one_active_catalogue on forecast_tasks ((style_code is null)) where style_code is null and status in ('pending', 'processing', 'running')`.execute(db);
}
