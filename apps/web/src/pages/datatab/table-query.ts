// Table browsing rules (spec §4): sorting toggles, per-column filters and the row-data request.
import { formatDay, readTypedFilter, typedFilterKind, type ColumnFilter, type DateOrder, type FieldType, type RowPage, type TableFilters, type TypedFilterProblem, type UnknownValueReason } from '@stockwise/contract';
import { viewerDates } from '../../components/viewer-dates.ts';

export type SortDirection = 'asc' | 'desc';
export type SortState = { sortBy: string | null; sortDir: SortDirection };
/** What the user typed under each header; only non-empty values become filters. */
export type FilterInputs = Readonly<Record<string, string>>;

export const initialSort: SortState = { sortBy: null, sortDir: 'asc' };

/** The same column toggles asc → desc (and back); a new column starts asc. */
export function nextSort(current: SortState, key: string): SortState {
  if (current.sortBy === key) return { sortBy: key, sortDir: current.sortDir === 'asc' ? 'desc' : 'asc' };
  return { sortBy: key, sortDir: 'asc' };
}

/** Texts under the headers that cannot be filters, per column, with why: shown in and under that box, and not sent. */
export type FilterProblems = Readonly<Record<string, TypedFilterProblem & { text: string }>>;
/** The columns' types by key: how each filter text is read. */
export type FilterColumns = readonly { key: string; type: FieldType }[];

/** Sets one column's filter; an empty (or blank) value removes that filter. */
export function withFilter(filters: FilterInputs, key: string, value: string): FilterInputs {
  const { [key]: _removed, ...rest } = filters;
  return value.trim() === '' ? rest : { ...rest, [key]: value };
}

/**
 * One column's filter as sent: text columns (and references, matched by key or name) as the text;
 * number and date columns read as spreadsheet users type them (`<10`, `10-50`, `>=2026-11-01`:
 * readTypedFilter; dates in the viewer's order), or the reason the text cannot be read.
 */
export function readFilterInput(type: FieldType | undefined, text: string, order: DateOrder = viewerDates().order): { filter: ColumnFilter } | TypedFilterProblem {
  const trimmed = text.trim();
  const kind = type ? typedFilterKind(type) : null;
  return kind ? readTypedFilter(kind, trimmed, order) : { filter: trimmed };
}

/** How a date filter was read, for saying it back (`30.11.2026` → on 30 Nov 2026); null when it is no date filter. */
export type DateFilterReading = { kind: 'on' | 'between' | 'from' | 'after' | 'upTo' | 'before'; from: string; to: string };

export function dateFilterReading(text: string, order: DateOrder = viewerDates().order): DateFilterReading | null {
  if (text.trim() === '') return null;
  const read = readTypedFilter('date', text.trim(), order);
  if ('problem' in read || typeof read.filter !== 'object' || read.filter === null) return null;
  const { equals, gte, gt, lte, lt } = read.filter as { equals?: unknown; gte?: unknown; gt?: unknown; lte?: unknown; lt?: unknown };
  const day = (value: unknown) => (typeof value === 'string' ? formatDay(value) : '');
  if (equals !== undefined) return { kind: 'on', from: day(equals), to: day(equals) };
  if (gte !== undefined && lte !== undefined) return { kind: 'between', from: day(gte), to: day(lte) };
  if (gte !== undefined) return { kind: 'from', from: day(gte), to: '' };
  if (gt !== undefined) return { kind: 'after', from: day(gt), to: '' };
  if (lte !== undefined) return { kind: 'upTo', from: '', to: day(lte) };
  if (lt !== undefined) return { kind: 'before', from: '', to: day(lt) };
  return null;
}

/**
 * `filters_json` as docs/api.md describes it: `{key: filter}`; undefined when nothing filters (or
 * nothing readable). Dates go as the ISO days they were read as, so the request means the same
 * whoever reads it (ADR 0167).
 */
export function filtersJson(filters: FilterInputs, columns: FilterColumns = [], order: DateOrder = viewerDates().order): string | undefined {
  const active: TableFilters = {};
  const typeOf = new Map(columns.map((column) => [column.key, column.type]));
  for (const [key, value] of Object.entries(filters)) {
    if (value.trim() === '') continue;
    const read = readFilterInput(typeOf.get(key), value, order);
    if ('filter' in read) active[key] = read.filter;
  }
  return Object.keys(active).length > 0 ? JSON.stringify(active) : undefined;
}

/** Column -> row id -> a note the server sends with each page about the rows' values. */
type ColumnNotes<Note extends string> = Readonly<Record<string, Readonly<Record<string, Note>>>>;
/** ForeignKey column -> related id -> `code — name`. */
export type ReferenceLabels = ColumnNotes<string>;
/** Column -> row id -> why its stored value is not a known one (ADR 0149). */
export type UnknownValues = ColumnNotes<UnknownValueReason>;
/** What the pages loaded so far tell about their rows besides the values. */
export type PageNotes = { references: ReferenceLabels; unknownValues: UnknownValues };
export const noPageNotes: PageNotes = { references: {}, unknownValues: {} };

/** The notes known so far with a new page's added (a later page may name more related rows). */
export function mergeColumnNotes<Note extends string>(known: ColumnNotes<Note>, added: ColumnNotes<Note> | undefined): ColumnNotes<Note> {
  if (!added) return known;
  const merged: Record<string, Readonly<Record<string, Note>>> = { ...known };
  for (const [column, notes] of Object.entries(added)) merged[column] = { ...known[column], ...notes };
  return merged;
}

export const mergePageNotes = (known: PageNotes, page: Pick<RowPage, 'references' | 'unknown_values'>): PageNotes => ({
  references: mergeColumnNotes(known.references, page.references),
  unknownValues: mergeColumnNotes(known.unknownValues, page.unknown_values),
});

/** A ForeignKey cell: the related row's `code — name` when the server named it, else the id. */
export function referenceText(labels: ReferenceLabels, column: string, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  return labels[column]?.[String(value)] ?? null;
}
