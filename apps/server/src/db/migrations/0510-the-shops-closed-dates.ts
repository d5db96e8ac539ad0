// The days the shop says it will be closed on (docs/adr/0171): a substitute bank holiday, a
// stock-take day. The forecast sells nothing on them; the API checks the dates and the notes.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table shop_closed_dates (day date primary key, note text)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table shop_closed_dates`.execute(db);
}
