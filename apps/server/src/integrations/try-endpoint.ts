// Trying an endpoint before an integration is saved (POST /api/integrations/try/): its first page,
// fetched as a run fetches it (run.ts, under the same outbound rules), read as the import's file
// preview reads a JSON file (import/preview.ts): the paths its records hold, a mapping proposed from
// their names, and the first records typed by that mapping or the one sent; when the records hold
// lines (an order's line_items), the records path reading one record per line, and a warning for
// each path that reads an array's first element only. Nothing is written.
import {
  dayInTimeZone,
  INTEGRATION_DEFAULTS,
  isPlainRecord,
  MASKED_SECRET,
  NESTED_RECORDS_MARK,
  OUTER_RECORD_KEY,
  readMappedPath,
  splitRecordsPath,
  type ImportTarget,
  type IntegrationTryRequest,
  type IntegrationTryResponse,
  type RowFilter,
  valueMapForm,
} from '@stockwise/contract';
import { notFoundError, validationError } from '../http/errors.ts';
import { addressProblem } from '../http/outbound.ts';
import { asSourceValue, leafPaths, numericIdPaths, previewRecords, proposeMapping } from '../import/preview.ts';
import { savedMappingWayOut } from '../import/target.ts';
import { readTimeZone } from '../shop/repo.ts';
import { absentFieldsMessage, fieldsAbsentFrom } from './absent-fields.ts';
import { linesOf, RecordsNotFound } from './records-path.ts';
import * as repo from './repo.ts';
import { endpointFor, fetchFirstPage, runWindow, usesWindow } from './run.ts';
import type { IntegrationsContext } from './service.ts';

/** Records whose paths are listed (as the file preview lists a JSON file's keys). */
const PATH_RECORDS = 50;
/** Different values shown for each path. */
const SAMPLES_PER_PATH = 3;

/** The longest Retry-After a try waits out (a shop's 429 asking for more is said with its wait). */
const TRY_RETRY_AFTER_MAX_MS = 5_000;

/**
 * What a web shop's status says of an order that did not happen. Try the endpoint sees one page, and
 * a filter proposed from it leaves out only the values that page held: a refunded order on page 1,
 * a voided one on page 2 would be counted as sold. Matched ignoring case, as every row filter.
 */
const UNDONE_ORDER_STATUSES = ['refunded', 'voided', 'cancelled'];
const withLaterPagesStatuses = (filter: RowFilter): RowFilter => {
  const seen = new Set(filter.values.map(valueMapForm));
  return { ...filter, values: [...filter.values, ...UNDONE_ORDER_STATUSES.filter((status) => !seen.has(status))] };
};

const fieldError = (field: string, message: string) => validationError(message, { [field]: [message] });

/** The auth header the try sends: the value typed, or the stored one of the integration being edited when the mask comes back. */
async function authHeaderOf(ctx: IntegrationsContext, input: IntegrationTryRequest): Promise<{ name: string; value: string } | null> {
  let value = input.auth_header_value ?? null;
  if (value === MASKED_SECRET) {
    if (!input.integration_id) throw fieldError('auth_header_value', 'Type the value again: a stored value is only sent for its own integration.');
    const stored = await repo.findIntegration(ctx.db, input.integration_id);
    if (!stored) throw notFoundError(`Integration ${input.integration_id} not found.`);
    value = stored.auth_header_secret ? ctx.secrets.open(stored.auth_header_secret) : null;
  }
  // As saving does: a value without a header name goes in Authorization.
  return value ? { name: input.auth_header_name || 'Authorization', value } : null;
}

/** Up to SAMPLES_PER_PATH different values of `path` across `records`, in the order met. */
function samplesOf(records: unknown[], path: string) {
  const samples = new Map<string, ReturnType<typeof asSourceValue>>();
  for (const record of records) {
    const value = readMappedPath(record, path);
    if (value === undefined) continue;
    const shown = asSourceValue(value);
    samples.set(JSON.stringify(shown), shown);
    if (samples.size >= SAMPLES_PER_PATH) break;
  }
  return [...samples.values()];
}

/** Dotted paths (not through arrays) of the records' arrays whose elements are objects: where an order's lines may be. */
function arraysOfObjects(records: unknown[]): string[] {
  const found = new Set<string>();
  const walk = (value: unknown, prefix: string, depth: number) => {
    if (!isPlainRecord(value) || depth > 3) return;
    for (const [key, inner] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (Array.isArray(inner)) {
        if (inner.some(isPlainRecord)) found.add(path);
      } else walk(inner, path, depth + 1);
    }
  };
  for (const record of records) walk(record, '', 0);
  return [...found];
}

/** A line's own fields, without its order's. */
const withoutOrder = (line: unknown) => (isPlainRecord(line) ? Object.fromEntries(Object.entries(line).filter(([key]) => key !== OUTER_RECORD_KEY)) : line);

/**
 * The records path reading one record per line, when the records hold an array of lines whose own
 * fields name the entity's product and its quantity (an order's line_items onto sales or
 * deliveries), with the mapping proposed for those records (the order's date read as `order.…`).
 */
function proposeLines(targets: ImportTarget[], records: unknown[], outerPath: string): IntegrationTryResponse['records_path_proposal'] {
  const product = targets.find((target) => target.reference);
  if (!product || !targets.some((target) => target.field === 'quantity')) return null;
  for (const inner of arraysOfObjects(records.slice(0, PATH_RECORDS))) {
    const recordsPath = `${outerPath}${NESTED_RECORDS_MARK}${inner}`;
    let lines: unknown[];
    try {
      lines = linesOf(records, inner, recordsPath).map((line) => line.value);
    } catch (error) {
      // Another record holds something else there: not an array of lines.
      if (error instanceof RecordsNotFound) continue;
      throw error;
    }
    const shown = lines.slice(0, PATH_RECORDS);
    const ownPaths = leafPaths(shown.map(withoutOrder));
    const ownFields = proposeMapping(targets, ownPaths, numericIdPaths(ownPaths, shown));
    if (!ownFields[product.field] || !ownFields.quantity) continue;
    const allPaths = leafPaths(shown);
    return { records_path: recordsPath, record_count: lines.length, proposed_mapping: proposeMapping(targets, allPaths, numericIdPaths(allPaths, shown)) };
  }
  return null;
}

/** A mapped path that reads an array by position (`line_items.0.sku`): only that element of each record's array is imported. */
function positionWarnings(fieldMappings: Record<string, string>, records: unknown[], proposal: IntegrationTryResponse['records_path_proposal']): string[] {
  const warnings: string[] = [];
  for (const [field, path] of Object.entries(fieldMappings)) {
    const segments = path.split('.');
    const at = segments.findIndex((segment, index) => /^\d+$/.test(segment) && records.some((record) => Array.isArray(readMappedPath(record, segments.slice(0, index).join('.')))));
    if (at < 0) continue;
    const array = segments.slice(0, at).join('.');
    const instead = proposal ? ` To import every one, read one record per line with the records path '${proposal.records_path}'.` : '';
    warnings.push(`${field} reads '${path}': element ${Number(segments[at]) + 1} of each record's '${array}' only; the record's other elements of '${array}' are not imported.${instead}`);
  }
  return warnings;
}

/** The mapping sent reads a field no record of the page has (renamed by the shop): one warning for them, naming what the records have. */
function absentWarnings(mapping: IntegrationTryRequest['mapping'], targets: ImportTarget[], records: unknown[]): string[] {
  if (!mapping) return [];
  const labelOf = new Map(targets.map((target) => [target.field, target.label]));
  const mapped = Object.entries(mapping.field_mappings).map(([field, path]) => ({ field, label: labelOf.get(field) ?? field, path }));
  const absent = fieldsAbsentFrom(mapped, records);
  return absent.length ? [absentFieldsMessage(absent, records, { mapped })] : [];
}

export async function tryEndpoint(ctx: IntegrationsContext, input: IntegrationTryRequest): Promise<IntegrationTryResponse> {
  const config = await ctx.loadConfig();
  if (!config.inventory.entities.some((entity) => entity.name === input.target_entity)) {
    throw fieldError('target_entity', `No entity named '${input.target_entity}'.`);
  }
  const authHeader = await authHeaderOf(ctx, input);
  // The window a first run asks for: previous_days back from today in the integration's zone (or today alone).
  const window = usesWindow(input.endpoint)
    ? runWindow(
        {
          data_fetch_type: input.data_fetch_type ?? INTEGRATION_DEFAULTS.data_fetch_type,
          previous_days: input.previous_days ?? INTEGRATION_DEFAULTS.previous_days,
          initial_setup: input.initial_setup ?? INTEGRATION_DEFAULTS.initial_setup,
          initial_setup_done: false,
          last_success_time: null,
          time_zone: input.time_zone ?? INTEGRATION_DEFAULTS.time_zone,
        },
        new Date(),
      )
    : null;
  const endpoint = window ? endpointFor(input.endpoint, window) : input.endpoint;
  // Refused in the words saving uses; a redirect to a refused address is refused by the fetch itself.
  const refused = await addressProblem(new URL(endpoint), ctx.outbound.allowed);
  if (refused) throw fieldError('endpoint', refused);

  const page = await fetchFirstPage(
    // A person waits for the answer: a transient failure is said at once, not retried (they can try
    // again), but for a shop asking to wait a few seconds (a 429's short Retry-After), waited out once.
    { outbound: ctx.outbound, retries: 0, retryBaseDelayMs: 0, retryAfterAtMostMs: TRY_RETRY_AFTER_MAX_MS },
    {
      endpoint,
      // One request: the pace never waits.
      rateLimit: INTEGRATION_DEFAULTS.rate_limit,
      authHeader,
      pagination: input.pagination ?? INTEGRATION_DEFAULTS.pagination,
      page_parameter: input.page_parameter || INTEGRATION_DEFAULTS.page_parameter,
      records_path: input.records_path || null,
      next_field: input.next_field || INTEGRATION_DEFAULTS.next_field,
    },
  );
  const records = page.records.map((record) => record.value);
  const paths = leafPaths(records.slice(0, PATH_RECORDS));
  const previewed = await previewRecords(ctx.db, config, {
    entityType: input.target_entity,
    given: input.mapping ?? null,
    header: paths,
    records: records.map((value, at) => ({ row: at + 1, cells: null, value })),
    offerRowFilters: true,
    today: dayInTimeZone(Date.now(), input.time_zone ?? (await readTimeZone(ctx.db)) ?? INTEGRATION_DEFAULTS.time_zone),
    // The proposal is not saved yet: the way out names no mapping.
    unknownCodeWayOut: savedMappingWayOut(null),
  });
  // Lines are proposed while the records path reads whole orders, not once it reads their lines.
  const nested = input.records_path ? splitRecordsPath(input.records_path).inner !== null : false;
  const proposal = nested ? null : proposeLines(previewed.targets, records, page.outerPath);
  const mapped = input.mapping?.field_mappings ?? Object.fromEntries(Object.entries(previewed.proposed_mapping).filter((entry): entry is [string, string] => entry[1] !== null));
  return {
    record_count: records.length,
    paths: paths.map((path) => ({ path, samples: samplesOf(records, path) })),
    ...previewed,
    ...(previewed.proposed_row_filters ? { proposed_row_filters: previewed.proposed_row_filters.map(withLaterPagesStatuses) } : {}),
    // A run counts the records with nothing mapped among those skipped without a code (rows_skipped): Try counts them so too (ADR 0195 F5).
    ...(previewed.empty_lines ? { blank_code_lines: (previewed.blank_code_lines ?? 0) + previewed.empty_lines } : {}),
    records_path_proposal: proposal,
    warnings: [...absentWarnings(input.mapping, previewed.targets, records), ...positionWarnings(mapped, records, proposal)],
  };
}
