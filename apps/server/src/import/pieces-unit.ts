// A product's unit as an import stores it (ADR 0198 F15): a word for pieces — Odoo's "Units", a
// till's "Stk", "pcs", "each" (contract PIECES_WORDS) — is no unit, the product counted in plain
// units as one left blank is, so the screens write "1", not "1 Units"; a unit of its own ("kg",
// "Dozens", "box") is kept as written. Files and integration runs alike, the products file's own
// unit column and the unit a line gives a product it creates.
import { isPiecesWord } from '@stockwise/contract';
import type { RowValues } from '../tables/columns.ts';

/** The products table's column of a product's unit. */
export const UNIT_COLUMN = 'unit';

/** A unit cell's value as stored: a word for pieces is none (null). */
export const storedUnit = <Value extends RowValues[string]>(value: Value): Value | null => (typeof value === 'string' && isPiecesWord(value) ? null : value);
