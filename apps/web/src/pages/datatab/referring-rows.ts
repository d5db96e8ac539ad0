// How the delete dialog counts the rows that refer to a row: the rows of the inventory's own tables
// by what they are ("200 sales", "1 stock snapshot"), any other table's as rows of it by its name.
// Forecasts made from a row are not among them: they go with it.
import type { TFunction } from 'i18next';
import type { RowReferences } from '@stockwise/contract';

/** Tables whose rows have a name of their own (datatab.deleteRowDialog.rowsOf). */
const namedRows: ReadonlySet<string> = new Set(['sales', 'stock_snapshots', 'deliveries']);

export function referringRowsText(t: TFunction, reference: RowReferences['references'][number]): string {
  return namedRows.has(reference.table)
    ? t(`datatab.deleteRowDialog.rowsOf.${reference.table}`, { count: reference.count })
    : t('datatab.deleteRowDialog.referenceCount', { count: reference.count, table: reference.table });
}
