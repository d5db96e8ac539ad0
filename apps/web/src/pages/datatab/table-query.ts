// Table browsing rules (spec §4): sorting toggles, per-column filters and the row-data request.
import type { TableFilters } from '@stockwise/contract';

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

/** Sets one column's filter; an empty (or blank) value removes that filter. */
export function withFilter(filters: FilterInputs, key: string, value: string): FilterInputs {
  const { [key]: _removed, ...rest } = filters;
  return value.trim() === '' ? rest : { ...rest, [key]: value };
}

/** `filters_json` as docs/api.md describes it: `{key: value}`; undefined when nothing filters. */
export function filtersJson(filters: FilterInputs): string | undefined {
  const active: TableFilters = {};
  for (const [key, value] of Object.entries(filters)) {
    const trimmed = value.trim();
    if (trimmed !== '') active[key] = trimmed;
  }
  return Object.keys(active).length > 0 ? JSON.stringify(active) : undefined;
}

/** ForeignKey column -> related id -> `code — name`, as the server sends them with each page. */
export type ReferenceLabels = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** The labels known so far with a new page's added (a later page may name more related rows). */
export function mergeReferences(known: ReferenceLabels, added: ReferenceLabels | undefined): ReferenceLabels {
  if (!added) return known;
  const merged: Record<string, Record<string, string>> = { ...known };
  for (const [column, labels] of Object.entries(added)) merged[column] = { ...known[column], ...labels };
  return merged;
}

/** A ForeignKey cell: the related row's `code — name` when the server named it, else the id. */
export function referenceText(labels: ReferenceLabels, column: string, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  return labels[column]?.[String(value)] ?? null;
}
