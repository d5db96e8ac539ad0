// The one error type of the API and the one place errors become answers. Every failure leaves as
// `{ detail, code, errors? }` with its HTTP status: bad input a 4xx naming the problem (PostgreSQL's
// own refusals included: 22xxx data errors 400, 23xxx constraint violations 409 in words), and
// anything else a 500 whose body is a stable message and an error id, never SQL text or a stack —
// those go to the log under the same id.
import { randomBytes } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody, ErrorCode } from '@stockwise/contract';
import { databaseErrorOf, isTransientConflict, type DatabaseError } from '../db/errors.ts';
import { decodeTableName } from '../tables/encoding.ts';

const statusOfCode: Record<ErrorCode, number> = {
  validation_error: 400,
  not_authenticated: 401,
  token_not_valid: 401,
  invalid_credentials: 401,
  registration_disabled: 403,
  forbidden: 403,
  password_change_required: 403,
  not_found: 404,
  username_taken: 409,
  conflict: 409,
  edit_conflict: 409,
  payload_too_large: 413,
  request_timeout: 408,
  throttled: 429,
  internal_error: 500,
};

/** What an edit_conflict answers besides its words: the thing as it is now, who changed it and when. */
export type ConflictFields = Pick<ErrorBody, 'current' | 'changed_by' | 'changed_at'>;

type AppErrorOptions = { fieldErrors?: Record<string, string[]>; headers?: Record<string, string>; status?: number; errorId?: string; conflict?: ConflictFields };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fieldErrors: Record<string, string[]> | undefined;
  readonly headers: Record<string, string>;
  readonly errorId: string | undefined;
  readonly conflict: ConflictFields | undefined;

  constructor(code: ErrorCode, detail: string, options: AppErrorOptions = {}) {
    super(detail);
    this.code = code;
    this.status = options.status ?? statusOfCode[code];
    this.fieldErrors = options.fieldErrors;
    this.headers = options.headers ?? {};
    this.errorId = options.errorId;
    this.conflict = options.conflict;
  }

  toBody(): ErrorBody {
    return {
      detail: this.message,
      code: this.code,
      ...(this.fieldErrors ? { errors: this.fieldErrors } : {}),
      ...(this.errorId ? { error_id: this.errorId } : {}),
      ...this.conflict,
    };
  }
}

export const validationError = (detail: string, fieldErrors?: Record<string, string[]>) =>
  new AppError('validation_error', detail, fieldErrors ? { fieldErrors } : {});
/**
 * A value a request or an endpoint sent, as a message echoes it: control characters (a NUL, a
 * terminal's escape, line breaks) and runs of spaces shown as one space, at most `max` characters.
 */
export function echoed(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- the point: control characters are never echoed
  const shown = text.replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, ' ').trim();
  return shown.length > max ? `${shown.slice(0, max).trimEnd()}…` : shown;
}

export const notFoundError = (detail = 'Not found.') => new AppError('not_found', detail);
export const conflictError = (detail: string) => new AppError('conflict', detail);

/** The answer to a failure nobody foresaw: a stable message and an id to find it in the log. */
export function internalError(): AppError {
  const errorId = randomBytes(6).toString('hex');
  return new AppError('internal_error', `Internal server error (error id ${errorId}); the details are in the server log.`, { errorId });
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL errors in words

/** A table as its users know it: the display name behind an encoded identifier. */
function tableWords(table: string | undefined): string {
  if (!table) return 'The table';
  try {
    return `'${decodeTableName(table)}'`;
  } catch {
    return `'${table}'`;
  }
}

const KEY_DETAIL = /^Key \((?<columns>.+)\)=\((?<values>.*)\) (?:already exists|is not present in table "(?<target>[^"]+)"|is still referenced from table "(?<source>[^"]+)")\.$/s;

/** The columns of the unique key a row broke (23505), as PostgreSQL names them; null for any other error. */
export function duplicateKeyColumns(error: DatabaseError): string[] | null {
  if (error.code !== '23505') return null;
  return KEY_DETAIL.exec(error.detail ?? '')?.groups?.columns?.split(', ') ?? null;
}

function constraintWords(error: DatabaseError): string {
  const table = tableWords(error.table);
  const key = KEY_DETAIL.exec(error.detail ?? '')?.groups;
  switch (error.code) {
    case '23505': {
      if (!key?.columns) return `${table} already has a row with these values: they must be unique.`;
      const columns = key.columns.split(', ');
      return columns.length === 1
        ? `${table} already has a row with ${key.columns} = ${key.values}: ${key.columns} must be unique.`
        : `${table} already has a row with (${key.columns}) = (${key.values}): ${columns.join(' and ')} must be unique together.`;
    }
    case '23503':
      if (key?.source) return `This row is still referred to by rows of ${tableWords(key.source)}; delete or change those first.`;
      if (key?.target) return `${table}: ${key.columns} = ${key.values} refers to a row of ${tableWords(key.target)} that does not exist.`;
      return `${table}: a reference to another row does not hold (rule ${error.constraint ?? 'unknown'}).`;
    case '23502':
      return `${table}: ${error.column ?? 'a column'} is required.`;
    case '23514': {
      // PostgreSQL names a column's check `<table>_<column>_check`.
      const prefix = `${error.table ?? ''}_`;
      const named = error.constraint?.startsWith(prefix) && error.constraint.endsWith('_check');
      const column = named ? error.constraint?.slice(prefix.length, -'_check'.length) : undefined;
      return column
        ? `${table}: this value of ${column} is not allowed (rule ${error.constraint}).`
        : `${table}: a value is not allowed (rule ${error.constraint ?? 'unknown'}).`;
    }
    case '23P01':
      return `${table}: the row overlaps another one (rule ${error.constraint ?? 'unknown'}).`;
    default:
      return `${table}: the change breaks the rule ${error.constraint ?? error.code}.`;
  }
}

const DATA_ERROR_WORDS: Record<string, string> = {
  '22001': 'A value is too long for its column',
  '22003': 'A number is out of range',
  '22007': 'A date or time has the wrong format',
  '22008': 'A date or time is out of range',
  '22012': 'A calculation divided by zero',
  '22021': 'Text holds a character the database cannot store',
  '22P02': 'A value has the wrong format',
  '22P05': 'Text holds a character the database cannot store',
};

/** The 4xx a PostgreSQL error stands for, or null when it is the server's own failure (a 500). */
export function fromDatabaseError(error: DatabaseError): AppError | null {
  const errorClass = error.code.slice(0, 2);
  if (errorClass === '22') return validationError(`${DATA_ERROR_WORDS[error.code] ?? 'A value is not valid'} (${error.message}).`);
  if (errorClass === '23') return conflictError(constraintWords(error));
  if (error.code === '54000') return validationError('A value is too large for the database to store or index.');
  if (isTransientConflict(error)) return conflictError('The database was busy with a conflicting change, and the request was not completed: try again.');
  return null;
}

// ---------------------------------------------------------------------------------------------
// Fastify's own errors

function fieldErrorsOf(error: FastifyError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!hasZodFastifySchemaValidationErrors(error)) return errors;
  for (const issue of error.validation) {
    const field = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || 'non_field_errors';
    (errors[field] ??= []).push(issue.message ?? 'Invalid value.');
  }
  return errors;
}

const codeOfClientStatus = (status: number): ErrorCode => {
  switch (status) {
    case 401:
      return 'not_authenticated';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 429:
      return 'throttled';
    default:
      return 'validation_error';
  }
};

function fromFastifyError(error: FastifyError): AppError | null {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors = fieldErrorsOf(error);
    const summary = Object.entries(errors).map(([field, messages]) => `${field}: ${messages.join(' ')}`).join('; ');
    return validationError(`Invalid request: ${summary}`, errors);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return validationError('The request body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return validationError('Unsupported content type: send application/json.');
    case 'FST_ERR_BAD_URL':
      return validationError('The request path is not valid (a broken %-encoding?).');
    default:
      break;
  }
  // Errors of plugins that already chose a client status (@fastify/static's 403, multipart limits, …) keep it.
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = codeOfClientStatus(status);
    return new AppError(code, status === 404 ? 'Not found.' : error.message || 'The request was refused.', { status });
  }
  return null;
}

/** What any thrown value answers: a 4xx when it stands for bad input, else null (a 500). */
export function clientErrorOf(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  const database = databaseErrorOf(error);
  if (database) return fromDatabaseError(database);
  return fromFastifyError(error as FastifyError);
}

// Sent as text: a route's response schema for the status (the import's 400, say) must not turn
// an error body it did not foresee into a serialisation failure.
function send(reply: FastifyReply, appError: AppError) {
  return reply.status(appError.status).headers(appError.headers).type('application/json; charset=utf-8').send(JSON.stringify(appError.toBody()));
}

function answer(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const clientError = isResponseSerializationError(error) ? null : clientErrorOf(error);
  if (clientError && clientError.status < 500) return send(reply, clientError);
  const internal = internalError();
  request.log.error({ err: error, error_id: internal.errorId }, 'request failed');
  return send(reply, internal);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => answer(error, request, reply));
}

/** Fastify's `frameworkErrors` option: errors raised before routing (a broken URL) in the one shape. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  answer(error, request, reply);
}
