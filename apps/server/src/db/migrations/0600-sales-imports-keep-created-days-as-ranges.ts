// A sales file's before-images for Undo (ADR 0174) named every product-day the file created, one row
// each: on a first import of a million-line file, 400,000 rows written beside the days and their
// parts, about an eighth of the write. A day the import created has nothing to put back but its
// removal, and its source's part says what it wrote, so the import now keeps the ids of the days it
// created as ranges of consecutive ids instead (ADR 0174's amendment of 2026-12-05, "created days as
// ranges"): sales ids are never reused, so a range holds only days this import created. Days that
// existed before keep their row in sales_parts_before_import, as before.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sales_days_created_by_import (
      import_id uuid not null,
      first_id bigint not null,
      last_id bigint not null,
      primary key (import_id, first_id)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Back to one row per created day, the part its source holds being what the import wrote.
  await sql`
    insert into sales_parts_before_import (import_id, sales_id, written, previous_part, replaced, created)
    select c.import_id, l.sales_id, l.quantity, null, 0, true
    from sales_days_created_by_import c join sales_imports_kept k on k.import_id = c.import_id
      join sales_sources l on l.source = k.source and l.sales_id between c.first_id and c.last_id`.execute(db);
  await sql`drop table sales_days_created_by_import`.execute(db);
}
