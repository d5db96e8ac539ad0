// A mapping's row filters (`skip_rows_where`): lines left out by their values — a web shop's
// refunded and voided orders — before anything else is read of them, in file imports, their
// preview and integration runs alike (docs/adr/0011-real-data-in.md, row filters).
import { readMappedPath, valueMapForm, type EntityMapping, type FilteredBy, type ImportCounts, type RowFilter } from '@stockwise/contract';

const isBlank = (value: unknown) => value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
const asText = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value)).trim();

const columnsRead = (filters: readonly RowFilter[]) => [...new Set(filters.flatMap((filter) => [filter.column, ...(filter.blank_means_same_as ? [filter.blank_means_same_as] : [])]))];

/** The source columns (or dotted paths) the mapping's row filters read, each once: a record's `filterCells` hold their values in this order. */
export const rowFilterColumns = (mapping: EntityMapping): string[] => columnsRead(mapping.skip_rows_where ?? []);

/** Why a line is left out: the filter (its place in the mapping) and the value read, its own or its order's. */
export type LeftOut = { filter: number; column: string; value: string };

/**
 * The row filters of one source read in order (a file, or a whole integration run). Keeps, per
 * filter with `blank_means_same_as`, the orders whose nearest non-blank value above was one to
 * leave out (only those: a blank cell of any other order is kept either way), so memory grows
 * with the refunded orders, not with the file. The lines of one order need not be next to each other.
 */
export class RowFilters {
  readonly columns: string[];
  readonly #filters: { spec: RowFilter; valueAt: number; orderAt: number; values: Set<string>; leftOutOrders: Map<string, string> }[];

  constructor(filters: RowFilter[]) {
    this.columns = columnsRead(filters);
    this.#filters = filters.map((spec) => ({
      spec,
      valueAt: this.columns.indexOf(spec.column),
      orderAt: spec.blank_means_same_as ? this.columns.indexOf(spec.blank_means_same_as) : -1,
      values: new Set(spec.values.map(valueMapForm)),
      leftOutOrders: new Map(),
    }));
  }

  /** Whether the line with these cells (in `columns` order) is left out, and why; every line of the source must be shown, in order. */
  leavesOut(cells: readonly unknown[]): LeftOut | null {
    let found: LeftOut | null = null;
    for (const [at, filter] of this.#filters.entries()) {
      const cell = cells[filter.valueAt];
      const order = filter.orderAt < 0 || isBlank(cells[filter.orderAt]) ? null : asText(cells[filter.orderAt]);
      let value: string | null = null;
      if (!isBlank(cell)) {
        const text = asText(cell);
        const matched = filter.values.has(valueMapForm(text));
        if (order !== null) {
          if (matched) filter.leftOutOrders.set(order, text);
          else filter.leftOutOrders.delete(order);
        }
        if (matched) value = text;
      } else if (order !== null) {
        value = filter.leftOutOrders.get(order) ?? null;
      }
      // Every filter sees the line (its order's value is remembered), the first match names the reason.
      if (value !== null && !found) found = { filter: at, column: filter.spec.column, value };
    }
    return found;
  }

  /** The lines each filter left out, as the answer's counts say it (none: empty). */
  counted(lines: readonly number[]): Pick<ImportCounts, 'filtered' | 'filtered_by'> {
    const total = lines.reduce((sum, n) => sum + n, 0);
    if (!total) return {};
    return { filtered: total, filtered_by: this.#filters.map(({ spec }, at) => ({ column: spec.column, values: spec.values, lines: lines[at] ?? 0 })).filter((entry) => entry.lines > 0) };
  }
}

/** `more` lines left out added to `total`, filter by filter: an integration run's batches counted as one source. */
export function addFiltered(total: readonly FilteredBy[], more: readonly FilteredBy[]): FilteredBy[] {
  const sum = total.map((entry) => ({ ...entry }));
  for (const entry of more) {
    const same = sum.find((known) => known.column === entry.column && known.values.join('\u0000') === entry.values.join('\u0000'));
    if (same) same.lines += entry.lines;
    else sum.push({ ...entry });
  }
  return sum;
}

export const compileRowFilters = (mapping: EntityMapping): RowFilters | null => (mapping.skip_rows_where?.length ? new RowFilters(mapping.skip_rows_where) : null);

/** "3 lines of orders whose Financial Status is refunded or voided were left out." per filter that left any out. */
export function filteredMessage(counts: Pick<ImportCounts, 'filtered_by'>, mapping: EntityMapping): string {
  return (counts.filtered_by ?? [])
    .map(({ column, values, lines }) => {
      const byOrder = mapping.skip_rows_where?.some((filter) => filter.column === column && filter.blank_means_same_as);
      const listed = values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values.at(-1)}` : (values[0] ?? '');
      return ` ${lines} line${lines === 1 ? '' : 's'} ${byOrder ? 'of orders ' : ''}whose ${column} is ${listed} ${lines === 1 ? 'was' : 'were'} left out.`;
    })
    .join('');
}

/** Different values a column may hold and still be offered for a row filter (a status, not an order number). */
const MAX_COLUMN_VALUES = 50;

/** A record of a source as read (cells under a header, or a JSON value whose paths the header lists). */
type SourceRecord = { cells: unknown[] | null; value: unknown };

/**
 * The values of each column holding at most 50 different ones over `records` (ignoring case and
 * spaces, spelled as first met), with how many lines hold each, most first: what the Import
 * screen offers to leave out. Blank cells are not values.
 */
export function valuesOfColumns(header: string[], records: readonly SourceRecord[]): Record<string, { value: string; lines: number }[]> {
  const found = new Map<string, Map<string, { value: string; lines: number }>>(header.map((column) => [column, new Map()]));
  for (const record of records) {
    for (const [at, column] of header.entries()) {
      const values = found.get(column);
      if (!values) continue;
      const cell = record.cells ? record.cells[at] : readMappedPath(record.value, column);
      if (isBlank(cell) || (typeof cell === 'object' && !(cell instanceof Date))) continue;
      const text = asText(cell);
      const entry = values.get(valueMapForm(text));
      if (entry) entry.lines += 1;
      else if (values.size < MAX_COLUMN_VALUES) values.set(valueMapForm(text), { value: text, lines: 1 });
      else found.delete(column);
    }
  }
  return Object.fromEntries([...found].filter(([, values]) => values.size > 0).map(([column, values]) => [column, [...values.values()].sort((a, b) => b.lines - a.lines)]));
}
