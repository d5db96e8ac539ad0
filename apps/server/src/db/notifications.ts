// Notifications of a channel (PostgreSQL LISTEN/NOTIFY) for in-memory copies that must be dropped
// when any instance, or plain SQL, changes what they hold (docs/adr/0081-product-configuration-cache.md).
// A watcher is told both the notifications and whether they reach us at all: while the listening
// connection is down a notification can be missed, so a copy may only be trusted while listening.
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type ChannelWatcher = {
  /** Something announced a change on the channel. */
  notified(): void;
  /** Notifications reach us (true) or may be missed (false); after a gap, everything may have changed. */
  listening(active: boolean): void;
};

/** A silently dropped connection (no FIN, no error) is found by a query that does not answer in time. */
const HEARTBEAT_EVERY_MS = 10_000;
const HEARTBEAT_TIMEOUT_MS = 5_000;
const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 30_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Listens on `channel` over a connection of its own (not one of the pool's, which it would hold
 * forever), reconnecting with a growing delay. Returns the function that stops listening.
 */
export function listenOnPostgres(connectionString: string, channel: string, watcher: ChannelWatcher): () => Promise<void> {
  let stopped = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;

  const later = (work: () => Promise<void>, ms: number) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(() => void work(), ms);
  };
  const release = (target: pg.Client) => {
    target.removeAllListeners();
    // A late socket error of a connection we let go must not take the process down.
    target.on('error', () => {});
    void target.end().catch(() => {});
  };
  const lose = (target: pg.Client) => {
    if (client !== target) return;
    client = null;
    release(target);
    watcher.listening(false);
    later(connect, Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** failures++));
  };
  const heartbeat = async () => {
    const target = client;
    if (!target) return;
    try {
      await withTimeout(target.query('select 1'), HEARTBEAT_TIMEOUT_MS);
    } catch {
      lose(target);
      return;
    }
    later(heartbeat, HEARTBEAT_EVERY_MS);
  };
  async function connect() {
    const target = new pg.Client({ connectionString, keepAlive: true, application_name: `stockwise listen ${channel}` });
    client = target;
    target.on('error', () => lose(target));
    target.on('end', () => lose(target));
    target.on('notification', (message) => {
      if (message.channel === channel) watcher.notified();
    });
    try {
      await withTimeout(target.connect(), HEARTBEAT_TIMEOUT_MS);
      await withTimeout(target.query(`listen ${target.escapeIdentifier(channel)}`), HEARTBEAT_TIMEOUT_MS);
    } catch {
      lose(target);
      return;
    }
    if (stopped || client !== target) {
      release(target);
      return;
    }
    failures = 0;
    watcher.listening(true);
    later(heartbeat, HEARTBEAT_EVERY_MS);
  }

  void connect();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    const target = client;
    client = null;
    watcher.listening(false);
    if (target) {
      target.removeAllListeners();
      target.on('error', () => {});
      await target.end().catch(() => {});
    }
  };
}

/** PGlite runs in this process only: its notifications arrive in-process, without a connection to lose. */
export function listenOnPglite(pglite: PGlite, channel: string, watcher: ChannelWatcher): () => Promise<void> {
  const subscribed = pglite.listen(channel, () => watcher.notified()).then((unsubscribe) => {
    watcher.listening(true);
    return unsubscribe;
  });
  return async () => {
    watcher.listening(false);
    const unsubscribe = await subscribed;
    if (!pglite.closed) await unsubscribe();
  };
}
