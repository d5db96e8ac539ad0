// A mapping's `new_products: {name: 'Lineitem name', category: 'Product type'}`: the file's columns
// that products created for unknown codes (create_missing_products) take their fields from, so a
// shop's catalogue gets "Rose Candle" rather than "SKU-1234". The columns are read with the records
// (as pseudo-fields `new_products.<field>`, so file imports, their preview and integration runs read
// them alike), typed by the products column's own rules, staged beside the sales fields, and used
// only when the code's product is created: existing products are never changed (ADR 0011's amendment).
import { newProductFieldOf, type ColumnDefinition, type EntityMapping, type NewProduct } from '@stockwise/contract';
import { validationError } from '../http/errors.ts';
import { columnLabel, compileRowParser, isReadOnly, isTextual } from '../tables/columns.ts';
import { storedUnit, UNIT_COLUMN } from './pieces-unit.ts';

const invalid = (reason: string) => validationError(`Invalid configuration: ${reason}`);

/** The record field a new product's field is read into: `new_products.name`, as row errors name it. */
export const newProductSource = (field: string) => `new_products.${field}`;

/** One field of new products the file fills. */
export type NewProductField = {
  field: string;
  /** The file's column (or a record's dotted path). */
  path: string;
  /** The record field it is read into (`new_products.name`). */
  source: string;
  /** The staging table's column holding it. */
  staged: string;
};

/** The fields of new products a mapping fills, and the code reference whose new rows get them. */
export type NewProductColumns = { reference: string; fields: NewProductField[] };

/**
 * The mapping's field mappings with the columns of new products added (`new_products.name` → `Lineitem name`)
 * and a field's joined columns after its own (`product_id` → [Item, Price Point Name], ADR 0193; a
 * line's `new_products.name` → [Item, Price Point Name], ADR 0201 F6): what a record is read with.
 */
export function sourcePaths(mapping: Pick<EntityMapping, 'field_mappings' | 'new_products' | 'joined_columns'>): Record<string, string | readonly string[]> {
  const newProducts = Object.entries(mapping.new_products ?? {}).map(([field, path]) => [newProductSource(field), path]);
  const joined = Object.entries(mapping.joined_columns ?? {}).flatMap(([key, parts]) => {
    const newProductField = newProductFieldOf(key);
    const own = newProductField === null ? mapping.field_mappings[key] : mapping.new_products?.[newProductField];
    return own === undefined ? [] : [[key, [own, ...parts]]];
  });
  return newProducts.length || joined.length ? { ...mapping.field_mappings, ...Object.fromEntries(newProducts), ...Object.fromEntries(joined) } : mapping.field_mappings;
}

/** Whether a products column can be named from a file: text or choices, writable, not the code itself. */
export const isNameable = (column: ColumnDefinition, keyColumn: string) => column.key !== keyColumn && !isReadOnly(column.type) && (isTextual(column.type) || column.choices !== undefined);

/**
 * The mapping's `new_products` checked against the table new rows go to (`codeReferences`: the
 * mapped references fed with codes, with their table's columns): a 400 naming the field otherwise.
 */
export function checkNewProducts(mapping: EntityMapping, codeReferences: { column: string; table: string; keyColumn: string; columns: ColumnDefinition[] }[]): NewProductColumns | null {
  const fields = Object.entries(mapping.new_products ?? {});
  if (!fields.length) return null;
  // Matching lines without a code by name (blank_code_by_name) reads new_products.name alone: no product is created.
  if (!mapping.create_missing_products && mapping.blank_code_by_name && fields.every(([field]) => field === 'name')) return null;
  if (!mapping.create_missing_products) throw invalid('new_products says where new products take their fields from, but create_missing_products is off: turn it on, or remove new_products.');
  const [reference, other] = codeReferences;
  if (!reference) throw invalid('new_products: the mapping fills no product code from the file, so it creates no products.');
  if (other) throw invalid(`new_products: the mapping fills codes of two tables (${reference.column}, ${other.column}); it cannot tell whose new rows take these fields.`);
  for (const [field] of fields) {
    const column = reference.columns.find((c) => c.key === field);
    if (!column) throw invalid(`new_products.${field}: ${reference.table} has no field '${field}'.`);
    if (field === reference.keyColumn) throw invalid(`new_products.${field}: ${columnLabel(column)} is the code itself; it comes from the column mapped to ${reference.column}.`);
    if (!isNameable(column, reference.keyColumn)) throw invalid(`new_products.${field}: only text fields and fields with a set of allowed values of ${reference.table} can be taken from the file; ${columnLabel(column)} is not one.`);
  }
  return { reference: reference.column, fields: fields.map(([field, path], at) => ({ field, path, source: newProductSource(field), staged: `_new_${at}` })) };
}

/**
 * Reads a record's new-product cells by the products columns' rules (NUL, length, choices): the
 * trimmed text, null for a blank cell (the code then names the product), or the row's problems,
 * like any other cell of the row (a name column whose values do not fit is the wrong column).
 */
export function compileNewProductReader(newProducts: NewProductColumns, columns: ColumnDefinition[]) {
  const readers = newProducts.fields.map(({ field, source, staged }) => {
    const definition = columns.find((c) => c.key === field) as ColumnDefinition;
    return { field, source, staged, parse: compileRowParser([{ ...definition, required: false }]) };
  });
  return (fields: Record<string, unknown>): { values: Record<string, string | null>; errors: Record<string, string[]> | null } => {
    const values: Record<string, string | null> = {};
    let errors: Record<string, string[]> | null = null;
    for (const { field, source, staged, parse } of readers) {
      const raw = fields[source];
      const text = raw === null || raw === undefined ? '' : (raw instanceof Date ? raw.toISOString().slice(0, 10) : typeof raw === 'object' ? JSON.stringify(raw) : String(raw)).trim();
      values[staged] = null;
      if (!text) continue;
      try {
        const parsed = parse({ [field]: text }, 'update')[field];
        values[staged] = parsed === null || parsed === undefined ? null : field === UNIT_COLUMN ? storedUnit(String(parsed)) : String(parsed);
      } catch (error) {
        const reasons = (error as { fieldErrors?: Record<string, string[]> }).fieldErrors?.[field];
        if (!reasons) throw error;
        (errors ??= {})[source] = reasons;
      }
    }
    return { values, errors };
  };
}

/**
 * The fields of the products that `records` (in the file's order) would create for `missing`
 * codes: per code and field, the value most of its lines carry (on a tie, its first line's), the
 * code for a required text field (`requiredText`) no line fills, as writer-sql.ts createMissingReferences
 * does. Answers the first `shown` and how many.
 */
export function pickNewProducts(records: { code: string; values: Record<string, string | null> }[], missing: Set<string>, newProducts: NewProductColumns | null, requiredText: string[], shown: number): { list: NewProduct[]; count: number } {
  const byCode = new Map<string, Map<string, Map<string, number>>>();
  for (const { code, values } of records) {
    if (!missing.has(code)) continue;
    let fields = byCode.get(code);
    if (!fields) byCode.set(code, (fields = new Map()));
    for (const { field, staged } of newProducts?.fields ?? []) {
      const value = values[staged];
      if (value === null || value === undefined) continue;
      let counts = fields.get(field);
      if (!counts) fields.set(field, (counts = new Map()));
      // A Map keeps first-seen order, so the first maximum found is the first line's value.
      counts.set(value, (counts.get(value) ?? 0) + 1);
    }
  }
  const mostFrequent = (counts: Map<string, number> | undefined) => {
    let best: [string, number] | null = null;
    for (const entry of counts ?? []) if (!best || entry[1] > best[1]) best = entry;
    return best?.[0] ?? null;
  };
  const list = [...byCode].slice(0, shown).map(([code, fields]) => {
    const values: Record<string, string | null> = {};
    for (const field of requiredText) values[field] = code;
    for (const { field } of newProducts?.fields ?? []) values[field] = mostFrequent(fields.get(field)) ?? (requiredText.includes(field) ? code : null);
    return { code, values };
  });
  return { list, count: byCode.size };
}

/** "SKU-1 Rose Candle, SKU-2 Pine Soap and 3 more": new products as the import's message names them (by the first field filled, when it says more than the code). */
function describeNewProducts(products: NewProduct[], count: number, shown = 5): string {
  const named = products.slice(0, shown).map(({ code, values }) => {
    const name = Object.values(values).find((value) => value !== null && value !== code);
    return name ? `${code} ${name}` : code;
  });
  const more = count - named.length;
  if (more > 0) return `${named.join(', ')} and ${more} more`;
  return named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}` : (named[0] ?? '');
}

/** " 3 new products created for unknown codes: SKU-1 Rose Candle, SKU-2 Pine Soap and SKU-3." as an import's (and an integration run's) message says it; none: empty. */
export const newProductsMessage = (count: number, products: NewProduct[]): string =>
  count ? ` ${count} new product${count === 1 ? '' : 's'} created for unknown codes: ${describeNewProducts(products, count)}.` : '';
