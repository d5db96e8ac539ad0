// Moments as every screen shows them (import and integration runs, reports, sessions, users).
import { formatMoment } from '@stockwise/contract';

/** A run's or a session's moment, day first as the app writes days, to the second, on the viewer’s clock: "7 Dec 2026, 3:04:05 PM" or "7 Dec 2026, 15:04:05". */
export const formatTime = (iso: string | null) => (iso ? formatMoment(iso, true) : '');
