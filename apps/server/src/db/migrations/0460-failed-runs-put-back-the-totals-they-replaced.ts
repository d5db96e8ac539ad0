// A run's later batches add to the sales parts its first batch replaced (ADR 0139, 0164): a run
// that fails or is cut off after page 1 would leave a product-day at page 1's lines alone, below
// what the last complete run stored. Each part a run replaces keeps its before-image here, under
// the run, until the run ends: dropped when it succeeds, put back when it fails (ADR 0139's
// amendment of 2026-12-05). An app table, as sales_sources is.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sales_parts_before_run (
      run text not null,
      sales_id bigint not null,
      source text not null,
      previous_run text,
      previous_quantity integer not null,
      primary key (run, sales_id)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table sales_parts_before_run`.execute(db);
}
