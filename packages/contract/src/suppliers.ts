// One supplier, one spelling (ADR 0186): the shop's files and hands write one supplier "ACME",
// "Acme" and "acme " — a buyer means one supplier, as a spreadsheet's filter or a single-select
// shows it. Two names are one supplier when they are equal but for case and white space; anything
// else ("Acme" and "Acme Ltd") is two suppliers: no guessing.
import { z } from 'zod';

/** A supplier's name as written once: trimmed, each run of white space one space; blank: none (null). */
export function supplierSpelling(written: string | null | undefined): string | null {
  if (written === null || written === undefined) return null;
  return written.replace(/\s+/gu, ' ').trim() || null;
}

/**
 * What every spelling of one supplier shares: the name with case and white space aside (and one
 * Unicode form, so an "ü" written as u + diaeresis is the "ü" typed). Blank: ''.
 */
export const supplierKey = (written: string): string => (supplierSpelling(written) ?? '').normalize('NFC').toLowerCase();

/** Suppliers in the order a buyer reads them: by name, ignoring case and accents; "no supplier" (null) last. */
export const bySupplierName = (a: string | null, b: string | null) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : a.localeCompare(b, 'en', { sensitivity: 'base' }) || a.localeCompare(b));

/** The products column that names a product's supplier (migration 0680): its Data screen field suggests the suppliers there are. */
export const SUPPLIER_COLUMN = { table: 'products', column: 'supplier' } as const;

/** Whether a table's column is the products' supplier (`encodedName`: the table's database name). */
export const isSupplierColumn = (encodedName: string, column: string) => encodedName === SUPPLIER_COLUMN.table && column === SUPPLIER_COLUMN.column;

/** A supplier the products name, in its one spelling, and how many products it supplies (every spelling counted). */
export const knownSupplier = z.object({ supplier: z.string(), products: z.number().int() });
export type KnownSupplier = z.infer<typeof knownSupplier>;

/** GET /api/suppliers/: the suppliers the products name, one spelling each, by name. */
export const supplierList = z.object({ suppliers: z.array(knownSupplier) });
export type SupplierList = z.infer<typeof supplierList>;
