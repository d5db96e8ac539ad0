// One supplier, one spelling (ADR 0186). Reading: the spellings of one supplier — equal but for case
// and white space — are one supplier, known by the spelling most products hold (a tie: the spelling
// of the earliest product), so "ACME" and "Acme" written before this rule are one filter choice,
// one purchase order, one answer. Writing: a name is stored in the spelling the other products
// already hold, else in the one the write met first, white space runs made one space.
import type { Kysely, RawBuilder } from 'kysely';
import { sql } from 'kysely';
import { bySupplierName, supplierKey, supplierSpelling, type KnownSupplier, type SupplierList } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import * as repo from './repo.ts';

/** A supplier as the products name it: its one spelling, how many products hold exactly that spelling and how many any of its spellings, and the values stored for it. */
export type Supplier = { name: string; nameProducts: number; products: number; stored: string[] };

type Spelling = { spelling: string; products: number; firstId: number };

/** The most products first; of as many, the spelling of the earliest product (the lowest id). */
const byUse = (a: Spelling, b: Spelling) => b.products - a.products || a.firstId - b.firstId;

/** The suppliers the products name, read once: each stored value's supplier and its one spelling. */
export class SupplierNames {
  private readonly byKey = new Map<string, Supplier>();
  /** Stored values that are blank (white space only): no supplier, as null is. */
  private readonly blanks: string[] = [];
  /** How many products have no supplier (null or blank). */
  readonly withoutSupplier: number = 0;

  constructor(stored: readonly repo.StoredSupplier[]) {
    const spellings = new Map<string, { spellings: Map<string, Spelling>; stored: string[] }>();
    for (const row of stored) {
      const spelling = supplierSpelling(row.stored);
      if (row.stored === null || spelling === null) {
        if (row.stored !== null) this.blanks.push(row.stored);
        this.withoutSupplier += row.products;
        continue;
      }
      const key = supplierKey(spelling);
      let supplier = spellings.get(key);
      if (!supplier) spellings.set(key, (supplier = { spellings: new Map(), stored: [] }));
      supplier.stored.push(row.stored);
      const seen = supplier.spellings.get(spelling);
      const firstId = Number(row.first_id);
      if (seen) {
        seen.products += row.products;
        seen.firstId = Math.min(seen.firstId, firstId);
      } else supplier.spellings.set(spelling, { spelling, products: row.products, firstId });
    }
    for (const [key, supplier] of spellings) {
      const all = [...supplier.spellings.values()];
      const name = all.sort(byUse)[0] as Spelling;
      this.byKey.set(key, { name: name.spelling, nameProducts: name.products, products: all.reduce((sum, s) => sum + s.products, 0), stored: supplier.stored });
    }
  }

  /** The supplier a name means, case and white space aside; undefined when no product names it. */
  find(name: string): Supplier | undefined {
    return this.byKey.get(supplierKey(name));
  }

  /** The name a product's stored Supplier is known by; null: none (null or blank). A value read since (not among these) is its own spelling. */
  nameOf(stored: string | null | undefined): string | null {
    const spelling = supplierSpelling(stored);
    return spelling === null ? null : (this.find(spelling)?.name ?? spelling);
  }

  /** Each supplier, one spelling, with its products, by name. */
  list(): KnownSupplier[] {
    return [...this.byKey.values()].map(({ name, products }) => ({ supplier: name, products })).sort((a, b) => bySupplierName(a.supplier, b.supplier));
  }

  /**
   * Whether product `p`'s Supplier is `supplier`'s (any of its spellings); null: the products with
   * none (null or blank). A name no product holds selects none.
   */
  holds(supplier: string | null): RawBuilder<boolean> {
    const column = sql`p.supplier`;
    return supplier === null ? repo.holdsStoredValue(column, this.blanks, true) : repo.holdsStoredValue(column, this.find(supplier)?.stored ?? [], false);
  }
}

/** The suppliers the products name now; `except` (a condition on products `p`): products left out, as a write that is about to replace theirs. */
export const readSupplierNames = async (db: Kysely<Database>, except?: RawBuilder<boolean>): Promise<SupplierNames> => new SupplierNames((await repo.storedSuppliers(except).execute(db)).rows);

/**
 * The name a product's stored Supplier is known by, as `readSupplierNames(db).nameOf(stored)` answers
 * it, reading only the stored values that may be its supplier's spellings (repo.storedSpellingsOf),
 * not every supplier's: a product's forecast read. Null (none, or blank): nothing is read.
 */
export async function supplierNameOf(db: Kysely<Database>, stored: string | null): Promise<string | null> {
  const spelling = supplierSpelling(stored);
  if (spelling === null) return null;
  return new SupplierNames((await repo.storedSpellingsOf(supplierKey(spelling)).execute(db)).rows).nameOf(stored);
}

/** GET /api/suppliers/: the suppliers the products name, one spelling each, by name. */
export const listSuppliers = async (db: Kysely<Database>): Promise<SupplierList> => ({ suppliers: (await readSupplierNames(db)).list() });

/**
 * A name written in another spelling than stored (once per spelling written): the spelling the
 * other products hold and how many hold it, or (`products` null) the one met first in the same write.
 */
export type FoldedSupplier = { written: string; stored: string; products: number | null };

/**
 * The spellings names are stored in by one write (a Data screen save, a file, a batch of a run),
 * in the order it meets them: a supplier the `others` name is stored in its spelling, else in the
 * first spelling met; white space runs become one space; a blank name is none (null). Different
 * spellings told apart only by white space are not said (as the trimming never was).
 */
export class SupplierSpeller {
  private readonly firstMet = new Map<string, string>();
  private readonly said = new Set<string>();
  readonly folded: FoldedSupplier[] = [];
  private readonly others: SupplierNames;

  constructor(others: SupplierNames) {
    this.others = others;
  }

  spell(written: string): string | null {
    const spelling = supplierSpelling(written);
    if (spelling === null) return null;
    const known = this.others.find(spelling);
    if (known) return this.note(spelling, known.name, known.nameProducts);
    const key = supplierKey(spelling);
    const first = this.firstMet.get(key);
    if (first === undefined) {
      this.firstMet.set(key, spelling);
      return spelling;
    }
    return this.note(spelling, first, null);
  }

  private note(written: string, stored: string, products: number | null): string {
    if (written !== stored && !this.said.has(written)) {
      this.said.add(written);
      this.folded.push({ written, stored, products });
    }
    return stored;
  }
}

/** Two writes' folded spellings as one (a run's batches): a spelling said once, as the first write said it. */
export const addFoldedSuppliers = (a: readonly FoldedSupplier[] = [], b: readonly FoldedSupplier[] = []): FoldedSupplier[] => {
  const said = new Set(a.map((folded) => folded.written));
  return [...a, ...b.filter((folded) => !said.has(folded.written))];
};

/** How many folded spellings a write's answer names; the rest are counted. */
export const SAID_FOLDED_SUPPLIERS = 10;

/**
 * "Supplier 'acme' written as 'ACME', as 12 products already have it." per folded spelling (up to
 * SAID_FOLDED_SUPPLIERS, then how many more); `firstIn`: where a spelling met first was met ("the file").
 */
export function foldedSupplierNotices(folded: readonly FoldedSupplier[], firstIn: string): string[] {
  const said = folded.slice(0, SAID_FOLDED_SUPPLIERS).map(({ written, stored, products }) => {
    const because = products === null ? `as ${firstIn} first writes it` : `as ${products} ${products === 1 ? 'product already has' : 'products already have'} it`;
    return `Supplier '${written}' written as '${stored}', ${because}.`;
  });
  const more = folded.length - said.length;
  return more > 0 ? [...said, `${more} more supplier ${more === 1 ? 'name was' : 'names were'} written in the spelling already used.`] : said;
}
