import { dayInTimeZone } from '@stockwise/contract';

// The shop's day is the viewer's: the browser's time zone goes with every request whose "today"
// matters — what a write records, what an import's dates may be, what a report's or the
// assistant's "this month" means (ADR 0030).

/** The browser's time zone (an IANA name). */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A request's query naming the browser's time zone, whose day is today for the server. */
export const inShopDay = () => ({ params: { time_zone: browserTimeZone() } });

/** Today in the browser's time zone (YYYY-MM-DD): the viewer's day, which an order-by day is due by. */
export const viewerToday = () => dayInTimeZone(Date.now(), browserTimeZone());

/** The shop's day now (YYYY-MM-DD) in its zone in effect (`GET /api/shop/`, ADR 0173); this browser's until the settings are read. */
export const shopToday = (zoneInEffect: string | null) => dayInTimeZone(Date.now(), zoneInEffect ?? browserTimeZone());
