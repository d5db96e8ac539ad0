// The integration editor's form: a draft from a saved integration or the spec §5 defaults, the
// payload saving sends (spec §5: rate_limit 60, batch_size 100 and previous_days null when unset),
// the schedule in words, and the save error with its field errors appended (spec §8).
import cronstrue from 'cronstrue';
import type { TFunction } from 'i18next';
import { frequencyCron, INTEGRATION_DEFAULTS, MAX_BATCH_SIZE, MAX_PREVIOUS_DAYS, MAX_RATE_LIMIT, type EntityMapping, type Integration, type IntegrationInput, type IntegrationTryRequest, type ScheduleFrequency } from '@stockwise/contract';

export type IntegrationDraft = Required<Omit<IntegrationInput, 'previous_days' | 'rate_limit' | 'batch_size'>> & {
  previous_days: number | null;
  rate_limit: number | null;
  batch_size: number | null;
};

/** The zone this browser is in: a shop's schedule runs in its own hours ("daily" at its midnight). */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || INTEGRATION_DEFAULTS.time_zone;

/** Every zone the browser knows, with `current` first when it is not among them (an older name). */
export function timeZoneChoices(current: string): string[] {
  const known = Intl.supportedValuesOf('timeZone');
  return known.includes(current) ? known : [current, ...known];
}

/** Spec §5: disabled, hourly, upsert, latest, no initial setup, 60 a minute, 100 a batch, the first mapping; the shop's time zone, the browser's while it chose none (ADR 0173). */
export function newIntegrationDraft(firstMapping: string | null, entitiesOf: (mapping: string) => string[], shopTimeZone: string | null = null): IntegrationDraft {
  const mapping = firstMapping ?? '';
  return {
    enabled: INTEGRATION_DEFAULTS.enabled,
    endpoint: '',
    schedule_frequency: INTEGRATION_DEFAULTS.schedule_frequency,
    cron_expression: null,
    time_zone: shopTimeZone ?? browserTimeZone(),
    mapping_selection: mapping,
    target_entity: entitiesOf(mapping)[0] ?? '',
    data_action: INTEGRATION_DEFAULTS.data_action,
    data_fetch_type: INTEGRATION_DEFAULTS.data_fetch_type,
    previous_days: INTEGRATION_DEFAULTS.previous_days,
    initial_setup: INTEGRATION_DEFAULTS.initial_setup,
    rate_limit: INTEGRATION_DEFAULTS.rate_limit,
    batch_size: INTEGRATION_DEFAULTS.batch_size,
    records_path: null,
    pagination: INTEGRATION_DEFAULTS.pagination,
    next_field: INTEGRATION_DEFAULTS.next_field,
    page_parameter: INTEGRATION_DEFAULTS.page_parameter,
    auth_header_name: null,
    auth_header_value: null,
  };
}

export function draftOf(integration: Integration): IntegrationDraft {
  const { id: _id, schedule_cron: _cron, status: _status, last_run_time: _last, next_run_time: _next, last_success_time: _success, last_error_message: _error, consecutive_failures: _failures, last_run_rejected: _rejected, last_run_warning: _warning, last_run_kept_message: _kept, last_run_summary: _summary, run_progress: _progress, created_at: _created, updated_at: _updated, version: _version, ...editable } = integration;
  return editable;
}

const countLimits = { previous_days: MAX_PREVIOUS_DAYS, rate_limit: MAX_RATE_LIMIT, batch_size: MAX_BATCH_SIZE } as const;

/**
 * The counts of a draft outside 1 to their maximum, each with `rangeMessage(max)`: refused before
 * sending, not moved into range behind the user's back (a batch size of 0 is not 1). Empty ones take the defaults.
 */
export function countProblems(draft: IntegrationDraft, rangeMessage: (max: number) => string): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  for (const [field, max] of Object.entries(countLimits) as [keyof typeof countLimits, number][]) {
    const value = draft[field];
    if (value !== null && !(Number.isInteger(value) && value >= 1 && value <= max)) problems[field] = [rangeMessage(max)];
  }
  return problems;
}

/** What saving sends: the draft, with the spec §5 fills for unset numbers. */
export function toSavePayload(draft: IntegrationDraft): IntegrationInput {
  const blank = (value: string | null) => (value && value.trim() ? value.trim() : null);
  return {
    ...draft,
    endpoint: draft.endpoint.trim(),
    cron_expression: draft.schedule_frequency === 'custom' ? blank(draft.cron_expression) : null,
    rate_limit: draft.rate_limit ?? INTEGRATION_DEFAULTS.rate_limit,
    batch_size: draft.batch_size ?? INTEGRATION_DEFAULTS.batch_size,
    previous_days: draft.previous_days ?? null,
    records_path: blank(draft.records_path),
    next_field: blank(draft.next_field) ?? INTEGRATION_DEFAULTS.next_field,
    page_parameter: blank(draft.page_parameter) ?? INTEGRATION_DEFAULTS.page_parameter,
    auth_header_name: blank(draft.auth_header_name),
    auth_header_value: draft.auth_header_value === '' ? null : draft.auth_header_value,
  };
}

/**
 * What trying the endpoint sends: the draft's request settings as saving would send them, the
 * entity to map onto, the integration being edited (whose stored auth header the mask stands for),
 * and a mapping to try.
 */
export function toTryPayload(draft: IntegrationDraft, entity: string, integrationId: number | null, mapping: EntityMapping | null): IntegrationTryRequest {
  const { endpoint, time_zone, data_fetch_type, previous_days, initial_setup, records_path, pagination, next_field, page_parameter, auth_header_name, auth_header_value } = toSavePayload(draft);
  return {
    endpoint: endpoint ?? '',
    target_entity: entity,
    time_zone,
    data_fetch_type,
    previous_days,
    initial_setup,
    records_path,
    pagination,
    next_field,
    page_parameter,
    auth_header_name,
    auth_header_value,
    ...(integrationId === null ? {} : { integration_id: integrationId }),
    ...(mapping ? { mapping } : {}),
  };
}

/** The cron expression a frequency runs on (in the integration's time zone). */
export const cronOf = (frequency: ScheduleFrequency, custom: string | null) => (frequency === 'custom' ? (custom ?? '') : frequencyCron[frequency]);

/** A cron expression in words ("At 06:30, Monday through Friday"), or null when it cannot be read. */
export function scheduleInWords(cron: string): string | null {
  if (cron.trim().split(/\s+/).length !== 5) return null;
  try {
    return cronstrue.toString(cron, { use24HourTimeFormat: true, throwExceptionOnParseError: true, locale: 'en' });
  } catch {
    return null;
  }
}

/** The editor's label (integrations.editor.*) of each field the server may name. */
const EDITOR_LABEL_KEYS: Record<string, string> = {
  endpoint: 'endpoint',
  schedule_frequency: 'schedule',
  cron_expression: 'cron',
  time_zone: 'timeZone',
  mapping_selection: 'mapping',
  target_entity: 'target',
  data_action: 'dataAction',
  data_fetch_type: 'fetchType',
  previous_days: 'previousDays',
  initial_setup: 'initialSetup',
  rate_limit: 'rateLimit',
  batch_size: 'batchSize',
  records_path: 'recordsPath',
  pagination: 'pagination',
  next_field: 'nextField',
  page_parameter: 'pageParameter',
  auth_header_name: 'authName',
  auth_header_value: 'authValue',
  enabled: 'enabled',
};

/**
 * Spec §8: 'Failed to save integration' with the field errors appended, each by the label the user
 * sees on the field ("Batch size: …", not "batch_size: …"), without its explanation in brackets.
 */
export function saveErrorMessage(base: string, fieldErrors: Record<string, string[]>, t: TFunction): string {
  const labelOf = (field: string) => {
    const key = EDITOR_LABEL_KEYS[field];
    return key ? t(`integrations.editor.${key}`).replace(/\s*[(:].*$/, '') : field;
  };
  const fields = Object.entries(fieldErrors).map(([field, messages]) => `${labelOf(field)}: ${messages.join(' ')}`);
  return fields.length ? `${base}: ${fields.join('; ')}` : base;
}

/**
 * The Authorization value of HTTP Basic auth from a user name and password — a WooCommerce shop's
 * consumer key and secret (`ck_…`, `cs_…`): `Basic ` and base64 of `key:secret` in UTF-8.
 */
export function basicAuthValue(user: string, secret: string): string {
  const bytes = new TextEncoder().encode(`${user}:${secret}`);
  return `Basic ${btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(''))}`;
}
