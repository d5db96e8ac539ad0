// A request's "today": the viewer's day, in the time zone the browser sent (`time_zone`), so "this
// month" in Ohio at 8 pm is not tomorrow's yet (ADR 0030). A request that sends none (a script, an
// integration partner, curl) has no viewer: its today is the shop's, in the zone the forecast starts
// on (ADR 0173's amendment of 2026-12-05), not UTC's.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { sentTimeZone } from '../import/field-values.ts';
import { shopTimeZone } from '../shop/service.ts';

/**
 * The zone whose day is "today" for a request: the one it sent (checked first: a 400 naming it reads
 * nothing), else the shop's in effect — read per request (one row) and only then, so a change saved
 * through another server holds from the next request, with no cache to go stale.
 */
export async function requestTimeZone(db: Kysely<Database>, sent: string | undefined): Promise<string> {
  return sentTimeZone(sent) ?? (await shopTimeZone(db));
}

/** `ctx` with the request's time zone (`requestTimeZone`). */
export const inViewerDay = async <Context extends { db: Kysely<Database> }>(ctx: Context, timeZone: string | undefined): Promise<Context & { timeZone: string }> => ({
  ...ctx,
  timeZone: await requestTimeZone(ctx.db, timeZone),
});
