// A feature's context as one request sees it: its "today" is the viewer's day, in the time zone the
// browser sent (`time_zone`), so "this month" in Ohio at 8 pm is not tomorrow's yet (ADR 0030).
import { sentTimeZone } from '../import/field-values.ts';

/** `ctx` with the request's time zone (checked: 400 naming it when it is none; none sent: UTC). */
export const inViewerDay = <Context extends object>(ctx: Context, timeZone: string | undefined): Context & { timeZone: string | undefined } => ({ ...ctx, timeZone: sentTimeZone(timeZone) });
