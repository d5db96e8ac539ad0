// The one error body every endpoint answers with (DESIGN.md: `{ detail, code, ...fields }`).
import { z } from 'zod';

export const errorCodes = [
  'validation_error',
  'not_authenticated',
  'token_not_valid',
  'invalid_credentials',
  'throttled',
  'registration_disabled',
  'forbidden',
  /** The account still has a starting password an administrator gave it (403, ADR 0151). */
  'password_change_required',
  'username_taken',
  'not_found',
  'conflict',
  /**
   * An update or delete sent with `If-Match` a version the row or report no longer has: someone
   * saved it after the sender read it (409, ADR 0168). The body names who and when where known.
   */
  'edit_conflict',
  'payload_too_large',
  /** An upload that stalled or took too long (408). */
  'request_timeout',
  'internal_error',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const errorBody = z.object({
  detail: z.string(),
  code: z.enum(errorCodes),
  /** Field name -> messages, for validation errors. */
  errors: z.record(z.string(), z.array(z.string())).optional(),
  /** On a 500: the id the server logged the failure under (the body never carries its details). */
  error_id: z.string().optional(),
  /** On an edit_conflict: the row, report or integration as it is now (its `_version` or `version` the one to send next). */
  current: z.record(z.string(), z.unknown()).optional(),
  /** On an edit_conflict: who saved the change the sender had not seen, and when (ISO); null when not known (an import, an integration run, an integration's pause). */
  changed_by: z.string().nullable().optional(),
  changed_at: z.string().nullable().optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;
