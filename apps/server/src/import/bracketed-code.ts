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

/**
 * The fields a mapping with `code_in_brackets` reads from brackets: `code`, the product code (the
 * target's code column); `names`, the name a product created from the line takes (`new_products.name`,
 * a products file's `name`), which drops the line's own `[CODE] ` (Odoo's Product and Description cells).
 */
export type BracketedFields = { code: string; names: readonly string[] };

/** A mapped record with its code read from its brackets and its names without them, in place (ADR 0198): what the mappers do. */
export function readBracketed(fields: Record<string, unknown>, bracketed: BracketedFields): Record<string, unknown> {
  if (!(bracketed.code in fields)) return fields;
  const code = codeInBrackets(fields[bracketed.code]);
  fields[bracketed.code] = code;
  if (typeof code !== 'string' || code === '') return fields;
  for (const field of bracketed.names) {
    const name = fields[field];
    const written = typeof name === 'string' ? BRACKETED.exec(name) : null;
    // The line's own code only: a name whose brackets hold another text ("[Sale] Desk") is written so.
    if (written && written[1]?.trim() === code) fields[field] = (name as string).slice(written[0].length).trim();
  }
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
