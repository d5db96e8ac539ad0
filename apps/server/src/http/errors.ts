// The one error type of the API. Every failure leaves as `{ detail, code, errors? }` with its HTTP status.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody, ErrorCode } from '@stockwise/contract';

const statusOfCode: Record<ErrorCode, number> = {
  validation_error: 400,
  not_authenticated: 401,
  token_not_valid: 401,
  invalid_credentials: 401,
  registration_disabled: 403,
  forbidden: 403,
  not_found: 404,
  username_taken: 409,
  conflict: 409,
  payload_too_large: 413,
  request_timeout: 408,
  throttled: 429,
  internal_error: 500,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fieldErrors: Record<string, string[]> | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, detail: string, options: { fieldErrors?: Record<string, string[]>; headers?: Record<string, string> } = {}) {
    super(detail);
    this.code = code;
    this.status = statusOfCode[code];
    this.fieldErrors = options.fieldErrors;
    this.headers = options.headers ?? {};
  }

  toBody(): ErrorBody {
    return { detail: this.message, code: this.code, ...(this.fieldErrors ? { errors: this.fieldErrors } : {}) };
  }
}

export const validationError = (detail: string, fieldErrors?: Record<string, string[]>) =>
  new AppError('validation_error', detail, fieldErrors ? { fieldErrors } : {});
export const notFoundError = (detail = 'Not found.') => new AppError('not_found', detail);

function fieldErrorsOf(error: FastifyError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!hasZodFastifySchemaValidationErrors(error)) return errors;
  for (const issue of error.validation) {
    const field = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || 'non_field_errors';
    (errors[field] ??= []).push(issue.message ?? 'Invalid value.');
  }
  return errors;
}

function fromFastifyError(error: FastifyError): AppError {
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
    default:
      break;
  }
  const status = error.statusCode ?? 500;
  if (status === 400 || status === 415 || status === 422) return validationError(error.message);
  if (status === 413) return new AppError('payload_too_large', 'The request body is too large.');
  if (status === 404) return notFoundError();
  return new AppError('internal_error', 'Internal server error.');
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = error instanceof AppError ? error : fromFastifyError(error);
    if (appError.status >= 500 || isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'request failed');
    }
    return reply.status(appError.status).headers(appError.headers).send(appError.toBody());
  });
}
