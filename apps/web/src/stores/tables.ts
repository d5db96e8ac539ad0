// The Data screen's state (spec §3, §4): the table tree, the selected table's columns and the rows
// loaded so far with their sort, filters and next link, plus the row and table operations.
// Every part has its loading and error flags: loading set at start and cleared at end, error
// cleared at start (tree: isLoading/error, grid: isLoadingRows/rowsError, more pages:
// isLoadingMore, operations: isSaving/saveError).
import { create } from 'zustand';
import type { ColumnDefinition, DownloadFormat, RowPage, RowReferences, TableColumn, TableRow, TableSummary } from '@stockwise/contract';
import * as tablesApi from '../api/tables.ts';
import { normalizeError, type NormalizedError } from '../api/errors.ts';
import { currentOfConflict } from '../api/versions.ts';
import { i18n } from '../i18n.ts';
import { useSessionStore } from './session.ts';
import {
  filtersJson,
  initialSort,
  mergePageNotes,
  nextSort,
  noPageNotes,
  readFilterInput,
  withFilter,
  type FilterInputs,
  type FilterProblems,
  type ReferenceLabels,
  type SortState,
  type UnknownValues,
} from '../pages/datatab/table-query.ts';
import { viewerDates } from '../components/viewer-dates.ts';

/** Spec §9: table default page size. */
export const defaultPageSize = 50;
/** The server's ceiling (docs/api.md). */
export const maxPageSize = 1000;
/** A refresh after a change reloads at most this many pages of what was on screen. */
const maxRefreshPages = 20;
/** The end is read as at least this many rows, a screenful on any display whatever the page size. */
const endRows = 100;

/** `current`: on a save refused as made on a row changed since it was read (ADR 0168), the row as it is now. */
export type OperationResult<T> = { ok: true; value: T } | { ok: false; message: string; fieldErrors: Record<string, string[]>; current?: TableRow };

export type TablesState = {
  tables: TableSummary[];
  folders: string[];
  isLoading: boolean;
  error: string | null;

  selected: TableSummary | null;
  /** Counts table choices: choosing the same table again also starts afresh (the grid remounts). */
  selectionCount: number;
  columns: TableColumn[];
  /** The rows loaded from the top, in order (pages followed through `next`). */
  rows: TableRow[];
  /**
   * The last rows of the order, read with `from_end` when the user jumps to the end (End, the
   * scrollbar dragged down) before the pages in between are loaded; empty otherwise. They sit at
   * `tailOffset` in the whole order, and join `rows` once the pages from the top reach them.
   */
  tail: TableRow[];
  tailOffset: number;
  /** The rows' ForeignKey values as `code — name` (docs/api.md). */
  references: ReferenceLabels;
  /** The rows' cells whose stored value stands in for one never recorded (a product not counted yet; ADR 0149). */
  unknownValues: UnknownValues;
  count: number;
  countIsEstimate: boolean;
  next: string | null;
  /** Another page can be asked for (see followingPage). */
  hasMore: boolean;
  /** The last page loaded (1 after a reload). */
  page: number;
  pageSize: number;
  sort: SortState;
  /** The filters in force: only texts that can be read (a number or date column's too). */
  filters: FilterInputs;
  /** Filter texts that cannot be read, by column: said under their box, never sent; the rows stay as they were. */
  filterProblems: FilterProblems;
  isLoadingRows: boolean;
  rowsError: string | null;
  isLoadingMore: boolean;

  isSaving: boolean;
  saveError: string | null;
};

export type TablesActions = {
  loadStructure: () => Promise<void>;
  selectTable: (name: string) => Promise<void>;
  clearSelection: () => void;
  setPageSize: (pageSize: number) => void;
  toggleSort: (key: string) => Promise<void>;
  /** An empty value removes the filter; a text a number or date column cannot read is kept out of the request (filterProblems). */
  setFilter: (key: string, value: string) => Promise<void>;
  loadMore: () => Promise<void>;
  /** Reads the last page of the order directly (`from_end`), without the pages before it. */
  loadEnd: () => Promise<void>;
  refreshRows: () => Promise<void>;
  /** Every row the current sort and filters select, as a CSV or .xlsx file to save (docs/api.md "Export as CSV or Excel"). */
  exportRows: (format: DownloadFormat) => Promise<OperationResult<Blob>>;
  createFolder: (folderPath: string) => Promise<OperationResult<null>>;
  createTable: (request: { name: string; folder: string; columns?: ColumnDefinition[] }) => Promise<OperationResult<TableSummary>>;
  moveTable: (name: string, folder: string) => Promise<OperationResult<TableSummary>>;
  deleteTable: (name: string) => Promise<OperationResult<null>>;
  addRow: (values: Record<string, unknown>) => Promise<OperationResult<TableRow>>;
  /** `version`: the row's as the form read it; a row changed since is refused (`current` in the failure). */
  editRow: (values: Record<string, unknown>, version?: string) => Promise<OperationResult<TableRow>>;
  /** What refers to a row of the selected table (the delete dialog names it before deleting). */
  rowReferences: (id: number | string) => Promise<OperationResult<RowReferences>>;
  /** `cascade` (admins only) also deletes the rows that refer to it. */
  deleteRow: (id: number | string | null | undefined, options?: { cascade?: boolean; version?: string | undefined }) => Promise<OperationResult<null>>;
  makeVariation: (parentId: number) => Promise<OperationResult<tablesApi.Variation>>;
};

export type TablesStore = TablesState & TablesActions;

export const initialTablesState: TablesState = {
  tables: [],
  folders: [],
  isLoading: false,
  error: null,
  selected: null,
  selectionCount: 0,
  columns: [],
  rows: [],
  tail: [],
  tailOffset: 0,
  ...noPageNotes,
  count: 0,
  countIsEstimate: false,
  next: null,
  hasMore: false,
  page: 1,
  pageSize: defaultPageSize,
  sort: initialSort,
  filters: {},
  filterProblems: {},
  isLoadingRows: false,
  rowsError: null,
  isLoadingMore: false,
  isSaving: false,
  saveError: null,
};

const t = (key: string, options: Record<string, unknown> = {}) => i18n.t(`datatab.${key}`, options);

/** 'Failed to add row' + the server's detail. */
export function withDetail(prefix: string, error: NormalizedError): string {
  if (!error.message) return prefix;
  return /[.!?]$/.test(prefix) ? `${prefix} ${error.message}` : `${prefix}: ${error.message}`;
}

/**
 * The rows from the top and the last rows, joined once the top reaches the last rows' first row (or
 * its end): then the table is whole and no page is left to ask for.
 */
export function joinTail(rows: TableRow[], hasMore: boolean, next: string | null, tail: TableRow[], tailOffset: number): Pick<TablesState, 'rows' | 'tail' | 'tailOffset' | 'hasMore' | 'next'> {
  if (tail.length === 0) return { rows, tail, tailOffset: 0, hasMore, next };
  const firstOfTail = tail[0]?.['id'];
  const reached = !hasMore || rows.some((row) => row['id'] === firstOfTail);
  if (!reached) return { rows, tail, tailOffset, hasMore, next };
  const seen = new Set(rows.map((row) => row['id']));
  return { rows: rows.concat(tail.filter((row) => !seen.has(row['id']))), tail: [], tailOffset: 0, hasMore: false, next: null };
}

const exportFailures: Record<DownloadFormat, string> = { csv: 'errors.exportCsv', xlsx: 'errors.exportXlsx' };

const failure = <T>(message: string, fieldErrors: Record<string, string[]> = {}, current?: TableRow): OperationResult<T> => ({ ok: false, message, fieldErrors, ...(current ? { current } : {}) });

const isBadRowData = (error: NormalizedError) => error.details.status === 400 || error.code === 'validation_error';


const sessionReady = () => {
  const session = useSessionStore.getState();
  return !session.isLoading && session.isLoggedIn;
};

export const useTablesStore = create<TablesStore>()((set, get) => {
  // Answers to a superseded request (another table, sort or filter meanwhile) are dropped.
  let generation = 0;

  /**
   * The sort and filters of the rows on screen, as the page and export calls take them; with the
   * viewer's date order, which the server reads any date text in (the filters go as ISO days).
   */
  const orderParams = (): tablesApi.RowOrderParams => {
    const { sort, filters, columns } = get();
    const params: tablesApi.RowOrderParams = { sort_dir: sort.sortDir, date_order: viewerDates().order };
    if (sort.sortBy) params.sort_by = sort.sortBy;
    const filter = filtersJson(filters, columns);
    if (filter) params.filters_json = filter;
    return params;
  };

  const requestParams = (page = 1): tablesApi.RowDataParams => ({ page, page_size: get().pageSize, ...orderParams() });

  /** The request for the page after `answer`: its `next` link (the server looks one row ahead), or null at the end. */
  const followingPage = (answer: RowPage): tablesApi.RowDataParams | null => (answer.next ? tablesApi.paramsOfNextLink(answer.next) : null);
  const hasMoreAfter = (answer: RowPage) => answer.next !== null;

  /** Writes a row; a refused row reads 'Invalid row data: ' + the server's reason (spec §5), then the grid reloads. */
  const saveRow = async (write: () => Promise<TableRow>, failedKey: 'errors.addRow' | 'errors.editRow'): Promise<OperationResult<TableRow>> => {
    let row: TableRow;
    try {
      row = await write();
    } catch (error) {
      const normalized = normalizeError(error);
      if (isBadRowData(normalized)) return failure(`${t('errors.invalidRowData')}${normalized.message}`, normalized.details.fieldErrors);
      const current = currentOfConflict<TableRow>(normalized);
      if (current) {
        // The server's sentence says it all (who, when, what to do); the grid behind shows their change.
        await get().refreshRows();
        return failure(normalized.message, {}, current);
      }
      // A conflict (a day's sales row already there) marks the fields it names too.
      return failure(withDetail(t(failedKey), normalized), normalized.details.fieldErrors);
    }
    await get().refreshRows();
    return { ok: true, value: row };
  };

  const reloadFirstPage = async (): Promise<void> => {
    const selected = get().selected;
    if (!selected) return;
    const mine = ++generation;
    set({ isLoadingRows: true, rowsError: null, isLoadingMore: false, rows: [], tail: [], tailOffset: 0, ...noPageNotes, next: null, hasMore: false, page: 1, count: 0, countIsEstimate: false });
    try {
      const answer = await tablesApi.fetchTableRows(selected.encodedName, requestParams(1));
      if (mine !== generation) return;
      set({ rows: answer.results, ...mergePageNotes(noPageNotes, answer), count: answer.count, countIsEstimate: answer.count_is_estimate, next: answer.next, hasMore: hasMoreAfter(answer), page: 1, isLoadingRows: false });
    } catch (error) {
      if (mine !== generation) return;
      set({ isLoadingRows: false, rowsError: withDetail(t('errors.fetchData'), normalizeError(error)) });
    }
  };

  /** Runs one operation with the isSaving/saveError flags. */
  const operate = async <T>(work: () => Promise<OperationResult<T>>): Promise<OperationResult<T>> => {
    set({ isSaving: true, saveError: null });
    const result = await work();
    set({ isSaving: false, saveError: result.ok ? null : result.message });
    return result;
  };

  return {
    ...initialTablesState,

    loadStructure: async () => {
      if (!sessionReady()) return;
      set({ isLoading: true, error: null });
      try {
        const [tables, folders] = await Promise.all([tablesApi.fetchTableStructure(), tablesApi.fetchFolders()]);
        const selected = get().selected;
        const current = selected ? tables.find((table) => table.encodedName === selected.encodedName) : undefined;
        set({ tables, folders, isLoading: false, ...(current ? { selected: current } : {}) });
      } catch (error) {
        set({ isLoading: false, error: withDetail(t('errors.loadTables'), normalizeError(error)) });
      }
    },

    selectTable: async (name) => {
      const table = get().tables.find((candidate) => candidate.name === name || candidate.encodedName === name);
      const mine = ++generation;
      // Choosing a table resets sort, filters, page and data (spec §4).
      set((state) => ({
        selected: table ?? null,
        selectionCount: state.selectionCount + 1,
        columns: [],
        rows: [],
        tail: [],
        tailOffset: 0,
        ...noPageNotes,
        count: 0,
        countIsEstimate: false,
        next: null,
        hasMore: false,
        page: 1,
        sort: initialSort,
        filters: {},
        filterProblems: {},
        isLoadingMore: false,
        isLoadingRows: true,
        rowsError: null,
      }));
      if (!table) {
        set({ isLoadingRows: false, rowsError: t('errors.tableNotFound', { name }) });
        return;
      }
      try {
        const [columns, answer] = await Promise.all([
          tablesApi.fetchTableColumns(table.encodedName).catch((error: unknown) => {
            const normalized = normalizeError(error);
            throw normalized.details.status === 404
              ? t('errors.tableNotFound', { name: table.name })
              : withDetail(t('errors.selectTable'), normalized);
          }),
          tablesApi.fetchTableRows(table.encodedName, requestParams(1)).catch((error: unknown) => {
            throw withDetail(t('errors.fetchData'), normalizeError(error));
          }),
        ]);
        if (mine !== generation) return;
        set({ columns, rows: answer.results, ...mergePageNotes(noPageNotes, answer), count: answer.count, countIsEstimate: answer.count_is_estimate, next: answer.next, hasMore: hasMoreAfter(answer), isLoadingRows: false });
      } catch (message) {
        if (mine !== generation) return;
        set({ isLoadingRows: false, rowsError: typeof message === 'string' ? message : t('errors.selectTable') });
      }
    },

    clearSelection: () => {
      generation++;
      set({ selected: null, columns: [], rows: [], tail: [], tailOffset: 0, ...noPageNotes, count: 0, countIsEstimate: false, next: null, hasMore: false, page: 1, sort: initialSort, filters: {}, filterProblems: {}, isLoadingRows: false, rowsError: null, isLoadingMore: false });
    },

    setPageSize: (pageSize) => {
      const size = Number.isFinite(pageSize) ? Math.min(maxPageSize, Math.max(1, Math.floor(pageSize))) : defaultPageSize;
      set({ pageSize: size });
    },

    toggleSort: async (key) => {
      set({ sort: nextSort(get().sort, key) });
      await reloadFirstPage();
    },

    setFilter: async (key, value) => {
      const { columns, filters: before, filterProblems } = get();
      const { [key]: _solved, ...otherProblems } = filterProblems;
      const read = value.trim() === '' ? null : readFilterInput(columns.find((column) => column.key === key)?.type, value);
      if (read && 'problem' in read) {
        set({ filterProblems: { ...otherProblems, [key]: { ...read, text: value } } });
        return;
      }
      const filters = withFilter(before, key, value);
      set({ filters, filterProblems: otherProblems });
      if (filtersJson(filters, columns) !== filtersJson(before, columns)) await reloadFirstPage();
    },

    loadMore: async () => {
      const { selected, next, hasMore, isLoadingMore, isLoadingRows } = get();
      if (!selected || !hasMore || !next || isLoadingMore || isLoadingRows) return;
      const mine = generation;
      set({ isLoadingMore: true, rowsError: null });
      try {
        const params = tablesApi.paramsOfNextLink(next);
        const answer = await tablesApi.fetchTableRows(selected.encodedName, params);
        if (mine !== generation) return;
        set((state) => ({
          ...joinTail(state.rows.concat(answer.results), hasMoreAfter(answer), answer.next, state.tail, state.tailOffset),
          ...mergePageNotes(state, answer),
          count: answer.count,
          countIsEstimate: answer.count_is_estimate,
          page: params.page ?? state.page + 1,
          isLoadingMore: false,
        }));
      } catch (error) {
        if (mine !== generation) return;
        set({ isLoadingMore: false, rowsError: withDetail(t('errors.fetchData'), normalizeError(error)) });
      }
    },

    loadEnd: async () => {
      const { selected, hasMore, tail, isLoadingMore, isLoadingRows } = get();
      if (!selected || !hasMore || tail.length > 0 || isLoadingMore || isLoadingRows) return;
      const mine = generation;
      set({ isLoadingMore: true, rowsError: null });
      try {
        const params = requestParams(1);
        const answer = await tablesApi.fetchTableRows(selected.encodedName, { ...params, page_size: Math.max(params.page_size ?? defaultPageSize, endRows), from_end: 'true' });
        if (mine !== generation) return;
        const offset = answer.offset ?? Math.max(0, answer.count - answer.results.length);
        set((state) => ({
          ...joinTail(state.rows, state.hasMore, state.next, answer.results, offset),
          ...mergePageNotes(state, answer),
          count: answer.count,
          countIsEstimate: answer.count_is_estimate,
          isLoadingMore: false,
        }));
      } catch (error) {
        if (mine !== generation) return;
        set({ isLoadingMore: false, rowsError: withDetail(t('errors.fetchData'), normalizeError(error)) });
      }
    },

    refreshRows: async () => {
      const { selected, rows: before } = get();
      if (!selected) return;
      const mine = ++generation;
      set({ isLoadingMore: true, rowsError: null });
      try {
        // The same sort and filters, as many rows as were on screen (the pages the user had seen).
        let answer = await tablesApi.fetchTableRows(selected.encodedName, requestParams(1));
        let rows = answer.results;
        let notes = mergePageNotes(noPageNotes, answer);
        let page = 1;
        for (let pages = 1; rows.length < before.length && pages < maxRefreshPages; pages++) {
          const params = followingPage(answer);
          if (!params) break;
          answer = await tablesApi.fetchTableRows(selected.encodedName, params);
          rows = rows.concat(answer.results);
          notes = mergePageNotes(notes, answer);
          page = params.page ?? page + 1;
        }
        if (mine !== generation) return;
        set({ rows, tail: [], tailOffset: 0, ...notes, count: answer.count, countIsEstimate: answer.count_is_estimate, next: answer.next, hasMore: hasMoreAfter(answer), page, isLoadingMore: false });
      } catch (error) {
        if (mine !== generation) return;
        set({ isLoadingMore: false, rowsError: withDetail(t('errors.fetchData'), normalizeError(error)) });
      }
    },

    exportRows: async (format) => {
      const selected = get().selected;
      if (!selected) return failure(t('validation.tableNameRequired'));
      try {
        return { ok: true, value: await tablesApi.fetchTableExport(selected.encodedName, orderParams(), format) };
      } catch (error) {
        return failure(withDetail(t(exportFailures[format]), normalizeError(error)));
      }
    },

    createFolder: (folderPath) =>
      operate(async () => {
        const path = folderPath.trim().replace(/^\/+|\/+$/g, '');
        if (!path) return failure(t('validation.folderRequired'));
        try {
          await tablesApi.createFolder(path);
        } catch (error) {
          const normalized = normalizeError(error);
          return failure(withDetail(t('errors.createFolder'), normalized), normalized.details.fieldErrors);
        }
        await get().loadStructure();
        return { ok: true, value: null };
      }),

    createTable: (request) =>
      operate(async () => {
        const name = request.name.trim();
        if (!name) return failure(t('validation.tableNameRequired'), { name: [t('validation.tableNameRequired')] });
        let table: TableSummary;
        try {
          table = await tablesApi.createTable({ ...request, name });
        } catch (error) {
          const normalized = normalizeError(error);
          return failure(withDetail(t('errors.createTable'), normalized), normalized.details.fieldErrors);
        }
        await get().loadStructure();
        await get().selectTable(table.encodedName);
        return { ok: true, value: table };
      }),

    moveTable: (name, folder) =>
      operate(async () => {
        if (!name) return failure(t('validation.tableNameRequired'));
        let moved: TableSummary;
        try {
          moved = await tablesApi.updateTableFolder(name, folder);
        } catch (error) {
          return failure(withDetail(t('errors.updateFolder'), normalizeError(error)));
        }
        await get().loadStructure();
        return { ok: true, value: moved };
      }),

    deleteTable: (name) =>
      operate(async () => {
        if (!name) return failure(t('validation.tableNameRequired'));
        try {
          await tablesApi.deleteTable(name);
        } catch (error) {
          return failure(withDetail(t('errors.deleteTable'), normalizeError(error)));
        }
        const selected = get().selected;
        await get().loadStructure();
        // The table's variations went with it: drop the selection if it is gone.
        if (selected && !get().tables.some((table) => table.encodedName === selected.encodedName)) get().clearSelection();
        return { ok: true, value: null };
      }),

    addRow: (values) =>
      operate(async () => {
        const selected = get().selected;
        if (!selected) return failure(t('errors.noTableForAdd'));
        return saveRow(() => tablesApi.addRow(selected.encodedName, values), 'errors.addRow');
      }),

    editRow: (values, version) =>
      operate(async () => {
        const selected = get().selected;
        const id = values['id'];
        if (!selected || id === undefined || id === null || id === '') return failure(t('errors.noTableForEdit'));
        return saveRow(() => tablesApi.editRow(selected.encodedName, values, version), 'errors.editRow');
      }),

    rowReferences: async (id) => {
      const selected = get().selected;
      if (!selected) return failure(t('errors.noTableForDelete'));
      try {
        return { ok: true, value: await tablesApi.fetchRowReferences(selected.encodedName, id) };
      } catch (error) {
        return failure(withDetail(t('errors.rowReferences'), normalizeError(error)));
      }
    },

    deleteRow: (id, options = {}) =>
      operate(async () => {
        const selected = get().selected;
        if (!selected) return failure(t('errors.noTableForDelete'));
        if (id === undefined || id === null || id === '') return failure(t('validation.rowIdRequired'));
        try {
          await tablesApi.deleteRow(selected.encodedName, id, options);
        } catch (error) {
          const normalized = normalizeError(error);
          const current = currentOfConflict<TableRow>(normalized);
          if (!current) return failure(withDetail(t('errors.deleteRow'), normalized));
          await get().refreshRows();
          return failure(normalized.message, {}, current);
        }
        await get().refreshRows();
        return { ok: true, value: null };
      }),

    makeVariation: (parentId) =>
      operate(async () => {
        const selected = get().selected;
        if (!selected) return failure(t('validation.baseTableRequired'));
        let made: tablesApi.Variation;
        try {
          made = await tablesApi.createVariation(selected.name, parentId);
        } catch (error) {
          return failure(withDetail(t('errors.createVariation'), normalizeError(error)));
        }
        await get().loadStructure();
        await get().selectTable(made.encodedName);
        return { ok: true, value: made };
      }),
  };
});
