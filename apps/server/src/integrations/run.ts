// One run of an integration: fetch the endpoint page by page through the guarded client (paced to
// rate_limit requests a minute, transient failures retried with backoff), pick the records out of
// each JSON page (or take a CSV page's lines: csv-answer.ts), and hand them to the import's writer batch_size at a time, one transaction per
// batch with the run's counters. The run holds the integration's run lock throughout, so one run
// of an integration goes at a time however many processes work the queue.
import type { Kysely } from 'kysely';
import { dayInTimeZone, isPlainRecord, MAX_LISTED_NEW_PRODUCTS, readMappedPath, type RetryProgress } from '@stockwise/contract';
import type { Database, IntegrationRejection } from '../db/schema.ts';
import { AppError, echoed, validationError } from '../http/errors.ts';
import { guardedGet, OutboundError, type OutboundPolicy, type OutboundResponse } from '../http/outbound.ts';
import { jsonSyntaxProblem } from '../import/json-position.ts';
import { newProductsMessage } from '../import/new-products.ts';
import { addFiltered, filteredMessage } from '../import/row-filter.ts';
import { outdatedCountsNotice, type ImportedTable } from '../import/service.ts';
import { matchedByNameMessage } from '../import/code-by-name.ts';
import { addedToMessage, restoredCodesMessage, skippedMessage, totalsSkippedMessage, type AddedTo, type TotalsSkipped } from '../import/target.ts';
import type { OutdatedCounts } from '../import/writer-sql.ts';
import { addUnitsAsWritten, unitsAsWrittenMessage, type UnitsAsWrittenCount } from '../import/quantity-units.ts';
import { addFoldedSuppliers, foldedSupplierNotices, type FoldedSupplier } from '../suppliers/service.ts';
import { addAddedTo, addRestoredCodes, NO_RESTORED_CODES, type RestoredCodes, type RowsKept } from '../import/writer.ts';
import { absentFieldsMessage, fieldsAbsentFrom } from './absent-fields.ts';
import { CsvAnswerError, csvRecordsIfTable, csvRecordsOf, isCsvType } from './csv-answer.ts';
import { RecordsNotFound, recordsOfPage, type PageRecord, type PageRecords } from './records-path.ts';
import * as repo from './repo.ts';
import type { IntegrationRow, RunCounts, RunLocks, RunNotes, RunWindow } from './repo.ts';
import type { SecretBox } from './secrets.ts';
import { listed, type IntegrationWriter, type PreparedTarget } from './writer.ts';

/** No run follows more pages than this (a next link that never ends). */
const MAX_PAGES = 20_000;
/** The log keeps this many rejected records of a run, with where they were and why. */
const MAX_LOGGED_REJECTIONS = 100;
const DAY_MS = 86_400_000;

type RunSettings = {
  outbound: OutboundPolicy;
  /** Tries after the first for a transient failure (5xx, 429, timeout, reset). */
  retries: number;
  retryBaseDelayMs: number;
  /** Failed runs in a row after which an integration switches itself off. */
  pauseAfterFailures: number;
};

export type RunContext = {
  db: Kysely<Database>;
  locks: RunLocks;
  secrets: SecretBox;
  writer: IntegrationWriter;
  settings: RunSettings;
  /** Told after a run that wrote or deleted rows which table and columns changed (new sales mean new forecasts). */
  onTableImported(written: ImportedTable): Promise<void>;
  /** Told when an integration switched itself off after failed runs (its schedule goes). */
  onPaused(integrationId: number): Promise<void>;
};

type RunOutcome =
  | { ran: false; reason: string }
  | { ran: true; status: 'success' | 'failed'; runId: number; counts: RunCounts; message: string | null };

/** A run that cannot go on; its message is what the log and the status say (records not found where the records path says are one too). */
class RunFailure extends Error {}
const isRunFailure = (error: unknown): error is RunFailure | RecordsNotFound => error instanceof RunFailure || error instanceof RecordsNotFound;

const formatCount = (count: number) => count.toLocaleString('en-US');

/** `day` moved back `days` calendar days (no clock, so no daylight-saving hour in the way). */
const daysBefore = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);

/**
 * The `{from}`/`{to}` window of a run: days of the integration's time zone, the zone its schedule
 * runs in (ADR 0158's amendment), both ends included. historical: previous_days back from today.
 * latest: from the day of the last successful run; before the first success, previous_days back
 * (or today alone). initial_setup: the first run backfills previous_days.
 */
export function runWindow(
  row: Pick<IntegrationRow, 'data_fetch_type' | 'previous_days' | 'initial_setup' | 'initial_setup_done' | 'last_success_time' | 'time_zone'>,
  now: Date,
): { from: string; to: string } {
  const today = dayInTimeZone(now.getTime(), row.time_zone);
  const backfill = row.initial_setup && !row.initial_setup_done;
  if (row.data_fetch_type === 'historical' || backfill || !row.last_success_time) return { from: daysBefore(today, row.previous_days ?? 0), to: today };
  return { from: dayInTimeZone(new Date(row.last_success_time).getTime(), row.time_zone), to: today };
}

export const usesWindow = (endpoint: string) => endpoint.includes('{from}') || endpoint.includes('{to}');

export function endpointFor(endpoint: string, window: { from: string; to: string }): string {
  return endpoint.replaceAll('{from}', window.from).replaceAll('{to}', window.to);
}

/** Spaces request starts at least 60,000 / rate_limit ms apart (retries count too). */
function createPacer(requestsPerMinute: number) {
  const gapMs = 60_000 / requestsPerMinute;
  let nextStart = 0;
  return async () => {
    const wait = nextStart - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    nextStart = Math.max(Date.now(), nextStart) + gapMs;
  };
}

const isTransientStatus = (status: number) => status >= 500 || status === 429 || status === 408;

/** What an answer that is not the JSON expected was: its content type and its first characters. */
function describeAnswer(response: OutboundResponse): string {
  const type = response.headers['content-type']?.split(';')[0]?.trim();
  // Control characters of a binary answer are shown as spaces.
  const start = echoed(response.body.toString('utf8', 0, 200), BODY_START_CHARS);
  return `the endpoint answered ${type || 'without a content type'} ${start ? `("${start}")` : '(an empty body)'}`;
}
const BODY_START_CHARS = 40;

const contentTypeOf = (response: OutboundResponse) => response.headers['content-type']?.split(';')[0]?.trim().toLowerCase() ?? '';

const isJsonType = (type: string) => /[/+]json$/.test(type);

/**
 * Why a page is no JSON. An answer that says it is JSON and is not is broken JSON, said by line and
 * column ("line 3, column 3 — unexpected ','"; cut off: "it ends in the middle, as if cut off"),
 * not "not JSON … answered application/json".
 */
function notJson(number: number, response: OutboundResponse, error: unknown): string {
  if (!isJsonType(contentTypeOf(response))) return `Page ${number} is neither JSON nor CSV: ${describeAnswer(response)}.`;
  const where = jsonSyntaxProblem(response.body.toString('utf8')) ?? `the parser stopped: ${error instanceof Error ? error.message : String(error)}`;
  return `Page ${number} is not valid JSON: ${where}; ${describeAnswer(response)}.`;
}

const warningOf = (counts: RunCounts, rejections: IntegrationRejection[]): repo.RunWarning => ({ rejected: counts.rejected, firstProblem: rejections[0] ? describeRejection(rejections[0]) : null });

/** A rejected record as the integration's warning and the failure of a run that wrote nothing say it ("page 1, record 2, line 1, quantity: …"). */
export const describeRejection = (rejection: IntegrationRejection) =>
  `page ${rejection.page}, record ${rejection.record}${rejection.line ? `, line ${rejection.line}` : ''}${rejection.field ? `, ${rejection.field}` : ''}: ${rejection.reason}`;

/** The next page's address: the body's next field (a URL, relative or absolute), else a Link rel="next". */
function nextLinkOf(response: OutboundResponse, body: unknown, nextField: string): URL | null {
  const address = (text: string) => {
    try {
      return new URL(text, response.url);
    } catch {
      throw new RunFailure(`The next-page link '${text}' is not an address.`);
    }
  };
  const fromBody = body && typeof body === 'object' && !Array.isArray(body) ? readMappedPath(body, nextField) : undefined;
  if (typeof fromBody === 'string' && fromBody.trim()) return address(fromBody.trim());
  const link = response.headers.link;
  if (typeof link === 'string') {
    for (const part of link.split(',')) {
      const match = /<([^>]*)>\s*;(.*)/.exec(part.trim());
      if (match?.[1] && /(^|;)\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(match[2] ?? '')) return address(match[1]);
    }
  }
  return null;
}

/** Records read from the lines of a CSV answer: the records path does not apply. */
const csvPage = (rows: Record<string, string>[]): PageRecords => ({ records: rows.map((value, at) => ({ value, record: at + 1, line: null })), outerCount: rows.length, outerPath: '' });

/**
 * Page `number`'s records: a CSV answer's lines (said so by its content type, or, an answer of no
 * JSON type that is no JSON, read so as a table with a header), else the JSON body's records per the
 * records path. `body`: the JSON (null for CSV), where a next link may be.
 */
async function readPage(number: number, response: OutboundResponse, recordsPath: string | null): Promise<{ body: unknown; page: PageRecords }> {
  const type = contentTypeOf(response);
  if (isCsvType(type)) {
    try {
      return { body: null, page: csvPage((await csvRecordsOf(response.body)).records) };
    } catch (error) {
      if (error instanceof CsvAnswerError) throw new RunFailure(`Page ${number} is CSV that cannot be read: ${error.message}`);
      throw error;
    }
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch (error) {
    const table = isJsonType(type) ? null : await csvRecordsIfTable(response.body);
    if (table) return { body: null, page: csvPage(table) };
    throw new RunFailure(notJson(number, response, error));
  }
  return { body, page: recordsOfPage(body, recordsPath) };
}

type Page = { number: number } & PageRecords;
type Paging = Pick<IntegrationRow, 'pagination' | 'page_parameter' | 'records_path' | 'next_field'>;
type PageFetcher = (url: URL, number: number) => Promise<OutboundResponse>;

/** Headers in which a paged API says how many pages there are (WooCommerce and WordPress's X-WP-TotalPages). */
const TOTAL_PAGES_HEADERS = ['x-wp-totalpages', 'x-total-pages'];

/** Whether page `number`'s answer says it is the last (a total-pages header): the next page would come back empty, one request wasted. */
function isLastPage(response: OutboundResponse, number: number): boolean {
  for (const name of TOTAL_PAGES_HEADERS) {
    const header = response.headers[name];
    const total = Number(Array.isArray(header) ? header[0] : header);
    if (header !== undefined && Number.isInteger(total) && total >= 0) return number >= total;
  }
  return false;
}

/** The endpoint's pages, in order, per the integration's pagination. */
async function* pagesOf(row: Paging, firstUrl: string, fetchPage: PageFetcher): AsyncGenerator<Page> {
  let url: URL | null = new URL(firstUrl);
  const seen = new Set<string>();
  let previousBody: Buffer | null = null;
  for (let number = 1; url; number += 1) {
    if (number > MAX_PAGES) throw new RunFailure(`Stopped after ${MAX_PAGES} pages.`);
    if (row.pagination === 'page_parameter') url.searchParams.set(row.page_parameter, String(number));
    if (seen.has(url.href)) throw new RunFailure(`Page ${number} links back to a page already read (${url.href}).`);
    seen.add(url.href);
    const response = await fetchPage(url, number);
    // An endpoint that ignores the page parameter answers page 1 forever.
    if (row.pagination === 'page_parameter' && previousBody?.equals(response.body)) {
      throw new RunFailure(`Page ${number} is the same as page ${number - 1}: does the endpoint read the page parameter '${row.page_parameter}'?`);
    }
    previousBody = response.body;
    const { body, page } = await readPage(number, response, row.records_path);
    yield { number, ...page };
    if (row.pagination === 'none') url = null;
    else if (row.pagination === 'page_parameter') url = page.outerCount && !isLastPage(response, number) ? new URL(url) : null;
    else url = nextLinkOf(response, body, row.next_field);
  }
}

/**
 * `retryAfterAtMostMs`: a person waits for this fetch (Try the endpoint): one 429 whose Retry-After
 * asks for no longer than this is waited out once; else the 429 says when to try again.
 */
type FetchSettings = Pick<RunSettings, 'outbound' | 'retries' | 'retryBaseDelayMs'> & { retryAfterAtMostMs?: number };
/** Where the pages come from: the first page's address, requests a minute, the auth header (already opened). */
type EndpointSource = { endpoint: string; rateLimit: number; authHeader: { name: string; value: string } | null };

/** What a run learns from its page fetcher: every request made (retries too), and each retry of a failing endpoint (null once a page arrived). */
type FetchObserver = { onRequest(): void; onRetry(progress: RetryProgress | null): Promise<void> };
const UNOBSERVED: FetchObserver = { onRequest: () => {}, onRetry: async () => {} };

const withoutFullStop = (text: string) => text.replace(/\.$/, '');

/** A retry waiting `delayMs` (Airbyte's "attempt 2 of 4"), in the words the run's log entry and status show. */
function retryWaiting(nextTry: number, tries: number, delayMs: number, reason: string): RetryProgress {
  const seconds = Math.max(1, Math.round(delayMs / 1000));
  return { try: nextTry, tries, retry_at: new Date(Date.now() + delayMs).toISOString(), reason, message: `Try ${nextTry} of ${tries} in ${seconds} s: ${withoutFullStop(reason)}.` };
}

const retryUnderWay = (waiting: RetryProgress): RetryProgress => ({
  ...waiting,
  retry_at: null,
  message: `Try ${waiting.try} of ${waiting.tries} under way; try ${waiting.try - 1} failed: ${withoutFullStop(waiting.reason)}.`,
});

/** How long a Retry-After header (seconds, or an HTTP date) asks to wait; null without a readable one. */
function retryAfterMs(header: string | string[] | undefined): number | null {
  const text = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/**
 * Fetches one page through the guarded client: paced to the rate limit, transient failures retried
 * with backoff, the auth header sent only to the endpoint's own origin; a failure is a RunFailure
 * in a shop's words. The observer hears of every request and of every retry, before its wait.
 */
function createPageFetcher(settings: FetchSettings, source: EndpointSource, observer: FetchObserver): PageFetcher {
  const pace = createPacer(source.rateLimit);
  const origin = new URL(source.endpoint).origin;
  const authHeaders: Record<string, string> = source.authHeader ? { [source.authHeader.name]: source.authHeader.value } : {};

  const credentialsHint = (url: URL) => {
    if (url.origin !== origin) return ` The auth header goes only to ${origin}, not to this next-page link's ${url.origin}.`;
    if (!source.authHeader) return ' The integration sends no auth header: add one (the integration\'s Authentication: Header name and Header value) if the endpoint needs credentials.';
    return ` Check the integration's auth header (${source.authHeader.name}) and its value: the endpoint did not accept the credentials.`;
  };

  return async (url, number) => {
    let waitedForRetryAfter = false;
    for (let attempt = 0; ; attempt += 1) {
      await pace();
      observer.onRequest();
      let failure: OutboundError;
      try {
        // The auth header goes only to the endpoint's own origin, never to a next link elsewhere.
        const response = await guardedGet(url.href, { headers: url.origin === origin ? authHeaders : {}, policy: settings.outbound });
        if (response.status >= 200 && response.status < 300) {
          if (attempt) await observer.onRetry(null);
          return response;
        }
        if (response.status === 429 && settings.retryAfterAtMostMs !== undefined) {
          const waitMs = retryAfterMs(response.headers['retry-after']);
          if (!waitedForRetryAfter && waitMs !== null && waitMs <= settings.retryAfterAtMostMs) {
            waitedForRetryAfter = true;
            await new Promise((resolve) => setTimeout(resolve, waitMs));
            continue;
          }
          const seconds = waitMs === null ? null : Math.max(1, Math.ceil(waitMs / 1000));
          throw new RunFailure(`The shop is limiting requests (HTTP 429): try again in ${seconds === null ? 'a minute' : `${seconds} second${seconds === 1 ? '' : 's'}`}.`);
        }
        const reason = `${url.host} answered HTTP ${response.status} for page ${number}.${response.status === 401 || response.status === 403 ? credentialsHint(url) : ''}`;
        failure = new OutboundError(reason, { transient: isTransientStatus(response.status), status: response.status });
      } catch (error) {
        if (!(error instanceof OutboundError)) throw error;
        failure = error;
      }
      if (!failure.transient || attempt >= settings.retries) {
        throw new RunFailure(attempt ? `${withoutFullStop(failure.message)} (after ${attempt + 1} tries).` : failure.message);
      }
      // Exponential backoff with jitter, so several integrations do not retry in step.
      const delay = settings.retryBaseDelayMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
      // The wait and its cause are written before it starts: a silent endpoint's run is not left "running" without a word.
      const waiting = retryWaiting(attempt + 2, settings.retries + 1, delay, failure.message);
      await observer.onRetry(waiting);
      await new Promise((resolve) => setTimeout(resolve, delay));
      await observer.onRetry(retryUnderWay(waiting));
    }
  };
}

/**
 * The records of the endpoint's first page, fetched as a run fetches it (the same client, rules,
 * timeouts, size cap and paging): for trying an endpoint before saving. A page that cannot be read
 * is a 400 naming the field to change (records_path when the records are not found, else endpoint).
 */
export async function fetchFirstPage(settings: FetchSettings, source: EndpointSource & Paging): Promise<PageRecords> {
  try {
    for await (const page of pagesOf(source, source.endpoint, createPageFetcher(settings, source, UNOBSERVED))) return page;
  } catch (error) {
    if (!isRunFailure(error)) throw error;
    throw validationError(error.message, { [error instanceof RecordsNotFound ? 'records_path' : 'endpoint']: [error.message] });
  }
  return { records: [], outerCount: 0, outerPath: '' };
}

/**
 * What replace kept, in the words of the run's messages: how many rows, which tables' rows refer to
 * them, and the first keys. Null when it kept none.
 */
function describeKept(table: string, kept: RowsKept): string | null {
  if (!kept.count) return null;
  const [rows, them] = kept.count === 1 ? ['row', 'it'] : ['rows', 'them'];
  const more = kept.count > kept.keys.length ? ` and ${kept.count - kept.keys.length} more` : '';
  const referring = listed(kept.tables.map((name) => `'${name}'`));
  return `Kept ${kept.count} ${rows} of '${table}' that the source no longer lists: rows of ${referring} refer to ${them} (${kept.keys.join(', ')}${more}). Replace deletes ${them} once nothing refers to ${them}.`;
}

/** What a run's batches noted beyond the log's columns: totals lines left out, and stock counts older than their products' figure. */
type BatchNotes = { totalsSkipped: TotalsSkipped; restoredCodes: RestoredCodes; outdatedCounts: OutdatedCounts | null; addedTo?: AddedTo | undefined; unitsAsWritten?: UnitsAsWrittenCount | undefined; foldedSuppliers?: FoldedSupplier[] | undefined; matchedByName?: number | undefined };

/** Two batches' notes as the run's. */
function addBatchNotes(run: BatchNotes, batch: { totalsSkipped: TotalsSkipped; restoredCodes: RestoredCodes; outdatedCounts?: OutdatedCounts | undefined; addedTo?: AddedTo | undefined; unitsAsWritten?: UnitsAsWrittenCount | undefined; foldedSuppliers?: FoldedSupplier[] | undefined; matchedByName?: number | undefined }): BatchNotes {
  const totalsSkipped = { lines: run.totalsSkipped.lines + batch.totalsSkipped.lines, codes: [...new Set([...run.totalsSkipped.codes, ...batch.totalsSkipped.codes])] };
  const [a, b] = [run.outdatedCounts, batch.outdatedCounts];
  const day = (pick: (x: string, y: string) => string, x: string | null | undefined, y: string | null | undefined) => (x && y ? pick(x, y) : (x ?? y ?? null));
  const outdatedCounts =
    a && b
      ? { older: a.older + b.older, counted: a.counted + b.counted, first_day: day((x, y) => (x < y ? x : y), a.first_day, b.first_day), last_day: day((x, y) => (x > y ? x : y), a.last_day, b.last_day) }
      : (a ?? b ?? null);
  return { totalsSkipped, restoredCodes: addRestoredCodes(run.restoredCodes, batch.restoredCodes), outdatedCounts, addedTo: addAddedTo(run.addedTo, batch.addedTo), unitsAsWritten: addUnitsAsWritten(run.unitsAsWritten, batch.unitsAsWritten), foldedSuppliers: addFoldedSuppliers(run.foldedSuppliers, batch.foldedSuppliers), matchedByName: (run.matchedByName ?? 0) + (batch.matchedByName ?? 0) };
}

/**
 * The run's created products, quantities read in their cells' unit (ADR 0178) and left-out lines (blank codes, totals lines, row filters) in the
 * file import's words and order (import/service.ts's message), then its notices of stock counts
 * older than their products' figure and of supplier names written in the spelling already used
 * (ADR 0186), as a file import gives them (`today`: the run's day); null when none.
 */
const summaryOf = (target: PreparedTarget, counts: Pick<RunCounts, 'created' | 'skipped'>, notes: Omit<RunNotes, 'summary'>, batchNotes: BatchNotes, today: string): string | null =>
  `${addedToMessage(batchNotes.addedTo)}${restoredCodesMessage(batchNotes.restoredCodes)}${newProductsMessage(counts.created, notes.newProducts)}${unitsAsWrittenMessage(batchNotes.unitsAsWritten)}${matchedByNameMessage(batchNotes.matchedByName ?? 0, target.write.codeByName)}${skippedMessage(counts.skipped)}${totalsSkippedMessage(batchNotes.totalsSkipped)}${filteredMessage({ filtered_by: notes.filteredBy }, target.mapping)}${batchNotes.outdatedCounts?.older ? ` ${outdatedCountsNotice(batchNotes.outdatedCounts, today)}` : ''}${foldedSupplierNotices(batchNotes.foldedSuppliers ?? [], 'the run').map((notice) => ` ${notice}`).join('')}`.trim() || null;

function describeFailure(error: unknown): string {
  if (isRunFailure(error) || error instanceof OutboundError || error instanceof AppError) return error.message;
  return `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}

/** The last record a batch of the run wrote or refused, whether it ended its page, and (a line of a nested records path) its line and whether it ended its record. */
type Processed = { page: number; record: number; pageEnd: boolean; line: number | null; recordEnd: boolean };

/**
 * A failure after batches were committed says what they kept (they stay: acknowledged data is never
 * lost) and where the run stopped; null `failingPage`: every page was written, the end of the run failed.
 */
function failureAfterWrites(message: string, counts: RunCounts, processed: Processed | null, failingPage: number | null, action: IntegrationRow['data_action']): string {
  const written = counts.inserted + counts.updated;
  if (!written || !processed) return message;
  const { page, record, pageEnd, line, recordEnd } = processed;
  const upTo = (last: number, one: string, many: string) => (last === 1 ? `${one} 1` : `${many} 1–${last}`);
  // A batch may end within an order's lines (records_path orders[].line_items): its lines written are named.
  const midRecord = line !== null && !recordEnd;
  const records = midRecord ? `${record > 1 ? `${upTo(record - 1, 'record', 'records')} and ` : ''}${upTo(line, 'line', 'lines')} of record ${record}` : upTo(record, 'record', 'records');
  const kept = pageEnd ? upTo(page, 'page', 'pages') : page === 1 ? `${records} of page 1` : `${upTo(page - 1, 'page', 'pages')} and ${records} of page ${page}`;
  const verb = page === 1 && (pageEnd || (record === 1 && (!midRecord || line === 1))) ? 'was' : 'were';
  const refused = counts.rejected ? `; ${counts.rejected} refused` : '';
  const where = failingPage === null ? 'then the run failed' : `page ${failingPage} failed`;
  // Replace's delete waits for a complete run: rows the source dropped are still there.
  const replaceNote = action === 'replace' ? ' Replace deleted nothing, as it does only after a complete run.' : '';
  return `${kept.charAt(0).toUpperCase()}${kept.slice(1)} ${verb} written and kept (${written} records${refused}); ${where}: ${message}${replaceNote}`;
}

/**
 * Runs integration `id` now unless a run of it goes on somewhere (then it answers ran: false).
 * Every outcome is logged and shown in the integration's status; nothing is thrown for a failed run.
 */
export async function runIntegration(ctx: RunContext, options: { integrationId: number; trigger: 'schedule' | 'manual' }): Promise<RunOutcome> {
  const lock = await ctx.locks.acquire(options.integrationId);
  if (!lock) return { ran: false, reason: 'A run of this integration is already going.' };
  try {
    const row = await repo.findIntegration(ctx.db, options.integrationId);
    if (!row) return { ran: false, reason: 'The integration no longer exists.' };
    if (options.trigger === 'schedule' && !row.enabled) return { ran: false, reason: 'The integration is switched off.' };
    // A catch-up occurrence and the one due now can arrive together (pg-boss sends both after a gap
    // in its cron passes); schedules fire at most once a minute, so a start this close to the last
    // one is the same pull again.
    if (options.trigger === 'schedule' && row.last_run_time && Date.now() - new Date(row.last_run_time).getTime() < SCHEDULED_RUN_COALESCE_MS) {
      return { ran: false, reason: 'A run started moments ago; this occurrence is covered by it.' };
    }
    // With the lock held no other run goes on: a run still marked running was cut off by a crash.
    if (row.status === 'running') await repo.failInterruptedRun(ctx.db, row.id, row.current_run_id, INTERRUPTED_MESSAGE);
    const now = new Date();
    const window = usesWindow(row.endpoint) ? runWindow(row, now) : null;
    const run = await repo.startRun(ctx.db, row.id, options.trigger, window);
    return await execute(ctx, row, run.id, window, now);
  } finally {
    await lock.release();
  }
}

const SCHEDULED_RUN_COALESCE_MS = 30_000;

export const INTERRUPTED_MESSAGE = 'Interrupted: the server stopped during the run. Batches committed before that are kept; the next run fetches the rest.';

async function execute(ctx: RunContext, row: IntegrationRow, runId: number, window: RunWindow, startedAt: Date): Promise<RunOutcome> {
  const counts: RunCounts = { pages: 0, requests: 0, inserted: 0, updated: 0, rejected: 0, deleted: 0, kept: 0, filtered: 0, skipped: 0, created: 0 };
  const rejections: IntegrationRejection[] = [];
  let notes: RunNotes = { filteredBy: [], newProducts: [], summary: null };
  let batchNotes: BatchNotes = { totalsSkipped: { lines: 0, codes: [] }, restoredCodes: NO_RESTORED_CODES, outdatedCounts: null };
  const endpoint = window ? endpointFor(row.endpoint, window) : row.endpoint;
  const authHeader = row.auth_header_name && row.auth_header_secret ? { name: row.auth_header_name, value: ctx.secrets.open(row.auth_header_secret) } : null;
  const fetchPage = createPageFetcher(
    ctx.settings,
    { endpoint, rateLimit: row.rate_limit, authHeader },
    { onRequest: () => void (counts.requests += 1), onRetry: (progress) => repo.recordRetryProgress(ctx.db, runId, progress) },
  );

  let table: string | undefined;
  let columns: string[] | undefined;
  let processed: Processed | null = null;
  let failingPage: number | null = 1;
  let keptMessage: string | null;
  try {
    // A mapping's field value `today` is the run's day where the shop is (the zone its schedule runs in).
    const today = dayInTimeZone(startedAt.getTime(), row.time_zone);
    const target = await ctx.writer.prepare({ mappingName: row.mapping_selection, entityType: row.target_entity, action: row.data_action, integrationId: row.id, runId, learntDateOrder: row.learnt_date_format, today, timeZone: row.time_zone });
    table = target.table;
    columns = target.write.mapped;
    // Records wait here until a batch is full: a batch may span pages, and each keeps where it came from.
    let pending: (PageRecord & { page: number; pageEnd: boolean; recordEnd: boolean })[] = [];
    const seenPaths = new Set<string>();
    const writeBatch = async (batch: typeof pending) => {
      let committed: RunCounts = counts;
      let committedNotes = notes;
      let committedBatchNotes = batchNotes;
      await ctx.writer.writeBatch(target, batch, async (written, session) => {
        const filtered = written.filteredBy.reduce((sum, entry) => sum + entry.lines, 0);
        const next = { ...counts, inserted: counts.inserted + written.inserted, updated: counts.updated + written.updated, rejected: counts.rejected + written.rejected, filtered: counts.filtered + filtered, skipped: counts.skipped + written.skipped, created: counts.created + written.created };
        const filteredBy = addFiltered(notes.filteredBy, written.filteredBy);
        const newProducts = [...notes.newProducts, ...written.newProducts].slice(0, MAX_LISTED_NEW_PRODUCTS);
        const nextBatchNotes = addBatchNotes(batchNotes, written);
        const nextNotes = { filteredBy, newProducts, summary: summaryOf(target, next, { filteredBy, newProducts }, nextBatchNotes, today) };
        for (const rejection of written.rejections) {
          const origin = batch[rejection.record - 1];
          if (origin && rejections.length < MAX_LOGGED_REJECTIONS) rejections.push({ page: origin.page, record: origin.record, ...(origin.line ? { line: origin.line } : {}), field: rejection.field, reason: rejection.reason });
        }
        // In the batch's own transaction: the log's counts are what was committed, the date order learnt with the rows it read.
        await session.run(repo.runProgressUpdate(runId, { counts: next, rejections, notes: nextNotes }));
        if (written.learntDateOrder) await session.run(repo.learntDateOrderUpdate(row.id, written.learntDateOrder));
        committed = next;
        committedNotes = nextNotes;
        committedBatchNotes = nextBatchNotes;
      });
      Object.assign(counts, committed);
      notes = committedNotes;
      batchNotes = committedBatchNotes;
      const last = batch.at(-1);
      if (last) processed = { page: last.page, record: last.record, pageEnd: last.pageEnd, line: last.line, recordEnd: last.recordEnd };
    };
    for await (const page of pagesOf(row, endpoint, fetchPage)) {
      failingPage = page.number;
      counts.pages += 1;
      const values = page.records.map((record) => record.value);
      // A field every record needs that none of the page's records has is one message, not a refusal
      // per record; a page of one record that lacks a field earlier pages had is that record's refusal.
      const lacking = fieldsAbsentFrom(target.neededPaths, values);
      const absent = lacking.filter((m) => values.length > 1 || !seenPaths.has(m.path));
      if (absent.length) throw new RunFailure(absentFieldsMessage(absent, values, { mapped: target.neededPaths, where: page.number > 1 ? `of page ${page.number}` : undefined, mappingName: row.mapping_selection }));
      if (values.some(isPlainRecord)) for (const m of target.neededPaths) if (!lacking.includes(m)) seenPaths.add(m.path);
      page.records.forEach((record, at, all) => pending.push({ ...record, page: page.number, pageEnd: at === all.length - 1, recordEnd: all[at + 1]?.record !== record.record }));
      while (pending.length >= row.batch_size) {
        await writeBatch(pending.slice(0, row.batch_size));
        pending = pending.slice(row.batch_size);
      }
      await repo.recordRunProgress(ctx.db, runId, { counts, rejections, notes });
      failingPage = page.number + 1;
    }
    failingPage = pending[0]?.page ?? null;
    if (pending.length) await writeBatch(pending);
    failingPage = null;
    if (counts.rejected && !counts.inserted && !counts.updated) {
      const [first] = rejections;
      throw new RunFailure(`Nothing was written: ${counts.rejected === 1 ? 'the one record was' : `all ${formatCount(counts.rejected)} records were`} rejected${first ? `. The first problem: ${describeRejection(first)}` : '.'}`);
    }
    if (row.data_action === 'replace' && counts.rejected) {
      // A rejected record may be a row the endpoint still sends: its stored row must not go.
      keptMessage = `Replace deleted nothing this run: ${formatCount(counts.rejected)} ${counts.rejected === 1 ? 'record was' : 'records were'} rejected, and the rows stored for them stay until the endpoint sends them in a form that can be read. The next run without rejected records deletes the rows the endpoint no longer sends.`;
    } else {
      const completed = await ctx.writer.complete(target);
      counts.deleted = completed.deleted;
      counts.kept = completed.kept.count;
      keptMessage = describeKept(target.table, completed.kept);
    }
  } catch (error) {
    const message = failureAfterWrites(describeFailure(error), counts, processed, failingPage, row.data_action);
    const failed = await repo.finishRunFailed(ctx.db, row.id, runId, { progress: { counts, rejections, notes }, warning: warningOf(counts, rejections), message, pauseAfter: ctx.settings.pauseAfterFailures });
    if (failed.paused) await ctx.onPaused(row.id);
    if (!(isRunFailure(error) || error instanceof OutboundError || error instanceof AppError)) console.error(`integration ${row.id} run ${runId}`, error);
    return { ran: true, status: 'failed', runId, counts, message: failed.runMessage };
  }
  await repo.finishRunSucceeded(ctx.db, row.id, runId, { progress: { counts, rejections, notes }, warning: warningOf(counts, rejections), keptMessage, successTime: startedAt });
  if (table && columns && (counts.inserted || counts.updated || counts.deleted)) await ctx.onTableImported({ table, columns, deleted: counts.deleted });
  return { ran: true, status: 'success', runId, counts, message: keptMessage };
}
