// Sales from several sources add up (docs/adr/0164): per product-day, the total each writer (a
// file import's mapping, an integration) last stored, so that a writer replaces only its own part
// of data.sales.quantity and a till's and a web shop's sales of one day add up. An app table, not
// a data table: the report role and the users' SQL keep reading data.sales alone. A deleted sales
// row takes its parts with it. Rows stored before have none: the next writer replaces them once.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sales_sources (
      sales_id bigint not null references data.sales (id) on delete cascade,
      source text not null,
      run text,
      quantity integer not null,
      primary key (sales_id, source)
    )`.execute(db);
  await sql`create index sales_sources_source on sales_sources (source)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table sales_sources`.execute(db);
}
