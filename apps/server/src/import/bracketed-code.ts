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

/** Reads a mapped record's code field from its brackets, in place (the other fields as mapped). */
export function bracketedCodeReader(codeField: string | null, on: boolean | undefined): ((fields: Record<string, unknown>) => Record<string, unknown>) | null {
  if (!on || !codeField) return null;
  return (fields) => {
    if (codeField in fields) fields[codeField] = codeInBrackets(fields[codeField]);
    return fields;
  };
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

/** A source's mapped batches with the code field read from its brackets (`read`: bracketedCodeReader's; none: as they are). */
export async function* withBracketedCodes<T extends { fields: Record<string, unknown> | null }>(batches: AsyncIterable<T[]>, read: ((fields: Record<string, unknown>) => Record<string, unknown>) | null): AsyncGenerator<T[]> {
  for await (const batch of batches) {
    if (read) for (const record of batch) if (record.fields) read(record.fields);
    yield batch;
  }
}
