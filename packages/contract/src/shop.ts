// The shop's own settings (docs/api.md "Shop"): its currency, which every money figure the screens
// show carries once an administrator has chosen one (ADR 0166), and the days it will be closed on,
// which the forecast sells nothing on (ADR 0171), and its time zone, whose today the forecast starts
// on (ADR 0173).
import { z } from 'zod';
import { dateRuleProblem } from './date-rules.ts';
import { isIsoDay } from './dates.ts';
import { storableText } from './text.ts';
import { readTypedDay, typedFilterProblemText } from './typed-values.ts';

/** Whether `code` is an ISO 4217 currency code the runtime can format (USD, GBP, EUR, AUD). */
export const isCurrencyCode = (code: string): boolean => Intl.supportedValuesOf('currency').includes(code);

const unknownCurrency = 'Choose a currency by its ISO 4217 code, such as USD, GBP, EUR or AUD.';

/** A day the shop is closed on (YYYY-MM-DD) and, if given, why: "Bank holiday (substitute)", "Stock-take". */
export const shopClosedDate = z.object({ date: z.string(), note: z.string().nullable() });
export type ShopClosedDate = z.infer<typeof shopClosedDate>;

/**
 * The shop's settings: `currency` null until an administrator picks one (money then shows as bare
 * figures); `closedDates` by date, past ones kept until removed (they tell the forecast that a
 * day's empty till was no lack of demand). `currencyVersion` and `closedDatesVersion`: each panel's
 * count of saves ("0" before the first), sent back as `If-Match` with its `PUT`, so a save over
 * another administrator's since is refused (ADR 0168's amendment "the shop's settings").
 * `timeZone` the IANA zone an administrator chose, null for none; `timeZoneInEffect` the zone whose
 * today the forecast starts on — the chosen one, or the server's (`timeZoneSource` 'server') while
 * none is chosen (ADR 0173); `timeZoneVersion` its panel's count of saves.
 */
export const shopSettings = z.object({
  currency: z.string().nullable(),
  currencyVersion: z.string(),
  closedDates: z.array(shopClosedDate),
  closedDatesVersion: z.string(),
  timeZone: z.string().nullable(),
  timeZoneVersion: z.string(),
  timeZoneInEffect: z.string(),
  timeZoneSource: z.enum(['shop', 'server']),
});
export type ShopSettings = z.infer<typeof shopSettings>;

/** A change of the shop's settings: a known currency code (any case), or null for bare figures again. */
export const shopSettingsUpdate = z.object({
  currency: z.string().trim().toUpperCase().refine(isCurrencyCode, unknownCurrency).nullable(),
});
export type ShopSettingsUpdate = z.infer<typeof shopSettingsUpdate>;

/**
 * The IANA name of the zone `name` names (any case: europe/london is Europe/London; an old alias its
 * current name, as the runtime resolves it), or null when it is none — an unknown name, or a bare
 * offset such as +05:00, which keeps no summer time.
 */
export function shopTimeZoneName(name: string): string | null {
  try {
    const zone = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
    return /^[+-]/.test(zone) ? null : zone;
  } catch {
    return null;
  }
}

export const MAX_TIME_ZONE_NAME = 64;
const unknownShopTimeZone = 'Choose a time zone by its IANA name, such as Europe/London or America/Chicago.';

/** A change of the shop's time zone: a zone's IANA name (any case), or null for the server's again. */
export const shopTimeZoneUpdate = z.object({
  timeZone: storableText()
    .trim()
    .max(MAX_TIME_ZONE_NAME, { error: unknownShopTimeZone, abort: true })
    .refine((name) => shopTimeZoneName(name) !== null, unknownShopTimeZone)
    .nullable(),
});
export type ShopTimeZoneUpdate = z.infer<typeof shopTimeZoneUpdate>;

/** A year of closed days and one more: a shop closed on more days than that is closed. */
export const MAX_CLOSED_DATES = 366;
export const MAX_CLOSED_DATE_NOTE = 100;

/** Why `date` cannot be a day the shop is closed on (not an ISO day, no real day, a year mistyped), or null. */
export function closedDateProblem(date: string): string | null {
  if (!isIsoDay(date)) return `'${date}' is not a date: write it as YYYY-MM-DD, such as 2026-12-28.`;
  const read = readTypedDay(date);
  if ('problem' in read) return typedFilterProblemText(read);
  return dateRuleProblem('planned', date);
}

/** The days the shop is closed on, all of them (the list replaces the saved one); a date given twice counts once. */
export const shopClosedDatesUpdate = z.object({
  closedDates: z
    .array(
      z.object({
        date: z.string().trim().check((context) => {
          const problem = closedDateProblem(context.value);
          if (problem) context.issues.push({ code: 'custom', message: problem, input: context.value });
        }),
        note: storableText().trim().max(MAX_CLOSED_DATE_NOTE).nullish(),
      }),
    )
    .max(MAX_CLOSED_DATES, `At most ${MAX_CLOSED_DATES} closed days: remove past ones first.`),
});
export type ShopClosedDatesUpdate = z.infer<typeof shopClosedDatesUpdate>;
