// SQL of the demo data's removal: the demo products still here (by code and name, as seeded), and
// their deletion with every row that refers to them.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { deleteReferencingRows } from '../tables/repo.ts';
import type { RowReference } from '../tables/service.ts';

type Db = Kysely<Database>;

/** The ids of the products whose code and name are a demo product's. */
export async function demoProductIds(db: Db, keys: readonly { code: string; name: string }[]): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    select p.id from data.products p
    join unnest(${keys.map((key) => key.code)}::text[], ${keys.map((key) => key.name)}::text[]) as demo(code, name)
      on p.product_code = demo.code and p.name = demo.name
    order by p.id`.execute(db);
  return rows.map((row) => Number(row.id));
}

const idList = (ids: readonly number[]) => sql`select unnest(${ids.map(String)}::int8[])`;

/** How many rows of the demo products' sales (the history a shop would see in its totals) there are. */
export async function countSales(db: Db, ids: readonly number[]): Promise<number> {
  const { rows } = await sql<{ count: string }>`select count(*)::text as count from data.sales where product_id in (${idList(ids)})`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

/** Deletes the products `ids` and, first, the rows of `references` that refer to them (sales, stock counts, deliveries, forecasts, users' own tables). */
export async function deleteProducts(db: Db, ids: readonly number[], references: readonly RowReference[]): Promise<number> {
  for (const reference of references) await deleteReferencingRows(reference.foreignKey, idList(ids)).execute(db);
  const deleted = await db.deleteFrom('data.products').where('id', 'in', ids).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
