// Writes made at the version the user read (ADR 0168): sent as If-Match, so a save or delete over
// someone else's change since is refused (409 edit_conflict) instead of made; with the browser's
// time zone, in which the refusal says when that change was saved.
import { inShopDay } from './shop-day.ts';

export const atVersion = (version: string | undefined) => ({ ...inShopDay(), ...(version ? { headers: { 'If-Match': `"${version}"` } } : {}) });

/** The thing as it is now, from a refusal of a write made on a version no longer stored; null for any other failure. */
export function currentOfConflict<T>(error: { code: string; details: { body: unknown } }): T | null {
  if (error.code !== 'edit_conflict') return null;
  const current = (error.details.body as { current?: unknown } | null)?.current;
  return typeof current === 'object' && current !== null ? (current as T) : null;
}
