// Sign-in, token refresh and registration (spec §6-§8).
import { z } from 'zod';
import { dateOrderPreferences } from './date-order.ts';
import { storableText } from './text.ts';

export const passwordPolicy = { minLength: 8, maxLength: 128 } as const;
export const usernamePattern = /^[A-Za-z0-9_.@+-]+$/;

export const tokenRequest = z.strictObject({
  username: storableText().min(1, 'This field may not be blank.').max(150),
  password: storableText().min(1, 'This field may not be blank.').max(passwordPolicy.maxLength),
});
export type TokenRequest = z.infer<typeof tokenRequest>;

export const tokenPair = z.object({ access: z.string(), refresh: z.string() });
export type TokenPair = z.infer<typeof tokenPair>;

/** The shape of a refresh token: 32 random bytes, base64url. */
export const refreshTokenPattern = /^[A-Za-z0-9_-]{43}$/;

export const refreshRequest = z.strictObject({
  refresh: storableText().min(1, 'This field may not be blank.').max(200),
  /**
   * The refresh token the client wants next (ADR 0013): it keeps it before asking, so a rotation
   * whose answer is lost (the page reloaded) still left the client holding the live token.
   */
  next_refresh: z.string().regex(refreshTokenPattern, 'Use 32 random bytes, base64url-encoded (43 characters).').optional(),
});
export type RefreshRequest = z.infer<typeof refreshRequest>;

/** The spec names only `access`; the rotated refresh token comes with it. */
export const refreshResponse = tokenPair;

// Unknown fields (is_staff, id, ...) are stripped, never assigned: zod's default object strips them.
export const registerRequest = z.object({
  username: z
    .string()
    .trim()
    .min(1, 'This field may not be blank.')
    .max(150, 'Ensure this field has no more than 150 characters.')
    .regex(usernamePattern, 'Use letters, digits and @ . + - _ only.'),
  password: storableText()
    .min(passwordPolicy.minLength, `Ensure this field has at least ${passwordPolicy.minLength} characters.`)
    .max(passwordPolicy.maxLength, `Ensure this field has no more than ${passwordPolicy.maxLength} characters.`),
  email: z.email('Enter a valid email address.').max(254).optional().or(z.literal('')),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

/**
 * What the sign-in page needs on a new server: whether no account exists yet (the page then offers
 * to create the first one, an administrator) and whether registration is on at all.
 */
export const firstRun = z.object({ first_account_needed: z.boolean(), registration_enabled: z.boolean() });
export type FirstRun = z.infer<typeof firstRun>;

/**
 * What an account may do, lowest first; each role includes the ones before it. A self-registered
 * account is `pending` until an administrator approves it: it can sign in but reads no data.
 */
export const roles = ['pending', 'viewer', 'editor', 'admin'] as const;
export const role = z.enum(roles);
export type Role = z.infer<typeof role>;

/** True when `granted` is at least `required`. */
export const roleAllows = (granted: Role, required: Role) => roles.indexOf(granted) >= roles.indexOf(required);

export const account = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string().nullable(),
  role,
  /** The password is a starting one an administrator gave: until it is changed, only the account's own routes answer. */
  must_change_password: z.boolean(),
});
export type Account = z.infer<typeof account>;

export const dateOrderPreference = z.enum(dateOrderPreferences);
/** The signed-in account as it reads itself (`GET /api/accounts/me/`): with its own preferences. */
export const ownAccount = account.extend({
  /** How the person writes dates with numbers alone: `browser` (their browser's language), `day-first` or `month-first`. */
  date_order: dateOrderPreference,
});
export type OwnAccount = z.infer<typeof ownAccount>;
/** A person changes their own preferences (`PUT /api/accounts/me/preferences/`). */
export const preferencesRequest = z.strictObject({ date_order: dateOrderPreference });
export type PreferencesRequest = z.infer<typeof preferencesRequest>;

/** An account as the users page lists it. */
export const userSummary = account.extend({
  disabled: z.boolean(),
  created_at: z.string(),
  last_sign_in_at: z.string().nullable(),
});
export type UserSummary = z.infer<typeof userSummary>;
export const userList = z.object({ results: z.array(userSummary) });
export type UserList = z.infer<typeof userList>;

/** The roles an administrator may give an account they add: it is approved from the start. */
export const approvedRoles = ['viewer', 'editor', 'admin'] as const satisfies readonly Role[];
/** An administrator adds a colleague: the registration's fields and rules, and the role to give. */
export const createUserRequest = registerRequest.extend({ role: z.enum(approvedRoles).default('viewer') });
export type CreateUserRequest = z.infer<typeof createUserRequest>;

export const userIdParams = z.object({ id: z.coerce.number().int().positive().max(2 ** 53 - 1) });
export const changeRoleRequest = z.strictObject({ role });
export type ChangeRoleRequest = z.infer<typeof changeRoleRequest>;
export const setDisabledRequest = z.strictObject({ disabled: z.boolean() });
export type SetDisabledRequest = z.infer<typeof setDisabledRequest>;
/** An administrator gives an account a new starting password (its owner forgot theirs). */
export const resetPasswordRequest = z.strictObject({ password: registerRequest.shape.password });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

/** One sign-in of the account (a refresh-token family), as the profile lists it. */
export const sessionSummary = z.object({
  id: z.string(),
  started_at: z.string(),
  last_used_at: z.string(),
  user_agent: z.string().nullable(),
  /** The session of the access token that asked. */
  current: z.boolean(),
});
export type SessionSummary = z.infer<typeof sessionSummary>;
export const sessionList = z.object({ results: z.array(sessionSummary) });
export type SessionList = z.infer<typeof sessionList>;
export const sessionIdParams = z.object({ id: z.uuid('Not a session id.') });
export const revokedSessions = z.object({ revoked: z.number().int() });
export type RevokedSessions = z.infer<typeof revokedSessions>;

export const logoutRequest = refreshRequest;
export type LogoutRequest = z.infer<typeof logoutRequest>;

export const changePasswordRequest = z.strictObject({
  old_password: storableText().min(1, 'This field may not be blank.').max(passwordPolicy.maxLength),
  new_password: registerRequest.shape.password,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;
