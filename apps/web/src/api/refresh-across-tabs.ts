// Refresh tokens are single-use and shared by every tab through localStorage: two tabs spending the
// same one look like token theft to the server, which then ends the session. So a refresh runs under
// a Web Lock, and a tab that had to queue behind another tab's refresh first waits until that tab's
// rotated token has reached it (localStorage reaches other tabs a moment later, via 'storage').
import type { RefreshSerializer } from './client.ts';
import { readStoredRefreshToken, refreshTokenStorageKey } from '../stores/session.ts';

export const refreshLockName = 'stockwise.token-refresh';
const otherTabsTokenWaitMs = 2_000;

function storedTokenChange(from: string | null, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('storage', onStorage);
      resolve();
    };
    const onStorage = (event: StorageEvent) => {
      if (event.key === refreshTokenStorageKey || event.key === null) done();
    };
    const timer = setTimeout(done, timeoutMs);
    window.addEventListener('storage', onStorage);
    if (readStoredRefreshToken() !== from) done();
  });
}

export const refreshAcrossTabs: RefreshSerializer = async (refresh) => {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return refresh(); // no Web Locks (e.g. plain http on a LAN address): this tab only
  const before = readStoredRefreshToken();
  const uncontended = await locks.request(refreshLockName, { ifAvailable: true }, async (lock) =>
    lock ? { access: await refresh() } : null,
  );
  if (uncontended) return uncontended.access;
  return locks.request(refreshLockName, async () => {
    await storedTokenChange(before, otherTabsTokenWaitMs);
    return refresh();
  });
};
