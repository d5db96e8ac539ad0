// A decimal column shows the shop's currency only when its definition says it is money (docs/adr/0166,
// amendment "money by the column"). The shipped configuration marks products.unit_cost; a database
// whose products table was made before kept its definition without the mark, so it is added there
// (and to the products' variations, copies of its columns). A fresh database has no columns yet
// here: they come from the configuration at start, mark included.
import { sql, type Kysely } from 'kysely';

const UNIT_COST = sql`'[{"key": "unit_cost", "type": "DecimalField"}]'::jsonb`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update data_tables set columns = (
      select jsonb_agg(case when c->>'key' = 'unit_cost' and c->>'type' = 'DecimalField' and not c ? 'money' then c || '{"money": true}' else c end order by at)
      from jsonb_array_elements(columns) with ordinality as e(c, at)
    )
    where (name = 'products' or base_table = 'products') and columns @> ${UNIT_COST}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update data_tables set columns = (
      select jsonb_agg(case when c->>'key' = 'unit_cost' then c - 'money' else c end order by at)
      from jsonb_array_elements(columns) with ordinality as e(c, at)
    )
    where (name = 'products' or base_table = 'products') and columns @> ${UNIT_COST}`.execute(db);
}
