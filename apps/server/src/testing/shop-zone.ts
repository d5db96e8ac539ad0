// The shop's time zone in a settings answer while no administrator chose one (ADR 0173): the test
// server runs in this process, so the zone in effect is this process's.
export const SERVER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

export const NO_SHOP_ZONE = { timeZone: null, timeZoneVersion: '0', timeZoneInEffect: SERVER_ZONE, timeZoneSource: 'server' } as const;
