// Undo and redo on the Data screen: per table, the rows this user added and the fields they edited
// here, in this page's memory only (spec §9: nothing but the refresh token persists in the browser;
// a history in localStorage would outlive the sign-out that must forget it). An undo writes back
// through the same edit and delete calls as the form, after reading the row afresh: a row changed
// since (another user, an import) is named and left alone. Deletes are not recorded: they may take
// other rows with them, and their confirmation already says so.
import { create } from 'zustand';
import { rowVersion, type TableColumn, type TableRow, type TableSummary } from '@stockwise/contract';
import * as tablesApi from '../api/tables.ts';
import { normalizeError } from '../api/errors.ts';
import { i18n } from '../i18n.ts';
import { referenceText } from '../pages/datatab/table-query.ts';
import { useSessionStore } from './session.ts';
import { useTablesStore, withDetail, type OperationResult } from './tables.ts';

/** Each table keeps this many changes to undo; the oldest goes first. */
export const historyLimit = 100;

type StoredValue = TableRow[string] | null;

export type FieldChange = { key: string; before: StoredValue; after: StoredValue };

export type RowChange =
  /** `fields`: what the edit changed, as stored before and after it. */
  | { kind: 'edit'; rowId: number | string; rowName: string; fields: FieldChange[] }
  /** `sent`: what the form sent (added again on redo); `written`: the row as the server stored it. */
  | { kind: 'add'; rowId: number | string; rowName: string; sent: Record<string, unknown>; written: TableRow };

type Direction = 'undo' | 'redo';

type TableHistory = { done: RowChange[]; undone: RowChange[] };

/** What the last save, undo or redo came to, said in the page's live region; `offer`: the button beside it. */
export type HistoryOutcome = { table: string; text: string; refused: boolean; offer: 'undo' | 'redo' | null; count: number };

export type RowHistoryState = {
  /** By table (its encoded name): switching tables keeps each one's history. */
  histories: Record<string, TableHistory>;
  isBusy: boolean;
  outcome: HistoryOutcome | null;
};

export type RowHistoryActions = {
  /** Adds a row to the selected table (the tables store's addRow) and records it to undo. */
  addRow: (values: Record<string, unknown>) => Promise<OperationResult<TableRow>>;
  /** Edits a row of the selected table; `before`: the row as the form opened it (the values an undo writes back, the version the edit is made at). */
  editRow: (values: Record<string, unknown>, before: TableRow) => Promise<OperationResult<TableRow>>;
  /** Undoes the selected table's last change; false when there was nothing to undo or it was refused. */
  undo: () => Promise<boolean>;
  redo: () => Promise<boolean>;
  /** Forgets the last outcome's line (another table chosen); the histories stay. */
  dismiss: () => void;
  clear: () => void;
};

export type RowHistoryStore = RowHistoryState & RowHistoryActions;

export const initialRowHistoryState: RowHistoryState = { histories: {}, isBusy: false, outcome: null };

const noHistory: TableHistory = { done: [], undone: [] };

const t = (key: string, options: Record<string, unknown> = {}) => i18n.t(`datatab.undo.${key}`, options);

/** The selected table's history. */
export const selectedHistory = (histories: Record<string, TableHistory>, table: TableSummary | null): TableHistory => (table ? (histories[table.encodedName] ?? noHistory) : noHistory);

const blank = (value: StoredValue | undefined) => value === null || value === undefined || value === '';

/**
 * Whether two stored values are the same: the edit's answer and a later read may spell one value
 * differently (a decimal 40 and "40.00", a timestamp with or without its milliseconds), and the
 * form sends an empty text as '' where a read may give null.
 */
export function sameStoredValue(a: StoredValue | undefined, b: StoredValue | undefined): boolean {
  if (blank(a) || blank(b)) return blank(a) && blank(b);
  if (a === b || String(a) === String(b)) return true;
  if (typeof a === 'boolean' || typeof b === 'boolean') return false;
  const numbers = [Number(a), Number(b)];
  if (numbers.every(Number.isFinite)) return numbers[0] === numbers[1];
  const times = [Date.parse(String(a)), Date.parse(String(b))];
  return String(a).includes('T') && String(b).includes('T') && times.every(Number.isFinite) && times[0] === times[1];
}

/** A stored value in the words the grid shows it in: a reference by its code and name, a yes/no, "(empty)". */
function valueText(column: TableColumn | undefined, value: StoredValue): string {
  if (blank(value)) return t('empty');
  if (typeof value === 'boolean') return i18n.t(value ? 'datatab.grid.yes' : 'datatab.grid.no');
  if (column?.type === 'ForeignKey') return referenceText(useTablesStore.getState().references, column.key, value) ?? String(value);
  return String(value);
}

const columnOf = (key: string) => useTablesStore.getState().columns.find((column) => column.key === key);
const fieldLabel = (key: string) => columnOf(key)?.label ?? key;

/** What undoing (or redoing) a change does, in words: "Current stock of HEA-1001 back to 40". */
export function describeChange(change: RowChange, direction: Direction): string {
  const row = change.rowName;
  if (change.kind === 'add') return t('adding', { row });
  const [only] = change.fields;
  if (change.fields.length === 1 && only) {
    const value = valueText(columnOf(only.key), direction === 'undo' ? only.before : only.after);
    return t(direction === 'undo' ? 'undoEdit' : 'redoEdit', { field: fieldLabel(only.key), row, value });
  }
  return t('editMany', { count: change.fields.length, row });
}

/** The row as the delete confirmation names it (its code and name, from the server), else by its number. */
async function rowNameOf(encodedName: string, id: number | string): Promise<string> {
  try {
    const { label } = await tablesApi.fetchRowReferences(encodedName, id);
    if (label) return label;
  } catch {
    // The number names it well enough: the save itself went through.
  }
  return t('rowNumber', { id: String(id) });
}

/** The first field of `expected` the row no longer holds, said as "Current stock 40 → 35". */
function firstDifference(row: TableRow, expected: Record<string, StoredValue>): string | null {
  for (const [key, value] of Object.entries(expected)) {
    if (!sameStoredValue(row[key], value)) return `${fieldLabel(key)} ${valueText(columnOf(key), value)} → ${valueText(columnOf(key), row[key] ?? null)}`;
  }
  return null;
}

/** Thrown inside an undo or redo: its words are what the user is told, as they are. */
class Refusal extends Error {}

export const useRowHistoryStore = create<RowHistoryStore>()((set, get) => {
  let announcements = 0;

  const announce = (table: string, text: string, refused: boolean, offer: HistoryOutcome['offer']) => set({ outcome: { table, text, refused, offer, count: ++announcements } });

  const historyOf = (table: string) => get().histories[table] ?? noHistory;
  const setHistory = (table: string, history: TableHistory) => set((state) => ({ histories: { ...state.histories, [table]: history } }));

  /** A new change: it can be undone, and what was undone before it can no longer be redone. */
  const record = (table: string, change: RowChange) => {
    const { done } = historyOf(table);
    setHistory(table, { done: [...done, change].slice(-historyLimit), undone: [] });
  };

  const failed = (direction: Direction, error: unknown) => new Refusal(withDetail(t(direction === 'undo' ? 'failedUndo' : 'failedRedo'), normalizeError(error)));

  /** A call to the server whose failure is said as "Could not undo: " and the server's words. */
  const write = async <T>(direction: Direction, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw failed(direction, error);
    }
  };

  /** The row as it is now; a row gone since is refused, by its name. */
  const readRow = async (direction: Direction, table: string, change: RowChange): Promise<TableRow> => {
    const row = await write(direction, () => tablesApi.fetchRow(table, change.rowId));
    if (!row) throw new Refusal(t(direction === 'undo' ? 'goneUndo' : 'goneRedo', { row: change.rowName }));
    return row;
  };

  /** Refused when the row holds something else than `expected` (what this user's change, or its undo, wrote). */
  const requireUnchanged = (row: TableRow, change: RowChange, expected: Record<string, StoredValue>, changed: 'changedSinceEdit' | 'changedSinceUndo' | 'changedSinceAdd') => {
    const difference = firstDifference(row, expected);
    if (difference) throw new Refusal(t(changed, { row: change.rowName, difference }));
  };

  const fieldsAs = (fields: FieldChange[], side: 'before' | 'after') => Object.fromEntries(fields.map((field) => [field.key, field[side]]));

  /** The change undone; gives it back as it now stands (the values the undo wrote). */
  const undoChange = async (table: string, change: RowChange): Promise<RowChange> => {
    const row = await readRow('undo', table, change);
    if (change.kind === 'add') {
      requireUnchanged(row, change, Object.fromEntries(Object.keys(change.sent).map((key) => [key, change.written[key] ?? null])), 'changedSinceAdd');
      // Never with cascade: a row something now refers to stays, and the server's 409 says what refers to it.
      await write('undo', () => tablesApi.deleteRow(table, change.rowId, { version: rowVersion(row) }));
      return change;
    }
    requireUnchanged(row, change, fieldsAs(change.fields, 'after'), 'changedSinceEdit');
    // At the version just read: a change made between that read and this write is not overwritten either.
    const written = await write('undo', () => tablesApi.editRow(table, { id: change.rowId, ...fieldsAs(change.fields, 'before') }, rowVersion(row)));
    return { ...change, fields: change.fields.map((field) => ({ ...field, before: written[field.key] ?? null })) };
  };

  const redoChange = async (table: string, change: RowChange): Promise<RowChange> => {
    if (change.kind === 'add') {
      const written = await write('redo', () => tablesApi.addRow(table, change.sent));
      const rowId = written['id'] as number | string;
      return { ...change, rowId, written };
    }
    const row = await readRow('redo', table, change);
    requireUnchanged(row, change, fieldsAs(change.fields, 'before'), 'changedSinceUndo');
    const written = await write('redo', () => tablesApi.editRow(table, { id: change.rowId, ...fieldsAs(change.fields, 'after') }, rowVersion(row)));
    return { ...change, fields: change.fields.map((field) => ({ ...field, after: written[field.key] ?? null })) };
  };

  /** Takes the last change off one stack, applies it, and puts it on the other; a refusal leaves both as they were. */
  const step = async (direction: Direction): Promise<boolean> => {
    const selected = useTablesStore.getState().selected;
    if (!selected || get().isBusy) return false;
    const table = selected.encodedName;
    const history = historyOf(table);
    const change = (direction === 'undo' ? history.done : history.undone).at(-1);
    if (!change) return false;
    set({ isBusy: true });
    try {
      const applied = await (direction === 'undo' ? undoChange(table, change) : redoChange(table, change));
      const now = historyOf(table);
      setHistory(
        table,
        direction === 'undo'
          ? { done: now.done.slice(0, -1), undone: [...now.undone, applied] }
          : { done: [...now.done, applied], undone: now.undone.slice(0, -1) },
      );
      announce(table, t(direction === 'undo' ? 'undone' : 'redone', { what: describeChange(change, direction) }), false, direction === 'undo' ? 'redo' : 'undo');
      return true;
    } catch (error) {
      announce(table, (error instanceof Refusal ? error : failed(direction, error)).message, true, null);
      return false;
    } finally {
      set({ isBusy: false });
      // The grid shows what the server now holds, whether the step went through or found the row changed.
      if (useTablesStore.getState().selected?.encodedName === table) await useTablesStore.getState().refreshRows();
    }
  };

  return {
    ...initialRowHistoryState,

    addRow: async (values) => {
      const tables = useTablesStore.getState();
      const table = tables.selected?.encodedName;
      const result = await tables.addRow(values);
      if (!result.ok || !table) return result;
      const rowId = result.value['id'] as number | string;
      const rowName = await rowNameOf(table, rowId);
      record(table, { kind: 'add', rowId, rowName, sent: values, written: result.value });
      announce(table, t('added', { row: rowName }), false, 'undo');
      return result;
    },

    editRow: async (values, before) => {
      const tables = useTablesStore.getState();
      const table = tables.selected?.encodedName;
      const rowId = values['id'] as number | string;
      const keys = Object.keys(values).filter((key) => key !== 'id');
      // A count typed where none was ever recorded (ADR 0149) cannot be taken back through an edit: writing
      // the stored 0 back would record a count of 0 nobody made. Such an edit is saved, not offered to undo.
      const firstCount = keys.some((key) => tables.unknownValues[key]?.[String(rowId)] !== undefined);
      // The name is read while the edit is saved (not after it): the form closes no later for it.
      const naming = table ? rowNameOf(table, rowId) : null;
      // At the version the form opened the row at: a save over someone else's since is refused (ADR 0168).
      const result = await tables.editRow(values, rowVersion(before));
      if (!result.ok || !table || !naming) return result;
      const rowName = await naming;
      const undoable = keys.length > 0 && !firstCount;
      if (undoable) record(table, { kind: 'edit', rowId, rowName, fields: keys.map((key) => ({ key, before: before[key] ?? null, after: result.value[key] ?? null })) });
      announce(table, t('saved', { row: rowName }), false, undoable ? 'undo' : null);
      return result;
    },

    undo: () => step('undo'),
    redo: () => step('redo'),

    dismiss: () => set({ outcome: null }),
    clear: () => set(initialRowHistoryState),
  };
});

// Signing out (or the session running out) forgets every table's history: the next user of this tab must not undo these changes.
useSessionStore.subscribe((session, before) => {
  if (before.isLoggedIn && !session.isLoggedIn) useRowHistoryStore.getState().clear();
});
