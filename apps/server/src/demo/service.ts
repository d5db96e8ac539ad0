// The demo shop's data, found again and removed for good (ADR 0165): a shop that started with the
// README's first command has 240 made-up products beside its own, in every total, list, forecast and
// answer, until an administrator removes them here. The demo user and the example reports stay: the
// reports read whatever products there are, and the demo user may be the account in use.
import type { Kysely } from 'kysely';
import type { DemoDataResponse, DemoRemovalResponse } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { inTransaction } from '../db/transaction.ts';
import { notFoundError } from '../http/errors.ts';
import { listRowReferences } from '../tables/service.ts';
import * as repo from './repo.ts';
import { demoProductKeys } from './seed.ts';

/** `onProductsRemoved`: the forecasts and the dashboard's counts follow (a catalogue run, the summary). */
export type DemoContext = { db: Kysely<Database>; onProductsRemoved: () => Promise<void> };

export async function demoData(ctx: DemoContext): Promise<DemoDataResponse> {
  const ids = await repo.demoProductIds(ctx.db, demoProductKeys());
  return { products: ids.length, sales_rows: ids.length ? await repo.countSales(ctx.db, ids) : 0 };
}

export async function removeDemoData(ctx: DemoContext): Promise<DemoRemovalResponse> {
  const removed = await inTransaction(ctx.db, async (trx) => {
    const ids = await repo.demoProductIds(trx, demoProductKeys());
    if (!ids.length) return null;
    const salesRows = await repo.countSales(trx, ids);
    const products = await repo.deleteProducts(trx, ids, await listRowReferences(trx, 'products'));
    return { products, sales_rows: salesRows };
  });
  if (!removed) throw notFoundError('There is no demo data to remove: the demo products are gone already.');
  await ctx.onProductsRemoved();
  return {
    ...removed,
    message: `Removed the demo data: ${removed.products.toLocaleString('en')} products with their ${removed.sales_rows.toLocaleString('en')} rows of sales, their stock counts, deliveries and forecasts. The example reports stay: they now read your products.`,
  };
}
