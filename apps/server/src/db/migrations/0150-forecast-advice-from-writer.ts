// The order advice columns of a stored forecast (stockouts, reorder, model_name; migration 0140) as
// the writer gives them (issue #16, docs/adr/0112, fifth-session amendment). The catalogue run's
// threads have these values before the forecast is stringified; reading them back out of the
// ~19 kB text cost the database a JSON pass per row. One rule for every writer: what a write does
// not give is read from the text, as before — an insert without them, or an update that changes
// the text but leaves them as they were (a hand-written `update … set result = …`).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger forecast_results_advice on forecast_results`.execute(db);
  await sql`
    create trigger forecast_results_advice_on_insert before insert on forecast_results for each row
    when (new.stockouts is null or new.reorder is null or new.model_name is null)
    execute function forecast_results_advice()`.execute(db);
  // The stored text is compared last: only when the advice is unchanged, so a write that gives new
  // advice never reads it back.
  await sql`
    create trigger forecast_results_advice_on_update before update of result on forecast_results for each row
    when (new.stockouts is null or new.reorder is null or new.model_name is null
      or (new.stockouts is not distinct from old.stockouts and new.reorder is not distinct from old.reorder
        and new.model_name is not distinct from old.model_name and new.result is distinct from old.result))
    execute function forecast_results_advice()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger forecast_results_advice_on_insert on forecast_results`.execute(db);
  await sql`drop trigger forecast_results_advice_on_update on forecast_results`.execute(db);
  await sql`create trigger forecast_results_advice before insert or update of result on forecast_results for each row execute function forecast_results_advice()`.execute(db);
}
