// Catalogue entries for the row-reading hot path, kept a few seconds so a page costs the SQL of the
// page and not one more round trip. Local catalogue changes clear it; a change made by another
// instance shows up within the TTL, and a read that hits a dropped or changed table retries with
// a fresh entry (see getTableRows).
import type { CatalogueEntry } from './repo.ts';

const TTL_MS = 5000;
const MAX_ENTRIES = 1000;

export class CatalogueCache {
  readonly #entries = new Map<string, { entry: CatalogueEntry; expires: number }>();

  get(name: string): CatalogueEntry | undefined {
    const cached = this.#entries.get(name);
    if (!cached || cached.expires < Date.now()) return undefined;
    return cached.entry;
  }

  set(name: string, entry: CatalogueEntry): void {
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(name, { entry, expires: Date.now() + TTL_MS });
  }

  clear(): void {
    this.#entries.clear();
  }
}
