// A product named with its code in brackets before its name, as ERP exports write a line's product
// (Odoo's "[FURN_7800] Desk Combination"): the code is the bracketed text, and a cell without
// brackets names a product that has no code (ADR 0198, a mapping's `code_in_brackets`).

const BRACKETED = /^\s*\[([^[\]]*)\]/;

/** The code of a `[CODE] Name` cell; '' where the cell has no leading brackets; a blank cell as it is. */
export function codeInBrackets(cell: unknown): unknown {
  if (cell === null || cell === undefined || cell instanceof Date) return cell;
  const text = String(cell);
  if (text.trim() === '') return cell;
  return BRACKETED.exec(text)?.[1]?.trim() ?? '';
}

/** A mapped record with its code field (`codeField`: the target's code column) read from its brackets, in place (ADR 0198): what the mappers do. */
export function readBracketed(fields: Record<string, unknown>, codeField: string): Record<string, unknown> {
  if (codeField in fields) fields[codeField] = codeInBrackets(fields[codeField]);
  return fields;
}

/**
 * Whether a column's cells mostly name products as `[CODE] Name` (more than half of the non-blank
 * cells, two at least): the proposal then reads the code in the brackets. A column of plain codes
 * or of names alone is not one.
 */
export function mostlyBracketedCodes(cells: readonly unknown[]): boolean {
  const written = cells.filter((cell) => typeof cell === 'string' && cell.trim() !== '') as string[];
  const bracketed = written.filter((cell) => /^\s*\[[^[\]]+\]\s*\S/.test(cell)).length;
  return bracketed >= 2 && bracketed * 2 > written.length;
}
