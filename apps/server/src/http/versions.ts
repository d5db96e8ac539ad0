// Optimistic concurrency (ADR 0168): a row's, report's or integration's version goes out as an ETag
// (and in list rows; the shop's panels' versions in its settings, an entity's in the configuration), comes back as `If-Match` on an update or delete, and a write of a version no
// longer stored is refused as a 409 edit_conflict. Without `If-Match` (or with `*`) a write is unchecked.
import type { FastifyRequest } from 'fastify';
import { formatDay } from '@stockwise/contract';
import { currentUser } from '../auth/guard.ts';
import { sentTimeZone } from '../import/field-values.ts';
import { AppError, validationError } from './errors.ts';

/** A version is the row's PostgreSQL xmin, as text. */
const VERSION = /^\d{1,20}$/;

export const etagOf = (version: string) => `"${version}"`;

/** The version an `If-Match` header names, or undefined for none or `*` (any version). */
export function expectedVersion(header: string | string[] | undefined): string | undefined {
  const text = (Array.isArray(header) ? header.join(',') : (header ?? '')).trim();
  if (text === '' || text === '*') return undefined;
  const version = text.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
  if (!VERSION.test(version)) {
    throw validationError(`If-Match must be the one version you read (the ETag, or the row's _version / the report's, integration's or entity's version / the shop's currencyVersion, closedDatesVersion or timeZoneVersion), such as "12345".`, { 'If-Match': ['Not a version.'] });
  }
  return version;
}

/**
 * A checked write by the signed-in user: `expected` the version they read (If-Match; none: written
 * whatever the version), `timeZone` theirs (`?time_zone=`), for the time a refusal names.
 */
export type VersionedWrite = { by: number; expected?: string | undefined; timeZone?: string | undefined };

export function versionedWrite(request: FastifyRequest<{ Querystring: { time_zone?: string | undefined } }>): VersionedWrite {
  return { by: currentUser(request).userId, expected: expectedVersion(request.headers['if-match']), timeZone: sentTimeZone(request.query.time_zone) };
}

/** When a change was saved, as the reader's clock shows it: "at 14:02" today, else "on 3 Dec 2026 at 14:02"; in UTC, said so, without a zone. */
function whenWords(at: Date, timeZone: string | undefined, now: Date): string {
  const zone = timeZone ?? 'UTC';
  const dayOf = (date: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  const day = dayOf(at);
  return `${day === dayOf(now) ? '' : `on ${formatDay(day)} `}at ${time}${timeZone ? '' : ' UTC'}`;
}

/** How a refusal names each kind of thing: "This row was changed … after you opened it", "The closed dates were changed … after you opened them". */
const THINGS = {
  row: { subject: 'This row', was: 'was', it: 'it' },
  report: { subject: 'This report', was: 'was', it: 'it' },
  integration: { subject: 'This integration', was: 'was', it: 'it' },
  currency: { subject: "The shop's currency", was: 'was', it: 'it' },
  'closed dates': { subject: 'The closed dates', was: 'were', it: 'them' },
  entity: { subject: "This entity's configuration", was: 'was', it: 'it' },
  'time zone': { subject: "The shop's time zone", was: 'was', it: 'it' },
} as const;

export type EditConflict = {
  thing: keyof typeof THINGS;
  /** The write refused: what the user is told to do again after reloading. */
  action: 'edit' | 'delete' | 'reset';
  /** The row, report, integration, shop settings or entity configuration as they are now (as their GET shows them: an integration's secret masked). */
  current: Record<string, unknown>;
  /** The save that made the version now stored, when it is known (a Data screen, report editor, integration editor, shop or entity configuration save); null for others (an import, an integration's pause). */
  lastSave: { by: string | null; at: Date } | null;
  timeZone?: string | undefined;
  now?: Date;
};

/**
 * The 409 of a write on a version no longer stored: "This row was changed by sam at 14:02 after you
 * opened it. Reload to see their change, then edit again.", with the current values, who and when.
 */
export function editConflictError(conflict: EditConflict): AppError {
  const { thing, action, lastSave } = conflict;
  const { subject, was, it } = THINGS[thing];
  const then = action === 'edit' ? 'edit again' : `${action} ${it} if you still mean to`;
  const by = lastSave?.by ? ` by ${lastSave.by}` : '';
  const when = lastSave ? ` ${whenWords(lastSave.at, conflict.timeZone, conflict.now ?? new Date())}` : '';
  const detail = lastSave
    ? `${subject} ${was} changed${by}${when} after you opened ${it}. Reload to see their change, then ${then}.`
    : `${subject} ${was} changed after you opened ${it}. Reload to see the change, then ${then}.`;
  return new AppError('edit_conflict', detail, {
    conflict: { current: conflict.current, changed_by: lastSave?.by ?? null, changed_at: lastSave ? lastSave.at.toISOString() : null },
  });
}
