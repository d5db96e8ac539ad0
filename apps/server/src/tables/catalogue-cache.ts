// Catalogue entries and their tables' column rules for the row-reading and row-writing hot paths,
// kept a few seconds so a page or a one-row write costs its own SQL and no catalogue round trip.
// Local catalogue changes clear both; a change made by another instance shows up within the TTL, and
// a read that hits a dropped or changed table retries with a fresh entry (see getTableRows). A rule
// changed elsewhere within the TTL is still enforced by the database at the write.
import type { ColumnRules } from './column-minimums.ts';
import type { CatalogueEntry } from './repo.ts';

const TTL_MS = 5000;
const MAX_ENTRIES = 1000;

class ExpiringMap<Value> {
  readonly #values = new Map<string, { value: Value; expires: number }>();

  get(key: string): Value | undefined {
    const cached = this.#values.get(key);
    if (!cached || cached.expires < Date.now()) return undefined;
    return cached.value;
  }

  set(key: string, value: Value): void {
    if (this.#values.size >= MAX_ENTRIES) this.#values.clear();
    this.#values.set(key, { value, expires: Date.now() + TTL_MS });
  }

  clear(): void {
    this.#values.clear();
  }
}

export class CatalogueCache {
  readonly #entries = new ExpiringMap<CatalogueEntry>();
  readonly #columnRules = new ExpiringMap<ColumnRules>();

  get(name: string): CatalogueEntry | undefined {
    return this.#entries.get(name);
  }

  set(name: string, entry: CatalogueEntry): void {
    this.#entries.set(name, entry);
  }

  /** Keyed by the table's encoded (SQL) name, which the rules are read from. */
  columnRules(encodedName: string): ColumnRules | undefined {
    return this.#columnRules.get(encodedName);
  }

  keepColumnRules(encodedName: string, rules: ColumnRules): void {
    this.#columnRules.set(encodedName, rules);
  }

  clear(): void {
    this.#entries.clear();
    this.#columnRules.clear();
  }
}
