// The product configuration kept in memory (docs/adr/0081-product-configuration-cache.md): a page
// of a table with references reads it on every request, and it changes a few times a year. The
// copy is dropped when
//   - the database overlay changes: a trigger announces every write to config_entities and
//     config_mappings on CONFIG_CHANGED_CHANNEL, which reaches every instance (LISTEN/NOTIFY);
//     the instance that wrote also drops its copy at once, before answering the write;
//   - notifications may have been missed (listening connection lost): until it listens again,
//     every read goes to the database, as without a cache;
//   - the file's modification time or size changes: looked at no more than once per
//     FILE_RECHECK_MS, so an edit of the file takes effect within that time.
import { stat } from 'node:fs/promises';
import type { ChannelWatcher } from '../db/notifications.ts';

export const CONFIG_CHANGED_CHANNEL = 'stockwise_config_changed';
export const FILE_RECHECK_MS = 1000;

/** What identifies a version of the file: its modification time and size, or its absence. */
async function fileStamp(file: string): Promise<string> {
  try {
    const { mtimeMs, size } = await stat(file);
    return `${mtimeMs}:${size}`;
  } catch {
    return 'missing';
  }
}

/** Freezes a value and everything in it: the cached copy is shared by every reader. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const nested of Object.values(value)) deepFreeze(nested);
  }
  return value;
}

export class ProductConfigCache<T> {
  #copy: Promise<T> | null = null;
  #listening = false;
  #fileStamp: string | null = null;
  #fileCheckDue = 0;

  readonly watcher: ChannelWatcher = {
    notified: () => this.forget(),
    listening: (active) => {
      this.#listening = active;
      this.forget();
    },
  };

  /** Drops the copy; the next read loads a new one. */
  forget(): void {
    this.#copy = null;
  }

  /**
   * The cached value (deeply frozen: never change it), else what `load` gives. A load that was
   * under way when the copy was dropped serves its own callers but is not kept.
   */
  async read(configFile: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now();
    if (now >= this.#fileCheckDue) {
      this.#fileCheckDue = now + FILE_RECHECK_MS;
      const stamp = await fileStamp(configFile);
      if (stamp !== this.#fileStamp) {
        this.#fileStamp = stamp;
        this.forget();
      }
    }
    if (!this.#listening) return deepFreeze(await load());
    if (!this.#copy) {
      const loading = load().then(deepFreeze);
      this.#copy = loading;
      loading.catch(() => {
        if (this.#copy === loading) this.#copy = null;
      });
    }
    return this.#copy;
  }
}
