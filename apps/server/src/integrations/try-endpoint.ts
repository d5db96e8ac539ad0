// Trying an endpoint before an integration is saved (POST /api/integrations/try/): its first page,
// fetched as a run fetches it (run.ts, under the same outbound rules), read as the import's file
// preview reads a JSON file (import/preview.ts): the paths its records hold, a mapping proposed from
// their names, and the first records typed by that mapping or the one sent. Nothing is written.
import { dayInTimeZone, INTEGRATION_DEFAULTS, MASKED_SECRET, readMappedPath, type IntegrationTryRequest, type IntegrationTryResponse } from '@stockwise/contract';
import { notFoundError, validationError } from '../http/errors.ts';
import { addressProblem } from '../http/outbound.ts';
import { asSourceValue, leafPaths, previewRecords } from '../import/preview.ts';
import * as repo from './repo.ts';
import { endpointFor, fetchFirstPage, runWindow, usesWindow } from './run.ts';
import type { IntegrationsContext } from './service.ts';

/** Records whose paths are listed (as the file preview lists a JSON file's keys). */
const PATH_RECORDS = 50;
/** Different values shown for each path. */
const SAMPLES_PER_PATH = 3;

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

  const records = await fetchFirstPage(
    // A person waits for the answer: a transient failure is said at once, not retried (they can try again).
    { outbound: ctx.outbound, retries: 0, retryBaseDelayMs: 0 },
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
  const paths = leafPaths(records.slice(0, PATH_RECORDS));
  const previewed = await previewRecords(ctx.db, config, {
    entityType: input.target_entity,
    given: input.mapping ?? null,
    header: paths,
    records: records.map((value, at) => ({ row: at + 1, cells: null, value })),
    today: dayInTimeZone(Date.now(), input.time_zone ?? INTEGRATION_DEFAULTS.time_zone),
  });
  return { record_count: records.length, paths: paths.map((path) => ({ path, samples: samplesOf(records, path) })), ...previewed };
}
