// A product's sales, stock snapshots, deliveries and forecast keep it from being deleted (RESTRICT,
// as user tables' foreign keys always did) instead of vanishing with it (CASCADE): deleting a
// product with history is a 409 saying how many rows refer to it, unless an administrator asks
// for the cascade (tables/service.ts deleteTableRow).
import { sql, type Kysely } from 'kysely';

const productReferences = [
  { table: sql`data.sales`, constraint: 'sales_product_id_fkey' },
  { table: sql`data.stock_snapshots`, constraint: 'stock_snapshots_product_id_fkey' },
  { table: sql`data.deliveries`, constraint: 'deliveries_product_id_fkey' },
  { table: sql`forecast_results`, constraint: 'forecast_results_product_id_fkey' },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { table, constraint } of productReferences) {
    await sql`
      alter table ${table}
        drop constraint ${sql.id(constraint)},
        add constraint ${sql.id(constraint)} foreign key (product_id) references data.products (id) on delete restrict`.execute(db);
  }
}
