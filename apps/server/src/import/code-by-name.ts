// A mapping's `blank_code_by_name` (ADR 0195 F4): a line whose product code is blank is known by
// its name. A products file's variant without a SKU takes its name as its code ("Chunky Cable
// Cardigan M", as ADR 0193 makes "Flat White Large" one); a sales line without one is matched to
// the stored product whose name reads the same ignoring case, spaces and punctuation (Shopify's
// Lineitem name "Chunky Cable Cardigan - M"). The name is read by the mappers with the record (a
// products file's `name`, with its joined columns and filled down; a line's `new_products.name`),
// so file imports, their preview and integration runs read it alike; the stored names are read
// once per import, and again after an integration run's batch that created products (ADR 0195,
// "F4 in integrations"). Never a guess: two products reading the same refuse the line, naming both.
import { productNameForm, type ColumnDefinition, type EntityMapping } from '@stockwise/contract';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { validationError } from '../http/errors.ts';
import { isBlank } from './fill-down.ts';
import { newProductSource } from './new-products.ts';

const invalid = (reason: string) => validationError(`Invalid configuration: ${reason}`);

export type NamedProduct = { code: string; name: string };

/** Where a line's name is matched: the referenced table (its encoded name) and its code column. */
type StoredNames = { encodedName: string; keyColumn: string };

/** How a target's lines without a code get one by their name. */
export type CodeByName = {
  /** The record field of the product code (products' product_code, sales' product_id). */
  codeField: string;
  /** The record field the line's name is read into: `name` (a products file), `new_products.name` (a line naming a product). */
  nameField: string;
  /** The stored products by their name's productNameForm; null where the name is the code itself (a products file). */
  products: Map<string, NamedProduct[]> | null;
  /** Where `products` were read from, to be read again; null with them. */
  storedNames: StoredNames | null;
};

/** What a line without a code is by its name: a code, several products reading the same, or nothing (no name, no product). */
export type NameMatch = { code: string } | { ambiguous: NamedProduct[]; name: string } | null;

/** The related table a reference points at, as resolveWriteTarget knows it. */
type Reference = { column: string; by: 'key' | 'id'; table: string; encodedName: string; keyColumn: string; columns: ColumnDefinition[] };

/**
 * The mapping's blank_code_by_name checked against its target, with the stored names read when
 * lines are matched to products: a 400 naming what is missing otherwise. Null when it is off.
 */
export async function readCodeByName(db: Kysely<Database>, mapping: EntityMapping, own: { table: string; key: string[] }, references: readonly Reference[]): Promise<CodeByName | null> {
  if (!mapping.blank_code_by_name) return null;
  const [ownKey, ...moreKeys] = own.key;
  if (own.table === 'products' && ownKey && !moreKeys.length && ownKey in mapping.field_mappings) {
    if (!('name' in mapping.field_mappings)) throw invalid('blank_code_by_name gives a product without a code its name as its code, but no column is mapped to name: map the name, or turn it off.');
    return { codeField: ownKey, nameField: 'name', products: null, storedNames: null };
  }
  const reference = references.find((r) => r.by === 'key' && r.column in mapping.field_mappings);
  if (!reference) throw invalid("blank_code_by_name matches a line without a product code by its name, but the mapping fills no product code from the file: map the file's code column, or turn it off.");
  if (!mapping.new_products?.['name']) throw invalid(`blank_code_by_name matches a line without a product code to a product by the line's name, but new_products names no column for name (the column naming the product a line sells, as Lineitem name): set new_products.name, or turn it off.`);
  if (!reference.columns.some((c) => c.key === 'name')) throw invalid(`blank_code_by_name: ${reference.table} has no name to match a line's name to.`);
  const storedNames = { encodedName: reference.encodedName, keyColumn: reference.keyColumn };
  return { codeField: reference.column, nameField: newProductSource('name'), products: await readStoredNames(db, storedNames), storedNames };
}

/** The stored products by their name's productNameForm (one query). */
async function readStoredNames(db: Kysely<Database>, { encodedName, keyColumn }: StoredNames): Promise<Map<string, NamedProduct[]>> {
  const { rows } = await sql<NamedProduct>`select btrim(${sql.ref(keyColumn)}::text) as code, btrim(name::text) as name from ${sql.id('data', encodedName)} where name is not null order by 1`.execute(db);
  const products = new Map<string, NamedProduct[]>();
  for (const product of rows) {
    const form = productNameForm(product.name);
    if (!form) continue;
    const same = products.get(form);
    if (same) same.push(product);
    else products.set(form, [product]);
  }
  return products;
}

/**
 * `byName` with the stored names read again: the products written since it was read are matched
 * too (an integration run's earlier batch created them for unknown codes). Once per such batch,
 * never per line; a products file's (its names are its codes) is kept as it is.
 */
export async function withStoredNamesReread(db: Kysely<Database>, byName: CodeByName): Promise<CodeByName> {
  return byName.storedNames ? { ...byName, products: await readStoredNames(db, byName.storedNames) } : byName;
}

/** A line's code by its name, when its own code is blank (null when it has one, or no name does). */
export function matchByName(byName: CodeByName, fields: Record<string, unknown>): NameMatch {
  if (!isBlank(fields[byName.codeField])) return null;
  const raw = fields[byName.nameField];
  if (isBlank(raw) || (typeof raw !== 'string' && typeof raw !== 'number')) return null;
  const name = String(raw).trim();
  if (!byName.products) return { code: name };
  const found = byName.products.get(productNameForm(name));
  if (!found) return null;
  return found.length === 1 ? { code: (found[0] as NamedProduct).code } : { ambiguous: found, name };
}

/** The refusal of a line whose name reads as several products' (never a guess). */
export function ambiguousNameProblem(name: string, products: readonly NamedProduct[]): string {
  const shown = products.slice(0, 3).map((p) => `${p.code} (“${p.name}”)`);
  const listed = products.length > 3 ? `${shown.join(', ')} and ${products.length - 3} more` : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
  return `The line has no product code and its name “${name}” reads the same as ${products.length} products: ${listed}. Give the line a product code, or rename one of the products.`;
}

/** The record with its blank code filled by its name (counted), or refused as ambiguous: what a writer and the preview do alike. */
export function withCodeByName(byName: CodeByName | null, fields: Record<string, unknown>): { fields: Record<string, unknown>; matched: boolean; problem: string | null } {
  const match = byName ? matchByName(byName, fields) : null;
  if (!match || !byName) return { fields, matched: false, problem: null };
  if ('ambiguous' in match) return { fields, matched: false, problem: ambiguousNameProblem(match.name, match.ambiguous) };
  return { fields: { ...fields, [byName.codeField]: match.code }, matched: true, problem: null };
}

/** " 223 lines without a product code were matched to products by name." (a products file: given their name as their code); none: empty. */
export function matchedByNameMessage(lines: number, byName: CodeByName | null): string {
  if (!lines || !byName) return '';
  const were = lines === 1 ? 'line without a product code was' : 'lines without a product code were';
  return byName.products ? ` ${lines} ${were} matched to products by name.` : ` ${lines} ${were} given their name as their product code.`;
}
