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

/** `word` matched as it is by LIKE (its default escape, the backslash). */
const likeLiteral = (word: string) => word.replace(/[\\%_]/gu, (c) => `\\${c}`);

/**
 * The stored values that may be spellings of the supplier whose `supplierKey` is `key`, as
 * storedSuppliers reads them, for one supplier's name (a product's forecast read): every one of its
 * spellings and maybe a few others, the rule deciding in Node (SupplierNames). Narrowed in SQL by
 * what no locale changes — `lower` in the "C" collation (A–Z only), LIKE, the ASCII class:
 * - a value of ASCII characters only that has the key holds, A–Z made small, the key's words in
 *   order with white space around and between them (supplierKey makes ASCII text's A–Z small and
 *   each white space run one space, trimmed; Unicode's form changes no ASCII text): it is LIKE
 *   '%acme%ltd%'. So are a few others ("Acme Ltd." beside "Acme Ltd"), which the rule sets apart;
 * - a value holding any other character is read whatever it holds: the Unicode form and case
 *   mapping can make ASCII of it (the Kelvin sign is a "k"), and no-break spaces are white space.
 */
export const storedSpellingsOf = (key: string) =>
  storedValues(sql<boolean>`(lower(p.supplier collate "C") like ${`%${key.split(' ').map(likeLiteral).join('%')}%`} or p.supplier ~ '[^[:ascii:]]')`);

/**
 * Whether a product's Supplier (`column`) is one of the `stored` values; `orNone`: or it has none
 * (null). Exact values, found in Node: the database's notion of case and white space never decides.
 */
export const holdsStoredValue = (column: RawBuilder<unknown>, stored: readonly string[], orNone: boolean) =>
  orNone ? sql<boolean>`(${column} is null or ${column} = any(${[...stored]}::text[]))` : sql<boolean>`${column} = any(${[...stored]}::text[])`;
