// SQL of the suppliers (ADR 0186): the values the products' Supplier column holds, as stored.
import { sql, type RawBuilder } from 'kysely';

/** A value `data.products.supplier` holds, exactly as stored (null: none); how many products hold it, and the first of them (lowest id). */
export type StoredSupplier = { stored: string | null; products: number; first_id: number };

/**
 * Each value the products' Supplier holds as stored (untrimmed: one statement's rows, grouped in
 * Node by the one rule of spellings), with its products; the products `except` selects (alias `p`)
 * left out — those a write is about to give another one.
 */
export const storedSuppliers = (except?: RawBuilder<boolean>) => sql<StoredSupplier>`
  select p.supplier as stored, count(*)::int as products, min(p.id)::float8 as first_id
  from data.products p${except ? sql` where not (${except})` : sql``}
  group by p.supplier`;

/**
 * Whether a product's Supplier (`column`) is one of the `stored` values; `orNone`: or it has none
 * (null). Exact values, found in Node: the database's notion of case and white space never decides.
 */
export const holdsStoredValue = (column: RawBuilder<unknown>, stored: readonly string[], orNone: boolean) =>
  orNone ? sql<boolean>`(${column} is null or ${column} = any(${[...stored]}::text[]))` : sql<boolean>`${column} = any(${[...stored]}::text[])`;
