// Which row of a CSV file or .xlsx sheet holds the column names. Exports from tills, ERPs and
// spreadsheets often put a title above them (`Inventur 30.11.2026;;`, "Sales report December 2026"
// and a blank line, a report title in A1 with the names on row 3, a till's `Filiale;Nord` /
// `Datum;30.11.2026` block). The rule is conservative, so that a file whose names are on its first
// line reads as it always has (ADR 0153, "Amendment: column names below a title" and its amendments):
// within the first rows, the first row whose filled cells are as many as the widest row's and all
// different is the header candidate — its names none a number or a date, or, with years or numbers
// among them, at least one a word over rows holding only numbers and codes. It is the header when
// every non-blank row above it fills fewer than half as many cells (a title, a date line), or, in a
// CSV file, fewer cells and a different number of fields (`Sales report, December 2026` above three
// names: a CSV header must have as many fields as its records, so that file could not be read
// before), or when the rows above are a block of labels and their values (`Filiale;Nord`) ended by a
// blank line and a name of the candidate stands over a column of numbers or codes. Otherwise the
// first non-blank row is. Lines of empty cells (`;;`, as Excel saves a blank row) are blank rows. The
// mapping's `header_row` overrides the guess.

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

/** `GAR-1001`, `A-1`, `4711B`: one word holding a digit — a column of data holds codes, a name is a word. */
const CODE = /^(?=\S*\d)\S+$/;

/** What a cell holds, as telling names from data needs it: a number or date, a code, or text (words). */
function kindOf(cell: unknown): 'blank' | 'value' | 'code' | 'text' {
  if (!isFilled(cell)) return 'blank';
  if (isValue(cell)) return 'value';
  return CODE.test(String(cell).trim()) ? 'code' : 'text';
}

const allDifferent = (filled: readonly unknown[]) => new Set(filled.map((cell) => String(cell).trim().toLowerCase())).size === filled.length;

/** Whether a row could name columns: its filled cells all different, none a number or a date. */
function namesColumns(cells: readonly unknown[]): boolean {
  const filled = cells.filter(isFilled);
  return allDifferent(filled) && !filled.some(isValue);
}

/** Rows of data a widened guess needs below the names: one row alone could as well be a record. */
const DATA_ROWS_NEEDED = 2;

/**
 * Whether a row names columns with years or numbers among its names (`Artikel;2025;2026`): all
 * different, at least one a word, over at least two rows holding only numbers, dates and codes.
 */
function namesNumberedColumns(cells: readonly unknown[], below: readonly (readonly unknown[])[]): boolean {
  const filled = cells.filter(isFilled);
  return allDifferent(filled) && filled.some((cell) => kindOf(cell) === 'text') && below.length >= DATA_ROWS_NEEDED && below.every((row) => row.every((cell) => kindOf(cell) !== 'text'));
}

/** Whether `name` is a word over a column of numbers or codes (at least two, no words among them). */
function isWordOverData(name: unknown, column: readonly unknown[]): boolean {
  const filled = column.filter(isFilled);
  return kindOf(name) === 'text' && filled.length >= DATA_ROWS_NEEDED && filled.every((value) => kindOf(value) !== 'text');
}

/**
 * The row holding the column names among the head's rows that are not empty lines, or null when
 * there are none. `cellsAs(row, header)`: a row's cells read as the header candidate reads its own
 * (a CSV line split by the candidate's separator); by default the row's cells. `fieldCountTells`: a
 * row above with another number of fields than the candidate's cannot be the header (CSV; a sheet's
 * rows end at their last filled cell).
 */
export function detectHeaderRow(
  rows: readonly HeadRow[],
  { cellsAs = (row) => row.cells, fieldCountTells = false }: { cellsAs?: (row: HeadRow, header: HeadRow) => readonly unknown[]; fieldCountTells?: boolean } = {},
): number | null {
  // A line of empty cells (`;;`) is a blank row: a file starting with some has its names below them.
  const filledRows = rows.filter((row) => filledCount(row.cells) > 0);
  const first = filledRows[0];
  if (!first) return rows[0]?.row ?? null;
  const widest = Math.max(...filledRows.map((row) => filledCount(row.cells)));
  if (widest < 2) return first.row;
  const below = (candidate: HeadRow) => filledRows.filter((row) => row.row > candidate.row).map((row) => cellsAs(row, candidate));
  const above = (candidate: HeadRow) => filledRows.filter((row) => row.row < candidate.row).map((row) => cellsAs(row, candidate));
  const candidates = filledRows.filter((row) => filledCount(row.cells) === widest && (namesColumns(row.cells) || namesNumberedColumns(row.cells, below(row))));
  const header = candidates[0];
  if (!header) return first.row;
  const isTitle = (cells: readonly unknown[]) => filledCount(cells) * 2 < widest || (fieldCountTells && cells.length !== header.cells.length && filledCount(cells) < widest);
  if (header !== first && above(header).every(isTitle)) return header.row;
  // `Filiale;Nord` / `Datum;30.11.2026`, a blank line, then names over data: each row above a label (a word) and its
  // value, or a line of one cell. A label over a column of data would be a name (`Jahr;Bestand` above years, a blank
  // line, a record with a word): then the first row stays.
  const isBelowLabels = (candidate: HeadRow) => {
    const lines = filledRows.map((row) => ({ row: row.row, cells: cellsAs(row, candidate) }));
    const isLabelLine = ({ row, cells }: HeadRow) => {
      const filled = cells.filter(isFilled);
      const label = cells.findIndex(isFilled);
      const column = lines.filter((line) => line.row > row).map((line) => line.cells[label]);
      return filled.length === 1 || (filled.length === 2 && kindOf(cells[label]) === 'text' && !isWordOverData(cells[label], column));
    };
    const data = below(candidate);
    const blankLineAbove = !filledRows.some((row) => row.row === candidate.row - 1);
    return blankLineAbove && lines.filter((line) => line.row < candidate.row).every(isLabelLine) && candidate.cells.some((name, at) => isWordOverData(name, data.map((cells) => cells[at])));
  };
  const belowLabels = candidates.find((candidate) => candidate !== first && isBelowLabels(candidate));
  return belowLabels?.row ?? first.row;
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
