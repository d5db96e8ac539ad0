// Undo of a file's import. A sales file's (ADR 0174): every part the import wrote (a product-day
// under its mapping's source) is put back to its before-image, kept since the import (migration
// 0570), and the day's total by the same difference. A stock count file's (ADR 0175): every count
// it wrote goes back to the count it replaced, and the rows it created go (migration 0580). Each in
// one transaction that takes its turn with the imports into its table. Refused, changing nothing,
// when something the import wrote was changed since: a later import wrote it (undo that one
// first), or it was deleted, or (a count) typed over since.
import { entityInSentence, formatDay, type ImportUndoResult } from '@stockwise/contract';
import { inTransaction } from '../db/transaction.ts';
import { AppError, validationError } from '../http/errors.ts';
import { formatRange } from '../plain-words/period.ts';
import * as repo from './repo.ts';
import type { ImportContext } from './service.ts';
import { lockTableNamed } from './writer-sql.ts';

type Db = Parameters<typeof repo.putBackSalesImport>[0];
type LockedLog = NonNullable<Awaited<ReturnType<typeof repo.lockImportLogForUndo>>>;

const counted = (noun: string, plural = `${noun}s`) => (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`;
const productDays = counted('product-day');
const counts = counted('count');

/** A moment as the server says it: "3 Dec 2026, 14:02 UTC" (the server has no viewer's clock). */
const utcMoment = (at: Date) => `${formatDay(at.toISOString().slice(0, 10))}, ${at.toISOString().slice(11, 16)} UTC`;

/** The latest later import that changed what an import wrote, and how many later imports did. */
type LaterImports = { later_imports: number; file_name: string | null; mapping_name: string | null; finished_at: Date | null };

/** "12 product-days this file wrote were changed since by a later import, 'again.csv' under 'Till sales' (…): undo that import first." */
function changedByLaterImports(changed: number, unit: (n: number) => string, found: LaterImports, sameMapping: boolean): string {
  const laterImports = found.later_imports;
  const named = `'${found.file_name ?? ''}' under '${found.mapping_name ?? ''}'${found.finished_at ? ` (${utcMoment(found.finished_at)})` : ''}`;
  const others = laterImports > 1 ? ` and ${laterImports - 1} other later import${laterImports === 2 ? '' : 's'}${sameMapping ? ' under the same mapping' : ''}` : '';
  return `${unit(changed)} this file wrote ${changed === 1 ? 'was' : 'were'} changed since by a later import, ${named}${others}: undo ${laterImports > 1 ? 'those imports, the latest first,' : 'that import'} first.`;
}

/** "2 product-days this file wrote were deleted since (…), so they cannot be put back as before." */
const deletedSince = (gone: number, unit: (n: number) => string) =>
  `${unit(gone)} this file wrote ${gone === 1 ? 'was' : 'were'} deleted since (on the Data screen, or with ${gone === 1 ? 'its' : 'their'} product), so ${gone === 1 ? 'it' : 'they'} cannot be put back as before.`;

const NOTHING_CHANGED = 'Nothing was changed.';

/** What an undo of one entity's import does, in its transaction (its table's turn taken, the log row locked and checked). */
type Undoer = { table: string; column: string; undo(trx: Db, log: LockedLog): Promise<ImportUndoResult> };

const salesUndoer: Undoer = {
  table: 'sales',
  column: 'quantity',
  async undo(trx, log) {
    const written = (log.details as { sales_written?: { product_days: number; first_day: string; last_day: string } }).sales_written;
    if (!log.source || !written) {
      throw written
        ? new AppError('conflict', `The sales as they were before this file are no longer kept: only the last ${repo.KEPT_SALES_IMPORTS} sales imports can be undone.`)
        : validationError("Only a sales file's import that wrote quantities can be undone; this one kept no sales as they were before it.");
    }
    const [changed] = (await repo.partsChangedSince(trx, log.id, log.source)).rows;
    if (changed?.changed) {
      const byImports = changed.changed - changed.gone;
      const sentences = [...(byImports > 0 ? [changedByLaterImports(byImports, productDays, changed, true)] : []), ...(changed.gone > 0 ? [deletedSince(changed.gone, productDays)] : [])];
      throw new AppError('conflict', [...sentences, NOTHING_CHANGED].join(' '));
    }
    const { restored, removed } = await repo.putBackSalesImport(trx, log.id, log.source);
    const created = (log.details as { counts?: { created_references?: number } }).counts?.created_references ?? 0;
    const message =
      `Put back the sales of ${productDays(written.product_days)} (${formatRange({ from: written.first_day, to: written.last_day })}) as they were before '${log.file_name}'` +
      `${removed ? `; ${productDays(removed)} only this file held ${removed === 1 ? 'is' : 'are'} gone` : ''}.` +
      `${created ? ` ${created === 1 ? 'The product' : `The ${created.toLocaleString('en-US')} products`} it created ${created === 1 ? 'is' : 'are'} kept.` : ''}`;
    return { message, restored, removed, product_days: written.product_days };
  },
};

const stockUndoer: Undoer = {
  table: 'stock_snapshots',
  column: 'stock_level',
  async undo(trx, log) {
    const written = (log.details as { stock_written?: repo.StockCountsWritten }).stock_written;
    if (!log.stock_kept || !written) {
      throw written
        ? new AppError('conflict', `The stock counts as they were before this file are no longer kept: only the last ${repo.KEPT_STOCK_IMPORTS} stock count imports can be undone.`)
        : validationError("Only a stock count file's import that wrote counts can be undone; this one kept no counts as they were before it.");
    }
    // On hand is judged by the import's day: the transaction runs in the time zone the import ran in.
    if (log.time_zone) await repo.useShopTimeZone({ run: async (query) => (await query.execute(trx)).rows }, log.time_zone);
    const [changed] = (await repo.countsChangedSince(trx, log.id)).rows;
    if (changed && changed.by_imports + changed.gone + changed.edited > 0) {
      const { by_imports: byImports, gone, edited } = changed;
      const sentences = [
        ...(byImports > 0 ? [changedByLaterImports(byImports, counts, changed, false)] : []),
        ...(edited > 0
          ? [`${counts(edited)} this file wrote ${edited === 1 ? 'was' : 'were'} changed since (on the Data screen, by a product list's stock or by an integration), so ${edited === 1 ? 'it' : 'they'} cannot be put back as before.`]
          : []),
        ...(gone > 0 ? [deletedSince(gone, counts)] : []),
      ];
      throw new AppError('conflict', [...sentences, NOTHING_CHANGED].join(' '));
    }
    const { restored, removed } = await repo.putBackStockImport(trx, log.id);
    const unchanged = written.counts - written.replaced - written.added;
    const range = written.first_day && written.last_day ? ` (${formatRange({ from: written.first_day, to: written.last_day })})` : '';
    const done = [...(restored ? [`put back ${counts(restored)} as ${restored === 1 ? 'it was' : 'they were'} before it`] : []), ...(removed ? [`removed the ${counts(removed)} it added`] : [])];
    const message =
      `Undid '${log.file_name}'${range}: ${done.length ? done.join(' and ') : 'every count it wrote was the same before it'}.` +
      `${unchanged > 0 && done.length ? ` ${unchanged === 1 ? 'The count' : `The ${counts(unchanged)}`} it wrote unchanged ${unchanged === 1 ? 'stays' : 'stay'} as ${unchanged === 1 ? 'it is' : 'they are'}.` : ''}`;
    return { message, restored, removed, product_days: written.counts };
  },
};

const UNDOERS: Record<string, Undoer> = { sales: salesUndoer, stock_snapshots: stockUndoer };

/**
 * Undoes import `id` for `userId` (an editor): answers what it did in words, with counts. Every
 * refusal is a 4xx naming why, and changes nothing.
 */
export async function undoImport(ctx: ImportContext, id: string, userId: number | null): Promise<ImportUndoResult> {
  if (ctx.progress.has(id)) throw new AppError('conflict', 'This import is still running; it can be undone once it has finished.');
  const entity = /^[0-9a-f-]{36}$/i.test(id) ? await repo.importEntityType(ctx.database.db, id) : null;
  if (entity === null) throw new AppError('not_found', `Import '${id}' not found.`);
  const undoer = UNDOERS[entity];
  // A deadlock with a products import (both touch product rows: on hand) is run again once, then a 409.
  const result = await inTransaction(ctx.database.db, async (trx) => {
    // In turn with the imports into the table (writer-sql.ts lockTable): none writes a row while it is put back.
    if (undoer) await lockTableNamed(undoer.table).execute(trx);
    const log = await repo.lockImportLogForUndo(trx, id);
    if (!log) throw new AppError('not_found', `Import '${id}' not found.`);
    if (log.undone_at) throw new AppError('conflict', `This import was already undone (${utcMoment(new Date(log.undone_at))}${log.undone_by_name ? ` by ${log.undone_by_name}` : ''}).`);
    if (log.status === 'running') throw new AppError('conflict', 'This import is still running; it can be undone once it has finished.');
    if (log.status === 'error') throw validationError('This import failed and wrote nothing; there is nothing to undo.');
    if (!undoer) throw validationError(`Only a sales file's or a stock count file's import can be undone; this one wrote ${entityInSentence(log.entity_type)}.`);
    const outcome = await undoer.undo(trx, log);
    await repo.recordUndo(trx, id, { userId, details: outcome });
    return outcome;
  });
  // New figures mean new forecasts (and stock-out dates), as after an import.
  if (undoer) await ctx.onTableImported({ table: undoer.table, columns: [undoer.column], deleted: result.removed });
  return result;
}
