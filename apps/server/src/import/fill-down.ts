// A mapping's `fill_down_by` (ADR 0195 F3): a blank cell of a mapped column takes the value of the
// nearest line above with the same value in the grouping column (Shopify's Handle writes Title,
// Vendor and Type on a product's first variant line only). Read where the records are mapped, so
// file imports, their preview and integration runs fill alike. The key fields are never filled: a
// line without its own code (an image-only line, a variant without a SKU) stays without one.
import { isPlainRecord, readMappedPath } from '@stockwise/contract';

export const isBlank = (value: unknown): boolean => value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
const asKey = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value)).trim();

/** What a source's records are filled down by: the grouping path, and the fields never filled (the target's keys). */
export type FillDownSpec = { by: string; kept: ReadonlySet<string> };

export const fillDownSpec = (mapping: { fill_down_by?: string | undefined }, keyColumns: readonly string[]): FillDownSpec | null =>
  mapping.fill_down_by ? { by: mapping.fill_down_by, kept: new Set(keyColumns) } : null;

/**
 * Whether no record of `records` (the JSON objects among them) has the path `by` at all — a
 * renamed key, not a blank one (`null` is had). False when none is an object: nothing is known.
 * A file's missing column is refused by its header; a JSON source's by its records (ADR 0195).
 */
export const noRecordHas = (by: string, records: readonly unknown[]): boolean => {
  const objects = records.filter(isPlainRecord);
  return objects.length > 0 && objects.every((record) => readMappedPath(record, by) === undefined);
};

/** Keys of a record listed at most in the refusal. */
const LISTED_KEYS = 20;

/** The refusal of a `fill_down_by` path no record has, `where` the records ("No record read"), listing the first record's keys. */
export function absentFillDownMessage(by: string, where: string, records: readonly unknown[]): string {
  const keys = Object.keys(records.find(isPlainRecord) ?? {});
  const shown = `${keys.slice(0, LISTED_KEYS).map((key) => `'${key}'`).join(', ')}${keys.length > LISTED_KEYS ? ', …' : ''}`;
  return `${where} has the path '${by}' that blank cells are filled down by (fill_down_by; the first record has: ${shown || 'no keys'}). Nothing would be filled: check the mapping.`;
}

/**
 * The cells of one source read in order: per group, the last value seen of each part (a column's
 * place, a record's path). Memory grows with the groups and the columns read, not with the lines.
 */
export class FillDown {
  readonly #seen = new Map<string, Map<string | number, unknown>>();

  /** The part's value on a line of `group`: its own, or (blank) the nearest one above in the group. */
  fill(group: unknown, part: string | number, value: unknown): unknown {
    if (isBlank(group)) return value;
    const key = asKey(group);
    let seen = this.#seen.get(key);
    if (!isBlank(value)) {
      if (!seen) this.#seen.set(key, (seen = new Map()));
      seen.set(part, value);
      return value;
    }
    return seen?.has(part) ? seen.get(part) : value;
  }
}

/**
 * The column a file's blank cells are proposed to be filled down by: one whose value repeats on
 * consecutive lines exactly while the `blanked` columns (the name's: Shopify's Title) are blank,
 * and changes where they are written — a product's Handle, its first line titled, its later
 * variant lines not. Null when no column does so over two groups at least (one group alone says
 * nothing: a weight the same on every line), whose values come back (a price) or are numbers
 * alone; the first in the header when several do.
 */
export function proposeFillDown(header: readonly string[], blanked: readonly string[], lines: readonly ((column: string) => unknown)[]): string | null {
  if (!blanked.length) return null;
  const candidates = header.filter((column) => !blanked.includes(column));
  for (const column of candidates) {
    // The nearest value above: a blank line between (an image-only line's weight) does not start a group.
    let above: string | null = null;
    let later = 0;
    let starts = 0;
    let fits = true;
    const groups = new Set<string>();
    let numeric = true;
    for (const cellOf of lines) {
      const cell = cellOf(column);
      const value = isBlank(cell) ? null : asKey(cell);
      if (value !== null) {
        const same = value === above;
        const written = blanked.some((name) => !isBlank(cellOf(name)));
        // A group starts where the name is written, and only there.
        if (same === written) {
          fits = false;
          break;
        }
        if (same) later += 1;
        else starts += 1;
        // A group's key does not come back after another's (a price does); a key is not a number alone.
        if (!same && groups.has(value)) {
          fits = false;
          break;
        }
        groups.add(value);
        numeric &&= /^[-+]?[\d.,]+$/.test(value);
        above = value;
      }
    }
    if (fits && !numeric && later > 0 && starts > 1) return column;
  }
  return null;
}

/** Columns of the option values a product's variant lines name it by (Shopify's Option1 Value, Option2 Value…), in order: at most `max`. */
export const optionValueColumns = (header: readonly string[], max: number) => header.filter((column) => /^option\s*\d+\s*value$/i.test(column.trim())).slice(0, max);
