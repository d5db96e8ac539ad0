// Undo of a sales file's import (ADR 0174): every part the import wrote (a product-day under its
// mapping's source) is put back to its before-image, kept since the import (migration 0570), and the
// day's total by the same difference, in one transaction that takes its turn with the imports into
// sales. Refused, changing nothing, when a part it wrote was changed since: a later import under the
// same mapping wrote the day (undo that one first), or the day was deleted.
import { entityInSentence, formatDay, type ImportUndoResult } from '@stockwise/contract';
import { AppError, validationError } from '../http/errors.ts';
import { formatRange } from '../plain-words/period.ts';
import * as repo from './repo.ts';
import type { ImportContext } from './service.ts';
import { lockTableNamed } from './writer-sql.ts';

const productDays = (n: number) => `${n.toLocaleString('en-US')} product-day${n === 1 ? '' : 's'}`;

/** A moment as the server says it: "3 Dec 2026, 14:02 UTC" (the server has no viewer's clock). */
const utcMoment = (at: Date) => `${formatDay(at.toISOString().slice(0, 10))}, ${at.toISOString().slice(11, 16)} UTC`;

/** The refusal of an undo whose import's parts were changed since (partsChangedSince), in words. */
function changedSinceMessage(found: Awaited<ReturnType<typeof repo.partsChangedSince>>['rows'][number]): string {
  const { changed, gone, later_imports: laterImports } = found;
  const byImports = changed - gone;
  const sentences: string[] = [];
  if (byImports > 0) {
    const named = `'${found.file_name ?? ''}' under '${found.mapping_name ?? ''}'${found.finished_at ? ` (${utcMoment(found.finished_at)})` : ''}`;
    const others = laterImports > 1 ? ` and ${laterImports - 1} other later import${laterImports === 2 ? '' : 's'} under the same mapping` : '';
    sentences.push(`${productDays(byImports)} this file wrote ${byImports === 1 ? 'was' : 'were'} changed since by a later import, ${named}${others}: undo ${laterImports > 1 ? 'those imports, the latest first,' : 'that import'} first.`);
  }
  if (gone > 0) sentences.push(`${productDays(gone)} this file wrote ${gone === 1 ? 'was' : 'were'} deleted since (on the Data screen, or with ${gone === 1 ? 'its' : 'their'} product), so ${gone === 1 ? 'it' : 'they'} cannot be put back as before.`);
  return `${sentences.join(' ')} Nothing was changed.`;
}

/**
 * Undoes import `id` for `userId` (an editor): answers what it did in words, with counts. Every
 * refusal is a 4xx naming why, and changes nothing.
 */
export async function undoImport(ctx: ImportContext, id: string, userId: number | null): Promise<ImportUndoResult> {
  if (ctx.progress.has(id)) throw new AppError('conflict', 'This import is still running; it can be undone once it has finished.');
  const result = await ctx.database.db.transaction().execute(async (trx) => {
    // In turn with the imports into sales (writer-sql.ts lockTable): none writes a day while it is put back.
    await lockTableNamed('sales').execute(trx);
    const log = /^[0-9a-f-]{36}$/i.test(id) ? await repo.lockImportLogForUndo(trx, id) : undefined;
    if (!log) throw new AppError('not_found', `Import '${id}' not found.`);
    if (log.undone_at) throw new AppError('conflict', `This import was already undone (${utcMoment(new Date(log.undone_at))}${log.undone_by_name ? ` by ${log.undone_by_name}` : ''}).`);
    if (log.status === 'running') throw new AppError('conflict', 'This import is still running; it can be undone once it has finished.');
    if (log.status === 'error') throw validationError('This import failed and wrote nothing; there is nothing to undo.');
    if (log.entity_type !== 'sales') throw validationError(`Only a sales file's import can be undone; this one wrote ${entityInSentence(log.entity_type)}.`);
    const written = (log.details as { sales_written?: { product_days: number; first_day: string; last_day: string } }).sales_written;
    if (!log.source || !written) {
      throw written
        ? new AppError('conflict', `The sales as they were before this file are no longer kept: only the last ${repo.KEPT_SALES_IMPORTS} sales imports can be undone.`)
        : validationError("Only a sales file's import that wrote quantities can be undone; this one kept no sales as they were before it.");
    }
    const [changed] = (await repo.partsChangedSince(trx, id, log.source)).rows;
    if (changed?.changed) throw new AppError('conflict', changedSinceMessage(changed));
    const { restored, removed } = await repo.putBackSalesImport(trx, id, log.source);
    const created = (log.details as { counts?: { created_references?: number } }).counts?.created_references ?? 0;
    const message =
      `Put back the sales of ${productDays(written.product_days)} (${formatRange({ from: written.first_day, to: written.last_day })}) as they were before '${log.file_name}'` +
      `${removed ? `; ${productDays(removed)} only this file held ${removed === 1 ? 'is' : 'are'} gone` : ''}.` +
      `${created ? ` ${created === 1 ? 'The product' : `The ${created.toLocaleString('en-US')} products`} it created ${created === 1 ? 'is' : 'are'} kept.` : ''}`;
    const outcome = { message, restored, removed, product_days: written.product_days };
    await repo.recordUndo(trx, id, { userId, details: outcome });
    return outcome;
  });
  // New sales figures mean new forecasts, as after an import.
  await ctx.onTableImported({ table: 'sales', columns: ['quantity'], deleted: result.removed });
  return result;
}
