// Figures typed on the Data screen as a shop writes them, read as a file's cells are read: money
// pasted with its currency sign (ADR 0145), a product's quantity written with its unit (ADR 0178's
// amendment of 2026-12-06). What still is no number is left for the row's check to refuse.
import {
  DEFAULT_DECIMAL_PLACES,
  inReadingUnit,
  isQuantityColumn,
  productUnit,
  splitQuantityUnit,
  typedMoney,
  typedNumber,
  type ColumnDefinition,
  type ReadingUnit,
} from '@stockwise/contract';
import { validationError } from '../http/errors.ts';
import { columnLabel } from './columns.ts';
import type { RowRecord } from './repo.ts';

/** A number as the API takes one once a typed figure is read: digits, one point, a sign. */
export const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/**
 * A Data screen write's money as the import reads it (ADR 0145): a pasted `$24.99` or `1,299.00`
 * in a decimal column is the number; text that still is none is refused as it was written.
 */
export function withMoneyRead(columns: ColumnDefinition[], values: Record<string, unknown>): Record<string, unknown> {
  const read = { ...values };
  for (const column of columns) {
    const value = values[column.key];
    if (column.type !== 'DecimalField' || typeof value !== 'string') continue;
    const figure = typedMoney(value);
    if (PLAIN_NUMBER.test(figure)) read[column.key] = figure;
  }
  return read;
}

/** The product a row's quantities are counted for, as far as the write tells: its code and unit. */
export type QuantityProduct = { code: string; unit: string | null };

/**
 * Where the unit of a written row's product comes from: a products row's own Unit sent in the same
 * write, else the product itself (the row's product, by the reference sent or the one stored).
 * Asked only when a quantity was typed with a word after it: a plain number costs nothing.
 */
export type QuantityUnitSource = {
  /** The products table's row being written (its own Unit may come with the write), or another table's. */
  ownUnitColumn: ColumnDefinition | undefined;
  product: () => Promise<QuantityProduct | undefined>;
};

/**
 * A Data screen write's quantities of a product (`isQuantityColumn`) typed with a unit, `0.25 kg`
 * or `250 g` of a product in kg, read in the product's unit as the import reads a file's cell: the
 * same conversions and refusals (inReadingUnit), a refusal a 400 naming the field. The number
 * before the word is read as a typed figure is (`1,5 kg` is 1.5).
 */
export async function withQuantityUnitsRead(columns: ColumnDefinition[], values: Record<string, unknown>, source: QuantityUnitSource): Promise<Record<string, unknown>> {
  const written = columns.flatMap((column) => {
    const text = values[column.key];
    const split = isQuantityColumn(column) && typeof text === 'string' ? splitQuantityUnit(text) : null;
    return split ? [{ column, text: (text as string).trim(), word: split.word, number: typedNumber(split.number) }] : [];
  });
  if (!written.length) return values;
  const reading = await readingUnit(values, source);
  const read = { ...values };
  const errors: Record<string, string[]> = {};
  for (const { column, text, word, number } of written) {
    if (!PLAIN_NUMBER.test(number)) continue;
    const value = inReadingUnit(Number(number), word, text, reading, column.decimal_places ?? DEFAULT_DECIMAL_PLACES, 'form');
    if (typeof value === 'string') errors[column.key] = [value];
    else read[column.key] = value;
  }
  const refused = columns.filter((column) => errors[column.key]);
  if (refused.length) throw validationError(refused.map((column) => `${columnLabel(column)}: ${errors[column.key]![0]}`).join(' '), errors);
  return read;
}

async function readingUnit(values: Record<string, unknown>, { ownUnitColumn, product }: QuantityUnitSource): Promise<ReadingUnit> {
  if (ownUnitColumn && ownUnitColumn.key in values) {
    const own = values[ownUnitColumn.key];
    return { unit: productUnit(typeof own === 'string' ? own : null), of: `this row's ${columnLabel(ownUnitColumn)}` };
  }
  const found = await product();
  return found?.unit ? { unit: found.unit, of: `the unit of product ${found.code}` } : { unit: null, of: '' };
}

/** A stored product row's code and unit, as withQuantityUnitsRead names them. */
export const quantityProductOf = (row: RowRecord | undefined): QuantityProduct | undefined =>
  row ? { code: String(row['product_code'] ?? row['id']), unit: productUnit(typeof row['unit'] === 'string' ? row['unit'] : null) } : undefined;
