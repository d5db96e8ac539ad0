// Error normalisation (spec §8): every failed call becomes one NormalizedError.
import { isAxiosError } from 'axios';
import { i18n } from '../i18n.ts';

export type NormalizedErrorCode =
  | 'NETWORK_ERROR'
  | 'TIMEOUT_ERROR'
  | 'REQUEST_SETUP_ERROR'
  | 'SESSION_EXPIRED'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | `HTTP_${number}`
  | (string & {});

export type NormalizedErrorDetails = {
  /** HTTP status of the answer; null when there was none. */
  status: number | null;
  /** The parsed answer body, as the server sent it. */
  body: unknown;
  /** Field name -> messages, from a validation answer's `errors`. */
  fieldErrors: Record<string, string[]>;
  /** What the transport said when there was no answer (e.g. `connect ECONNREFUSED`). */
  cause: string | null;
};

export type NormalizedError = {
  message: string;
  code: NormalizedErrorCode;
  details: NormalizedErrorDetails;
  endpoint: string;
  method: string;
  timestamp: string;
};

const timeoutCodes = new Set(['ECONNABORTED', 'ETIMEDOUT']);

export function isNormalizedError(value: unknown): value is NormalizedError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as NormalizedError).message === 'string' &&
    typeof (value as NormalizedError).code === 'string' &&
    typeof (value as NormalizedError).timestamp === 'string' &&
    'details' in value
  );
}

function stringField(body: unknown, field: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[field];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function fieldErrorsOf(body: unknown): Record<string, string[]> {
  if (typeof body !== 'object' || body === null) return {};
  const errors = (body as Record<string, unknown>)['errors'];
  if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) return {};
  const result: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors)) {
    if (Array.isArray(messages)) result[field] = messages.filter((m): m is string => typeof m === 'string');
    else if (typeof messages === 'string') result[field] = [messages];
  }
  return result;
}

export function codeForStatus(status: number): NormalizedErrorCode {
  switch (status) {
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    default:
      return `HTTP_${status}`;
  }
}

type RequestInfo = { endpoint: string; method: string };

export function makeError(
  code: NormalizedErrorCode,
  message: string,
  request: RequestInfo,
  details: Partial<NormalizedErrorDetails> = {},
): NormalizedError {
  return {
    message,
    code,
    details: { status: null, body: null, fieldErrors: {}, cause: null, ...details },
    endpoint: request.endpoint,
    method: request.method,
    timestamp: new Date().toISOString(),
  };
}

export function sessionExpiredError(request: RequestInfo, cause?: NormalizedError): NormalizedError {
  return makeError('SESSION_EXPIRED', i18n.t('errors.sessionExpired'), request, {
    status: cause?.details.status ?? null,
    body: cause?.details.body ?? null,
    cause: cause ? `${cause.code}: ${cause.message}` : null,
  });
}

/** Turns anything a call can throw into the spec's normalized error. */
export function normalizeError(error: unknown): NormalizedError {
  if (isNormalizedError(error)) return error;
  if (!isAxiosError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return makeError('REQUEST_SETUP_ERROR', message, { endpoint: '', method: '' });
  }
  const request: RequestInfo = {
    endpoint: error.config?.url ?? '',
    method: (error.config?.method ?? '').toUpperCase(),
  };
  if (error.response) {
    const { status, data } = error.response;
    const code = stringField(data, 'code') ?? stringField(data, 'error_code') ?? codeForStatus(status);
    const message =
      stringField(data, 'detail') ??
      stringField(data, 'message') ??
      stringField(data, 'error') ??
      i18n.t('errors.serverStatus', { status });
    return makeError(code, message, request, { status, body: data ?? null, fieldErrors: fieldErrorsOf(data) });
  }
  if (error.code !== undefined && timeoutCodes.has(error.code)) {
    return makeError('TIMEOUT_ERROR', i18n.t('errors.timeout'), request, { cause: error.message });
  }
  if (error.request) {
    return makeError('NETWORK_ERROR', i18n.t('errors.network'), request, { cause: error.message });
  }
  return makeError('REQUEST_SETUP_ERROR', error.message, request, { cause: error.message });
}
