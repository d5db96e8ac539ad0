// Where a run's records become rows: the import's one records writer (DESIGN.md "Imports and
// integrations share one path"; import/writer.ts), one transaction per batch with the run's own
// bookkeeping in it. Typing, lookups by business key, repeated keys, upsert and insert are the
// writer's; this module adapts a run to it and keeps replace's delete for the end of the run.
import type { RawBuilder } from 'kysely';
import { readMappedPath, type DataAction, type EntityMapping, type FilteredBy, type NewProduct, type ProductConfig, type RowError } from '@stockwise/contract';
import type { AppDatabase } from '../db/database.ts';
import { validationError } from '../http/errors.ts';
import { recordMapper, resolveEntityMapping } from '../import/mapping.ts';
import { FillDown } from '../import/fill-down.ts';
import { withStoredNamesReread } from '../import/code-by-name.ts';
import { sourcePaths } from '../import/new-products.ts';
import { inImportTransaction } from '../import/repo.ts';
import { compileRowFilters, type RowFilters } from '../import/row-filter.ts';
import { mapperReading, resolveWriteTarget, savedMappingWayOut, type AddedTo, type TotalsSkipped, type WriteTarget } from '../import/target.ts';
import type { OutdatedCounts } from '../import/writer-sql.ts';
import { UnitsFirstWritten, type UnitsAsWrittenCount } from '../import/quantity-units.ts';
import type { FoldedSupplier } from '../suppliers/service.ts';
import { NO_RESTORED_CODES, removeRowsOfEarlierRuns, writeRecords, type LinesInWords, type MappedRecord, type RestoredCodes, type RowsKept, type WriteOutcome } from '../import/writer.ts';
import { columnLabel, quotedValue } from '../tables/columns.ts';
import type { MappedPath } from './absent-fields.ts';
import { listRowReferences } from '../tables/service.ts';
import { CurrencySigns } from '../import/currency.ts';

export type PreparedTarget = {
  table: string;
  action: DataAction;
  mappingName: string;
  /** The mapping the batches are typed with: its auto date format becomes the order learnt (ADR 0140). */
  mapping: EntityMapping;
  /** The mapping leaves the date order to the data: a run learns it and keeps it. */
  learnsDateOrder: boolean;
  write: WriteTarget;
  /**
   * The fields every record needs (key and required, not given one value by the mapping) and the
   * source paths the mapping reads them from; and the mapping's fill_down_by, whose path no record
   * having fills nothing (ADR 0195): a page without it fails the run as a renamed field does.
   */
  neededPaths: MappedPath[];
  /** Under which the rows are noted (replace deletes what a later run of it did not rewrite). */
  source: { tag: string; run: string };
  /** The mapping's row filters over the whole run: an order's later records may come in the next batch. */
  rowFilters: RowFilters | null;
  /** The run's records filled down by the mapping's fill_down_by, batch after batch (ADR 0195 F3). */
  fillDown: FillDown;
  /** The currency each money field was written in over the whole run: a later batch's other currency is refused. */
  currencySigns: CurrencySigns;
  /** The unit first written for each product without a unit over the whole run: a later batch's cells are read in it (ADR 0178). */
  unitsFirstWritten: UnitsFirstWritten;
  /** The integration's time zone: each batch's transaction runs in it, so today is the shop's day. */
  timeZone: string;
};

/** A record of a batch and where the endpoint sent it. */
export type BatchRecord = { value: unknown; page: number; record: number };
type BatchRejection = { record: number; field: string | null; reason: string };
type BatchWritten = {
  inserted: number;
  updated: number;
  rejected: number;
  rejections: BatchRejection[];
  /** Lines the mapping's row filters left out of the batch, by filter (not rejected). */
  filteredBy: FilteredBy[];
  /** Lines skip_rows_without_code left out of the batch for a blank product code (not rejected). */
  skipped: number;
  /** Lines without a product code given one by their name (blank_code_by_name, ADR 0195 F4), written as the others. */
  matchedByName: number;
  /** Products created for the batch's unknown codes, and the first ones with their fields. */
  created: number;
  newProducts: NewProduct[];
  /** Totals lines (`Summe`) left out instead of becoming products (not rejected). */
  totalsSkipped: TotalsSkipped;
  /** Codes read as a stored code once their lost leading zeros were put back. */
  restoredCodes: RestoredCodes;
  /** Of the stock counts written, those a later figure of their product outdates as on hand (ADR 0030); absent when not counts. */
  outdatedCounts?: OutdatedCounts;
  /** Sales added to other sources' parts of the same product-days (ADR 0164); absent when none. */
  addedTo?: AddedTo;
  /** Quantities of products without a unit read in the unit their cells wrote (ADR 0178); absent when none. */
  unitsAsWritten?: UnitsAsWrittenCount;
  /** Supplier names written in the spelling already used (ADR 0186); absent when none. */
  foldedSuppliers?: FoldedSupplier[];
  learntDateOrder?: DateOrder;
};
type DateOrder = 'dd/mm/yyyy' | 'mm/dd/yyyy';
/** Runs a statement in the batch's transaction (the run's counters commit with the rows). */
type BatchSession = { run(query: RawBuilder<unknown>): Promise<unknown> };

export type IntegrationWriter = {
  /** The mapping and entity of a run, checked once; a problem is an AppError naming it. */
  /** `today`: the run's day in the integration's time zone (`timeZone`), which a field value `today` means. */
  prepare(request: { mappingName: string; entityType: string; action: DataAction; integrationId: number; runId: number; learntDateOrder: DateOrder | null; today: string; timeZone: string }): Promise<PreparedTarget>;
  /**
   * Writes one batch in one transaction, `onWritten` inside it: the records that pass are written
   * and the refused ones rejected (ADR 0060's amendment). A batch whose date order its records
   * leave ambiguous writes nothing, and its refusal is reported to `onWritten` outside it.
   * A rejection's `record` is the record's place in the batch (1-based); its reason names other
   * records by page and record. A batch whose dates tell a date order the run did not know yet
   * types the later batches with it (`learntDateOrder`).
   */
  writeBatch(target: PreparedTarget, batch: BatchRecord[], onWritten: (written: BatchWritten, session: BatchSession) => Promise<void>): Promise<void>;
  /**
   * The run fetched everything: replace deletes, in one transaction, the rows earlier runs wrote and
   * this one did not, and keeps those rows of data tables refer to (import/writer.ts removeRowsOfEarlierRuns).
   */
  complete(target: PreparedTarget): Promise<{ deleted: number; kept: RowsKept }>;
};

/** Thrown inside a batch's transaction so that a batch refused whole commits nothing (not even created products). */
class BatchRefused extends Error {
  readonly outcome: WriteOutcome;
  constructor(outcome: WriteOutcome) {
    super('The batch was refused.');
    this.outcome = outcome;
  }
}

/** Whether a reason shows the value sent already: quoted as found, as sent, or a whole number as the reasons write it (2,000,000,000). */
const showsValue = (reason: string, sent: unknown, text: string) =>
  reason.includes(`found ${quotedValue(sent)}`) || (text.length > 2 && (reason.includes(text) || (/^-?\d{4,}$/.test(text) && reason.includes(BigInt(text).toLocaleString('en-US')))));

/**
 * The writer's refusals as the log's rejections, each with the value the endpoint sent for its
 * field unless the reason already shows it ("Must be more than 0. Sent: -3.").
 */
const asRejections = (errors: RowError[], records: unknown[]): BatchRejection[] =>
  errors.map((error) => {
    const sent = error.column ? readMappedPath(records[error.row - 1], error.column) : undefined;
    const text = sent === null || sent === undefined || typeof sent === 'object' ? null : String(sent);
    const shown = text !== null && !showsValue(error.reason, sent, text);
    return { record: error.row, field: error.field, reason: shown ? `${error.reason} Sent: ${JSON.stringify(sent)}.` : error.reason };
  });

export const sourceTag = (integrationId: number) => `integration:${integrationId}`;

/** 'a', 'a and b', 'a, b and c'. */
export const listed = (words: string[]) => (words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`);

/**
 * A batch's lines as the run's log names them, where the endpoint sent them: "Page 2, records 4
 * and 9", "Page 1, record 100; page 2, record 3 and 2 more lines" (rows: places in the batch).
 */
const pagesAndRecords =
  (batch: BatchRecord[]): LinesInWords =>
  (rows, more) => {
    const byPage = new Map<number, number[]>();
    for (const row of rows) {
      const origin = batch[row - 1];
      if (!origin) continue;
      const records = byPage.get(origin.page);
      if (records) records.push(origin.record);
      else byPage.set(origin.page, [origin.record]);
    }
    const named = [...byPage].map(([page, records]) => `page ${page}, record${records.length === 1 ? '' : 's'} ${listed(records.map(String))}`).join('; ');
    return `${named.charAt(0).toUpperCase()}${named.slice(1)}${more ? ` and ${more} more line${more === 1 ? '' : 's'}` : ''}`;
  };

export function createIntegrationWriter(deps: { database: AppDatabase; loadConfig: () => Promise<ProductConfig> }): IntegrationWriter {
  return {
    prepare: async ({ mappingName, entityType, action, integrationId, runId, learntDateOrder, today, timeZone }) => {
      const config = await deps.loadConfig();
      const mappingConfig = config.mappings[mappingName];
      if (!mappingConfig) throw validationError(`Mapping config '${mappingName}' not found.`);
      const resolved = resolveEntityMapping(mappingConfig, entityType);
      if (!resolved.ok) throw validationError(resolved.message);
      const write = await resolveWriteTarget(deps.database.db, config, entityType, resolved.mapping, { today });
      if (write.updateOnly && action === 'insert') {
        throw validationError(`Invalid configuration: mapping '${mappingName}' does not fill every column new ${write.tableName} rows need, so it only updates stored rows, and data action insert adds new rows only. Map those columns, or use upsert.`);
      }
      // A key given one value (a day's export without dates) is not looked for in the records.
      const neededPaths = write.columns
        .filter((column) => write.mapped.includes(column.key) && !write.fixed.has(column.key) && (write.keyColumns.includes(column.key) || write.blankIsMissing.has(column.key)))
        .map((column): MappedPath => ({ field: column.key, label: columnLabel(column), path: resolved.mapping.field_mappings[column.key] ?? column.key }));
      const fillDownBy = resolved.mapping.fill_down_by;
      if (fillDownBy) neededPaths.push({ field: 'fill_down_by', label: 'fill_down_by', path: fillDownBy, role: 'that blank cells are filled down by, the mapping\'s fill_down_by' });
      const learnsDateOrder = (resolved.mapping.date_format ?? 'auto') === 'auto';
      const mapping = learnsDateOrder && learntDateOrder ? { ...resolved.mapping, date_format: learntDateOrder } : resolved.mapping;
      return { table: write.tableName, action, mappingName, mapping, learnsDateOrder, write, neededPaths, source: { tag: sourceTag(integrationId), run: String(runId) }, rowFilters: compileRowFilters(mapping), fillDown: new FillDown(), currencySigns: new CurrencySigns(), unitsFirstWritten: new UnitsFirstWritten(), timeZone };
    },

    writeBatch: async (target, batch, onWritten) => {
      const records = batch.map((item) => item.value);
      const filterColumns = target.rowFilters?.columns ?? [];
      const mapRecord = recordMapper(sourcePaths(target.mapping), mapperReading(target.write, target.mapping), target.fillDown);
      const mapped: MappedRecord[] = records.map((record, at) => {
        const isRecord = record !== null && typeof record === 'object' && !Array.isArray(record);
        return {
          row: at + 1,
          fields: isRecord ? mapRecord(record) : null,
          // A record's fields play the part of a file's columns.
          ...(isRecord && filterColumns.length ? { filterCells: filterColumns.map((path) => readMappedPath(record, path)) } : {}),
        };
      });
      let createdProducts = 0;
      try {
        await inImportTransaction(deps.database, async (session) => {
          // Replace writes like upsert, noting each row under the run; the delete waits for the end (complete).
          const outcome = await writeRecords(session, target.write, [mapped], {
            mapping: target.mapping,
            dataAction: target.action,
            source: target.source,
            salesWriter: target.source.tag,
            setAsideRefused: true,
            rowFilters: target.rowFilters,
            currencySigns: target.currencySigns,
            unitsFirstWritten: target.unitsFirstWritten,
            linesInWords: pagesAndRecords(batch),
            unknownCodeWayOut: savedMappingWayOut(target.mappingName),
          });
          if (outcome.rowErrorCount && outcome.setAside === undefined) throw new BatchRefused(outcome);
          const learntDateOrder = target.learnsDateOrder && outcome.dateOrder && outcome.dateOrder !== target.mapping.date_format ? outcome.dateOrder : undefined;
          if (learntDateOrder) target.mapping = { ...target.mapping, date_format: learntDateOrder };
          createdProducts = outcome.counts.created_references ?? 0;
          const refused = outcome.counts.refused ?? 0;
          const keys = target.write.keyColumns.join(', ');
          await onWritten(
            {
              inserted: outcome.counts.inserted,
              updated: outcome.counts.updated,
              rejected: (outcome.setAside ?? 0) + refused,
              rejections: [
                ...asRejections(outcome.rowErrors, records),
                ...(refused ? [{ record: 1, field: keys, reason: `${refused} of the ${records.length} records of this batch (from here on) have a key (${keys}) that is already stored; insert refuses them.` }] : []),
              ],
              filteredBy: outcome.counts.filtered_by ?? [],
              skipped: outcome.counts.skipped ?? 0,
              matchedByName: outcome.counts.matched_by_name ?? 0,
              created: outcome.counts.created_references ?? 0,
              newProducts: outcome.newProducts,
              totalsSkipped: outcome.totalsSkipped,
              restoredCodes: outcome.restoredCodes,
              ...(outcome.outdatedCounts ? { outdatedCounts: outcome.outdatedCounts } : {}),
              ...(outcome.addedTo ? { addedTo: outcome.addedTo } : {}),
              ...(outcome.unitsAsWritten ? { unitsAsWritten: outcome.unitsAsWritten } : {}),
              ...(outcome.foldedSuppliers ? { foldedSuppliers: outcome.foldedSuppliers } : {}),
              ...(learntDateOrder ? { learntDateOrder } : {}),
            },
            { run: (query) => session.run(query) },
          );
        }, { timeZone: target.timeZone });
        // A later line naming a product this run created is matched to it (blank_code_by_name): the names are read again once committed.
        if (createdProducts && target.write.codeByName) target.write = { ...target.write, codeByName: await withStoredNamesReread(deps.database.db, target.write.codeByName) };
      } catch (error) {
        if (!(error instanceof BatchRefused)) throw error;
        // The lines the row filters or a blank code left out are counted as such, not as rejected: the run's counts add up to the records received.
        const { rows, filtered_by: filteredBy = [], skipped = 0 } = error.outcome.counts;
        await onWritten({ inserted: 0, updated: 0, rejected: rows, rejections: asRejections(error.outcome.rowErrors, records), filteredBy, skipped, matchedByName: 0, created: 0, newProducts: [], totalsSkipped: error.outcome.totalsSkipped, restoredCodes: NO_RESTORED_CODES }, { run: (query) => query.execute(deps.database.db) });
      }
    },

    complete: async (target) => {
      if (target.action !== 'replace') return { deleted: 0, kept: { count: 0, keys: [], tables: [] } };
      const references = await listRowReferences(deps.database.db, target.write.encodedName);
      return inImportTransaction(deps.database, (session) => removeRowsOfEarlierRuns(session, target.write, target.source, references));
    },
  };
}
