// SQL of the suppliers (ADR 0186): the values the products' Supplier column holds, as stored.
import { sql, type RawBuilder } from 'kysely';

/** A value `data.products.supplier` holds, exactly as stored (null: none); how many products hold it, and the first of them (lowest id). */
export type StoredSupplier = { stored: string | null; products: number; first_id: number };

/** The values the products `where` selects (alias `p`; all of them without) hold as stored, with their products. */
const storedValues = (where?: RawBuilder<boolean>) => sql<StoredSupplier>`
  select p.supplier as stored, count(*)::int as products, min(p.id)::float8 as first_id
  from data.products p${where ? sql` where ${where}` : sql``}
  group by p.supplier`;

/**
 * Each value the products' Supplier holds as stored (untrimmed: one statement's rows, grouped in
 * Node by the one rule of spellings), with its products; the products `except` selects (alias `p`)
 * left out — those a write is about to give another one.
 */
export const storedSuppliers = (except?: RawBuilder<boolean>) => storedValues(except && sql<boolean>`not (${except})`);

/** Every ASCII character but NUL (which text never holds). */
const ASCII = String.fromCharCode(...Array.from({ length: 127 }, (_, at) => at + 1));
const ASCII_CAPITALS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** What JavaScript's `\s` matches of ASCII: tab, line feed, vertical tab, form feed, carriage return, space. */
const ASCII_SPACES = '\t\n\v\f\r ';

/**
 * The stored values that may be spellings of the supplier whose `supplierKey` is `key`, as
 * storedSuppliers reads them, for one supplier's name (a product's forecast read): every one of its
 * spellings and maybe a few others, the rule deciding in Node (SupplierNames). Told apart in SQL by
 * `translate`, which maps characters one by one, the same on any locale:
 * - a value of ASCII characters only that has the key is, its capitals A–Z made small and its white
 *   space dropped, the key without its spaces (supplierKey makes ASCII text's A–Z small and each
 *   white space run one space, trimmed; Unicode's form changes no ASCII text) — so are a few others
 *   ("AcmeLtd" beside "Acme Ltd"), which the rule then sets apart;
 * - a value holding any other character is read whatever it holds: the Unicode form and case
 *   mapping can make ASCII of it (the Kelvin sign is a "k"), and no-break spaces are white space.
 */
export const storedSpellingsOf = (key: string) =>
  storedValues(sql<boolean>`(translate(p.supplier, ${ASCII_CAPITALS + ASCII_SPACES}, ${ASCII_CAPITALS.toLowerCase()}) = ${key.replaceAll(' ', '')}
    or translate(p.supplier, ${ASCII}, '') <> '')`);

/**
 * Whether a product's Supplier (`column`) is one of the `stored` values; `orNone`: or it has none
 * (null). Exact values, found in Node: the database's notion of case and white space never decides.
 */
export const holdsStoredValue = (column: RawBuilder<unknown>, stored: readonly string[], orNone: boolean) =>
  orNone ? sql<boolean>`(${column} is null or ${column} = any(${[...stored]}::text[]))` : sql<boolean>`${column} = any(${[...stored]}::text[])`;
