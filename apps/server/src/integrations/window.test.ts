// The {from}/{to} window of a run is made of days of the integration's time zone: the nightly run
// at 00:00 Europe/Berlin (23:00 UTC the evening before, 22:00 in summer) asks for Berlin's new day,
// not UTC's old one, and the days back count calendar days across a change of clocks.
import { describe, expect, it } from 'vitest';
import { runWindow } from './run.ts';

const berlin = { data_fetch_type: 'latest', previous_days: null, initial_setup: false, initial_setup_done: false, last_success_time: null, time_zone: 'Europe/Berlin' } as const;

describe('run window', () => {
  it("is Berlin's day on either side of Berlin's midnight, in winter and in summer", () => {
    expect(runWindow(berlin, new Date('2026-12-03T22:59:00Z'))).toEqual({ from: '2026-12-03', to: '2026-12-03' });
    expect(runWindow(berlin, new Date('2026-12-03T23:00:00Z'))).toEqual({ from: '2026-12-04', to: '2026-12-04' });
    expect(runWindow(berlin, new Date('2026-07-14T21:59:00Z'))).toEqual({ from: '2026-07-14', to: '2026-07-14' });
    expect(runWindow(berlin, new Date('2026-07-14T22:00:00Z'))).toEqual({ from: '2026-07-15', to: '2026-07-15' });
    // The same instant in UTC is still the 3rd.
    expect(runWindow({ ...berlin, time_zone: 'UTC' }, new Date('2026-12-03T23:00:00Z'))).toEqual({ from: '2026-12-03', to: '2026-12-03' });
  });

  it("starts latest on the Berlin day of the last success: the run just after Berlin's midnight", () => {
    // Succeeded at 00:00 Berlin on 3 Dec (23:00 UTC on the 2nd); runs again at 00:00 Berlin on 4 Dec.
    const latest = { ...berlin, last_success_time: new Date('2026-12-02T23:00:00Z') };
    expect(runWindow(latest, new Date('2026-12-03T23:00:00Z'))).toEqual({ from: '2026-12-03', to: '2026-12-04' });
  });

  it('counts previous_days in calendar days across the end of summer time', () => {
    // Clocks went back on 25 Oct 2026: 7 days back from 00:30 Berlin on 28 Oct is the 21st, not a day off.
    expect(runWindow({ ...berlin, data_fetch_type: 'historical', previous_days: 7 }, new Date('2026-10-27T23:30:00Z'))).toEqual({ from: '2026-10-21', to: '2026-10-28' });
    expect(runWindow({ ...berlin, initial_setup: true, previous_days: 1 }, new Date('2026-12-31T23:15:00Z'))).toEqual({ from: '2026-12-31', to: '2027-01-01' });
  });
});
