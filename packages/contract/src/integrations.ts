// Scheduled integrations: pull JSON from an HTTP endpoint on a schedule into an inventory entity
// (spec §3 Scheduled integration and its log entries, §5 defaults, §7 /api/integrations/scheduled/*).
import { z } from 'zod';
import { entityMapping } from './config.ts';
import { filteredBy, newProduct, previewFileResponse, sourceValue } from './import.ts';
import { storableText } from './text.ts';

export const scheduleFrequencies = ['every_15_minutes', 'hourly', 'daily', 'weekly', 'custom'] as const;
export type ScheduleFrequency = (typeof scheduleFrequencies)[number];
export const dataActions = ['upsert', 'insert', 'replace'] as const;
export type DataAction = (typeof dataActions)[number];
export const dataFetchTypes = ['latest', 'historical'] as const;
export type DataFetchType = (typeof dataFetchTypes)[number];
/** queued: a manual run waits for a worker; the others as spec §4 names them. */
export const integrationStatuses = ['idle', 'queued', 'running', 'failed'] as const;
export type IntegrationStatus = (typeof integrationStatuses)[number];
export const paginationKinds = ['none', 'next_link', 'page_parameter'] as const;
export type PaginationKind = (typeof paginationKinds)[number];
export const integrationRunStatuses = ['running', 'success', 'failed'] as const;
export type IntegrationRunStatus = (typeof integrationRunStatuses)[number];
export const integrationRunTriggers = ['schedule', 'manual'] as const;

/** Spec §5 and §9: what a new integration starts with and what saving fills in when unset. */
export const INTEGRATION_DEFAULTS = {
  enabled: false,
  schedule_frequency: 'hourly',
  data_action: 'upsert',
  data_fetch_type: 'latest',
  initial_setup: false,
  rate_limit: 60,
  batch_size: 100,
  previous_days: null,
  time_zone: 'UTC',
  status: 'idle',
  pagination: 'none',
  next_field: 'next',
  page_parameter: 'page',
} as const;
export const MAX_RATE_LIMIT = 6000;
export const MAX_BATCH_SIZE = 10_000;
export const MAX_PREVIOUS_DAYS = 3660;
/** What answers show instead of a stored auth header value; sending it back keeps the stored one. */
export const MASKED_SECRET = '••••••••';
export const INTEGRATION_LOG_PAGE_SIZE = 20;

/** The cron expression of each fixed frequency (in the integration's time zone); `custom` carries its own. */
export const frequencyCron: Record<Exclude<ScheduleFrequency, 'custom'>, string> = {
  every_15_minutes: '*/15 * * * *',
  hourly: '0 * * * *',
  daily: '0 0 * * *',
  weekly: '0 0 * * 1',
};

const httpUrl = storableText()
  .trim()
  .min(1, 'The endpoint is required.')
  .max(2000)
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'Enter an http:// or https:// address.');
const dottedPath = storableText().trim().max(200).regex(/^[^\s]+$/, 'A dotted path has no spaces.');

/**
 * records_path (ADR 0060, amended 2026-12-04): `data.orders` names the array of records; with `[]`,
 * `data.orders[].line_items` names an array inside each of those records, and each of its elements
 * is one record, its outer record (without that array) under OUTER_RECORD_KEY. `[].lines`: each
 * element of an answer that is an array itself.
 */
export const NESTED_RECORDS_MARK = '[].';
/** Where a nested record's outer record is: a line item's order is read as `order.created_at`. */
export const OUTER_RECORD_KEY = 'order';
/** The array of records (`outer`, '' for the answer itself) and, for nested records, the path of the array inside each (`inner`). */
export function splitRecordsPath(path: string): { outer: string; inner: string | null } {
  const at = path.indexOf(NESTED_RECORDS_MARK);
  return at < 0 ? { outer: path, inner: null } : { outer: path.slice(0, at), inner: path.slice(at + NESTED_RECORDS_MARK.length) };
}
const recordsPath = dottedPath.refine(
  (path) => !/[[\]]/.test(path) || /^[^[\]]*\[\]\.[^[\]]+$/.test(path),
  'Name the array of records (data.orders) or, for one record per line, the array inside each record after [] (data.orders[].line_items): one [] at most, followed by a dot.',
);
const headerName = z.string().trim().min(1).max(100).regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Not a valid HTTP header name.');

/** An IANA time zone name the runtime knows (Europe/Berlin, America/New_York, UTC). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
const unknownTimeZone = 'Choose a time zone such as Europe/Berlin or America/New_York.';
const timeZone = z.string().trim().min(1, unknownTimeZone).max(64, unknownTimeZone).refine(isTimeZone, unknownTimeZone);

const wholeNumber = 'Enter a whole number.';
/** The words of an out-of-range count, the same in the editor and in the server's 400. */
export const countRangeMessage = (max: number) => `Enter a whole number from 1 to ${max.toLocaleString('en')}.`;

/**
 * An integration as an admin saves it. Every field may be left out: a new integration takes the
 * defaults, a saved one keeps what it had (so the enabled switch sends `{enabled}` alone).
 * `auth_header_value`: a new value, null to remove it, or left out (or the mask) to keep it.
 */
export const integrationInput = z.strictObject({
  enabled: z.boolean().optional(),
  endpoint: httpUrl.optional(),
  schedule_frequency: z.enum(scheduleFrequencies).optional(),
  cron_expression: storableText().trim().max(100).nullable().optional(),
  time_zone: timeZone.optional(),
  mapping_selection: storableText().trim().min(1, 'Choose a mapping.').max(200).optional(),
  target_entity: storableText().trim().min(1, 'Choose a target entity.').max(100).optional(),
  data_action: z.enum(dataActions).optional(),
  data_fetch_type: z.enum(dataFetchTypes).optional(),
  previous_days: z.number().int(wholeNumber).min(1, countRangeMessage(MAX_PREVIOUS_DAYS)).max(MAX_PREVIOUS_DAYS, countRangeMessage(MAX_PREVIOUS_DAYS)).nullable().optional(),
  initial_setup: z.boolean().optional(),
  rate_limit: z.number().int(wholeNumber).min(1, countRangeMessage(MAX_RATE_LIMIT)).max(MAX_RATE_LIMIT, countRangeMessage(MAX_RATE_LIMIT)).nullable().optional(),
  batch_size: z.number().int(wholeNumber).min(1, countRangeMessage(MAX_BATCH_SIZE)).max(MAX_BATCH_SIZE, countRangeMessage(MAX_BATCH_SIZE)).nullable().optional(),
  records_path: recordsPath.nullable().optional(),
  pagination: z.enum(paginationKinds).optional(),
  next_field: dottedPath.min(1).nullable().optional(),
  page_parameter: storableText().trim().min(1).max(100).nullable().optional(),
  auth_header_name: headerName.nullable().optional(),
  auth_header_value: storableText().max(4000).nullable().optional(),
});
export type IntegrationInput = z.infer<typeof integrationInput>;

/**
 * POST /api/integrations/try/: the endpoint and the settings of an integration that shape its
 * request (the `{from}`/`{to}` window of a first run, the records path, the first page's parameter,
 * the auth header), the entity to map onto, and optionally a mapping to try instead of the proposal.
 * The stored auth header of the integration being edited is used when `integration_id` is sent
 * with the mask as the value.
 */
export const integrationTryRequest = integrationInput
  .pick({ time_zone: true, data_fetch_type: true, previous_days: true, initial_setup: true, records_path: true, pagination: true, next_field: true, page_parameter: true, auth_header_name: true, auth_header_value: true })
  .extend({
    endpoint: httpUrl,
    target_entity: storableText().trim().min(1, 'Choose a target entity.').max(100),
    integration_id: z.number().int().positive().max(2_147_483_647).optional(),
    mapping: entityMapping.optional(),
  });
export type IntegrationTryRequest = z.infer<typeof integrationTryRequest>;

/**
 * What one page of the endpoint held: the record count, every dotted path seen in its records with
 * a few values each, and, as the file preview gives them, the entity's targets, a mapping proposed
 * from the paths, and the first records typed by the mapping sent (else the proposal) with their problems;
 * as a file import's, the row filters the records' status suggests (a refunded order's lines), and
 * skipping the lines without a product code when others have one (a shop's gift-wrap lines), knowing
 * such lines by their name where it reads as one stored product's (proposed_blank_code_by_name, with
 * the line's name path in proposed_new_products.name and blank_code_matched; ADR 0195 F4), the
 * code read in brackets (proposed_code_in_brackets, ADR 0198), the paths joined to a field's own
 * (proposed_joined_columns: a till's line named by its item followed by its variation, ADR 0201
 * F6, amendment 2026-12-07) with the values left out of them (proposed_joined_leave_out: Square's
 * "Regular", F8), a kind path's words as yes or no (proposed_value_maps, ADR 0200 amendment) and,
 * with create_missing_products, the products the page would create.
 */
export const integrationTryResponse = previewFileResponse.pick({ targets: true, proposed_mapping: true, date_format: true, decimal_separator: true, rows: true, proposed_row_filters: true, blank_code_lines: true, proposed_skip_rows_without_code: true, blank_code_matched: true, proposed_blank_code_by_name: true, proposed_new_products: true, proposed_joined_columns: true, proposed_joined_leave_out: true, proposed_value_maps: true, new_products: true, new_product_count: true, proposed_code_in_brackets: true }).extend({
  record_count: z.number().int(),
  paths: z.array(z.object({ path: z.string(), samples: z.array(sourceValue) })),
  /**
   * When the records read hold an array of lines (line_items, positions) with a product code and a
   * quantity and the entity takes both (sales, deliveries): the records path reading one record per
   * line, how many lines the page holds, and the mapping proposed for them (the order's fields under `order.`).
   */
  records_path_proposal: z.object({ records_path: z.string(), record_count: z.number().int(), proposed_mapping: z.record(z.string(), z.string().nullable()) }).nullable(),
  /** What the mapping tried would not read: a path into an array by position (`line_items.0.sku`) reads its first element only. */
  warnings: z.array(z.string()),
});
export type IntegrationTryResponse = z.infer<typeof integrationTryResponse>;

/**
 * Where a running run stands while it retries a failing endpoint (as Airbyte shows "attempt 2 of
 * 4"): the try that comes next (2 = the first retry) of how many in all, when it starts
 * (`retry_at`, ISO; null once it is under way), why the last try failed, and `message`, the
 * sentence the server wrote then ("Try 2 of 4 in 8 s: shop.example answered HTTP 503 for page 1.").
 * Null while no retry is pending and once the run ends: the status stays `running` (spec §4).
 */
export const retryProgress = z.object({
  try: z.number().int(),
  tries: z.number().int(),
  retry_at: z.string().nullable(),
  reason: z.string(),
  message: z.string(),
});
export type RetryProgress = z.infer<typeof retryProgress>;

export const integration = z.object({
  id: z.number().int(),
  enabled: z.boolean(),
  endpoint: z.string(),
  schedule_frequency: z.enum(scheduleFrequencies),
  cron_expression: z.string().nullable(),
  /** The cron expression the schedule runs on (in `time_zone`): the frequency's, or the custom one. */
  schedule_cron: z.string(),
  /** Where the schedule's hours are: "daily" runs at midnight there. */
  time_zone: z.string(),
  mapping_selection: z.string(),
  target_entity: z.string(),
  data_action: z.enum(dataActions),
  data_fetch_type: z.enum(dataFetchTypes),
  previous_days: z.number().int().nullable(),
  initial_setup: z.boolean(),
  rate_limit: z.number().int(),
  batch_size: z.number().int(),
  records_path: z.string().nullable(),
  pagination: z.enum(paginationKinds),
  next_field: z.string(),
  page_parameter: z.string(),
  auth_header_name: z.string().nullable(),
  /** Never the stored value: the mask when one is stored, else null. */
  auth_header_value: z.string().nullable(),
  status: z.enum(integrationStatuses),
  last_run_time: z.string().nullable(),
  next_run_time: z.string().nullable(),
  last_success_time: z.string().nullable(),
  last_error_message: z.string().nullable(),
  consecutive_failures: z.number().int(),
  /** Records the last finished run refused (its batches wrote none of them); 0 when none. */
  last_run_rejected: z.number().int().default(0),
  /** The last finished run's first refused record, where and why ("page 1, record 5, quantity: …"); null when none. */
  last_run_warning: z.string().nullable().default(null),
  /** What replace kept at the end of the last finished run: rows the source no longer lists that rows of data tables refer to; null when none. */
  last_run_kept_message: z.string().nullable().default(null),
  /** The last finished run's lines left out by the mapping's row filters and products created for unknown codes, as a file import says them; null when neither. */
  last_run_summary: z.string().nullable().default(null),
  /** The running run's retry of a failing endpoint, read from its log entry (its `progress`); null otherwise. */
  run_progress: retryProgress.nullable().default(null),
  created_at: z.string(),
  updated_at: z.string(),
  /**
   * Its configuration's version (ADR 0168's amendment), also the single GET's ETag: sent back as
   * `If-Match` on a change or delete, an integration saved since is refused (409 edit_conflict).
   * Runs do not change it; a pause after failed runs does (it switches `enabled` off).
   */
  version: z.string(),
});
export type Integration = z.infer<typeof integration>;
export const integrationList = z.array(integration);

/** The largest id an integer column holds: a larger one is simply not found (404), never a database error. */
const MAX_ID = 2_147_483_647;
export const integrationIdParams = z.object({ id: z.coerce.number({ message: 'Integration ID required.' }).int().positive('Integration ID required.').max(MAX_ID, 'Integration ID required.') });

export const integrationStatusResponse = z.object({
  id: z.number().int(),
  status: z.enum(integrationStatuses),
  enabled: z.boolean(),
  last_run_time: z.string().nullable(),
  next_run_time: z.string().nullable(),
  last_error_message: z.string().nullable(),
  consecutive_failures: z.number().int(),
  last_run_rejected: z.number().int().default(0),
  last_run_warning: z.string().nullable().default(null),
  last_run_kept_message: z.string().nullable().default(null),
  last_run_summary: z.string().nullable().default(null),
  run_progress: retryProgress.nullable().default(null),
});
export type IntegrationStatusResponse = z.infer<typeof integrationStatusResponse>;

export const deletedResponse = z.object({ success: z.literal(true), message: z.string() });
export const runRequest = z.object({}).passthrough();
export const runResponse = z.object({ id: z.number().int(), status: z.enum(integrationStatuses), message: z.string() });
export type RunResponse = z.infer<typeof runResponse>;

export const integrationLogEntry = z.object({
  id: z.number().int(),
  integration_id: z.number().int(),
  trigger: z.enum(integrationRunTriggers),
  status: z.enum(integrationRunStatuses),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  pages: z.number().int(),
  requests: z.number().int(),
  rows_inserted: z.number().int(),
  rows_updated: z.number().int(),
  rows_rejected: z.number().int(),
  /** replace: rows earlier runs wrote and this one did not, deleted at its end. */
  rows_deleted: z.number().int(),
  /** replace: rows it did not delete because rows of data tables refer to them (a product's sales), and the run's message naming them. */
  rows_kept: z.number().int().default(0),
  kept_message: z.string().nullable().default(null),
  /** Lines the mapping's row filters (`skip_rows_where`) left out, and how many each filter left out (as an import's counts.filtered_by). */
  rows_filtered: z.number().int().default(0),
  filtered_by: z.array(filteredBy).default([]),
  /** Lines left out for a blank product code (`skip_rows_without_code`; as an import's counts.skipped). */
  rows_skipped: z.number().int().default(0),
  /** Products created for unknown codes (`create_missing_products`), and the first 20 with their fields (as an import's new_products). */
  products_created: z.number().int().default(0),
  new_products: z.array(newProduct).default([]),
  /** These and the lines skipped in the file import's words ("1 new product created for unknown codes: SHOP-1 Garden hose. 2 lines without a product code were skipped. 5 lines of orders whose Financial Status is refunded were left out."); null when none. */
  summary: z.string().nullable().default(null),
  /** The `{from}`/`{to}` window the run asked for (ISO dates), when the endpoint uses one. */
  window_from: z.string().nullable(),
  window_to: z.string().nullable(),
  error_message: z.string().nullable(),
  /** The first rejected records: where in the source and why; `line`: the element of the record's inner array, with a nested records path (`orders[].line_items`). */
  rejections: z.array(z.object({ page: z.number().int(), record: z.number().int(), line: z.number().int().optional(), field: z.string().nullable(), reason: z.string() })),
  /** A running run's retry of a failing endpoint: which try, when and why; null otherwise. */
  progress: retryProgress.nullable().default(null),
});
export type IntegrationLogEntry = z.infer<typeof integrationLogEntry>;
export const integrationLogQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(INTEGRATION_LOG_PAGE_SIZE),
});
export const integrationLogPage = z.object({ results: z.array(integrationLogEntry), count: z.number().int(), next: z.number().int().nullable() });
export type IntegrationLogPage = z.infer<typeof integrationLogPage>;
