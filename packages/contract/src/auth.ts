// Sign-in, token refresh and registration (spec §6-§8).
import { z } from 'zod';

export const passwordPolicy = { minLength: 8, maxLength: 128 } as const;
export const usernamePattern = /^[A-Za-z0-9_.@+-]+$/;

export const tokenRequest = z.strictObject({
  username: z.string().min(1, 'This field may not be blank.').max(150),
  password: z.string().min(1, 'This field may not be blank.').max(passwordPolicy.maxLength),
});
export type TokenRequest = z.infer<typeof tokenRequest>;

export const tokenPair = z.object({ access: z.string(), refresh: z.string() });
export type TokenPair = z.infer<typeof tokenPair>;

export const refreshRequest = z.strictObject({ refresh: z.string().min(1, 'This field may not be blank.').max(200) });
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
  password: z
    .string()
    .min(passwordPolicy.minLength, `Ensure this field has at least ${passwordPolicy.minLength} characters.`)
    .max(passwordPolicy.maxLength, `Ensure this field has no more than ${passwordPolicy.maxLength} characters.`),
  email: z.email('Enter a valid email address.').max(254).optional().or(z.literal('')),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

export const account = z.object({ id: z.number().int(), username: z.string(), email: z.string().nullable() });
export type Account = z.infer<typeof account>;
