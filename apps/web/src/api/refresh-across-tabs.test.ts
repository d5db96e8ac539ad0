import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refreshAcrossTabs, refreshLockName } from './refresh-across-tabs.ts';
import { refreshTokenStorageKey } from '../stores/session.ts';

// jsdom has no Web Locks: a small exclusive lock manager with the same request() shape.
function installLocks() {
  const held = new Set<string>();
  const queues = new Map<string, (() => void)[]>();
  const release = (name: string) => {
    const next = queues.get(name)?.shift();
    if (next) next();
    else held.delete(name);
  };
  const request = async (name: string, ...rest: unknown[]) => {
    const [options, callback] = (rest.length === 1 ? [{}, rest[0]] : rest) as [{ ifAvailable?: boolean }, (lock: unknown) => Promise<unknown>];
    if (held.has(name)) {
      if (options.ifAvailable) return callback(null);
      await new Promise<void>((resolve) => queues.set(name, [...(queues.get(name) ?? []), resolve]));
    }
    held.add(name);
    try {
      return await callback({ name });
    } finally {
      release(name);
    }
  };
  Object.defineProperty(navigator, 'locks', { value: { request }, configurable: true });
  return { held };
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  Reflect.deleteProperty(navigator, 'locks');
  vi.useRealTimers();
});

describe('refreshAcrossTabs', () => {
  it('runs the refresh directly when no lock manager exists', async () => {
    expect(await refreshAcrossTabs(async () => 'access-1')).toBe('access-1');
  });

  it('runs the refresh under the lock when nobody else holds it', async () => {
    const { held } = installLocks();
    let heldDuringRefresh = false;
    const access = await refreshAcrossTabs(async () => {
      heldDuringRefresh = held.has(refreshLockName);
      return 'access-1';
    });
    expect(access).toBe('access-1');
    expect(heldDuringRefresh).toBe(true);
  });

  it("queues behind another tab's refresh and waits for its rotated token", async () => {
    installLocks();
    localStorage.setItem(refreshTokenStorageKey, 'r1');
    let finishOther: () => void = () => undefined;
    const other = navigator.locks.request(refreshLockName, () => new Promise<void>((resolve) => (finishOther = resolve)));

    const seen: (string | null)[] = [];
    const mine = refreshAcrossTabs(async () => {
      seen.push(localStorage.getItem(refreshTokenStorageKey));
      return 'access-2';
    });
    // The other tab finishes and releases the lock; its new token arrives a moment later.
    finishOther();
    await other;
    await Promise.resolve();
    expect(seen).toEqual([]);
    localStorage.setItem(refreshTokenStorageKey, 'r2');
    window.dispatchEvent(new StorageEvent('storage', { key: refreshTokenStorageKey, newValue: 'r2' }));
    expect(await mine).toBe('access-2');
    expect(seen).toEqual(['r2']);
  });

  it('gives up waiting for the other tab after a while', async () => {
    installLocks();
    vi.useFakeTimers();
    localStorage.setItem(refreshTokenStorageKey, 'r1');
    let finishOther: () => void = () => undefined;
    const other = navigator.locks.request(refreshLockName, () => new Promise<void>((resolve) => (finishOther = resolve)));
    const mine = refreshAcrossTabs(async () => 'access-3');
    finishOther();
    await other;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await mine).toBe('access-3');
  });
});
