// Which row of a CSV file or .xlsx sheet holds the column names. Exports from tills, ERPs and
// spreadsheets often put a title above them (`Inventur 30.11.2026;;`, "Sales report December 2026"
// and a blank line, a report title in A1 with the names on row 3). The rule is conservative, so that
// a file whose names are on its first line reads as it always has (ADR 0153, "Amendment: column
// names below a title"): within the first rows, the first row whose filled cells are as many
// as the widest row's, all different, none a number or a date, is the header — when every non-blank
// row above it fills fewer than half as many cells (a title, a date line), or, in a CSV file, fewer
// cells and a different number of fields (`Sales report, December 2026` above three names: a CSV
// header must have as many fields as its records, so that file could not be read before). Otherwise
// the first non-blank row is. The mapping's `header_row` overrides the guess.

/** Rows read to find the header; a title block is never longer. */
export const HEADER_SEARCH_ROWS = 20;

/** A row of the file's head: its number as a spreadsheet shows it, and its cells. */
export type HeadRow = { row: number; cells: readonly unknown[] };

/** The header row cannot be where the mapping says: a 400 of the file, naming it. */
export class HeaderRowError extends Error {}

const isFilled = (cell: unknown) => cell !== null && cell !== undefined && String(cell).trim() !== '';
const filledCount = (cells: readonly unknown[]) => cells.filter(isFilled).length;

/** `12`, `-3,50`, `1.234,5`, `12 %`: a value, not a column's name. */
const NUMBER = /^[-+]?[\d\s.,']*\d\s*%?$/;
/** `30.11.2026`, `2026-11-30`, `11/30/26 14:00`: a value, not a column's name. */
const DATE = /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}(?:[ T].*)?$/;

function isValue(cell: unknown): boolean {
  if (typeof cell === 'number' || typeof cell === 'boolean' || cell instanceof Date) return true;
  const text = String(cell).trim();
  return NUMBER.test(text) || DATE.test(text);
}

/** Whether a row could name columns: its filled cells all different, none a number or a date. */
function namesColumns(cells: readonly unknown[]): boolean {
  const filled = cells.filter(isFilled);
  const names = new Set(filled.map((cell) => String(cell).trim().toLowerCase()));
  return names.size === filled.length && !filled.some(isValue);
}

/**
 * The row holding the column names among the head's rows that are not empty lines (a line of empty
 * cells, `;;`, is not one: it is the header of a file that starts with it), or null when there are none.
 * `cellsAs(row, header)`: a row's cells read as the header candidate reads its own (a CSV line split
 * by the candidate's separator); by default the row's cells. `fieldCountTells`: a row above with
 * another number of fields than the candidate's cannot be the header (CSV; a sheet's rows end at
 * their last filled cell).
 */
export function detectHeaderRow(
  rows: readonly HeadRow[],
  { cellsAs = (row) => row.cells, fieldCountTells = false }: { cellsAs?: (row: HeadRow, header: HeadRow) => readonly unknown[]; fieldCountTells?: boolean } = {},
): number | null {
  const first = rows[0];
  if (!first) return null;
  const widest = Math.max(...rows.map((row) => filledCount(row.cells)));
  const header = rows.find((row) => filledCount(row.cells) === widest && namesColumns(row.cells));
  // A file starting with a line of empty cells keeps it as its header, as it always has: only below a title are such lines skipped.
  if (!header || header === first || widest < 2 || filledCount(first.cells) === 0) return first.row;
  const above = rows.filter((row) => row.row < header.row);
  const isTitle = (row: HeadRow) => {
    const cells = cellsAs(row, header);
    return filledCount(cells) * 2 < widest || (fieldCountTells && cells.length !== header.cells.length && filledCount(cells) < widest);
  };
  return above.every(isTitle) ? header.row : first.row;
}

/** A row above the header as the preview lists it: its filled cells' text. */
export function skippedRowText(cells: readonly unknown[]): string {
  return cells
    .filter(isFilled)
    .map((cell) => (cell instanceof Date ? cell.toISOString().slice(0, 10) : String(cell).trim()))
    .join(' · ');
}

export const headerRowPastEnd = (headerRow: number, rows: number) =>
  new HeaderRowError(`The column names cannot be on row ${headerRow} (header_row): the file has only ${rows} row${rows === 1 ? '' : 's'}.`);
export const headerRowBlank = (headerRow: number) => new HeaderRowError(`The column names cannot be on row ${headerRow} (header_row): that row is blank.`);
