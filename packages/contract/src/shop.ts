// The shop's own settings (docs/api.md "Shop"; ADR 0166): for now its currency, which every money
// figure the screens show carries once an administrator has chosen one.
import { z } from 'zod';

/** Whether `code` is an ISO 4217 currency code the runtime can format (USD, GBP, EUR, AUD). */
export const isCurrencyCode = (code: string): boolean => Intl.supportedValuesOf('currency').includes(code);

const unknownCurrency = 'Choose a currency by its ISO 4217 code, such as USD, GBP, EUR or AUD.';

/** The shop's settings: `currency` null until an administrator picks one (money then shows as bare figures). */
export const shopSettings = z.object({ currency: z.string().nullable() });
export type ShopSettings = z.infer<typeof shopSettings>;

/** A change of the shop's settings: a known currency code (any case), or null for bare figures again. */
export const shopSettingsUpdate = z.object({
  currency: z.string().trim().toUpperCase().refine(isCurrencyCode, unknownCurrency).nullable(),
});
export type ShopSettingsUpdate = z.infer<typeof shopSettingsUpdate>;
